"""A game's replay and review on its page: the board after any action, drawn on the server by
the kiosk's own board drawing (display.boards) into a PNG, and the review the table pushed,
shaped for the page (each player's chance over the game, grades, the moments that decided it).

The board is the position everyone could see (`view(None)`: no hidden hand or objective).
Drawing shares pygame's font state, so one picture is drawn at a time (a lock); pictures are
kept in a small cache, the same position being asked again as people step back and forth.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import engines
from display.i18n import say
from engines.core import EngineError

BOARD_SIZE = (800, 480)
GRADES = ("best", "good", "inaccuracy", "mistake", "blunder")
MOMENTS = 3
LOST_CHANCE = ("inaccuracy", "mistake", "blunder")
LEAST_GIVEN = 0.005  # a moment gave away at least half a point of chance (shown as 1 % or more)
CACHED = 256  # pictures kept
_drawing = threading.Lock()
_pictures: OrderedDict[tuple, bytes | None] = OrderedDict()


def position(record: Any, move: int) -> engines.State | None:
    """The game after its first `move` actions (None when its set-up cannot be replayed)."""
    names = [name for name, _ in record.players]
    try:
        state = engines.make_game(record.game, names, record.options, record.seed,
                                  record.mode).new_state()  # fmt: skip
        for notation in record.history[:move]:
            state.apply(notation)
    except EngineError:
        return None
    return state


def board_png(record: Any, move: int, language: str) -> bytes | None:
    """The board after `move` actions as a PNG; None when the game cannot be replayed."""
    move = max(0, min(move, len(record.history)))
    key = (record.game, tuple(n for n, _ in record.players), repr(sorted(record.options.items())),
           record.seed, record.mode, tuple(record.history[:move]), language)  # fmt: skip
    with _drawing:
        if key in _pictures:
            _pictures.move_to_end(key)
            return _pictures[key]
        state = position(record, move)
        picture = None if state is None else _draw(state, record.game, language)
        _pictures[key] = picture
        if len(_pictures) > CACHED:
            _pictures.popitem(last=False)
    return picture


def _draw(state: engines.State, game: str, language: str) -> bytes:
    import pygame

    from display import boards
    from display.model import Screen

    scores = [(n, str(s)) for n, s in zip(state.players, state.scores(), strict=True)]
    screen = Screen("table", "", language=language, game=game, board=state.view(None),
                    scores=scores)  # fmt: skip
    renderer = _renderer()
    renderer.surface.fill((24, 26, 32))
    boards.draw(renderer, screen, (0, 0, *BOARD_SIZE))
    out = io.BytesIO()
    pygame.image.save(renderer.surface, out, "png")
    return out.getvalue()


@lru_cache(maxsize=1)
def _renderer() -> Any:
    from display.render import Renderer

    return Renderer(BOARD_SIZE)


# ----- the review, as the page shows it ------------------------------------------------------


@dataclass(frozen=True)
class Moment:
    move: int  # the action's number (1 = the first action of the log)
    grade: str
    given_away: int  # percentage points of chance given away
    played: str  # in words
    better: str


@dataclass(frozen=True)
class PlayerReview:
    name: str
    accuracy: float | None
    counts: dict[str, int]
    moments: list[Moment]


def chances(review: dict[str, Any], names: list[str]) -> dict[str, list[tuple[float, float]]]:
    """Each player's chance (in %) over the whole game, (action index, chance) at every position
    the table's review gives: the first, each where a player acts, and the end (the result),
    each seat's from its own view (companion.review_worker). A review of an older table has no
    such chances: no chart."""
    series: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    for index, found in review.get("chances") or []:
        for name, chance in zip(names, found, strict=False):
            series[name].append((index, 100 * chance))
    return series if any(series.values()) else {}


def players(review: dict[str, Any], record: Any, language: str) -> list[PlayerReview]:
    names = [name for name, _ in record.players]
    states = _states_before(record, {d["index"] for d in review.get("decisions", [])})
    accuracy = review.get("accuracy") or [None] * len(names)
    found = []
    for seat, name in enumerate(names):
        mine = [d for d in review.get("decisions", []) if d["player"] == seat]
        counts = {grade: sum(d["grade"] == grade for d in mine) for grade in GRADES}
        worst = sorted((d for d in mine if _lost_chance(d)), key=_given, reverse=True)[:MOMENTS]
        moments = [_moment(d, states.get(d["index"]), language)
                   for d in sorted(worst, key=lambda d: d["index"])]  # fmt: skip
        found.append(PlayerReview(name, accuracy[seat], counts, moments))
    return found


def _lost_chance(decision: dict[str, Any]) -> bool:
    """A moment that decided the game: an inaccuracy or worse that gave chance away (a good
    move is not one), as on the table (companion.review_worker.moments)."""
    return decision["grade"] in LOST_CHANCE and _given(decision) >= LEAST_GIVEN


def _given(decision: dict[str, Any]) -> float:
    return decision["chance_best"] - decision["chance_played"]


def _moment(decision: dict[str, Any], state: engines.State | None, language: str) -> Moment:
    return Moment(
        move=decision["index"] + 1,
        grade=decision["grade"],
        given_away=round(100 * _given(decision)),
        played=_words(state, decision["played"], language),
        better=_words(state, decision["best"], language),
    )


def _words(state: engines.State | None, notation: str, language: str) -> str:
    if state is None:
        return notation
    try:
        return say(language, state.parse(notation))  # its message, or its notation
    except EngineError:
        return notation


def _states_before(record: Any, indexes: set[int]) -> dict[int, engines.State]:
    state = position(record, 0)
    found: dict[int, engines.State] = {}
    if state is None:
        return found
    for index, notation in enumerate(record.history):
        if index in indexes:
            found[index] = state.clone()
        try:
            state.apply(notation)
        except EngineError:
            break
    return found
