"""The bot games the review's chances are fitted and measured on (`tabletop bench review`)."""

from __future__ import annotations

import random

PLAYERS = {"struggle": 2, "traverse": 2, "strategix": 2, "sequence": 2, "roudalon": 4}
FIT_SEED_BASE = 10**9  # the fit's games have seeds from here up; the bench's stay below
Position = tuple[int, list[list[float]], list[float]]  # log index, each seat's features, shares
# A bot game still on after this many actions never ends: two Sequence partners were seen
# changing dead cards for ever on a full board (seed 119574375, index 537 of the bench's seed 1).
# The longest games that end are far shorter (a Traverse race, a few thousand actions).
MAX_ACTIONS = 20_000


class Unended(RuntimeError):
    """A bot game that did not end within MAX_ACTIONS: it has no result to measure against."""


def bot_game(name: str, seed: int) -> tuple[list[str], list[Position]]:
    """A game between sparring partners (each seat's drawn by the seed): its action log, and at
    every position where a player acts, each seat's features from its own view and each seat's
    share of the win."""
    import engines
    from advisor.sparring import PLAYERS as PARTNERS
    from engines.core import CHANCE
    from review.features import features_of

    count = PLAYERS[name]
    state = engines.make_game(name, [f"P{i}" for i in range(count)], seed=seed).new_state()
    rng = random.Random(seed)
    seats = [rng.choice(sorted(PARTNERS[name])) for _ in range(count)]
    found: list[tuple[int, list[list[float]]]] = []
    while not state.is_over:
        if len(state.history) >= MAX_ACTIONS:
            raise Unended(f"{name} seed {seed}: no end after {MAX_ACTIONS} actions")
        if state.actor == CHANCE:
            action = state.sample_chance(rng)
        else:
            found.append((len(state.history), [features_of(state, s) for s in range(count)]))
            action = PARTNERS[name][seats[state.actor]](state, rng)
        state.apply(action)
    winners = state.winners()
    shares = [1 / len(winners) if seat in winners else 0.0 for seat in range(count)]
    log = [action.notation for action in state.history]
    return log, [(index, rows, shares) for index, rows in found]
