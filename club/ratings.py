"""Ratings per game (openskill's Plackett-Luce), updated game by game as finished games arrive.

Games are rated in the order they are finished (end time, then club game id); each new finished
game updates only its players. What an update cannot express — a game voided or reopened, a
result changed, a merge or its undo — rebuilds the whole book from the games (also an admin
action): the same games in the same order always give the same ratings. A game pushed late is
rated when it arrives, after games that ended later; a rebuild puts it in its place.
Sequence is rated by team; every other game is a free-for-all ranked by winners, then scores.
"""

from __future__ import annotations

import threading
import time
from bisect import insort
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


class Rater:
    """A RatingBook built game by game."""

    def __init__(self) -> None:
        self.model = PlackettLuce()
        self.ratings: dict[tuple[str, int], object] = {}
        self.current: dict[tuple[str, int], float] = {}
        self.history: dict[int, list[Point]] = {}
        self.games = 0
        self._published: set[int] = set()  # players whose list a published book holds

    def add(self, seats: list[Row]) -> None:
        """Rate one game from its seat rows."""
        kind, game_id, ended = seats[0][0], seats[0][1], seats[0][2]
        groups = _groups(seats)
        model = self.model
        teams = [[self.ratings.get((kind, s[4])) or model.rating() for s in g] for g in groups]
        rated = model.rate(teams, ranks=_ranks(groups)) if len(groups) > 1 else teams
        for group, new_team in zip(groups, rated, strict=True):
            for seat, rating in zip(group, new_team, strict=True):
                self.ratings[(kind, seat[4])] = rating
                ordinal = round(rating.ordinal(), 3)
                self.current[(kind, seat[4])] = ordinal
                insort(self._points(seat[4]), Point(game_id, kind, ended, ordinal), key=_when)
        self.games += 1

    def _points(self, player: int) -> list[Point]:
        """The player's points (in end time order), copied first when a published book holds
        them: a page never sees a book change under it."""
        points = self.history.setdefault(player, [])
        if player in self._published:
            points = self.history[player] = list(points)
            self._published.discard(player)
        return points

    def add_all(self, rows: Iterable[Row]) -> None:
        """Rate the games of seat rows sorted by game (and by end time within a kind)."""
        for _, seats in groupby(rows, key=lambda row: (row[0], row[1])):
            self.add(list(seats))

    def book(self) -> RatingBook:
        """The ratings as they are now, apart from later updates."""
        self._published = set(self.history)
        return RatingBook(dict(self.current), dict(self.history), self.games)


def _when(point: Point) -> tuple[float, int]:
    return point.ended, point.game_id


def compute(rows: Iterable[Row]) -> RatingBook:
    """Ratings from seat rows sorted by (kind, ended, game id, seat)."""
    rater = Rater()
    rater.add_all(rows)
    return rater.book()


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
    """The latest RatingBook, kept up to date in a background thread.

    `changed()` (a push stored games) rates the finished games not rated yet, game by game;
    `rebuild()` (an admin action, a merge, a void) rates every game again from the start, as
    does an update that finds a rated game changed or gone. Pages never wait, except for the
    very first book; while games pour in, updates run at most once per `pause_s`.
    """

    def __init__(
        self,
        keys: Callable[[], dict[int, int]],
        rows: Callable[[list[int] | None], list[Row]],
        pause_s: float = 2.0,
    ) -> None:
        self._keys = keys  # {game id: revision} of every finished game
        self._rows = rows  # seat rows of these games (None: of every finished game), sorted
        self._pause = pause_s
        self._book: RatingBook | None = None
        self._rater = Rater()
        self._rated: dict[int, int] = {}  # game id: the revision rated
        self._full = True  # the next update rebuilds everything
        self.rebuilds = 0
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

    def rebuild(self) -> None:
        """Rate every game again from the start at the next update."""
        with self._fresh:
            self._full = True
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
                generation, full = self._generation, self._full
                self._full = False
            try:
                book = self._update(full)
            except Exception:  # the database away: keep the last book, try again later
                with self._fresh:
                    self._full = self._full or full
                time.sleep(self._pause * 4)
                self._dirty.set()
                continue
            with self._fresh:
                self._book, self._computed = book, generation
                self._fresh.notify_all()
            self._urgent.wait(self._pause)
            self._urgent.clear()

    def _update(self, full: bool) -> RatingBook:
        keys = self._keys()
        gone = any(keys.get(game) != revision for game, revision in self._rated.items())
        if full or gone:
            rows = self._rows(None)
            self._rater = Rater()
            self._rater.add_all(rows)
            # A game finished between the two reads is rated but has no key: -1 rebuilds again.
            self._rated = {row[1]: keys.get(row[1], -1) for row in rows}
            self.rebuilds += 1
        else:
            new = [game for game in keys if game not in self._rated]
            if not new:
                return self._book or self._rater.book()
            rows = sorted(self._rows(new), key=lambda row: (row[2], row[1], row[3]))
            self._rater.add_all(rows)
            self._rated.update({game: keys[game] for game in new})
        return self._rater.book()
