"""The league in PostgreSQL: tables and their tokens, players, pushed games, what pages show.

Every query is parameterised. A pushed game is stored by (table, game id, revision): a revision
seen again is acknowledged without change, an older one never overwrites a newer one, so a
table may send the same thing any number of times in any order.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg

from club.replay import CheckedGame


class LeagueError(ValueError):
    """An admin request the league cannot honour; the message says why."""


@dataclass(frozen=True)
class ClubTable:
    id: int
    name: str
    revoked: bool
    last_push: datetime | None


def hash_token(token: str) -> str:
    # Tokens are 256 random bits: a plain SHA-256 cannot be reversed or guessed.
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# ----- tables and tokens ---------------------------------------------------------------------


def add_table(conn: psycopg.Connection, name: str) -> str:
    """Register a table; returns its token (shown once: only its hash is kept)."""
    name = " ".join(name.split())
    if not name or len(name) > 60:
        raise LeagueError("a table's name is text of 1 to 60 characters")
    token = secrets.token_urlsafe(32)
    try:
        conn.execute(
            "INSERT INTO club_tables (name, token_hash) VALUES (%s, %s)", (name, hash_token(token))
        )
    except psycopg.errors.UniqueViolation:
        raise LeagueError(f"a table named {name!r} exists already") from None
    return token


def new_token(conn: psycopg.Connection, table_id: int) -> str:
    """A fresh token for a table (the old one stops working); un-revokes it."""
    token = secrets.token_urlsafe(32)
    cursor = conn.execute(
        "UPDATE club_tables SET token_hash = %s, revoked_at = NULL WHERE id = %s",
        (hash_token(token), table_id),
    )
    if cursor.rowcount == 0:
        raise LeagueError(f"no table {table_id}")
    return token


def revoke_table(conn: psycopg.Connection, table_id: int) -> None:
    cursor = conn.execute(
        "UPDATE club_tables SET revoked_at = now() WHERE id = %s AND revoked_at IS NULL",
        (table_id,),
    )
    if cursor.rowcount == 0:
        raise LeagueError(f"no table {table_id} with a valid token")


def table_for_token(conn: psycopg.Connection, token: str) -> int | None:
    row = conn.execute(
        "SELECT id, token_hash FROM club_tables WHERE token_hash = %s AND revoked_at IS NULL",
        (hash_token(token),),
    ).fetchone()
    if row is None or not hmac.compare_digest(row[1], hash_token(token)):
        return None
    return int(row[0])


def tables(conn: psycopg.Connection) -> list[ClubTable]:
    rows = conn.execute(
        "SELECT id, name, revoked_at IS NOT NULL, last_push_at FROM club_tables ORDER BY name"
    ).fetchall()
    return [ClubTable(*row) for row in rows]


# ----- pushed games --------------------------------------------------------------------------


def ingest(conn: psycopg.Connection, table_id: int, game: CheckedGame) -> str:
    """Store a checked game: 'stored', 'duplicate' (this revision seen) or 'older'."""
    with conn.transaction():
        seen = conn.execute(
            "INSERT INTO pushes (table_id, local_id, revision, outcome) VALUES (%s, %s, %s, '') "
            "ON CONFLICT DO NOTHING RETURNING 1",
            (table_id, game.local_id, game.revision),
        ).fetchone()
        if seen is None:
            return "duplicate"
        row = conn.execute(
            "INSERT INTO games (table_id, local_id, revision, game, options, seed, mode, status,"
            " history, actor, started, ended, updated) VALUES (%s, %s, %s, %s, %s, %s, %s, %s,"
            " %s, %s, to_timestamp(%s), to_timestamp(%s), to_timestamp(%s))"
            " ON CONFLICT (table_id, local_id) DO UPDATE SET revision = EXCLUDED.revision,"
            " status = EXCLUDED.status, history = EXCLUDED.history, actor = EXCLUDED.actor,"
            " ended = EXCLUDED.ended, updated = EXCLUDED.updated, received_at = now()"
            " WHERE games.revision < EXCLUDED.revision RETURNING id",
            (
                table_id, game.local_id, game.revision, game.game,
                json.dumps(game.options, sort_keys=True), game.seed, game.mode, game.status,
                json.dumps(list(game.history), ensure_ascii=False), game.actor, game.started,
                game.ended, game.updated,
            ),
        ).fetchone()  # fmt: skip
        outcome = "older" if row is None else "stored"
        if row is not None:
            _replace_seats(conn, int(row[0]), game)
            _keep_review(conn, int(row[0]), game)
        conn.execute(
            "UPDATE pushes SET outcome = %s"
            " WHERE table_id = %s AND local_id = %s AND revision = %s",
            (outcome, table_id, game.local_id, game.revision),
        )
    return outcome


def pushed(conn: psycopg.Connection, table_id: int) -> None:
    """Note that the table pushed now (once per push, whatever it held)."""
    conn.execute("UPDATE club_tables SET last_push_at = now() WHERE id = %s", (table_id,))


def seen(conn: psycopg.Connection, table_id: int, keys: list[tuple[Any, Any]]) -> set[tuple]:
    """The (game id, revision) pairs of `keys` this table's pushes stored or acknowledged
    already, in one query."""
    wanted = [key for key in keys if all(type(v) is int and 0 < v < 2**62 for v in key)]
    if not wanted:
        return set()
    rows = conn.execute(
        "SELECT local_id, revision FROM pushes WHERE table_id = %s AND (local_id, revision)"
        " IN (SELECT * FROM unnest(%s::bigint[], %s::bigint[]))",
        (table_id, [local_id for local_id, _ in wanted], [revision for _, revision in wanted]),
    )
    return set(rows.fetchall())


def _keep_review(conn: psycopg.Connection, game_id: int, game: CheckedGame) -> None:
    """The revision's review, or none (a reopened game's review was of another ending)."""
    if game.review is None:
        conn.execute("UPDATE games SET review = NULL WHERE id = %s AND review IS NOT NULL",
                     (game_id,))  # fmt: skip
    else:
        conn.execute("UPDATE games SET review = %s WHERE id = %s",
                     (json.dumps(game.review, ensure_ascii=False), game_id))  # fmt: skip


def _replace_seats(conn: psycopg.Connection, game_id: int, game: CheckedGame) -> None:
    conn.execute("DELETE FROM seats WHERE game_id = %s", (game_id,))
    identities = player_ids(conn, game.players)
    taken: set[int] = set()
    rows = []
    for seat, (name, team, score) in enumerate(
        zip(game.players, game.teams, game.scores, strict=True)
    ):
        identity = identities[name]
        if identity in taken:  # a name merged into another seat's: two people after all
            identity = _own_identity(conn, name)
        taken.add(identity)
        rows.append((game_id, seat, identity, name, team, score, seat in game.winners))
    with conn.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO seats (game_id, seat, player_id, name, team, score, winner)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s)",
            rows,
        )


def player_id(conn: psycopg.Connection, name: str) -> int:
    """The club identity a name typed at a table stands for (created on first sight). Names
    are kept as typed: "ann" and "Ann" are two players until the admin merges them."""
    return player_ids(conn, [name])[name]


def player_ids(conn: psycopg.Connection, names: Collection[str]) -> dict[str, int]:
    """player_id of each name, those already known found in one query."""
    found = _named(conn, sorted(set(names)))
    for name in names:
        if name not in found:
            found[name] = _own_identity(conn, name)
    return found


def _own_identity(conn: psycopg.Connection, name: str) -> int:
    """The identity of this very name, not merged into anyone (made when needed)."""
    conn.execute(
        "INSERT INTO players (name) VALUES (%s)"
        " ON CONFLICT (name) WHERE merged_into IS NULL DO NOTHING",
        (name,),
    )
    row = conn.execute(
        "SELECT id FROM players WHERE name = %s AND merged_into IS NULL", (name,)
    ).fetchone()
    return int(row[0])


def _named(conn: psycopg.Connection, names: list[str]) -> dict[str, int]:
    # A merged name keeps standing for the identity it was merged into.
    rows = conn.execute(
        "SELECT DISTINCT ON (name) name, COALESCE(merged_into, id) FROM players"
        " WHERE name = ANY(%s) ORDER BY name, merged_into IS NULL DESC, id DESC",
        (names,),
    )
    return {name: int(identity) for name, identity in rows.fetchall()}


# ----- admin actions -------------------------------------------------------------------------


@dataclass(frozen=True)
class MergePreview:
    source: int
    target: int
    source_name: str
    target_name: str
    games: int  # the source's games that would move to the target


def merge_preview(conn: psycopg.Connection, source: int, target: int) -> MergePreview:
    """What merging `source` into `target` would do; LeagueError when it must not be done."""
    if source == target:
        raise LeagueError("a player cannot be merged into themselves")
    names = dict(
        conn.execute(
            "SELECT id, name FROM players WHERE id IN (%s, %s) AND merged_into IS NULL",
            (source, target),
        ).fetchall()
    )
    if len(names) != 2:
        raise LeagueError("both players must exist and not be merged already")
    clash = conn.execute(
        "SELECT 1 FROM seats a JOIN seats b ON a.game_id = b.game_id"
        " WHERE a.player_id = %s AND b.player_id = %s LIMIT 1",
        (source, target),
    ).fetchone()
    if clash:
        raise LeagueError("these two players sat at the same game: they are two people")
    (games,) = conn.execute("SELECT COUNT(*) FROM seats WHERE player_id = %s", (source,)).fetchone()
    return MergePreview(source, target, names[source], names[target], int(games))


def merge_players(conn: psycopg.Connection, source: int, target: int) -> int:
    """Make `source` the same person as `target`: their games, and their names from now on.
    Returns the merge's number, for undo_merge."""
    with conn.transaction():
        conn.execute("SELECT id FROM players WHERE id IN (%s, %s) FOR UPDATE", (source, target))
        merge_preview(conn, source, target)
        moved = [
            row[0]
            for row in conn.execute(
                "UPDATE players SET merged_into = %s WHERE id = %s OR merged_into = %s"
                " RETURNING id",
                (target, source, source),
            )
        ]
        conn.execute("UPDATE seats SET player_id = %s WHERE player_id = %s", (target, source))
        (merge,) = conn.execute(
            "INSERT INTO merges (source, target, moved) VALUES (%s, %s, %s) RETURNING id",
            (source, target, moved),
        ).fetchone()
    return int(merge)


def undo_merge(conn: psycopg.Connection, merge: int) -> None:
    """Split a merge again: the source's names and the seats given those names since (the
    merge's games and any pushed later) go back to the source."""
    with conn.transaction():
        row = conn.execute(
            "SELECT source, target, moved FROM merges WHERE id = %s AND undone_at IS NULL"
            " FOR UPDATE",
            (merge,),
        ).fetchone()
        if row is None:
            raise LeagueError(f"no merge {merge} to undo")
        source, target, moved = row
        if (
            conn.execute(
                "SELECT 1 FROM players WHERE id = %s AND merged_into = %s", (source, target)
            ).fetchone()
            is None
        ):
            raise LeagueError("the target was merged on since: undo that merge first")
        conn.execute(
            "UPDATE seats SET player_id = %s WHERE player_id = %s"
            " AND name IN (SELECT name FROM players WHERE id = ANY(%s))",
            (source, target, moved),
        )
        try:
            conn.execute(
                "UPDATE players SET merged_into = CASE WHEN id = %s THEN NULL ELSE %s END"
                " WHERE id = ANY(%s) AND merged_into = %s",
                (source, source, moved, target),
            )
        except psycopg.errors.UniqueViolation:
            raise LeagueError(
                "a player of that name plays on its own since: merge that one"
            ) from None
        conn.execute("UPDATE merges SET undone_at = now() WHERE id = %s", (merge,))


def merges(conn: psycopg.Connection, limit: int = 20) -> list[tuple[int, str, str, datetime]]:
    """(merge, source's name, target's name, when) of the latest merges not undone."""
    rows = conn.execute(
        "SELECT m.id, s.name, t.name, m.merged_at FROM merges m"
        " JOIN players s ON s.id = m.source JOIN players t ON t.id = m.target"
        " WHERE m.undone_at IS NULL ORDER BY m.id DESC LIMIT %s",
        (limit,),
    )
    return rows.fetchall()


def void_game(conn: psycopg.Connection, game_id: int, voided: bool = True) -> None:
    cursor = conn.execute("UPDATE games SET voided = %s WHERE id = %s", (voided, game_id))
    if cursor.rowcount == 0:
        raise LeagueError(f"no game {game_id}")


def setting(conn: psycopg.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM club_settings WHERE key = %s", (key,)).fetchone()
    return None if row is None else row[0]


def set_setting(conn: psycopg.Connection, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO club_settings (key, value) VALUES (%s, %s)"
        " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
        (key, value),
    )
