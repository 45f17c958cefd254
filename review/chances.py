"""Each seat's chance to win at a position, from what that seat knew (review.features reads only
its view), calibrated on bot games.

Per game, a logistic model over the seat's features gives a raw chance, and a step map fitted
on other games (isotonic: the share of wins at each raw chance, made non-decreasing) turns it
into the chance reported. Both are in review/chances.json, written by `tabletop bench review
--fit` (bench/review_fit.py says on which games); `tabletop bench review` measures them on games
of seeds the fit never saw.
"""

from __future__ import annotations

import bisect
import json
import math
from functools import cache
from pathlib import Path
from typing import Any

from engines.core import State
from review.features import features_of

MODEL_PATH = Path(__file__).with_name("chances.json")


@cache
def _models() -> dict[str, Any]:
    if not MODEL_PATH.exists():
        return {}
    return json.loads(MODEL_PATH.read_text(encoding="utf-8"))


def raw_chance(weights: list[float], features: list[float]) -> float:
    score = sum(w * x for w, x in zip(weights, features, strict=True))
    score = max(-30.0, min(30.0, score))
    return 1.0 / (1.0 + math.exp(-score))


def mapped(step_map: dict[str, list[float]], raw: float) -> float:
    """The step of `step_map` (first raw chance of each step, its chance) that `raw` falls in."""
    step = bisect.bisect_right(step_map["raws"], raw) - 1
    return step_map["chances"][max(0, step)]


def win_chance(state: State, seat: int) -> float:
    """The seat's chance to win (a shared first place counting its share), from its view."""
    if state.is_over:
        return result_share(state, seat)
    return chance_of_features(state.game.name, features_of(state, seat), len(state.players))


def result_share(state: State, seat: int) -> float:
    """A finished game's result for the seat: 1 for a sole winner, 1/k for a first place shared
    by k sides, 0 for the others. A side is a team where the game has teams (Sequence): each
    seat of the winning team has won, not a share of it."""
    side = getattr(state.game, "team_of", lambda player: player)
    winning = {side(winner) for winner in state.winners()}
    return 1.0 / len(winning) if side(seat) in winning else 0.0


def chance_of_features(game: str, features: list[float], players: int = 2) -> float:
    """The calibrated chance of a seat with these features (the fair share before a fit)."""
    model = _models().get(game)
    if model is None:
        return 1.0 / players
    raw = raw_chance(model["weights"], features)
    return mapped(model["map"], raw) if model.get("map") else raw


def win_chances(state: State) -> tuple[float, ...]:
    """Every seat's chance, each from its own view."""
    return tuple(win_chance(state, seat) for seat in range(len(state.players)))
