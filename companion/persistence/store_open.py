"""Opening the state directory's database: the file on disk, checked and repaired, or, where the
directory cannot be used, a database in memory holding a copy of what the file still shows."""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

from companion.persistence import dbfile
from companion.persistence.store_errors import StoreUnavailable

log = logging.getLogger(__name__)

DB_NAME = "tabletop.sqlite3"
# A finished game's review (companion.review_worker), JSON; the club outbox reads it too.
REVIEWS = """
CREATE TABLE IF NOT EXISTS reviews (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    review TEXT NOT NULL,
    at REAL NOT NULL
);
"""
SCHEMA = f"""
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    mode TEXT NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'playing' CHECK (status IN ('playing', 'over', 'abandoned')),
    started REAL NOT NULL,
    ended REAL
);
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    team INTEGER,
    kind TEXT NOT NULL DEFAULT 'person',
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    notation TEXT NOT NULL,
    corrected INTEGER NOT NULL DEFAULT 0,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS results (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    score INTEGER NOT NULL,
    winner INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS damaged (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    reason TEXT NOT NULL,
    at REAL NOT NULL
);
{REVIEWS}"""


def on_disk(state_dir: Path, backup_dir: Path) -> tuple[sqlite3.Connection, list[str]]:
    """The connection to state_dir/DB_NAME and the notes on what opening repaired; raises
    StoreUnavailable (exit status 2 for a configuration problem, else 3) when it cannot be
    used."""
    path = state_dir / DB_NAME
    try:
        dbfile.prepare_directory(state_dir)
        return dbfile.open_checked(path, SCHEMA, backup_dir)
    except dbfile.OpenProblem as problem:
        raise StoreUnavailable(str(problem), 2 if problem.config else 3) from None
    except (sqlite3.Error, OSError) as error:  # e.g. no permission to look inside the dir
        reason = getattr(error, "strerror", None) or str(error)
        raise StoreUnavailable(f"{path}: {reason}") from None


def in_memory(state_dir: Path) -> sqlite3.Connection:
    """A database in memory with what state_dir/DB_NAME still shows (nothing if it cannot even
    be read); never raises."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    readable = state_dir / DB_NAME
    for how in ("mode=ro", "mode=ro&immutable=1"):  # immutable: a read-only disk, no -shm
        if not os.path.isfile(readable):  # never raises, whatever the path
            break
        try:
            source = sqlite3.connect(f"file:{readable}?{how}", uri=True)
            source.backup(db)
            source.close()
            break
        except sqlite3.Error as error:
            log.warning("store: %s cannot even be read (%s): %s", readable, how, error)
    try:
        dbfile.migrate(db, SCHEMA)
    except sqlite3.Error:
        db = sqlite3.connect(":memory:", isolation_level=None)
        dbfile.migrate(db, SCHEMA)
    db.execute("PRAGMA foreign_keys=ON")
    return db
