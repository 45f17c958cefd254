"""Opening the scorebook's SQLite file safely: checked, migrated, and moved aside when damaged.

At open the file is checked (`PRAGMA quick_check`, its schema version in `user_version`) and
written to once for real, so a read-only file or a full disk is found before the first move, not
after it. A damaged file (zero bytes, not a database, malformed, a directory in its place) is
renamed `<name>.damaged-<time>` (kept, never deleted); what can still be read of it (players,
finished games and their results) is copied into a fresh database, else the newest backup is
restored. Every such step is returned as a note for the screen and the journal.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import time
from pathlib import Path

log = logging.getLogger(__name__)

SCHEMA_VERSION = 4  # 3: the reviews of finished games; 4: a seat's kind (person, bot, unnamed)
# Tables copied from a damaged file, parents first; only finished games are salvaged (a game in
# progress in a damaged file cannot be trusted to replay).
SALVAGED = ("players", "games", "seats", "actions", "results", "settings")
FINISHED = "game_id IN (SELECT id FROM games WHERE status = 'over')"


class OpenProblem(Exception):
    """The file cannot be used at all now (read-only, full disk, a newer schema); `config` is True
    when only a change of configuration can fix it."""

    def __init__(self, message: str, config: bool = False) -> None:
        super().__init__(message)
        self.config = config


def prepare_directory(state_dir: Path) -> None:
    if "\0" in str(state_dir):
        raise OpenProblem(f"state directory {state_dir!r} contains a NUL byte", config=True)
    if state_dir.exists() and not state_dir.is_dir():
        raise OpenProblem(f"state directory {state_dir} is a file, not a directory", config=True)
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OpenProblem(f"state directory {state_dir}: {error.strerror or error}") from None


def open_checked(path: Path, schema: str, backups: Path) -> tuple[sqlite3.Connection, list[str]]:
    """A checked, migrated, writable connection to `path`, and what had to be done to get it."""
    notes: list[str] = []
    problem = damage(path)
    if problem is None and not path.exists():
        restored = restore_newest(backups, path)
        if restored:
            notes.append(f"{path.name} was missing: restored the backup {restored.name}")
    if problem is None:
        try:
            db = connect(path)
            problem = check(db)
            if problem is None:
                notes += migrate(db, schema)
                probe_write(db, path)
                return db, notes
            db.close()
        except sqlite3.DatabaseError as error:
            if not is_damage(error):
                raise OpenProblem(f"{path}: {error}{why_unwritable(path)}") from None
            problem = str(error)
    notes += replace_damaged(path, problem, schema, backups)
    db = connect(path)
    migrate(db, schema)
    probe_write(db, path)
    return db, notes


def connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, timeout=10)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    return db


def damage(path: Path) -> str | None:
    """Why the file at `path` is plainly not a usable database, before SQLite is asked."""
    if path.is_dir():
        return "a directory stands where the database file should be"
    if path.is_file() and path.stat().st_size == 0 and not wal_of(path).exists():
        return "the database file is empty (0 bytes)"
    if path.is_file():
        try:
            with open(path, "rb") as handle:
                head = handle.read(16)
        except OSError as error:
            raise OpenProblem(f"{path}: {error.strerror}") from None
        if head and head != b"SQLite format 3\0":
            return "the file is not an SQLite database (its header is wrong)"
    return None


def wal_of(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def is_damage(error: sqlite3.DatabaseError) -> bool:
    """Damage in the file itself (not a full disk, a read-only file or a lock)."""
    words = str(error).lower()
    return any(word in words for word in ("malformed", "not a database", "corrupt"))


def check(db: sqlite3.Connection) -> str | None:
    rows = [row[0] for row in db.execute("PRAGMA quick_check").fetchall()]
    if rows != ["ok"]:
        return "the database is damaged: " + "; ".join(str(r) for r in rows[:3])
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise OpenProblem(
            f"the database was written by a newer version (schema {version}, this one "
            f"knows {SCHEMA_VERSION}): update the program",
            config=True,
        )
    return None


def migrate(db: sqlite3.Connection, schema: str) -> list[str]:
    """Bring the schema to SCHEMA_VERSION; returns what was changed in an older file."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version == SCHEMA_VERSION:
        return []
    had_tables = db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] > 0
    notes = []
    db.execute("BEGIN IMMEDIATE")
    try:
        for statement in split_statements(schema):
            db.execute(statement)
        columns = [row[1] for row in db.execute("PRAGMA table_info(games)")]
        if "label" not in columns:  # files from before labels (schema 0)
            db.execute("ALTER TABLE games ADD COLUMN label TEXT NOT NULL DEFAULT ''")
            notes.append("older database: added the games' label column")
        notes += _add_seat_kinds(db)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    if had_tables:
        notes.append(f"database schema {version} migrated to {SCHEMA_VERSION}")
    return notes


def _add_seat_kinds(db: sqlite3.Connection) -> list[str]:
    """Files from before seat kinds (schema 3): every seat a person, but the bots kept with
    their games (the settings' "bots.<game id>") are bots: a bot is no scorebook player."""
    columns = [row[1] for row in db.execute("PRAGMA table_info(seats)")]
    if "kind" in columns:
        return []
    db.execute("ALTER TABLE seats ADD COLUMN kind TEXT NOT NULL DEFAULT 'person'")
    rows = db.execute("SELECT key, value FROM settings WHERE key LIKE 'bots.%'").fetchall()
    for key, value in rows:
        try:
            seats = [int(seat) for seat, level in json.loads(value).items() if level]
            game_id = int(key.removeprefix("bots."))
        except (ValueError, AttributeError):
            continue  # a damaged entry: its seats stay people, as the game loads them
        db.executemany(
            "UPDATE seats SET kind = 'bot' WHERE game_id = ? AND seat = ?",
            [(game_id, seat) for seat in seats],
        )
    return ["older database: added the seats' kind column (bots found in the settings)"]


def split_statements(script: str) -> list[str]:
    return [part.strip() for part in script.split(";") if part.strip()]


def probe_write(db: sqlite3.Connection, path: Path) -> None:
    """Write and commit for real once, so a read-only file or a full disk is known now."""
    try:
        db.execute("BEGIN IMMEDIATE")
        db.execute(
            "INSERT INTO settings (key, value) VALUES ('opened_at', ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (str(time.time()),),
        )
        db.execute("COMMIT")
    except sqlite3.Error as error:
        if db.in_transaction:
            db.execute("ROLLBACK")
        db.close()
        raise OpenProblem(f"{path} cannot be written: {error}{why_unwritable(path)}") from None


def why_unwritable(path: Path) -> str:
    """What makes `path` unwritable, as a suffix ('' when nothing obvious)."""
    if not os.access(path.parent, os.W_OK):
        return " (the state directory is read-only)"
    if path.exists() and not os.access(path, os.W_OK):
        return " (the database file is read-only)"
    try:
        if os.statvfs(path.parent).f_bavail == 0:
            return " (the disk is full)"
    except OSError:
        pass
    return ""


def replace_damaged(path: Path, problem: str, schema: str, backups: Path) -> list[str]:
    """Move the damaged file aside and build a new one from what it still holds (or a backup)."""
    aside = move_aside(path)
    notes = [f"{path.name}: {problem}; moved aside to {aside.name} (kept)"]
    log.warning(notes[0])
    fresh = connect(path)
    try:
        migrate(fresh, schema)
        readable = aside.is_file() and aside.stat().st_size > 0
        counts = salvage(aside, fresh) if readable else {}
    finally:
        fresh.close()
    if counts.get("games"):
        copied = ", ".join(f"{n} {table}" for table, n in counts.items() if n)
        notes.append(f"salvaged from the damaged file: {copied}")
        return notes
    newest = newest_backup(backups)
    if newest is not None:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        restored = restore_newest(backups, path)
        notes.append(f"no finished game could be salvaged: restored the backup {restored.name}")
    else:
        notes.append("no finished game could be salvaged and there is no backup")
    return notes


def move_aside(path: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    number = 1
    while aside.exists():
        number += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{number}")
    try:
        os.replace(path, aside)
        for suffix in ("-wal", "-shm"):
            side = Path(f"{path}{suffix}")
            if side.exists():
                os.replace(side, Path(f"{aside}{suffix}"))
    except OSError as error:
        raise OpenProblem(f"{path} is damaged and cannot be moved aside: {error}") from None
    return aside


def salvage(damaged: Path, fresh: sqlite3.Connection) -> dict[str, int]:
    """Copy the rows still readable from `damaged` (finished games only) into `fresh`."""
    counts: dict[str, int] = {}
    try:
        source = sqlite3.connect(f"file:{damaged}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error:
        return counts
    try:
        for table in SALVAGED:
            counts[table] = copy_rows(source, fresh, table)
    finally:
        source.close()
    return counts


def copy_rows(source: sqlite3.Connection, fresh: sqlite3.Connection, table: str) -> int:
    where = {"games": "status = 'over'", "players": "1", "settings": "1"}.get(table, FINISHED)
    copied = 0
    try:
        columns = [row[1] for row in source.execute(f"PRAGMA table_info({table})")]
        wanted = [c for c in columns if c in fresh_columns(fresh, table)]
        if not wanted:
            return 0
        rows = source.execute(f"SELECT {', '.join(wanted)} FROM {table} WHERE {where}")
        marks = ", ".join("?" for _ in wanted)
        for row in rows:
            try:
                fresh.execute(
                    f"INSERT OR IGNORE INTO {table} ({', '.join(wanted)}) VALUES ({marks})", row
                )
                copied += 1
            except sqlite3.Error:
                continue
    except sqlite3.Error as error:  # the rest of this table is unreadable: keep what was copied
        log.warning("salvage %s: %s", table, error)
    return copied


def fresh_columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def newest_backup(backups: Path) -> Path | None:
    found = [p for p in sorted(backups.glob("*.sqlite3")) if sound(p)] if backups.is_dir() else []
    return found[-1] if found else None


def restore_newest(backups: Path, path: Path) -> Path | None:
    """Copy the newest sound backup to `path` (a damaged one is passed over); which one."""
    for candidate in sorted(backups.glob("*.sqlite3"), reverse=True) if backups.is_dir() else []:
        if not sound(candidate):
            log.warning("backup %s is damaged: passed over", candidate)
            continue
        try:
            shutil.copyfile(candidate, path)
            return candidate
        except OSError as error:
            log.warning("backup %s cannot be restored: %s", candidate, error)
    return None


def sound(candidate: Path) -> bool:
    """Whether a backup file is an undamaged database."""
    try:
        db = sqlite3.connect(f"file:{candidate}?mode=ro&immutable=1", uri=True)
        try:
            return db.execute("PRAGMA quick_check").fetchall() == [("ok",)]
        finally:
            db.close()
    except sqlite3.Error:
        return False
