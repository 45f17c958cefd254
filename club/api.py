"""POST /api/push: a table's games in, each replayed and stored once; GET /api/players.

A push is {"games": [game, ...]} (at most MAX_GAMES), answered with one result per game:
stored, duplicate (this revision was seen), older (a newer revision is kept) or refused (with
the reason; the table should not send that revision again). 401 for a bad token, 429 with
Retry-After when a table or an address pushes too often, 413 for a body too large.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from club import league, reads
from club.replay import CheckedGame, RefusedGame, check

MAX_BODY = 8 * 1024 * 1024
MAX_GAMES = 100


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
        games = json.loads(body)["games"]
    except (ValueError, KeyError, TypeError):
        return _error(400, 'expected JSON {"games": [...]}')
    if not isinstance(games, list) or not 1 <= len(games) <= MAX_GAMES:
        return _error(400, f"games must be a list of 1 to {MAX_GAMES} games")
    results = await run_in_threadpool(_store_all, club, table_id, games)
    return JSONResponse({"results": results})


def _table(club: Any, token: str) -> int | None:
    with club.pool.connection() as conn:
        return league.table_for_token(conn, token)


def _store_all(club: Any, table_id: int, games: list[Any]) -> list[dict[str, Any]]:
    keys = [_key(payload) for payload in games]
    with club.pool.connection() as conn:
        # A revision seen already is acknowledged without replaying it again.
        fresh = [not league.seen(conn, table_id, k["game_id"], k["revision"]) for k in keys]
    checked = club.replay([p for p, new in zip(games, fresh, strict=True) if new])
    results = []
    with club.pool.connection() as conn:
        for key, new in zip(keys, fresh, strict=True):
            if not new:
                results.append({**key, "outcome": "duplicate"})
                continue
            game = next(checked)
            if isinstance(game, RefusedGame):
                results.append({**key, "outcome": "refused", "error": str(game)})
            else:
                results.append({**key, "outcome": league.ingest(conn, table_id, game)})
    if any(result["outcome"] == "stored" for result in results):
        club.ratings.changed()
    return results


def _key(payload: Any) -> dict[str, Any]:
    if isinstance(payload, dict):
        return {"game_id": payload.get("game_id"), "revision": payload.get("revision")}
    return {"game_id": None, "revision": None}


def replayed(payload: Any) -> CheckedGame | RefusedGame:
    """check() as a value (for a pool of processes): the game, or why it is refused."""
    try:
        return check(payload)
    except RefusedGame as error:
        return error


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
