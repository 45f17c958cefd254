"""What the club's pages show, read from PostgreSQL into the plain rows pages/ renders."""

from __future__ import annotations

import psycopg

import engines
from club.ratings import RatingBook, Row
from pages import model

FINISHED = "g.status = 'over' AND NOT g.voided"
LIVE_HOURS = 12  # a game not heard of for longer is not shown as being played (table off)


def rating_rows(conn: psycopg.Connection, games: list[int] | None = None) -> list[Row]:
    """The seat rows of the finished games (of `games` only, when given), in rating order."""
    only = "" if games is None else " AND g.id = ANY(%s)"
    rows = conn.execute(
        "SELECT g.game, g.id, extract(epoch FROM g.ended)::float8, s.seat, s.player_id, s.team,"
        f" s.score, s.winner FROM games g JOIN seats s ON s.game_id = g.id WHERE {FINISHED}"
        f"{only} ORDER BY g.game, g.ended, g.id, s.seat",
        () if games is None else (games,),
    )
    return rows.fetchall()


def finished_revisions(conn: psycopg.Connection) -> dict[int, int]:
    """{club game id: revision} of every finished game that counts."""
    return dict(conn.execute(f"SELECT g.id, g.revision FROM games g WHERE {FINISHED}").fetchall())


def game_kinds(conn: psycopg.Connection) -> list[str]:
    rows = conn.execute(f"SELECT DISTINCT g.game FROM games g WHERE {FINISHED} ORDER BY 1")
    return [row[0] for row in rows.fetchall()]


def standings(conn: psycopg.Connection, game: str, book: RatingBook) -> list[model.Standing]:
    total = "SUM(s.winner::int)" if _wins_are_the_total(game) else "SUM(s.score)"
    rows = conn.execute(
        f"SELECT p.id, p.name, COUNT(*), SUM(s.winner::int), {total} FROM seats s"
        " JOIN games g ON g.id = s.game_id JOIN players p ON p.id = s.player_id"
        f" WHERE {FINISHED} AND g.game = %s GROUP BY p.id, p.name",
        (game,),
    ).fetchall()
    found = [
        model.Standing(
            player=name, href=player_href(pid), games=games, wins=wins, total=total,
            rating=book.rating(game, pid),
        )
        for pid, name, games, wins, total in rows
    ]  # fmt: skip
    return model.ranked(found)


def _wins_are_the_total(game: str) -> bool:
    """As the table's scorebook counts it: the rule book's total over several games."""
    try:
        return engines.game_class(game).wins_are_the_total
    except engines.EngineError:  # a game this club no longer knows: its scores as stored
        return False


def overall(conn: psycopg.Connection) -> list[model.Standing]:
    rows = conn.execute(
        "SELECT p.id, p.name, COUNT(*), SUM(s.winner::int), SUM(s.score) FROM seats s"
        " JOIN games g ON g.id = s.game_id JOIN players p ON p.id = s.player_id"
        f" WHERE {FINISHED} GROUP BY p.id, p.name"
    ).fetchall()
    found = [
        model.Standing(player=name, href=player_href(pid), games=games, wins=wins, total=total)
        for pid, name, games, wins, total in rows
    ]
    return model.ranked(found)


def player(conn: psycopg.Connection, player_id: int, book: RatingBook) -> model.PlayerPage | None:
    row = conn.execute(
        "SELECT COALESCE(merged_into, id) FROM players WHERE id = %s", (player_id,)
    ).fetchone()
    if row is None:
        return None
    player_id = int(row[0])
    name = conn.execute("SELECT name FROM players WHERE id = %s", (player_id,)).fetchone()[0]
    rows = conn.execute(
        "SELECT g.id, g.game, extract(epoch FROM g.ended)::float8, s.score, s.winner,"
        " (SELECT array_agg(p.name ORDER BY o.seat) FROM seats o JOIN players p"
        "  ON p.id = o.player_id WHERE o.game_id = g.id AND o.seat <> s.seat),"
        " (g.review -> 'accuracy' ->> s.seat)::float8"
        f" FROM seats s JOIN games g ON g.id = s.game_id WHERE {FINISHED} AND s.player_id = %s"
        " ORDER BY g.ended, g.id",
        (player_id,),
    ).fetchall()
    played = [
        model.Played(
            href=game_href(gid), game=kind, ended=ended, score=score, winner=winner,
            opponents=tuple(others or ()), accuracy=accuracy,
        )
        for gid, kind, ended, score, winner, others, accuracy in rows
    ]  # fmt: skip
    points = [(p.game, p.ended, p.ordinal) for p in book.history.get(player_id, [])]
    ratings = {kind: value for (kind, pid), value in book.current.items() if pid == player_id}
    return model.player_page(name, played, points, ratings)


def live(conn: psycopg.Connection) -> list[model.LiveTable]:
    rows = conn.execute(
        "SELECT DISTINCT ON (g.table_id) g.id, t.name, g.game, g.actor,"
        " extract(epoch FROM g.updated)::float8, jsonb_array_length(g.history),"
        " (SELECT array_agg(p.name || chr(31) || s.score ORDER BY s.seat) FROM seats s"
        "  JOIN players p ON p.id = s.player_id WHERE s.game_id = g.id)"
        " FROM games g JOIN club_tables t ON t.id = g.table_id"
        " WHERE g.status = 'playing' AND NOT g.voided"
        f" AND g.received_at > now() - interval '{LIVE_HOURS} hours'"
        " ORDER BY g.table_id, g.updated DESC"
    ).fetchall()
    tables = []
    for gid, table, kind, actor, updated, moves, seats in rows:
        scores = tuple((s.split("\x1f")[0], int(s.split("\x1f")[1])) for s in seats or ())
        tables.append(model.LiveTable(table, kind, scores, actor, updated, moves, game_href(gid)))
    return sorted(tables, key=lambda t: t.table)


def record(conn: psycopg.Connection, game_id: int) -> model.GameRecordView | None:
    row = conn.execute(
        "SELECT g.game, g.options, g.seed, g.mode, g.status, g.history, t.name, g.voided,"
        " extract(epoch FROM g.started)::float8, extract(epoch FROM g.ended)::float8, g.review"
        " FROM games g JOIN club_tables t ON t.id = g.table_id WHERE g.id = %s",
        (game_id,),
    ).fetchone()
    if row is None:
        return None
    kind, options, seed, mode, status, history, table, voided, started, ended, review = row
    seats = conn.execute(
        "SELECT p.id, p.name FROM seats s JOIN players p ON p.id = s.player_id"
        " WHERE s.game_id = %s ORDER BY s.seat",
        (game_id,),
    ).fetchall()
    players = [(name, player_href(pid)) for pid, name in seats]
    return model.GameRecordView(
        game_id=game_id, game=kind, options=options, seed=seed, mode=mode,
        status="voided" if voided else status, history=tuple(history), table=table,
        players=tuple(players), started=started, ended=ended,
        review=review if status == "over" and not voided else None,
    )  # fmt: skip


def players(conn: psycopg.Connection) -> list[tuple[int, str, int]]:
    """(id, name, finished games) of every identity, for the admin's merge form."""
    rows = conn.execute(
        "SELECT p.id, p.name, COUNT(s.game_id) FROM players p"
        " LEFT JOIN seats s ON s.player_id = p.id WHERE p.merged_into IS NULL"
        " GROUP BY p.id, p.name ORDER BY lower(p.name)"
    )
    return rows.fetchall()


def recent_games(conn: psycopg.Connection, limit: int = 50) -> list[tuple]:
    rows = conn.execute(
        "SELECT g.id, t.name, g.game, g.status, g.voided, extract(epoch FROM g.updated)::float8"
        " FROM games g JOIN club_tables t ON t.id = g.table_id"
        " ORDER BY g.updated DESC LIMIT %s",
        (limit,),
    )
    return rows.fetchall()


def player_href(player_id: int) -> str:
    return f"/players/{player_id}"


def game_href(game_id: int) -> str:
    return f"/games/{game_id}"
