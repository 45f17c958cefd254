"""A pushed game checked: its fields, then every action replayed through the game's engine.

Nothing a table sends is trusted: the scores, winners and teams kept are the engine's, and a
game whose log the rules refuse is refused whole.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import engines
from club import reviews
from engines.core import CHANCE, EngineError

STATUSES = ("playing", "over", "abandoned")
MAX_PLAYERS = 12
MAX_NAME = 40
MAX_HISTORY = 20_000
MAX_OPTIONS = 20
SEED_LIMIT = 2**63  # PostgreSQL's BIGINT


class RefusedGame(ValueError):
    """A pushed game that is malformed or not legal; the message says what is wrong."""


@dataclass(frozen=True)
class CheckedGame:
    local_id: int
    revision: int
    game: str
    players: tuple[str, ...]
    options: dict[str, Any]
    seed: int
    mode: str
    status: str
    history: tuple[str, ...]
    teams: tuple[int | None, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    actor: str  # who is to act in a game being played ("" when over)
    started: float
    ended: float | None
    updated: float
    review: dict[str, Any] | None = None  # the table's review of the finished game


def check(payload: Any) -> CheckedGame:
    """The game `payload` describes, replayed; RefusedGame names the first problem found."""
    if not isinstance(payload, dict):
        raise RefusedGame("a pushed game is a JSON object")
    local_id = _whole(payload, "game_id", 1, 2**62)
    revision = _whole(payload, "revision", 1, 2**31 - 1)
    players = _players(payload.get("players"))
    status = payload.get("status")
    if status not in STATUSES:
        raise RefusedGame(f"status must be one of {', '.join(STATUSES)}")
    history = payload.get("history")
    if not isinstance(history, list) or len(history) > MAX_HISTORY:
        raise RefusedGame(f"history must be a list of at most {MAX_HISTORY} actions")
    if not all(isinstance(a, str) for a in history):
        raise RefusedGame("every action of the history must be text")
    options = payload.get("options", {})
    if not isinstance(options, dict) or len(options) > MAX_OPTIONS:
        raise RefusedGame(f"options must be a JSON object of at most {MAX_OPTIONS} options")
    started = _stamp(payload, "started")
    updated = _stamp(payload, "updated")
    ended = None if payload.get("ended") is None else _stamp(payload, "ended")
    state = _replay(payload, players, options, history)
    if status == "over" and not state.is_over:
        raise RefusedGame("the game is said to be over but its log does not end it")
    if state.is_over and status == "playing":
        status = "over"  # the table stopped between the last action and writing the result
    if status == "over" and ended is None:
        ended = updated
    game = state.game
    review = _review(payload, game.name, history, len(game.players), status)
    return CheckedGame(
        local_id=local_id,
        revision=revision,
        game=game.name,
        players=game.players,
        options=dict(game.option_values),
        seed=game.seed,
        mode=game.mode,
        status=status,
        history=tuple(history),
        teams=tuple(_team(game, seat) for seat in range(len(game.players))),
        scores=tuple(int(s) for s in state.scores()),
        winners=tuple(state.winners()),
        actor=_actor(state),
        started=started,
        ended=ended if status == "over" else None,
        updated=updated,
        review=review,
    )


def _review(payload: dict, game: str, history: list[str], seats: int, status: str):
    if status != "over" and payload.get("review") is not None:
        raise RefusedGame("only a finished game has a review")
    try:
        return reviews.checked(payload.get("review"), game, history, seats)
    except reviews.BadReview as error:
        raise RefusedGame(str(error)) from None


def _replay(payload: dict, players: list[str], options: dict, history: list[str]):
    name, seed, mode = payload.get("game"), payload.get("seed"), payload.get("mode")
    if not isinstance(name, str) or not isinstance(mode, str):
        raise RefusedGame("game and mode must be text")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise RefusedGame("seed must be a whole number from 0 to 2^63 - 1")
    try:
        state = engines.make_game(name, players, options, seed, mode).new_state()
    except EngineError as error:
        raise RefusedGame(f"set-up refused: {error}") from None
    for number, notation in enumerate(history, start=1):
        try:
            state.apply(notation, undoable=False)  # checked once, never taken back
        except EngineError as error:
            raise RefusedGame(
                f"action {number} ({notation[:60]!r}) is not legal: {error}"
            ) from None
    return state


def _players(value: Any) -> list[str]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_PLAYERS:
        raise RefusedGame(f"players must be a list of 1 to {MAX_PLAYERS} names")
    names = []
    for name in value:
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise RefusedGame(f"a player's name is text of 1 to {MAX_NAME} characters")
        names.append(" ".join(name.split()))
    return names


def _whole(payload: dict, key: str, low: int, high: int) -> int:
    value = payload.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RefusedGame(f"{key} must be a whole number from {low} to {high}")
    return value


def _stamp(payload: dict, key: str) -> float:
    value = payload.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RefusedGame(f"{key} must be a time in seconds since 1970")
    if not 0 <= value < 2**33:
        raise RefusedGame(f"{key} is out of range")
    return float(value)


def _team(game: Any, seat: int) -> int | None:
    team_of = getattr(game, "team_of", None)
    return None if team_of is None else int(team_of(seat))


def _actor(state: Any) -> str:
    actor = state.actor
    if actor is None:
        return ""
    return CHANCE if actor == CHANCE else state.players[actor]
