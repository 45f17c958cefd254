"""A real PostgreSQL for the club's tests: one server per test session, one database per test.

The server is Debian's `postgresql` package (installed with apt-get when missing and we are
root, as on CI's fresh machine), run from a temporary directory with initdb and pg_ctl. As
root it runs as the `postgres` system user (PostgreSQL refuses to run as root). Where none of
this is possible the tests skip, saying why.
"""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import subprocess
from functools import cache

import pytest

from club.scratchpg import ScratchPostgres, ScratchUnavailable, bin_dir, free_port


def _install() -> None:
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise ScratchUnavailable("PostgreSQL is not installed (apt-get install postgresql)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    command = ["apt-get", "install", "-y", "--no-install-recommends", "postgresql"]
    if subprocess.run(command, env=env, capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "update"], env=env, capture_output=True)
        result = subprocess.run(command, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise ScratchUnavailable(f"apt-get install postgresql failed: {result.stderr[-300:]}")


@cache
def _server() -> ScratchPostgres | str:
    try:
        if bin_dir() is None:
            _install()
        server = ScratchPostgres()
    except (ScratchUnavailable, OSError) as error:
        return str(error)
    atexit.register(server.stop)
    return server


def postgres() -> ScratchPostgres:
    """The session's server; skips the calling test when there cannot be one."""
    server = _server()
    if isinstance(server, str):
        pytest.skip(f"no PostgreSQL for the club's tests: {server}")
    return server


# ----- a real browser for the club's pages ------------------------------------------------


def _browser_binaries() -> tuple[str, str]:
    browser, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if browser and driver:
        return browser, driver
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.skip("chromium and chromedriver are not installed (apt-get install chromium "
                    "chromium-driver) and we are not root to install them")  # fmt: skip
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    command = ["apt-get", "install", "-y", "--no-install-recommends", "chromium", "chromium-driver"]
    if subprocess.run(command, env=env, capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "update"], env=env, capture_output=True)
        if subprocess.run(command, env=env, capture_output=True).returncode != 0:
            pytest.skip("apt-get could not install chromium and chromium-driver")
    browser, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not (browser and driver):
        pytest.skip("chromium or chromedriver still missing after apt-get install")
    return browser, driver


def headless_chromium(window: tuple[int, int]):
    """Debian's chromium through selenium, headless, for a module's fixture (yields the
    driver, quits it after); skips when it cannot run here."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    binary, driver_path = _browser_binaries()
    options = Options()
    options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 f"--window-size={window[0]},{window[1]}", "--lang=en"):  # fmt: skip
        options.add_argument(flag)
    try:
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
    except Exception as error:  # a driver that cannot start its browser here
        pytest.skip(f"chromium could not start headless: {str(error).splitlines()[0]}")
    yield driver
    driver.quit()


# ----- games and servers for the club's tests ----------------------------------------------


def random_game(name: str, players: list[str], seed: int, stop_after: int | None = None):
    """A full-mode game played by random legal choices (seeded), as an engine state."""
    import random

    import engines

    rng = random.Random(f"club-test:{seed}")
    state = engines.make_game(name, players, {}, seed, "full").new_state()
    while not state.is_over and (stop_after is None or len(state.history) < stop_after):
        if state.is_chance:
            state.play_chance()
        else:
            state.apply(rng.choice(state.legal_actions()), validate=False)
    return state


def play_into_store(store, name: str, players: list[str], seed: int, stop_after=None) -> int:
    """Log a random game in a table's Store as the kiosk would; returns its game id."""
    state = random_game(name, players, seed, stop_after)
    game_id = store.start_game(name, players, {}, seed, "full")
    for action in state.history:
        store.append(game_id, action.notation)
    if state.is_over:
        store.finish(game_id, state.scores(), state.winners())
    return game_id


def payload(state, game_id: int, revision: int = 1, status: str | None = None) -> dict:
    """The snapshot a table's outbox would push for an engine state."""
    return {
        "game_id": game_id, "revision": revision, "game": state.game.name,
        "players": list(state.players), "options": dict(state.game.option_values),
        "seed": state.game.seed, "mode": state.game.mode,
        "status": status or ("over" if state.is_over else "playing"),
        "history": [a.notation for a in state.history], "started": 1_700_000_000.0 + game_id,
        "ended": 1_700_000_600.0 + game_id if state.is_over else None,
        "updated": 1_700_000_600.0 + game_id,
    }  # fmt: skip


class LiveServer:
    """The club's app under uvicorn in a thread, on a loopback port; restartable."""

    def __init__(self, url: str, port: int | None = None) -> None:
        self.db_url = url
        self.port = port or free_port()
        self.thread = None
        self.server = None
        self.club = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        import threading
        import time

        import uvicorn

        from club.app import Club, create_app
        from club.db import open_pool

        self.club = Club(open_pool(self.db_url), site="Test club")
        config = uvicorn.Config(
            create_app(self.club), host="127.0.0.1", port=self.port, log_level="error",
            lifespan="off",
        )  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the club server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.should_exit = True
            self.thread.join(timeout=20)
            self.club.close()
            self.club.pool.close()
            self.server = None


class CuttableProxy:
    """A loopback TCP proxy to `target_port` whose network can be cut and restored."""

    def __init__(self, target_port: int) -> None:
        import threading

        self.target = target_port
        self.port = free_port()
        self._connections: list[socket.socket] = []
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self.restore()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def restore(self) -> None:
        import threading

        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        """Refuse new connections and break the open ones, like a cable pulled out."""
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        with self._lock:
            for conn in self._connections:
                try:
                    conn.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                conn.close()
            self._connections.clear()

    def _accept(self, listener: socket.socket) -> None:
        import threading

        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=5)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._connections += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
