"""Everything the companion must not lose, in one SQLite file: games, their action logs, scores.

Each confirmed action is committed (WAL, synchronous=FULL) before the caller shows its result,
so a power cut loses nothing that was shown. A game is its set-up row plus an append-only log of
notations; undo deletes the last row in the same kind of transaction. Restarting rebuilds the
position by replaying the log through the engine. Finished games leave result rows: the
scorebook (running totals, per-player history, stats, CSV export) is read from those
(companion.score_queries).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.persistence import backups, store_open
from companion.persistence.score_queries import ScoreQueries
from companion.persistence.store_errors import StoreError, StoreUnavailable
from companion.persistence.store_open import DB_NAME

__all__ = ["DB_NAME", "GameRecord", "LoggedAction", "Store", "StoreError", "StoreUnavailable"]

log = logging.getLogger(__name__)

BACKUPS = "backups"
SEAT_KINDS = ("person", "bot", "unnamed")  # who sits in a seat (Store.start_game)


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    players: tuple[str, ...]
    teams: tuple[int | None, ...]
    options: dict[str, Any]
    seed: int
    mode: str
    label: str
    status: str
    problem: str = ""  # why this row cannot be trusted (e.g. its options are not valid JSON)


@dataclass(frozen=True)
class LoggedAction:
    seq: int
    notation: str
    corrected: int


class Store(ScoreQueries):
    """The state directory's database. One connection, used from one thread.

    Opening checks the file and repairs what it can (see companion.dbfile); `notes` says what
    was done, for the screen and the journal. Raises StoreUnavailable when it cannot be used.
    """

    def __init__(self, state_dir: str | Path) -> None:
        self.state_dir = Path(state_dir)
        self.path: Path | None = self.state_dir / DB_NAME
        self.persistent = True
        self.db, self.notes = store_open.on_disk(self.state_dir, self.backup_dir)
        for note in self.notes:
            log.warning("store: %s", note)
        self.backup()

    @classmethod
    def in_memory(cls, state_dir: str | Path, reason: str) -> Store:
        """A store that keeps nothing (the state directory cannot be used), holding a copy of
        what the file there still shows, if any; `notes` starts with `reason`."""
        store = cls.__new__(cls)
        store.state_dir, store.persistent = Path(state_dir), False
        store.path, store.notes = None, [reason]
        store.db = store_open.in_memory(store.state_dir)
        return store

    @property
    def backup_dir(self) -> Path:
        return self.state_dir / BACKUPS

    def backup(self, refresh: bool = False) -> Path | None:
        """A rolling backup when the last one is a day old, or `refresh` today's (never raises)."""
        if not self.persistent:
            return None
        return backups.backup_if_due(self.db, self.backup_dir, refresh=refresh)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")
        # Into the main file at once: a -wal file deleted (then a kill -9) loses nothing.
        if self.persistent:
            try:
                self.db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error as error:  # committed all the same (in the -wal file)
                log.warning("store: checkpoint failed: %s", error)

    transaction = _transaction  # for modules keeping their own tables in this file

    # ----- games and their logs -------------------------------------------------------------

    def start_game(
        self,
        game: str,
        players: list[str] | tuple[str, ...],
        options: dict[str, Any] | None = None,
        seed: int = 0,
        mode: str = "table",
        teams: list[int | None] | None = None,
        label: str = "",
        kinds: list[str] | None = None,
    ) -> int:
        """A game's set-up row and seats. `kinds` says who sits in each seat (SEAT_KINDS): a
        person, a bot, or a seat left under the name set-up gave it ("unnamed"); only people
        become scorebook players."""
        teams = list(teams) if teams is not None else [None] * len(players)
        kinds = list(kinds) if kinds is not None else ["person"] * len(players)
        if len(teams) != len(players) or len(kinds) != len(players):
            raise StoreError("one team entry and one kind per player are needed")
        if not set(kinds) <= set(SEAT_KINDS):
            raise StoreError(f"a seat is one of {', '.join(SEAT_KINDS)}")
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO games (game, options, seed, mode, label, started) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game, json.dumps(options or {}, sort_keys=True), seed, mode, label, time.time()),
            )
            game_id = int(cursor.lastrowid)
            for seat, (name, team, kind) in enumerate(zip(players, teams, kinds, strict=True)):
                player_id = self._player_id(db, name)
                db.execute(
                    "INSERT INTO seats (game_id, seat, player_id, team, kind) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (game_id, seat, player_id, team, kind),
                )
        return game_id

    @staticmethod
    def _player_id(db: sqlite3.Connection, name: str) -> int:
        db.execute("INSERT OR IGNORE INTO players (name) VALUES (?)", (name,))
        return int(db.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()[0])

    def game(self, game_id: int) -> GameRecord:
        row = self.db.execute(
            "SELECT id, game, options, seed, mode, label, status FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id} in the store")
        seats = self.db.execute(
            "SELECT p.name, s.team FROM seats s JOIN players p ON p.id = s.player_id "
            "WHERE s.game_id = ? ORDER BY s.seat",
            (game_id,),
        ).fetchall()
        options, problem = _options(row[2])
        return GameRecord(
            id=row[0],
            game=row[1],
            players=tuple(name for name, _ in seats),
            teams=tuple(team for _, team in seats),
            options=options,
            seed=row[3],
            mode=row[4],
            label=row[5],
            status=row[6],
            problem=problem,
        )

    def current_game(self, label: str | None = None) -> GameRecord | None:
        """The newest game still being played (with that label, when given)."""
        query = "SELECT id FROM games WHERE status = 'playing'"
        params: tuple = ()
        if label is not None:
            query += " AND label = ?"
            params = (label,)
        row = self.db.execute(query + " ORDER BY id DESC LIMIT 1", params).fetchone()
        return None if row is None else self.game(row[0])

    def playing_games(self) -> list[GameRecord]:
        rows = self.db.execute("SELECT id FROM games WHERE status = 'playing' ORDER BY id")
        return [self.game(row[0]) for row in rows.fetchall()]

    def unfinished(self, limit: int = 4) -> list[GameRecord]:
        """Games still being played at the table (not the demo's), newest first."""
        rows = self.db.execute(
            "SELECT id FROM games WHERE status = 'playing' AND label = '' ORDER BY id DESC LIMIT ?",
            (limit,),
        )
        return [self.game(row[0]) for row in rows.fetchall()]

    def find_games(self, label: str) -> list[GameRecord]:
        rows = self.db.execute("SELECT id FROM games WHERE label = ? ORDER BY id", (label,))
        return [self.game(row[0]) for row in rows.fetchall()]

    def append(self, game_id: int, notation: str, corrected: int = 0) -> int:
        """Log one confirmed action durably; returns its sequence number."""
        with self._transaction() as db:
            self._check_playing(db, game_id)
            row = db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game_id,)
            ).fetchone()
            seq = int(row[0]) + 1
            db.execute(
                "INSERT INTO actions (game_id, seq, notation, corrected, at) "
                "VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, notation, corrected, time.time()),
            )
        return seq

    def undo(self, game_id: int) -> LoggedAction:
        """Remove the last logged action of a game being played; returns it."""
        with self._transaction() as db:
            self._check_playing(db, game_id)
            row = db.execute(
                "SELECT seq, notation, corrected FROM actions WHERE game_id = ? "
                "ORDER BY seq DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is None:
                raise StoreError("nothing to undo: the game is at its start")
            db.execute("DELETE FROM actions WHERE game_id = ? AND seq = ?", (game_id, row[0]))
        return LoggedAction(*row)

    def actions(self, game_id: int) -> list[LoggedAction]:
        rows = self.db.execute(
            "SELECT seq, notation, corrected FROM actions WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [LoggedAction(*row) for row in rows.fetchall()]

    def _check_playing(self, db: sqlite3.Connection, game_id: int) -> None:
        row = db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id} in the store")
        if row[0] != "playing":
            raise StoreError(f"game {game_id} is {row[0]}: its log is closed")

    def finish(self, game_id: int, scores: list[int], winners: list[int]) -> None:
        """Close a game with its final scores (one per seat) and its winners' seats.

        Finishing it again with the same result changes nothing (a restart between the result
        and what followed it must not fail)."""
        if self._finished_with(game_id, scores, winners):
            return
        with self._transaction() as db:
            self._check_playing(db, game_id)
            seats = db.execute("SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,))
            if seats.fetchone()[0] != len(scores):
                raise StoreError("one score per seat is needed to finish a game")
            for seat, score in enumerate(scores):
                db.execute(
                    "INSERT INTO results (game_id, seat, score, winner) VALUES (?, ?, ?, ?)",
                    (game_id, seat, int(score), int(seat in winners)),
                )
            db.execute(
                "UPDATE games SET status = 'over', ended = ? WHERE id = ?", (time.time(), game_id)
            )
        self.backup(refresh=True)

    def _finished_with(self, game_id: int, scores: list[int], winners: list[int]) -> bool:
        row = self.db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None or row[0] != "over":
            return False
        wanted = [(int(score), seat in winners) for seat, score in enumerate(scores)]
        return self.results(game_id) == wanted

    def mark_damaged(self, game_id: int, reason: str) -> None:
        """Set aside a game whose log no longer replays: listed as damaged, never resumed."""
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO damaged (game_id, reason, at) VALUES (?, ?, ?)",
                (game_id, reason, time.time()),
            )
            db.execute(
                "UPDATE games SET status = 'abandoned' WHERE id = ? AND status = 'playing'",
                (game_id,),
            )

    def damaged_games(self) -> list[tuple[int, str, str]]:
        """(game id, game, why) of each game set aside as damaged."""
        rows = self.db.execute(
            "SELECT d.game_id, g.game, d.reason FROM damaged d JOIN games g ON g.id = d.game_id "
            "ORDER BY d.game_id"
        )
        return [tuple(row) for row in rows.fetchall()]

    def reopen(self, game_id: int) -> None:
        """Undo past the end of a game: drop its results and play on."""
        with self._transaction() as db:
            db.execute("DELETE FROM results WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM reviews WHERE game_id = ?", (game_id,))  # of another end
            db.execute("UPDATE games SET status = 'playing', ended = NULL WHERE id = ?", (game_id,))

    def save_review(self, game_id: int, review: dict[str, Any]) -> None:
        """Keep a finished game's review (companion.review_worker) beside it."""
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO reviews (game_id, review, at) VALUES (?, ?, ?)",
                (game_id, json.dumps(review, sort_keys=True), time.time()),
            )

    def review(self, game_id: int) -> dict[str, Any] | None:
        """A game's stored review, or None (not computed yet, or the row cannot be read)."""
        row = self.db.execute("SELECT review FROM reviews WHERE game_id = ?", (game_id,))
        found = row.fetchone()
        if found is None:
            return None
        try:
            review = json.loads(found[0])
        except (TypeError, ValueError, RecursionError):
            return None
        return review if isinstance(review, dict) else None

    def abandon(self, game_id: int) -> None:
        with self._transaction() as db:
            self._check_playing(db, game_id)
            db.execute("UPDATE games SET status = 'abandoned' WHERE id = ?", (game_id,))

    def results(self, game_id: int) -> list[tuple[int, bool]]:
        rows = self.db.execute(
            "SELECT score, winner FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [(score, bool(winner)) for score, winner in rows.fetchall()]

    # ----- settings -------------------------------------------------------------------------

    def setting(self, key: str, default: str = "") -> str:
        row = self.db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else row[0]

    def set_setting(self, key: str, value: str) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )


def _options(text: str) -> tuple[dict[str, Any], str]:
    """A game row's options, and what is wrong with them ('' when nothing)."""
    try:
        options = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return {}, "its options are not valid JSON"
    if not isinstance(options, dict):
        return {}, "its options are not a JSON object"
    return options, ""
