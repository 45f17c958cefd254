"""A finished game's review, computed beside the kiosk and kept with the game in the store.

Reviewing a whole game takes seconds (tens on a Pi 4): on the kiosk's loop it would freeze the
table, and on a thread it would still share the interpreter's lock with the loop that draws. So
`ReviewWorker` runs one review at a time in a process of its own, at a lower priority; the loop
polls it (`finished`) and stores what is ready. The review is plain JSON (`review_data`): the
same object is pushed to the club with the game (club/reviews.py checks it).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Sequence
from multiprocessing.pool import AsyncResult, Pool
from typing import Any

from companion.persistence.store import GameRecord

REVIEW_VERSION = 2  # 2: every seat's chance at every position, graded decisions per seat
MOMENTS = 3  # the decisions that decided the game, per player
LEAST_GIVEN = 0.005  # a moment gave away at least half a point of chance (shown as 1 % or more)


def review_data(game: str, players: Sequence[str], actions: int, review: Any) -> dict[str, Any]:
    """A `review.GameReview` as the JSON object kept and pushed: its graded decisions, every
    seat's chance at every position (action index, chances), and per seat how many decisions
    were graded and the accuracy (None from too few, review.grades.MIN_GRADED)."""
    decisions = [
        {
            "index": d.index,
            "player": d.player,
            "played": d.played,
            "best": d.best,
            "chance_best": round(d.chance_best, 4),
            "chance_played": round(d.chance_played, 4),
            "grade": d.grade,
        }  # fmt: skip
        for d in review.decisions
        if d.grade is not None
    ]
    seats = range(len(players))
    accuracy = [review.accuracy(seat) for seat in seats]
    return {
        "version": REVIEW_VERSION,
        "game": game,
        "players": list(players),
        "actions": actions,
        "decisions": decisions,
        "chances": [[index, [round(c, 4) for c in found]] for index, found in review.chances],
        "graded": [len(review.graded(seat)) for seat in seats],
        "accuracy": [None if a is None else round(a, 4) for a in accuracy],
    }


def compute(record: GameRecord, notations: list[str]) -> dict[str, Any]:
    """Review a finished game (run in the worker process)."""
    from review import review_game

    found = review_game(record.game, record.players, notations, record.options, record.seed,
                        record.mode)  # fmt: skip
    return review_data(record.game, record.players, len(notations), found)


def moments(review: dict[str, Any], player: int, count: int = MOMENTS) -> list[dict[str, Any]]:
    """The decisions of `player` that lost the most chance (graded below good), in the game's
    order: a good move is not a moment that decided the game."""
    lost = [
        d
        for d in review.get("decisions", [])
        if d["player"] == player
        and d["chance_best"] - d["chance_played"] >= LEAST_GIVEN
        and d["grade"] not in ("best", "good")
    ]
    lost.sort(key=lambda d: d["chance_best"] - d["chance_played"], reverse=True)
    return sorted(lost[:count], key=lambda d: d["index"])


def chance_series(review: dict[str, Any], seats: int) -> list[list[tuple[int, float]]]:
    """Each seat's chance to win over the whole game, (action index, chance) at every position
    the review gives: the first, each where a player acts, and the end (the result). Each seat's
    chance is from its own view (review.chances), so the seats' chances need not sum to 1."""
    points: list[list[tuple[int, float]]] = [[] for _ in range(seats)]
    for index, found in review.get("chances", []):
        for seat, chance in enumerate(found[:seats]):
            points[seat].append((index, chance))
    return points


def _lower_priority() -> None:
    try:
        os.nice(10)
    except OSError:  # not allowed here: the same priority as the kiosk
        pass


class ReviewWorker:
    """One review at a time in a worker process; results kept by game id until taken."""

    def __init__(self) -> None:
        self._pool: Pool | None = None
        self._jobs: dict[int, AsyncResult] = {}

    def ask(self, record: GameRecord, notations: list[str]) -> None:
        if record.id in self._jobs:
            return
        if self._pool is None:  # the process starts with the first finished game
            context = multiprocessing.get_context("spawn")  # no fork of the kiosk's threads
            self._pool = context.Pool(1, initializer=_lower_priority)
        self._jobs[record.id] = self._pool.apply_async(compute, (record, notations))

    def asked(self, game_id: int) -> bool:
        return game_id in self._jobs

    def finished(self) -> list[tuple[int, dict[str, Any] | None]]:
        """The reviews done since the last call: (game id, review, or None when it failed)."""
        done = [(game_id, job) for game_id, job in self._jobs.items() if job.ready()]
        for game_id, _ in done:
            del self._jobs[game_id]
        return [(game_id, job.get() if job.successful() else None) for game_id, job in done]

    def wait(self, timeout: float = 120.0) -> None:
        """Until every review asked for is done (tests, the gallery)."""
        for job in list(self._jobs.values()):
            job.wait(timeout)

    def close(self) -> None:
        """Stop the worker at once: a review under way is dropped (computed again next time)."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
        self._jobs.clear()
