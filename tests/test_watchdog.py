"""companion.watchdog against a real AF_UNIX datagram socket standing in for systemd."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.watchdog import Watchdog, feed_interval_seconds


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def notify_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    """A bound datagram socket, with $NOTIFY_SOCKET pointing at it as systemd would set it."""
    path = tmp_path / "notify"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(path))
    server.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    yield server
    server.close()


def received(server: socket.socket) -> list[str]:
    """Every datagram waiting on the socket, decoded."""
    messages = []
    server.setblocking(False)
    try:
        while True:
            messages.append(server.recv(4096).decode())
    except BlockingIOError:
        return messages
    finally:
        server.settimeout(2)


def test_ready_status_and_stopping_reach_the_socket(notify_socket: socket.socket) -> None:
    watchdog = Watchdog()
    watchdog.ready()
    watchdog.status("reading dice")
    watchdog.stopping()
    assert watchdog.active
    assert received(notify_socket) == ["READY=1", "STATUS=reading dice", "STOPPING=1"]


def test_ready_can_carry_a_status(notify_socket: socket.socket) -> None:
    Watchdog().ready("camera missing, waiting")
    assert received(notify_socket) == ["READY=1\nSTATUS=camera missing, waiting"]


def test_status_cannot_smuggle_another_assignment(notify_socket: socket.socket) -> None:
    Watchdog().status("ok\nREADY=1")
    assert received(notify_socket) == ["STATUS=ok READY=1"]


def test_feed_is_rate_limited_to_half_the_watchdog_timeout(
    notify_socket: socket.socket,
) -> None:
    clock = FakeClock()
    watchdog = Watchdog(clock=clock)
    assert watchdog.feed_interval == 15.0
    sent = [watchdog.feed()]
    for step in (4.0, 11.0, 14.5, 0.5, 0.25):
        clock.now += step
        sent.append(watchdog.feed())
    assert sent == [True, False, True, False, True, False]
    assert received(notify_socket) == ["WATCHDOG=1"] * 3


def test_no_watchdog_usec_means_feed_sends_nothing(
    notify_socket: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WATCHDOG_USEC")
    watchdog = Watchdog()
    assert watchdog.feed() is False
    watchdog.ready()
    assert received(notify_socket) == ["READY=1"]


def test_watchdog_meant_for_another_process_is_not_fed(
    notify_socket: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))
    assert Watchdog().feed() is False
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert Watchdog().feed() is True
    assert received(notify_socket) == ["WATCHDOG=1"]


def test_without_systemd_everything_is_a_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    watchdog = Watchdog()
    watchdog.ready()
    watchdog.status("anything")
    assert watchdog.feed() is False
    watchdog.stopping()
    assert not watchdog.active


def test_a_vanished_socket_does_not_crash_the_app(tmp_path: Path) -> None:
    watchdog = Watchdog({"NOTIFY_SOCKET": str(tmp_path / "gone"), "WATCHDOG_USEC": "2000000"})
    watchdog.ready()
    assert watchdog.feed() is True


def test_abstract_socket_address(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"tabletop-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind("\0" + name)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        Watchdog().ready()
        assert server.recv(4096) == b"READY=1"


@pytest.mark.parametrize("value", ["soon", "-5", "0", "1.5"])
def test_bad_watchdog_usec_is_a_clear_error(value: str) -> None:
    with pytest.raises(ValueError, match="WATCHDOG_USEC"):
        feed_interval_seconds({"WATCHDOG_USEC": value}, pid=1)
