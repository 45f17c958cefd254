"""A throw-away PostgreSQL cluster in a temporary directory, listening on 127.0.0.1 only.

For the tests and `tabletop bench club`: Debian's server binaries run with initdb and pg_ctl,
as the `postgres` system user when we are root (PostgreSQL refuses to run as root).
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SERVER_USER = "postgres"


class ScratchUnavailable(RuntimeError):
    """No cluster can be started here; the message says why."""


def bin_dir() -> Path | None:
    """The newest installed PostgreSQL's bin directory (Debian's layout)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    return Path(found[-1]).parent if found else None


def _version(path: str) -> int:
    part = Path(path).parts[-3]
    return int(part) if part.isdigit() else 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ScratchPostgres:
    """A cluster trusting local connections, fast and unsafe (fsync off): for tests and benches."""

    def __init__(self) -> None:
        found = bin_dir()
        if found is None:
            raise ScratchUnavailable("PostgreSQL is not installed (apt-get install postgresql)")
        self.bin = found
        self.root = Path(tempfile.mkdtemp(prefix="club-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.user = "club"
        self._as_user = self._runner()
        self._run("initdb", "-D", str(self.data), "-U", self.user, "-A", "trust", "-E", "UTF8",
                  "--no-sync", "--locale=C")  # fmt: skip
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l",
                  str(self.root / "log"), "-w", "-t", "60", "start")  # fmt: skip
        self._names = itertools.count(1)

    def _runner(self) -> list[str]:
        if os.geteuid() != 0:
            return []
        try:
            import pwd

            pwd.getpwnam(SERVER_USER)
        except KeyError:
            raise ScratchUnavailable(f"no {SERVER_USER} system user to run PostgreSQL") from None
        shutil.chown(self.root, SERVER_USER)
        os.chmod(self.root, 0o755)
        return ["runuser", "-u", SERVER_USER, "--"]

    def _run(self, tool: str, *args: str) -> None:
        result = subprocess.run(
            [*self._as_user, str(self.bin / tool), *args], capture_output=True, text=True
        )
        if result.returncode != 0:
            log = self.root / "log"
            tail = log.read_text()[-500:] if log.exists() else ""
            raise ScratchUnavailable(f"{tool} failed: {result.stderr[-500:]} {tail}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        import psycopg

        name = f"club_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except ScratchUnavailable:
            pass
        shutil.rmtree(self.root, ignore_errors=True)
