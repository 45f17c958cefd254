"""How a bot chooses, as a function of an engine state: its levels (`LEVELS`: the simple bot,
or the advisor at a time budget), the simple bot's choosers per game (random, or a one-look
greedy choice in the dice games), and `make_player(level, seed)`, the choice of a seat at a
level. Bot seats, the demo's bot (companion/bots.py), the simulated person and the bench all
choose through it; it knows nothing of the controller or the screen.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import advisor
import engines
from display.model import Target


def rng_for(seed: int, state: engines.State) -> random.Random:
    return random.Random(f"bot:{seed}:{len(state.history)}")


# level -> the advisor's time budget in ms (None: the simple bot)
LEVELS: dict[str, float | None] = {"simple": None, "advisor-fast": 30.0, "advisor": 150.0}
Player = Callable[[engines.State], str]  # the notation a seat chooses for the acting player


def make_player(level: str, seed: int = 0) -> Player:
    """The choice of a seat at `level`, as a function of the engine state."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")
    budget = LEVELS[level]
    if budget is None:
        return lambda state: simple_choice(state, seed)
    return lambda state: advisor.best_action(state, budget)


def simple_choice(state: engines.State, seed: int, rethrow_chance: float = 0.2) -> str:
    """The simple bot's choice, made on the engine state instead of the screen."""
    rng = rng_for(seed, state)
    legal = state.legal_actions()
    if state.view(None).get("throws") == 1 and any(a.notation.startswith("rethrow") for a in legal):
        if rng.random() < rethrow_chance:
            hand = state.view(None)["hand"]
            chosen = sorted(rng.sample(range(len(hand)), rng.randint(1, min(2, len(hand)))))
            return "rethrow " + " ".join(hand[i] for i in chosen)
    targets = [Target(f"move:{a.notation}", a.notation) for a in legal if not
               a.notation.startswith("rethrow")]  # fmt: skip
    chooser = CHOOSERS.get(state.game.name, choose_random)
    return chooser(state, targets, rng).id.removeprefix("move:")


Chooser = Callable[[engines.State, list[Target], random.Random], Target]


def choose_random(state: engines.State, targets: list[Target], rng: random.Random) -> Target:
    return rng.choice(targets)


def choose_by(score: Callable[[engines.State, int], float]) -> Chooser:
    """Pick the move whose resulting position scores best for the mover (ties: at random)."""

    def choose(state: engines.State, targets: list[Target], rng: random.Random) -> Target:
        mover = state.actor
        assert isinstance(mover, int)
        scored = []
        for target in targets:
            after = state.clone()
            after.apply(target.id.removeprefix("move:"), validate=False)
            scored.append((score(after, mover), rng.random(), target))
        return max(scored, key=lambda item: (item[0], item[1]))[2]

    return choose


def traverse_progress(state: engines.State, mover: int) -> float:
    view = state.view(None)
    own, other = (view["red"], view["white"]) if mover == 0 else (view["white"], view["red"])
    return 3 * sum(own) - 2 * sum(other) + 20 * view["home"][mover]


def struggle_progress(state: engines.State, mover: int) -> float:
    view = state.view(None)
    return float(sum(view["squares"].values()) + 40 * len(view["boxes"]))


def choose_roudalon(state: engines.State, targets: list[Target], rng: random.Random) -> Target:
    """Throw when the pot is near what the dice held usually show, else stake a little."""
    pot = state.view(None)["pot"]
    by_notation = {t.id.removeprefix("move:"): t for t in targets}
    throws = [n for n in by_notation if n.startswith("throw ")]
    for notation in sorted(throws, key=lambda n: abs(pot - 3.5 * int(n.split()[1]))):
        if abs(pot - 3.5 * int(notation.split()[1])) <= 2.5:
            return by_notation[notation]
    stakes = [n for n in by_notation if n.startswith("stake ")]
    if stakes:
        return by_notation[min(stakes, key=lambda n: int(n.split()[1]) + rng.random())]
    return rng.choice(targets)


CHOOSERS: dict[str, Chooser] = {
    "roudalon": choose_roudalon,
    "traverse": choose_by(traverse_progress),
    "struggle": choose_by(struggle_progress),
}
