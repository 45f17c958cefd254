"""`tabletop bench club`: a festival against a real club server, on loopback addresses only.

100 tables each finish a game every 10 simulated minutes for 50 hours (30,000 games). Each
table is a real Store and outbox in a temporary directory (its disk writes unsynchronised: the
club is measured, not the table's SD card) pushing to `tabletop club serve` started as a
separate process on a throw-away PostgreSQL (or --db). The games are real: a pool of full
games per kind is played once (kept in ~/.cache/tabletop, keyed by the seed and the engines'
code) and dealt to the tables with their own players, and the server replays every one it
receives. The pool's players mostly take the action that puts them furthest ahead (random play
makes games far longer than people play them). Each round every table finishes a game and
pushes it, eight tables at a time, so the tables' work and the club's overlap as at a real
festival. Figures:
- push_games_per_s: games acknowledged per second of the festival (tables playing and pushing);
- catch_up_s: the network cut for the last simulated hour (six games a table waiting, the
  tables' back-off at its ceiling), then restored: seconds until every game is acknowledged,
  the tables' own retry waits included (target <= 60 s);
- standings_p95_ms and player_page_p95_ms over every game kind and many players, the festival's
  games all in (target <= 200 ms);
- wall_s: the whole run, fuzzing included.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import itertools
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from club.cli import missing_extra

T = TypeVar("T")

TARGET_CATCH_UP_S = 60.0
TARGET_PAGE_P95_MS = 200.0
STEP_S = 600.0  # a game every 10 minutes at each table
KINDS = {  # game: players at the table
    "struggle": 3,
    "sequence": 4,
    "strategix": 3,
    "roudalon": 4,
    "traverse": 2,
}
POOL_PER_KIND = 24
GREEDY_MISS = 0.2  # how often a pool player picks any legal action instead of the best-looking
FUZZ_REQUESTS = 10_000
FUZZ_SENDERS = 4
TABLE_WORKERS = 8  # tables playing and pushing at once
BENCH_ADDRESS_RATE = 100_000  # every table is on 127.0.0.1 here: the per-address limit is moot
DEAD_URL = "http://127.0.0.1:9"  # the discard port: nothing listens, the network is 'cut'


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "club", help="a festival against a real club server: push rate, catch-up, page latency"
    )
    parser.add_argument("--tables", type=int, default=100, help="tables (default 100)")
    parser.add_argument("--hours", type=float, default=50, help="festival length (default 50)")
    parser.add_argument("--outage-hours", type=float, default=1, help="network cut (default 1)")
    parser.add_argument("--db", help="an empty PostgreSQL database (default: a throw-away one)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--fuzz", type=int, default=FUZZ_REQUESTS,
        help=f"hostile requests generated at the end (default {FUZZ_REQUESTS}; 0: none)",
    )  # fmt: skip
    parser.add_argument(
        "--pool-cache", type=Path, default=default_cache(),
        help="where the pool of played games is kept between runs (default %(default)s)",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        import psycopg  # noqa: F401

        from club.scratchpg import ScratchPostgres, ScratchUnavailable
    except ModuleNotFoundError as error:
        return missing_extra("bench club", error)
    scratch = None
    start = time.perf_counter()
    try:
        if not args.db:
            scratch = ScratchPostgres()
        url = args.db or scratch.new_database()
        figures = Festival(args, url).run()
    except (ScratchUnavailable, RuntimeError) as error:
        print(f"bench club: {error}")
        return 2
    finally:
        if scratch is not None:
            scratch.stop()
    figures["wall_s"] = round(time.perf_counter() - start, 1)
    print(json.dumps(figures) if args.json else _lines(figures))
    return 0


def _lines(f: dict) -> str:
    catch = "ok" if f["catch_up_s"] <= TARGET_CATCH_UP_S else "over target"
    pages = max(f["standings_p95_ms"], f["player_page_p95_ms"])
    page_verdict = "ok" if pages <= TARGET_PAGE_P95_MS else "over target"
    return (
        f"{f['tables']} tables, {f['games']} games ({f['hours']} h simulated)\n"
        f"push: {f['push_games_per_s']} games/s\n"
        f"catch-up after {f['outage_games']} games held by a {f['outage_hours']} h outage: "
        f"{f['catch_up_s']} s ({catch}; target <= {TARGET_CATCH_UP_S:.0f} s)\n"
        f"pages p95: standings {f['standings_p95_ms']} ms, player {f['player_page_p95_ms']} ms "
        f"({page_verdict}; target <= {TARGET_PAGE_P95_MS:.0f} ms)\n"
        f"fuzzing: {f['fuzz_requests']} generated requests, {f['server_errors']} server errors\n"
        f"wall time: {f['wall_s']} s"
    )


class Festival:
    def __init__(self, args: argparse.Namespace, db_url: str) -> None:
        self.args = args
        self.db_url = db_url
        self.rng = random.Random(args.seed)
        self.work = Path(tempfile.mkdtemp(prefix="bench-club-"))
        self.server: subprocess.Popen | None = None
        self.lanes = Lanes(TABLE_WORKERS)

    def run(self) -> dict:
        from club.scratchpg import free_port

        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        try:
            tokens = self._tokens()
            say(f"starting the club server on {self.url}")
            self.server = self._start_server(port)
            pool = cached_pool(self.args.seed, self.args.pool_cache)

            def table(n: int) -> BenchTable:
                directory = self.work / f"t{n:03d}"
                return BenchTable(n, directory, self.url, tokens[n], pool, self.args.seed)

            tables = self.lanes.each(table, range(self.args.tables))
            steps = round(self.args.hours * 3600 / STEP_S)
            outage = min(steps, round(self.args.outage_hours * 3600 / STEP_S))
            pushed, push_time = self._play(tables, steps - outage)
            catch_up, held = self._outage(tables, outage)
            standings, players = self._pages(tables)
            fuzz_requests, server_errors = self._fuzz(tokens)
        finally:
            self.lanes.close()
            if self.server is not None:
                stop_server(self.server)
            shutil.rmtree(self.work, ignore_errors=True)  # the tables' stores, the server's log
        return {
            "tables": self.args.tables,
            "games": sum(t.games for t in tables),
            "hours": self.args.hours,
            "push_games_per_s": round(pushed / push_time, 1) if push_time else 0.0,
            "catch_up_s": round(catch_up, 1),
            "outage_hours": self.args.outage_hours,
            "outage_games": held,
            "standings_p95_ms": standings,
            "player_page_p95_ms": players,
            "fuzz_requests": fuzz_requests,
            "server_errors": server_errors,
        }

    def _tokens(self) -> list[str]:
        from club import league
        from club.db import open_pool

        pool = open_pool(self.db_url, size=2)
        try:
            with pool.connection() as conn:
                return [league.add_table(conn, f"Table {n:03d}") for n in range(self.args.tables)]
        finally:
            pool.close()

    def _start_server(self, port: int) -> subprocess.Popen:
        command = [sys.executable, "-m", "tabletop", "club", "serve", "--db", self.db_url,
                   "--host", "127.0.0.1", "--port", str(port), "--name", "Festival",
                   "--address-rate", str(BENCH_ADDRESS_RATE)]  # fmt: skip
        log = open(self.work / "server.log", "w")  # noqa: SIM115 - closed with the process
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2):
                    return server
            except OSError:
                if server.poll() is not None:
                    break
                time.sleep(0.2)
        server.kill()
        raise RuntimeError(
            f"the club server did not start: {(self.work / 'server.log').read_text()}"
        )

    def _fuzz(self, tokens: list[str]) -> tuple[int, int]:
        """Generated hostile requests (club.fuzz) against the server, the tables' tokens in
        turn; returns (requests sent, server errors)."""
        if self.args.fuzz <= 0:
            return 0, 0
        try:
            from club.fuzz import FuzzReport, fuzz
        except ModuleNotFoundError as error:
            raise RuntimeError(f"fuzzing needs {error.name} (pip install '.[test]')") from None
        say(f"fuzzing: {self.args.fuzz} generated requests")

        def progress(report: FuzzReport) -> None:
            if report.requests % 1000 == 0:
                say(f"fuzzing: {report.requests} sent, {report.server_errors} server errors")

        send = _sender(self.url, tokens)
        report = fuzz(send, self.args.fuzz, self.args.seed, FUZZ_SENDERS, progress)
        for example in report.first_errors:
            say(f"fuzzing: server error on {example}")
        return report.requests, report.server_errors

    def _play(self, tables: list[BenchTable], steps: int) -> tuple[int, float]:
        """Each round every table finishes a game and pushes it; returns (games acknowledged,
        seconds)."""
        pushed = 0
        say(f"festival: {steps} rounds of {len(tables)} games")
        start = time.perf_counter()
        for step in range(steps):
            if step and step % max(1, steps // 10) == 0:
                say(f"festival: round {step}/{steps}, {pushed} games acknowledged")
            pushed += sum(self.lanes.each(BenchTable.play_and_sync, tables))
        return pushed, time.perf_counter() - start

    def _outage(self, tables: list[BenchTable], steps: int) -> tuple[float, int]:
        """Games logged while the club is unreachable, then the seconds to catch up."""
        for table in tables:
            table.pusher.endpoint = DEAD_URL + "/api/push"
        for _ in range(steps):
            self.lanes.each(BenchTable.play_and_sync, tables)
        held = sum(table.outbox.pending() for table in tables)
        say(f"outage: {held} games wait in the outboxes; the network comes back")
        # The tables now run in real time, still cut off long enough for their retries to be
        # spread over the back-off as after a real hour; then the network comes back.
        from companion.persistence.outbox import BACKOFF_MAX_S

        stop = threading.Event()
        threads = [threading.Thread(target=t.loop, args=(stop,), daemon=True) for t in tables]
        for table in tables:
            table.go_real_time()
        for thread in threads:
            thread.start()
        time.sleep(BACKOFF_MAX_S * 1.2)
        start = time.perf_counter()
        for table in tables:
            table.pusher.endpoint = self.url + "/api/push"
        while any(table.outbox.pending() for table in tables):
            if time.perf_counter() - start > 20 * TARGET_CATCH_UP_S:
                break
            time.sleep(0.1)
        catch_up = time.perf_counter() - start
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        return catch_up, held

    def _pages(self, tables: list[BenchTable]) -> tuple[float, float]:
        from club import reads
        from club.db import open_pool

        pool = open_pool(self.db_url, size=2)
        with pool.connection() as conn:
            ids = [pid for pid, _, _ in reads.players(conn)]
        pool.close()
        say("pages: standings and player pages timed")
        _get(f"{self.url}/standings/struggle")  # the first page waits for the ratings
        standings = [_timed(f"{self.url}/standings/{kind}") for kind in KINDS for _ in range(40)]
        chosen = [self.rng.choice(ids) for _ in range(200)]
        players = [_timed(f"{self.url}/players/{pid}") for pid in chosen]
        return _p95(standings), _p95(players)


def stop_server(server: subprocess.Popen, patience_s: float = 60.0) -> None:
    """SIGTERM (the server closes its workers and database, then exits), killed if it hangs."""
    server.terminate()
    try:
        server.wait(timeout=patience_s)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


class Lanes:
    """Threads the tables are spread over, each table always served by the same one (a table's
    SQLite connection stays in the thread that opened it); a table's jobs run in order."""

    def __init__(self, count: int) -> None:
        self.threads = [ThreadPoolExecutor(max_workers=1) for _ in range(count)]

    def each(self, job: Callable[[Any], T], items: Iterable[Any]) -> list[T]:
        """job(item) for every item, item number n always in thread n % count; waits for all."""
        lanes = itertools.cycle(self.threads)
        return [done.result() for done in [next(lanes).submit(job, item) for item in items]]

    def close(self) -> None:
        for thread in self.threads:
            thread.shutdown(cancel_futures=True)


class BenchTable:
    """One festival table: its Store and outbox, its regular players, games dealt from a pool."""

    def __init__(self, number, directory, url, token, pool, seed) -> None:
        from companion.persistence.outbox import Outbox, Pusher
        from companion.persistence.store import Store

        self.store = Store(directory)
        self.store.db.execute("PRAGMA synchronous=OFF")
        self.store.persistent = False  # no checkpoint after each action: the club is measured
        self.outbox = Outbox(directory)
        self.outbox.db.execute("PRAGMA synchronous=OFF")
        # Its own generator: the tables play in threads, the deal must not depend on their order.
        rng = random.Random(f"bench-club:table:{seed}:{number}")
        self.sim_now = 1_780_000_000.0
        self.offset: float | None = None
        self.pusher = Pusher(self.outbox, url, token, clock=self.clock, timeout_s=30)
        self.kinds = list(KINDS)[number % len(KINDS) :] + list(KINDS)[: number % len(KINDS)]
        self.people = [f"Player {rng.randrange(400):03d}" for _ in range(8)]
        self.pool = pool
        self.rng = rng
        self.games = 0

    def clock(self) -> float:
        return self.sim_now if self.offset is None else time.time() + self.offset

    def go_real_time(self) -> None:
        self.offset = self.sim_now - time.time()

    def play_game(self) -> None:
        self.sim_now += STEP_S
        kind = self.kinds[self.games % len(self.kinds)]
        seed, history, scores, winners = self.rng.choice(self.pool[kind])
        players = self.rng.sample(sorted(set(self.people)), KINDS[kind])
        game_id = self.store.start_game(kind, players, {}, seed, "full")
        for notation in history:
            self.store.append(game_id, notation)
        self.store.finish(game_id, scores, winners)
        self.games += 1

    def sync(self) -> int:
        self.outbox.collect(now=self.clock())
        return self.pusher.push_due().acknowledged

    def play_and_sync(self) -> int:
        self.play_game()
        return self.sync()

    def loop(self, stop: threading.Event) -> None:
        while not stop.is_set():
            self.sync()
            stop.wait(1.0)


def default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "tabletop"


def cached_pool(seed: int, cache_dir: Path) -> dict[str, list]:
    """game_pool(seed), read from `cache_dir` when it was played with this very code (the
    engines' and this bench's sources), else played now and kept there."""
    path = cache_dir / f"bench-club-pool-{seed}-{_code_version()}.json"
    try:
        return {kind: [tuple(game) for game in games] for kind, games in _read_json(path).items()}
    except (OSError, ValueError, TypeError, AttributeError):
        pass  # none yet, or unreadable: play it again
    say(f"playing a pool of {POOL_PER_KIND} games per kind")
    pool = game_pool(seed)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        for stale in cache_dir.glob(f"bench-club-pool-{seed}-*.json"):
            stale.unlink()  # played with other code: never read again
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(pool), encoding="utf-8")
        partial.replace(path)
    except OSError as error:  # a read-only home: the run goes on without a cache
        say(f"the pool is not kept ({error})")
    return pool


def _read_json(path: Path) -> dict:
    found = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(found, dict) or set(found) != set(KINDS):
        raise ValueError(f"{path} is not a pool of every kind")
    return found


def _code_version() -> str:
    """A digest of the code the pool depends on: the engines and the players that play it."""
    import engines

    digest = hashlib.sha256()
    found = Path(engines.__file__).parent.rglob("*")
    for source in sorted(f for f in found if f.is_file() and "__pycache__" not in f.parts):
        digest.update(source.read_bytes())
    players = inspect.getsource(game_pool) + inspect.getsource(_choose)
    digest.update(f"{players}{KINDS}{POOL_PER_KIND}{GREEDY_MISS}".encode())
    return digest.hexdigest()[:16]


def game_pool(seed: int) -> dict[str, list[tuple[int, list[str], list[int], list[int]]]]:
    """Full games per kind, (seed, log, scores, winners), played by goal-directed players."""
    import engines

    pool: dict[str, list] = {}
    for kind, count in KINDS.items():
        names = [f"p{i}" for i in range(count)]
        for index in range(POOL_PER_KIND):
            game_seed = seed * 1000 + index
            rng = random.Random(f"bench-club:{kind}:{game_seed}")
            state = engines.make_game(kind, names, {}, game_seed, "full").new_state()
            while not state.is_over:
                if state.is_chance:
                    state.play_chance()
                else:
                    state.apply(_choose(state, rng), validate=False)
            history = [a.notation for a in state.history]
            pool.setdefault(kind, []).append((game_seed, history, state.scores(), state.winners()))
    return pool


def _choose(state, rng: random.Random):
    """Mostly the action that puts the player furthest ahead at once, sometimes any: people
    play to win, and random play makes games far longer than real ones (a random Traverse game
    runs to ~2,000 actions, a greedy one ~100)."""
    legal = state.legal_actions()
    if len(legal) == 1 or rng.random() < GREEDY_MISS:
        return rng.choice(legal)
    me = state.actor

    def lead(action) -> float:
        after = state.clone()
        after.apply(action, validate=False)
        scores = after.scores()
        others = max(v for i, v in enumerate(scores) if i != me)
        return scores[me] - others + rng.random() / 1000

    return max(legal, key=lead)


def say(text: str) -> None:
    """Progress, on stderr (stdout keeps the figures alone, for --json)."""
    print(f"bench club: {text}", file=sys.stderr, flush=True)


def _sender(url: str, tokens: list[str]) -> Callable[[str, str, bytes], int]:
    """send(method, path, body) -> the HTTP status, 599 when the server did not answer."""
    turns = itertools.count()

    def send(method: str, path: str, body: bytes) -> int:
        headers = {"Authorization": f"Bearer {tokens[next(turns) % len(tokens)]}"}
        if path.startswith("/admin"):
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        data = body if method == "POST" else None
        request = urllib.request.Request(url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                answer.read()
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code
        except (OSError, ValueError):  # no answer at all: worse than a 500
            return 599

    return send


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read()


def _timed(url: str) -> float:
    start = time.perf_counter()
    _get(url)
    return (time.perf_counter() - start) * 1000


def _p95(samples: list[float]) -> float:
    return round(statistics.quantiles(samples, n=20)[-1], 1) if len(samples) > 1 else 0.0
