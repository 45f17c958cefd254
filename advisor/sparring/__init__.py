"""Sparring partners: careful heuristic players written from each game's rules, for measuring
the advisor against more than the demo's bots (`tabletop bench advisor --opponent heuristic`).

`PLAYERS[game][name]` is a policy `(state, rng) -> Action` for the player to act (full mode).
`HELD_OUT[game]` names the one the advisor is never tuned against: its figures are reported
apart, as the honest measure of what the tuning carried over.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from advisor.sparring import dice_games, sequence, strategix
from engines.core import Action, State

Policy = Callable[[State, random.Random], Action]

PLAYERS: dict[str, dict[str, Policy]] = {
    "strategix": {
        "careful": strategix.careful,
        "shedder": strategix.shedder,
        "tempo": strategix.tempo,
    },
    "sequence": {
        "liner": sequence.liner,
        "cluster": sequence.cluster,
        "blocker": sequence.blocker,
    },
    "traverse": {"runner": dice_games.traverse_runner},
    "struggle": {"objective": dice_games.struggle_objective},
    "roudalon": {"odds": dice_games.roudalon_odds},
}
# The dice games have one partner each and their advisors are not tuned here: held out too.
HELD_OUT: dict[str, str] = {
    "strategix": "tempo",
    "sequence": "blocker",
    "traverse": "runner",
    "struggle": "objective",
    "roudalon": "odds",
}


def is_held_out(game: str, name: str) -> bool:
    return HELD_OUT.get(game) == name
