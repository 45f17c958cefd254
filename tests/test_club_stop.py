"""`tabletop club serve` stopped by SIGTERM or SIGINT: its replay workers and the database are
closed, no process of it is left behind, and no traceback is printed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("psycopg", reason="the club extra is not installed")

from club.db import open_pool  # noqa: E402
from club.league import add_table  # noqa: E402
from club.scratchpg import free_port  # noqa: E402
from tests.club_support import payload, postgres, random_game  # noqa: E402

TABLETOP = Path(sys.executable).with_name("tabletop")


def descendants(pid: int) -> set[int]:
    """Every living process below `pid` (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_until_serving(url: str, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and server.poll() is None:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("the club server did not start")


@pytest.mark.skipif(not TABLETOP.exists(), reason="the tabletop command is not installed")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_server_leaves_no_process_behind(signum):
    db = postgres().new_database()
    with open_pool(db) as pool, pool.connection() as conn:
        token = add_table(conn, "Kitchen")
    port = free_port()
    server = subprocess.Popen(
        [str(TABLETOP), "club", "serve", "--db", db, "--port", str(port), "--replay-workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until_serving(url, server)
        games = [payload(random_game("sequence", ["Ann", "Bob"], seed=s), s) for s in (1, 2, 3)]
        request = urllib.request.Request(
            url + "/api/push", data=json.dumps({"games": games}).encode(), method="POST",
            headers={"Authorization": f"Bearer {token}"},
        )  # fmt: skip
        with urllib.request.urlopen(request, timeout=60) as answer:
            assert [r["outcome"] for r in json.load(answer)["results"]] == ["stored"] * 3
        below = descendants(server.pid)
        assert below, "the replay workers were not started"
        os.kill(server.pid, signum)
        out, err = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
    assert server.returncode == 0, err
    assert "Traceback" not in err and "tabletop club: stopped" in out
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in below) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in below if alive(pid)]
    with open_pool(db) as pool, pool.connection() as conn:
        others = conn.execute(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid()"
        ).fetchone()[0]
    assert others == 0  # the server's connections were closed
