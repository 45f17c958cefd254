"""What every game's advisor shares: ranked choices with a figure and a coded reason, a time
budget, a seed taken from the player's view, and determinised Monte-Carlo search.

An advisor sees a position only as the acting player may: everything it draws at random (the
hidden cards it imagines, the playouts) comes from a generator seeded by that player's view, so
two positions that look the same to the player get the same advice.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.core import CHANCE, Action, State

DEFAULT_BUDGET_MS = 150.0

# Reason codes and their English default text; the message catalogue translates them.
REASONS: dict[str, str] = {
    "struggle.keep": "keep {kept}: {pawn} ends in box {box} with a chance of {chance} "
    "(expected {expected} points from your objective)",
    "struggle.play": "play the hand: {pawn} ends in box {box} with a chance of {chance} "
    "(expected {expected} points from your objective)",
    "struggle.keep_first": "keep {kept}: {pawn} arrives before the other pawns racing with a "
    "chance of {chance} (no objective card entered)",
    "struggle.play_first": "play the hand: {pawn} arrives before the other pawns racing with a "
    "chance of {chance} (no objective card entered)",
    "struggle.play_none": "play the hand: it moves no pawn",
    "struggle.keep_points": "keep {kept}: no pawn kept (expected {expected} points from your "
    "objective)",
    "struggle.play_points": "play the hand: it moves no pawn (expected {expected} points from "
    "your objective)",
    "struggle.keep_any": "keep {kept}: the best pawn of the new dice arrives before the others "
    "with a chance of {chance} (no objective card entered)",
    "struggle.stop": "stop throwing: the hand is worth {expected} points",
    "traverse.play": "{hits} hit(s), {exposed} pawn(s) left exposed, progress {progress:+d}",
    "traverse.home": "enters {home} pawn(s) into the arrival box",
    "roudalon.throw": "{dice} dice: {ways} chance(s) in {outcomes} to make the pot of {pot}",
    "roudalon.stake": "stake {amount}: the pot grows to {pot}, a die comes back",
    "roudalon.offer": "an alliance: together the dice can make {pot}",
    "roudalon.answer": "answer {answer} to the alliance",
    "roudalon.close": "close the alliance and throw: the allies' dice can make {pot}",
    "search.value": "won {wins} of {playouts} imagined games",
    "sequence.line": "builds a line of {chips} chips",
    "sequence.block": "blocks an opponent's line of {chips} chips",
    "sequence.sequence": "completes a sequence",
    "sequence.dead": "a dead card: discard it for a new one",
    "strategix.shed": "lays {cards} card(s), leaves {stars} star(s)",
    "strategix.pass": "pass and keep the strong cards",
    "only": "the only legal action",
}


@dataclass(frozen=True)
class Reason:
    """Why a choice is good, as data: a code of REASONS and the values its text needs."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        """The English default text (the display translates the code instead)."""
        return REASONS[self.code].format(**self.params)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


@dataclass(frozen=True)
class Choice:
    """One legal action with its figure: `kind` says what the number is.

    Kinds: "points" (expected score), "chance" (a probability 0..1), "win" (estimated chance
    to win the game, 0..1), "value" (a relative evaluation, higher is better).
    """

    notation: str
    figure: float
    kind: str
    reason: Reason

    def to_dict(self) -> dict[str, Any]:
        return {
            "notation": self.notation,
            "figure": round(self.figure, 4),
            "kind": self.kind,
            "reason": self.reason.to_dict(),
        }


class Deadline:
    """A time budget measured from its creation, or a fixed number of search iterations.

    A fixed count makes a search repeatable (tests, comparisons); time makes it fit the table.
    """

    def __init__(self, budget_ms: float, iterations: int | None = None) -> None:
        self.budget = budget_ms / 1000.0
        self.start = time.perf_counter()
        self.iterations_left = iterations

    def expired(self) -> bool:
        if self.iterations_left is not None:
            self.iterations_left -= 1
            return self.iterations_left < 0
        return time.perf_counter() - self.start >= self.budget

    def out_of_time(self, share: float = 1.0) -> bool:
        """Whether `share` of the time is used up (never, for a fixed number of iterations):
        for exact computations that cut their look-ahead short rather than count iterations."""
        if self.iterations_left is not None:
            return False
        return time.perf_counter() - self.start >= share * self.budget

    def fraction_used(self) -> float:
        return (time.perf_counter() - self.start) / self.budget if self.budget else 1.0


def view_rng(state: State, player: int, salt: str = "") -> random.Random:
    """A generator seeded only by what `player` sees (never by the game's seed or secrets)."""
    text = json.dumps(state.view(player), sort_keys=True, default=str) + salt
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def ranked(choices: Sequence[Choice]) -> list[Choice]:
    """Best first; ties keep the engine's listing order."""
    return sorted(choices, key=lambda choice: -choice.figure)


def only_choice(action: Action, kind: str = "value", figure: float = 1.0) -> list[Choice]:
    return [Choice(action.notation, figure, kind, Reason("only"))]


def play_chance(state: State, rng: random.Random) -> None:
    """Resolve chance until a player is to act or the game ends, drawing from `rng`."""
    while state.actor == CHANCE:
        state.apply(state.sample_chance(rng), validate=False)


def deal_unseen(hands: Sequence[Any], player: int, unseen: list) -> tuple[list[list], list]:
    """The other seats' hands dealt anew from `unseen` (shuffled), each keeping its size; the
    player's own hand stays. Returns the hands (as lists) and the cards left over."""
    dealt: list[list] = []
    for seat, hand in enumerate(hands):
        if seat == player:
            dealt.append(list(hand))
        else:
            dealt.append(unseen[: len(hand)])
            unseen = unseen[len(hand) :]
    return dealt, unseen


# ----- determinised Monte-Carlo search ----------------------------------------------------------

Determiniser = Callable[[State, int, random.Random], State]
Policy = Callable[[State, random.Random], Action]
Evaluate = Callable[[State, int], float]  # a position's worth to a player, 0 (lost) .. 1 (won)


@dataclass
class SearchResult:
    action: Action
    prior: float
    visits: int = 0
    total: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else self.prior


def determinised_search(
    state: State,
    player: int,
    candidates: Sequence[tuple[Action, float]],
    determinise: Determiniser,
    policy: Policy,
    evaluate: Evaluate,
    deadline: Deadline,
    rng: random.Random,
    depth: int = 12,
) -> list[SearchResult]:
    """Flat determinised Monte-Carlo search with UCB1 at the root.

    Each iteration imagines the hidden information anew (a deal consistent with the player's
    view), plays one candidate, lets `policy` play `depth` more actions for every seat and
    scores the end with `evaluate`. `candidates` carry a prior in 0..1 that counts as one visit,
    so a short budget falls back on the prior's order.
    """
    results = [SearchResult(action, prior, 1, prior) for action, prior in candidates]
    if len(results) < 2:
        return results
    iterations = 0
    while not deadline.expired():
        iterations += 1
        log_n = math.log(iterations + len(results))
        chosen = max(results, key=lambda r: r.mean + 0.7 * math.sqrt(log_n / r.visits))
        world = determinise(state, player, rng)
        world.apply(chosen.action, validate=False)
        chosen.total += rollout(world, player, policy, evaluate, rng, depth)
        chosen.visits += 1
    return results


def rollout(world: State, player: int, policy: Policy, evaluate: Evaluate,
            rng: random.Random, depth: int) -> float:  # fmt: skip
    for _ in range(depth):
        play_chance(world, rng)
        if world.is_over:
            break
        world.apply(policy(world, rng), validate=False)
    play_chance(world, rng)
    return evaluate(world, player)


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))
