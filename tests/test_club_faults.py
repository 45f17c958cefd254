"""Five tables push their games while the network to the club is cut and restored and the club
server is restarted mid-push: afterwards the club holds every game exactly once and its
standings are those of the tables' own scorebooks."""

from __future__ import annotations

import threading
import time
from collections import Counter

import pytest

pytest.importorskip("psycopg", reason="the club extra is not installed")

from club import league, reads  # noqa: E402
from companion.persistence.outbox import Outbox, Pusher  # noqa: E402
from companion.persistence.store import Store  # noqa: E402
from tests.club_support import CuttableProxy, LiveServer, postgres, random_game  # noqa: E402

PEOPLE = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
GAMES = ("sequence", "struggle", "strategix")
STEP = 40  # actions a table logs between two syncs


class SimulatedTable:
    """A table's store and outbox, playing scripted games a few actions at a time."""

    def __init__(self, number: int, directory, url: str, token: str) -> None:
        self.number = number
        self.store = Store(directory)
        self.outbox = Outbox(directory, live_interval_s=0)
        self.now = [1_000.0]
        self.pusher = Pusher(self.outbox, url, token, batch=4, timeout_s=3,
                             clock=lambda: self.now[0])  # fmt: skip
        self.scripts = [self._script(index) for index in range(3)]
        self.current: tuple[int, list[str], object] | None = None

    def _script(self, index: int):
        kind = GAMES[(self.number + index) % len(GAMES)]
        count = 2 if kind == "sequence" else 3
        players = [PEOPLE[(self.number + index + k) % len(PEOPLE)] for k in range(count)]
        return random_game(kind, players, seed=100 * self.number + index)

    def play(self) -> bool:
        """Log the next few actions (starting, undoing past the end, abandoning as scripted)."""
        if self.current is None:
            if not self.scripts:
                return False
            state = self.scripts.pop(0)
            game_id = self.store.start_game(state.game.name, list(state.players), {},
                                            state.game.seed, "full")  # fmt: skip
            self.current = (game_id, [a.notation for a in state.history], state)
        game_id, todo, state = self.current
        for notation in todo[:STEP]:
            self.store.append(game_id, notation)
        del todo[:STEP]
        if todo:
            if len(self.scripts) == 1 and self.number % 2 and len(todo) < 3 * STEP:
                self.store.abandon(game_id)  # one game in two tables is left unfinished
                self.current = None
            return True
        self.store.finish(game_id, state.scores(), state.winners())
        if self.number == 0 and not self.scripts:  # the last game: undo past its end, replay
            last = self.store.actions(game_id)[-1].notation
            self.store.reopen(game_id)
            self.store.undo(game_id)
            self.sync()
            self.store.append(game_id, last)
            self.store.finish(game_id, state.scores(), state.winners())
        self.current = None
        return True

    def sync(self) -> None:
        self.now[0] += 600  # every back-off has elapsed by the next sync
        self.outbox.collect()
        self.pusher.push_due()


def _push_all(tables: list[SimulatedTable]) -> None:
    threads = [threading.Thread(target=t.sync) for t in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)


def test_five_tables_through_cuts_and_a_restart_lose_and_double_nothing(tmp_path):
    database = postgres().new_database()
    server = LiveServer(database).start()
    proxy = CuttableProxy(server.port)
    try:
        with server.club.pool.connection() as conn:
            tokens = [league.add_table(conn, f"Table {n}") for n in range(5)]
        tables = [SimulatedTable(n, tmp_path / f"t{n}", proxy.url, tokens[n]) for n in range(5)]
        for round_number in range(200):
            busy = [t.play() for t in tables]
            if round_number == 3:
                proxy.cut()
            if round_number == 6:
                proxy.restore()
            if round_number == 8:  # the server restarts while the tables push
                pushing = threading.Thread(target=_push_all, args=(tables,))
                pushing.start()
                time.sleep(0.05)
                server.stop()
                server = LiveServer(database, port=server.port).start()
                pushing.join()
                continue
            _push_all(tables)
            if not any(busy) and all(t.outbox.pending() == 0 for t in tables):
                break
        assert all(t.outbox.pending() == 0 and not t.outbox.refusals() for t in tables)
        with server.club.pool.connection() as conn:
            stored = conn.execute(
                "SELECT t.name, g.local_id, g.status FROM games g"
                " JOIN club_tables t ON t.id = g.table_id"
            ).fetchall()
            club_totals = _club_totals(conn)
        expected = {
            (f"Table {t.number}", game_id): status
            for t in tables
            for (game_id, status) in t.store.db.execute("SELECT id, status FROM games")
        }
        assert Counter((name, gid) for name, gid, _ in stored) == Counter(list(expected))
        assert {(name, gid): status for name, gid, status in stored} == expected
        assert "abandoned" in expected.values()
        assert club_totals == _tables_totals(tables)
    finally:
        proxy.cut()
        server.stop()
        for table in tables:
            table.outbox.close()
            table.store.close()


def _club_totals(conn) -> dict[tuple[str, str], tuple[int, int, int]]:
    totals = {}
    for kind in reads.game_kinds(conn):
        for row in reads.standings(conn, kind, reads.RatingBook()):
            totals[(kind, row.player)] = (row.games, row.wins, row.total)
    return totals


def _tables_totals(tables) -> dict[tuple[str, str], tuple[int, int, int]]:
    sums: dict[tuple[str, str], list[int]] = {}
    for table in tables:
        for row in table.store.totals():
            entry = sums.setdefault((row.game, row.player), [0, 0, 0])
            for index, value in enumerate((row.games, row.wins, row.total)):
                entry[index] += value
    return {key: tuple(value) for key, value in sums.items()}
