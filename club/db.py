"""The club's PostgreSQL: a connection pool and the versioned schema migrations applied at start.

Migrations are the numbered files in club/migrations (0001_name.sql, ...), each applied once in
its own transaction and recorded in `schema_migrations`. A transaction-level advisory lock makes
two servers started together apply them one after the other. A small table of our own was
chosen over a migration tool: the schema is plain SQL and the maintained tools (alembic, yoyo)
would bring SQLAlchemy or a second configuration file for a handful of files.
"""

from __future__ import annotations

import re
from importlib import resources

import psycopg
from psycopg_pool import ConnectionPool

MIGRATION_LOCK = 0x7AB1E70C  # an arbitrary key for pg_advisory_xact_lock
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class DatabaseError(RuntimeError):
    """The club's database cannot be reached or used; the message says which and why."""


def migrations() -> list[tuple[int, str, str]]:
    """(version, file name, SQL) of every migration shipped, in order."""
    found = []
    for entry in resources.files("club.migrations").iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


def migrate(conn: psycopg.Connection) -> list[str]:
    """Apply the migrations not applied yet; returns the names of those applied now."""
    applied_now = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        done = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
        for version, name, sql in migrations():
            if version in done:
                continue
            conn.execute(sql)
            conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)", (version, name)
            )
            applied_now.append(name)
    return applied_now


def open_pool(url: str, size: int = 8) -> ConnectionPool:
    """A pool on `url` with the schema up to date; DatabaseError when it cannot be reached."""
    try:
        with psycopg.connect(url, connect_timeout=10) as conn:
            migrate(conn)
    except psycopg.Error as error:
        raise DatabaseError(f"database {redact(url)}: {_first_line(error)}") from None
    pool = ConnectionPool(url, min_size=1, max_size=size, open=False, kwargs={"autocommit": True})
    pool.open(wait=True, timeout=30)
    return pool


def redact(url: str) -> str:
    """The URL with its password hidden, for messages."""
    return re.sub(r"(://[^:/@]+:)[^@]*@", r"\1***@", url)


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
