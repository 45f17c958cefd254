"""The admin's password (scrypt), signed-in sessions with their CSRF tokens, push rate limits."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from dataclasses import dataclass

SESSION_S = 8 * 3600
SCRYPT = {"n": 2**14, "r": 8, "p": 1}


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, **SCRYPT)
    return f"scrypt${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str | None) -> bool:
    if not stored or stored.count("$") != 2:
        return False
    _, salt, digest = stored.split("$")
    found = hashlib.scrypt(password.encode("utf-8"), salt=bytes.fromhex(salt), **SCRYPT)
    return hmac.compare_digest(found.hex(), digest)


@dataclass
class Session:
    csrf: str
    expires: float


class Sessions:
    """Signed-in admins, kept in the server's memory (a restart signs everyone out)."""

    def __init__(self) -> None:
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def open(self) -> tuple[str, Session]:
        key = secrets.token_urlsafe(32)
        session = Session(secrets.token_urlsafe(32), time.time() + SESSION_S)
        with self._lock:
            self._sessions = {k: s for k, s in self._sessions.items() if s.expires > time.time()}
            self._sessions[key] = session
        return key, session

    def get(self, key: str | None) -> Session | None:
        if not key:
            return None
        with self._lock:
            session = self._sessions.get(key)
        if session is None or session.expires < time.time():
            return None
        return session

    def close(self, key: str | None) -> None:
        with self._lock:
            self._sessions.pop(key or "", None)


def same_token(given: str | None, expected: str | None) -> bool:
    return bool(given and expected) and hmac.compare_digest(str(given), str(expected))


class RateLimiter:
    """A token bucket per key: `rate` requests a second on average, bursts up to `burst`."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> float:
        """0 when allowed now (which uses one up), else the seconds to wait before asking again."""
        return self._take(key, use=True)

    def wait(self, key: str) -> float:
        """What allow() would answer, without using anything up (to count failures only)."""
        return self._take(key, use=False)

    def _take(self, key: str, use: bool) -> float:
        now = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.burst), now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            if tokens >= 1:
                self._buckets[key] = (tokens - 1 if use else tokens, now)
                return 0.0
            self._buckets[key] = (tokens, now)
            return (1 - tokens) / self.rate
