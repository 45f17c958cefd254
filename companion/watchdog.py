"""Readiness and watchdog notifications to systemd (systemd/tabletop.service is Type=notify).

The app's main loop calls `feed()` on every pass; only every WatchdogSec/2 does a WATCHDOG=1
actually go out, so calling it at frame rate costs nothing. Outside systemd (no $NOTIFY_SOCKET:
a developer's shell, tests, `tabletop demo`) every method is a harmless no-op.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from typing import Protocol

MICROSECONDS_PER_SECOND = 1_000_000


class Notifier(Protocol):
    def notify(self, state: str) -> None: ...


def _systemd_notifier() -> Notifier:
    import sdnotify

    return sdnotify.SystemdNotifier()


def feed_interval_seconds(environ: Mapping[str, str], pid: int) -> float | None:
    """Half the watchdog timeout systemd gave this process, or None when there is no watchdog.

    Follows sd_watchdog_enabled(3): $WATCHDOG_USEC is the timeout; when $WATCHDOG_PID is set
    and names another process, the watchdog is not ours to feed.
    """
    usec_text = environ.get("WATCHDOG_USEC", "").strip()
    if not usec_text:
        return None
    owner = environ.get("WATCHDOG_PID", "").strip()
    if owner and owner != str(pid):
        return None
    try:
        usec = int(usec_text)
    except ValueError:
        message = f"WATCHDOG_USEC must be a whole number of microseconds, got {usec_text!r}"
        raise ValueError(message) from None
    if usec <= 0:
        raise ValueError(f"WATCHDOG_USEC must be positive, got {usec}")
    return usec / MICROSECONDS_PER_SECOND / 2


class Watchdog:
    """Tells systemd the app is ready, what it is doing, that it is alive, that it is stopping."""

    def __init__(
        self,
        environ: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        notifier_factory: Callable[[], Notifier] = _systemd_notifier,
    ) -> None:
        environ = os.environ if environ is None else environ
        self._clock = clock
        self._notifier = notifier_factory() if environ.get("NOTIFY_SOCKET") else None
        self.feed_interval = feed_interval_seconds(environ, os.getpid()) if self._notifier else None
        self._last_fed: float | None = None

    @property
    def active(self) -> bool:
        """True when running under systemd with a notification socket."""
        return self._notifier is not None

    def ready(self, status: str | None = None) -> None:
        """Startup finished: systemd marks the unit started (and, optionally, shows `status`)."""
        self._send("READY=1" if status is None else f"READY=1\n{_status_line(status)}")

    def status(self, text: str) -> None:
        """One line shown by `systemctl status tabletop`."""
        self._send(_status_line(text))

    def feed(self) -> bool:
        """Keep the watchdog from firing; sends at most once per WatchdogSec/2. True if sent."""
        if self.feed_interval is None:
            return False
        now = self._clock()
        if self._last_fed is not None and now - self._last_fed < self.feed_interval:
            return False
        self._last_fed = now
        self._send("WATCHDOG=1")
        return True

    def stopping(self) -> None:
        """Shutdown began: systemd stops expecting watchdog pings."""
        self._send("STOPPING=1")

    def _send(self, message: str) -> None:
        if self._notifier is not None:
            self._notifier.notify(message)


def _status_line(text: str) -> str:
    # A newline would start a new KEY=VALUE assignment in the datagram.
    return "STATUS=" + " ".join(text.split())
