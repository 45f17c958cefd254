"""Ratings per game (openskill's Plackett-Luce), recomputed from the finished games in order.

The same games in the same order (end time, then club game id) always give the same ratings:
nothing is stored but the games, so a late push, a voided game or a merge is a recomputation.
Sequence is rated by team; every other game is a free-for-all ranked by winners, then scores.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import groupby

from openskill.models import PlackettLuce

Row = tuple[str, int, float, int, int, int | None, int, bool]
# (game kind, club game id, ended (epoch s), seat, player id, team, score, winner)


@dataclass(frozen=True)
class Point:
    game_id: int
    game: str
    ended: float
    ordinal: float


@dataclass
class RatingBook:
    """Current rating per (game kind, player) and each player's rating after each game."""

    current: dict[tuple[str, int], float] = field(default_factory=dict)
    history: dict[int, list[Point]] = field(default_factory=dict)
    games: int = 0

    def rating(self, game: str, player: int) -> float | None:
        return self.current.get((game, player))


def compute(rows: Iterable[Row]) -> RatingBook:
    """Ratings from seat rows sorted by (kind, ended, game id, seat)."""
    model = PlackettLuce()
    book = RatingBook()
    ratings: dict[tuple[str, int], object] = {}
    for (kind, game_id), seats in groupby(rows, key=lambda row: (row[0], row[1])):
        seats = list(seats)
        groups = _groups(seats)
        teams = [[ratings.get((kind, s[4])) or model.rating() for s in group] for group in groups]
        ranks = _ranks(groups)
        rated = model.rate(teams, ranks=ranks) if len(groups) > 1 else teams
        ended = seats[0][2]
        for group, new_team in zip(groups, rated, strict=True):
            for seat, rating in zip(group, new_team, strict=True):
                ratings[(kind, seat[4])] = rating
                ordinal = round(rating.ordinal(), 3)
                book.current[(kind, seat[4])] = ordinal
                book.history.setdefault(seat[4], []).append(Point(game_id, kind, ended, ordinal))
        book.games += 1
    for points in book.history.values():
        points.sort(key=lambda p: (p.ended, p.game_id))
    return book


def _groups(seats: list[Row]) -> list[list[Row]]:
    if all(seat[5] is None for seat in seats):
        return [[seat] for seat in seats]
    teams: dict[int | None, list[Row]] = {}
    for seat in seats:
        teams.setdefault(seat[5], []).append(seat)
    return [teams[key] for key in sorted(teams, key=lambda t: (t is None, t))]


def _ranks(groups: list[list[Row]]) -> list[int]:
    """1 for the best; equal places share a rank. Winners first, then by best score."""
    keys = [(not any(s[7] for s in group), -max(s[6] for s in group)) for group in groups]
    order = sorted(set(keys))
    return [order.index(key) + 1 for key in keys]


class RatingCache:
    """The latest RatingBook, recomputed in a background thread when the games have changed.

    Pages never wait for a recomputation (a festival's 30,000 games take about a second) except
    the very first one, when there is nothing to show yet; while games keep arriving it runs at
    most once per `pause_s`.
    """

    def __init__(self, load: Callable[[], list[Row]], pause_s: float = 10.0) -> None:
        self._load = load
        self._pause = pause_s
        self._book: RatingBook | None = None
        self._dirty = threading.Event()
        self._urgent = threading.Event()  # someone waits: skip the pause between two runs
        self._fresh = threading.Condition()
        self._generation = 0  # bumped by each change
        self._computed = -1  # the generation the current book reflects
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._work, name="ratings", daemon=True)
        self._thread.start()

    def changed(self) -> None:
        with self._fresh:
            self._generation += 1
        self._dirty.set()

    def book(self) -> RatingBook:
        if self._book is None:
            self.wait_fresh(timeout=60)
        return self._book or RatingBook()

    def wait_fresh(self, timeout: float = 10) -> bool:
        """Block until the book reflects every change made so far (tests, first page)."""
        deadline = time.monotonic() + timeout
        with self._fresh:
            wanted = self._generation
            self._dirty.set()
            self._urgent.set()
            while self._computed < wanted:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._fresh.wait(left)
        return True

    def close(self) -> None:
        self._stop.set()
        self._dirty.set()
        self._urgent.set()
        self._thread.join(timeout=5)

    def _work(self) -> None:
        self._dirty.set()
        while not self._stop.is_set():
            self._dirty.wait()
            if self._stop.is_set():
                return
            self._dirty.clear()
            with self._fresh:
                generation = self._generation
            try:
                book = compute(self._load())
            except Exception:  # the database away: keep the last book, try again later
                time.sleep(self._pause * 4)
                self._dirty.set()
                continue
            with self._fresh:
                self._book, self._computed = book, generation
                self._fresh.notify_all()
            # At most one recomputation per pause while games pour in (a festival's catch-up).
            self._urgent.wait(self._pause)
            self._urgent.clear()
