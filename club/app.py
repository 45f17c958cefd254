"""The club server's web application: public read-only pages, the push API, the admin pages.

Starlette (a small, maintained ASGI toolkit) serves Jinja2 pages rendered on the server; the
database calls are synchronous psycopg, run in Starlette's thread pool.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from psycopg_pool import ConnectionPool
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from club import admin, api, reads
from club.ratings import RatingCache
from club.security import RateLimiter, Sessions
from pages import model, replay
from pages.web import SECURITY_HEADERS, language, not_found, page, static_mount

LIVE_REFRESH_S = 30
# A game's page runs one script, the replay's, from this server (pages/static/replay.js).
REPLAY_POLICY = SECURITY_HEADERS["Content-Security-Policy"].replace(
    "default-src 'none';", "default-src 'none'; script-src 'self';"
)


@dataclass
class Club:
    """What every request needs: the database, the ratings, sessions and limits."""

    pool: ConnectionPool
    site: str = "Club"
    ratings: RatingCache = field(init=False)
    sessions: Sessions = field(init=False)
    push_limit: RateLimiter = field(default_factory=lambda: RateLimiter(rate=20, burst=60))
    address_limit: RateLimiter = field(default_factory=lambda: RateLimiter(rate=50, burst=200))
    failure_limit: RateLimiter = field(default_factory=lambda: RateLimiter(rate=0.2, burst=10))
    replay_workers: int = 0  # processes replaying pushed games (0: in the request's thread)
    _replayers: ProcessPoolExecutor | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.ratings = RatingCache(self._finished, self._rating_rows)
        self.sessions = Sessions(self.pool)
        if self.replay_workers > 0:
            # Replaying is pure Python and CPU-bound: processes use every core, threads one.
            context = multiprocessing.get_context("spawn")  # no fork of a threaded server
            self._replayers = ProcessPoolExecutor(
                self.replay_workers, mp_context=context, initializer=_leave_interrupts
            )

    def replay(self, payloads: list) -> Iterator:
        """Each payload checked (CheckedGame or RefusedGame), in order."""
        if self._replayers is None:
            return iter([api.replayed(payload) for payload in payloads])
        return self._replayers.map(api.replayed, payloads)

    def _finished(self) -> dict[int, int]:
        with self.pool.connection() as conn:
            return reads.finished_revisions(conn)

    def _rating_rows(self, games: list[int] | None) -> list:
        with self.pool.connection() as conn:
            return reads.rating_rows(conn, games)

    def close(self) -> None:
        """Stop the ratings thread and the replay workers (waiting for them to end)."""
        self.ratings.close()
        if self._replayers is not None:
            self._replayers.shutdown(wait=True, cancel_futures=True)
            self._replayers = None


def _leave_interrupts() -> None:
    """In a replay worker: Ctrl-C reaches the whole process group, but the server stops its
    workers itself (a worker interrupted mid-game would only print a traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _page(request: Request, template: str, status: int = 200, **context) -> HTMLResponse:
    club: Club = request.app.state.club
    return page(request, template, club.site, status=status, is_club=True, **context)


def index(request: Request) -> Response:
    club: Club = request.app.state.club
    with club.pool.connection() as conn:
        rows = reads.overall(conn)
        kinds = reads.game_kinds(conn)
        live_count = len(reads.live(conn))
    return _page(request, "index.html", rows=rows, kinds=kinds, live_count=live_count)


def standings(request: Request) -> Response:
    club: Club = request.app.state.club
    kind = request.path_params["game"]
    book = club.ratings.book()
    with club.pool.connection() as conn:
        if kind not in reads.game_kinds(conn):
            return not_found(request, club.site, is_club=True)
        rows = reads.standings(conn, kind, book)
    return _page(request, "standings.html", kind=kind, rows=rows, with_rating=True)


def player(request: Request) -> Response:
    club: Club = request.app.state.club
    book = club.ratings.book()
    with club.pool.connection() as conn:
        found = reads.player(conn, request.path_params["player"], book)
    if found is None:
        return not_found(request, club.site, is_club=True)
    return _page(request, "player.html", page=found, with_rating=True)


def live(request: Request) -> Response:
    club: Club = request.app.state.club
    with club.pool.connection() as conn:
        tables = reads.live(conn)
    return _page(request, "live.html", tables=tables, refresh=LIVE_REFRESH_S)


def game(request: Request) -> Response:
    club: Club = request.app.state.club
    with club.pool.connection() as conn:
        record = reads.record(conn, request.path_params["game"])
    if record is None:
        return not_found(request, club.site, is_club=True)
    lang = language(request)
    moves = model.moves(record, lang)
    shown = _move_asked(request, len(moves))
    review = None
    if record.review is not None:
        names = [name for name, _ in record.players]
        review = {"chances": replay.chances(record.review, names),
                  "players": replay.players(record.review, record, lang)}  # fmt: skip
    board_src = f"{reads.game_href(record.game_id)}/board/"
    response = _page(request, "game.html", record=record, moves=moves, shown=shown,
                     board_src=board_src, review=review)  # fmt: skip
    response.headers["Content-Security-Policy"] = REPLAY_POLICY  # its one script: the replay
    return response


def _move_asked(request: Request, moves: int) -> int:
    """?move=N (0: the set-up, before any action), else the last; kept within the game."""
    asked = request.query_params.get("move", "")
    return min(int(asked), moves) if asked.isdigit() and len(asked) < 7 else moves


def board(request: Request) -> Response:
    """The board after the game's first N actions, as a PNG (drawn by display.boards)."""
    club: Club = request.app.state.club
    with club.pool.connection() as conn:
        record = reads.record(conn, request.path_params["game"])
    move = request.path_params["move"]
    if record is None or move > len(record.history):
        return not_found(request, club.site, is_club=True)
    picture = replay.board_png(record, move, language(request))
    if picture is None:
        return not_found(request, club.site, is_club=True)
    return Response(picture, media_type="image/png", headers={"Cache-Control": "max-age=60"})


def health(request: Request) -> Response:
    club: Club = request.app.state.club
    with club.pool.connection() as conn:
        conn.execute("SELECT 1")
    return PlainTextResponse("ok")


def create_app(club: Club) -> Starlette:
    routes = [
        Route("/", index),
        Route("/standings/{game:str}", standings),
        Route("/players/{player:int}", player),
        Route("/live", live),
        Route("/games/{game:int}", game),
        Route("/games/{game:int}/board/{move:int}.png", board),
        Route("/healthz", health),
        Route("/api/push", api.push, methods=["POST"]),
        Route("/api/players", api.players),
        *admin.routes(),
        static_mount(),
    ]

    async def missing(request: Request, exc: Exception) -> Response:
        return not_found(request, club.site, is_club=True)

    app = Starlette(routes=routes, exception_handlers={404: missing})
    app.state.club = club
    return app
