"""A pushed game's review, checked like every push field before it is kept.

The table computes a finished game's review (companion.review_worker: the advisor's grades,
from what each player knew) and pushes it with the game; the club never runs the advisor (its
import contract), it checks and shows. The review is optional; when given it must be a JSON
object of bounded size whose every decision names an action of the game's own log (same index,
same notation), a seat of the game, chances from 0 to 1 and a known grade; every seat's chance
over the game is given at rising positions of its log, one chance from 0 to 1 per seat.
Anything else refuses the push with one line saying what is wrong.
"""

from __future__ import annotations

import math
from typing import Any

GRADES = ("best", "good", "inaccuracy", "mistake", "blunder")
MAX_DECISIONS = 5_000
DECISION_KEYS = {"index", "player", "played", "best", "chance_best", "chance_played", "grade"}
REVIEW_KEYS = {"version", "game", "players", "actions", "decisions", "chances", "graded",
               "accuracy"}  # fmt: skip


class BadReview(ValueError):
    """The review pushed with a game is not one; the message says what is wrong."""


def checked(review: Any, game: str, history: list[str], seats: int) -> dict[str, Any] | None:
    """The review as kept (None when none was pushed); BadReview names the first problem."""
    if review is None:
        return None
    if not isinstance(review, dict) or set(review) - REVIEW_KEYS:
        raise BadReview(f"review must be an object with only the keys {sorted(REVIEW_KEYS)}")
    if review.get("game", game) != game:
        raise BadReview("review is of another game")
    decisions = review.get("decisions")
    if not isinstance(decisions, list) or len(decisions) > min(len(history), MAX_DECISIONS):
        raise BadReview("review decisions must be a list, at most one per action of the log")
    kept = [_decision(d, history, seats) for d in decisions]
    return {
        "decisions": kept,
        "chances": _chances(review.get("chances"), len(history), seats),
        "graded": _graded(review.get("graded"), seats),
        "accuracy": _accuracy(review.get("accuracy"), seats),
    }


def _decision(decision: Any, history: list[str], seats: int) -> dict[str, Any]:
    if not isinstance(decision, dict) or set(decision) != DECISION_KEYS:
        raise BadReview(f"a review decision has exactly the keys {sorted(DECISION_KEYS)}")
    index, player = decision["index"], decision["player"]
    if not _whole(index, len(history)) or decision["played"] != history[index]:
        raise BadReview("a review decision names no action of the game's log")
    if not _whole(player, seats):
        raise BadReview("a review decision names no seat of the game")
    best = decision["best"]
    if not isinstance(best, str) or not 0 < len(best) <= 2000:
        raise BadReview("a review decision's better move is text of 1 to 2000 characters")
    chances = decision["chance_best"], decision["chance_played"]
    if not all(_chance(c) for c in chances):
        raise BadReview("a review decision's chances are numbers from 0 to 1")
    if decision["grade"] not in GRADES:
        raise BadReview(f"a review decision's grade is one of {', '.join(GRADES)}")
    return dict(decision)


def _chances(chances: Any, actions: int, seats: int) -> list[list[Any]]:
    """Every seat's chance at positions of the game: [action index, [a chance per seat]], the
    indexes rising within the log (its end included). A review of an older table has none."""
    if chances is None:
        return []
    if not isinstance(chances, list) or len(chances) > actions + 1:
        raise BadReview("review chances must be a list, at most one per position of the game")
    last = -1
    for point in chances:
        if not (isinstance(point, list) and len(point) == 2 and _whole(point[0], actions + 1)
                and point[0] > last and isinstance(point[1], list) and len(point[1]) == seats
                and all(_chance(c) for c in point[1])):  # fmt: skip
            raise BadReview("a review chance is [position, one chance from 0 to 1 per seat], "
                            "the positions rising within the game")  # fmt: skip
        last = point[0]
    return [[index, list(found)] for index, found in chances]


def _graded(graded: Any, seats: int) -> list[int] | None:
    if graded is None:
        return None
    if not isinstance(graded, list) or len(graded) != seats:
        raise BadReview("review graded is a list of one count per seat")
    if not all(_whole(count, MAX_DECISIONS + 1) for count in graded):
        raise BadReview(f"review graded counts are whole numbers from 0 to {MAX_DECISIONS}")
    return list(graded)


def _accuracy(accuracy: Any, seats: int) -> list[float | None]:
    if accuracy is None:
        return [None] * seats
    if not isinstance(accuracy, list) or len(accuracy) != seats:
        raise BadReview("review accuracy is a list of one figure (or null) per seat")
    if not all(a is None or _chance(a) for a in accuracy):
        raise BadReview("review accuracy figures are from 0 to 1")
    return list(accuracy)


def _whole(value: Any, limit: int) -> bool:
    return type(value) is int and 0 <= value < limit


def _chance(value: Any) -> bool:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return number and math.isfinite(value) and 0.0 <= value <= 1.0
