"""POST /api/push: a table's games in, each replayed and stored once; GET /api/players.

A push is {"games": [game, ...]} (at most MAX_GAMES), answered with one result per game:
stored, duplicate (this revision was seen), older (a newer revision is kept) or refused (with
the reason; the table should not send that revision again). The body's schema is checked before
the database is touched (club.body): 400 for a body that is not one, 413 for one too large, and
a game that is unfit is refused alone while the rest of its batch is stored. 401 for a bad
token, 429 with Retry-After when a table or an address pushes too often.
"""

from __future__ import annotations

import logging
from typing import Any

import psycopg
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from club import league, reads
from club.body import MAX_BODY, BadBody, text_problem
from club.body import games as body_games
from club.replay import CheckedGame, RefusedGame, check

log = logging.getLogger(__name__)


async def push(request: Request) -> JSONResponse:
    club = request.app.state.club
    address = request.client.host if request.client else "?"
    wait = club.address_limit.allow(address)
    if wait:
        return _too_many(wait)
    token = _bearer(request)
    table_id = await run_in_threadpool(_table, club, token) if token else None
    if table_id is None:
        wait = club.failure_limit.allow(address)
        return _too_many(wait) if wait else _error(401, "unknown or revoked table token")
    wait = club.push_limit.allow(f"table:{table_id}")
    if wait:
        return _too_many(wait)
    body = await _body(request)
    if body is None:
        return _error(413, f"a push is at most {MAX_BODY} bytes")
    try:
        results = await run_in_threadpool(_checked_and_stored, club, table_id, body)
    except BadBody as error:
        return _error(error.status, str(error))
    return JSONResponse({"results": results})


def _table(club: Any, token: str) -> int | None:
    with club.pool.connection() as conn:
        return league.table_for_token(conn, token)


def _checked_and_stored(club: Any, table_id: int, body: bytes) -> list[dict[str, Any]]:
    """The body's games stored (one trip to a worker thread); BadBody when it is not a push."""
    return _store_all(club, table_id, body_games(body))


def _store_all(club: Any, table_id: int, games: list[Any]) -> list[dict[str, Any]]:
    keys = [_key(payload) for payload in games]
    unfit = [text_problem(payload) for payload in games]
    pairs = [(key["game_id"], key["revision"]) for key in keys]
    with club.pool.connection() as conn:
        # A revision seen already is acknowledged without replaying it again.
        known = league.seen(conn, table_id, pairs)
    fresh = [not problem and pair not in known for pair, problem in zip(pairs, unfit, strict=True)]
    checked = club.replay([p for p, new in zip(games, fresh, strict=True) if new])
    results = []
    with club.pool.connection() as conn:
        for key, problem, new in zip(keys, unfit, fresh, strict=True):
            if problem:
                results.append({**key, "outcome": "refused", "error": problem})
            elif not new:
                results.append({**key, "outcome": "duplicate"})
            else:
                results.append({**key, **_stored(conn, table_id, next(checked))})
        if any(result["outcome"] in ("stored", "older") for result in results):
            league.pushed(conn, table_id)
    if any(result["outcome"] == "stored" for result in results):
        club.ratings.changed()
    return results


def _stored(conn: Any, table_id: int, game: CheckedGame | RefusedGame) -> dict[str, str]:
    if isinstance(game, RefusedGame):
        return {"outcome": "refused", "error": str(game)}
    try:
        return {"outcome": league.ingest(conn, table_id, game)}
    except psycopg.DataError as error:  # the schema should have caught it: say so in the log
        log.warning("game %s of table %s not storable: %s", game.local_id, table_id, error)
        return {"outcome": "refused", "error": "the club's database cannot hold this game"}


def _key(payload: Any) -> dict[str, Any]:
    """The game's id and revision to echo: only whole numbers in range, else null."""
    found = payload if isinstance(payload, dict) else {}
    return {key: _whole_or_none(found.get(key)) for key in ("game_id", "revision")}


def _whole_or_none(value: Any) -> int | None:
    fits = type(value) is int and 0 < value <= 2**62
    return value if fits else None


def replayed(payload: Any) -> CheckedGame | RefusedGame:
    """check() as a value (for a pool of processes): the game, or why it is refused."""
    try:
        return check(payload)
    except RefusedGame as error:
        return error
    except Exception as error:  # an engine tripped on odd set-up values: refuse, never crash
        log.warning("replay failed on a pushed game: %r", error)
        return RefusedGame(f"the game cannot be replayed ({type(error).__name__})")


def _bearer(request: Request) -> str:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


async def _body(request: Request) -> bytes | None:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _too_many(wait: float) -> JSONResponse:
    headers = {"Retry-After": str(max(1, round(wait + 0.5)))}
    return JSONResponse({"error": "too many requests"}, status_code=429, headers=headers)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def players(request: Request) -> JSONResponse:
    """Every club player's name, for a table to offer (needs a table token)."""
    club = request.app.state.club
    token = _bearer(request)
    with club.pool.connection() as conn:
        if not token or league.table_for_token(conn, token) is None:
            return _error(401, "unknown or revoked table token")
        names = [name for _, name, _ in reads.players(conn)]
    return JSONResponse({"players": names})
