"""The table's read-only web page for the phones around it: its scorebook, the game being
played and each game's record, read from the table's SQLite with the same pages as the club's.
Served apart from the kiosk's loop (`tabletop serve-web`), each request with its own connection.
"""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

import engines
from companion.persistence.outbox import refused_games
from companion.persistence.store import GameRecord, Store, StoreError
from engines.core import CHANCE, EngineError
from pages import model
from pages.web import language, not_found, page, static_mount

LIVE_REFRESH_S = 15


def player_href(name: str) -> str:
    return "/players/" + quote(name, safe="")


def standings(store: Store) -> tuple[list[model.Standing], dict[str, list[model.Standing]]]:
    """Overall rows and rows per game kind, from the scorebook's totals."""
    per_game: dict[str, list[model.Standing]] = {}
    overall: dict[str, list[int]] = {}
    for row in store.totals():
        per_game.setdefault(row.game, []).append(
            model.Standing(row.player, player_href(row.player), row.games, row.wins, row.total)
        )
        sums = overall.setdefault(row.player, [0, 0, 0])
        for index, value in enumerate((row.games, row.wins, row.total)):
            sums[index] += value
    rows = [model.Standing(name, player_href(name), *sums) for name, sums in overall.items()]
    return model.ranked(rows), {kind: model.ranked(found) for kind, found in per_game.items()}


def player(store: Store, name: str) -> model.PlayerPage | None:
    if name not in store.scored_players():
        return None
    played = [
        model.Played(f"/games/{row.game_id}", row.game, row.ended, row.score, row.winner,
                     row.opponents)
        for row in store.history(name)
    ]  # fmt: skip
    return model.player_page(name, played, [], {})


def replayed(store: Store, record: GameRecord) -> engines.State | None:
    try:
        state = engines.make_game(
            record.game, list(record.players), record.options, record.seed, record.mode
        ).new_state()
        for logged in store.actions(record.id):
            state.apply(logged.notation)
    except EngineError:
        return None
    return state


def live(store: Store, table: str) -> list[model.LiveTable]:
    record = store.current_game()
    state = None if record is None else replayed(store, record)
    if record is None or state is None:
        return []
    actor = "" if state.actor in (None, CHANCE) else state.players[state.actor]
    scores = tuple(zip(state.players, state.scores(), strict=True))
    moves = len(state.history)
    return [model.LiveTable(table, record.game, scores, actor, time.time(), moves,
                            f"/games/{record.id}")]  # fmt: skip


def record(store: Store, game_id: int) -> model.GameRecordView | None:
    try:
        found = store.game(game_id)
    except StoreError:
        return None
    history = tuple(logged.notation for logged in store.actions(game_id))
    players = tuple((name, player_href(name)) for name in found.players)
    return model.GameRecordView(
        game_id, found.game, found.options, found.seed, found.mode, found.status, history,
        "", players, None, None,
    )  # fmt: skip


def create_app(state_dir: str | Path, table: str = "Table") -> Starlette:
    """The read-only page of the table whose store is in `state_dir`."""

    def show(request: Request, template: str, **context) -> Response:
        return page(request, template, table, is_club=False, **context)

    def index(request: Request) -> Response:
        with Store(state_dir) as store:
            rows, per_game = standings(store)
            live_count = len(live(store, table))
        refused = refused_games(state_dir)
        return show(request, "index.html", rows=rows, kinds=sorted(per_game),
                    live_count=live_count, refused=refused)  # fmt: skip

    def by_game(request: Request) -> Response:
        with Store(state_dir) as store:
            rows = standings(store)[1].get(request.path_params["game"])
        if rows is None:
            return not_found(request, table)
        kind = request.path_params["game"]
        return show(request, "standings.html", kind=kind, rows=rows, with_rating=False)

    def player_page(request: Request) -> Response:
        with Store(state_dir) as store:
            found = player(store, request.path_params["name"])
        if found is None:
            return not_found(request, table)
        return show(request, "player.html", page=found, with_rating=False)

    def live_page(request: Request) -> Response:
        with Store(state_dir) as store:
            tables = live(store, table)
        return show(request, "live.html", tables=tables, refresh=LIVE_REFRESH_S)

    def game_page(request: Request) -> Response:
        with Store(state_dir) as store:
            found = record(store, request.path_params["game"])
        if found is None:
            return not_found(request, table)
        return show(request, "game.html", record=found, moves=model.moves(found, language(request)))

    async def missing(request: Request, exc: Exception) -> Response:
        return not_found(request, table)

    routes = [
        Route("/", index),
        Route("/standings/{game:str}", by_game),
        Route("/players/{name:str}", player_page),
        Route("/live", live_page),
        Route("/games/{game:int}", game_page),
        static_mount(),
    ]
    return Starlette(routes=routes, exception_handlers={404: missing})
