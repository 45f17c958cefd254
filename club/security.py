"""The admin's password (scrypt), signed-in sessions (stored, signed, expiring) with their CSRF
tokens, rate limits."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any

SESSION_S = 8 * 3600
SECRET_KEY = "session_secret"  # club_settings' key for the secret signing session cookies
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
    """Signed-in admins, stored in the database (a restart keeps them) until they expire.

    The cookie is `key.signature`: an HMAC of the random key with the club's own secret (made
    once, kept in club_settings), so a forged cookie is refused before any lookup; the database
    keeps only the key's hash, its CSRF token and its end.
    """

    def __init__(self, pool: Any, lifetime_s: float = SESSION_S) -> None:
        self._pool = pool
        self._lifetime = lifetime_s
        self._secret: bytes | None = None

    def open(self) -> tuple[str, Session]:
        key = secrets.token_urlsafe(32)
        session = Session(secrets.token_urlsafe(32), time.time() + self._lifetime)
        with self._pool.connection() as conn:
            conn.execute("DELETE FROM admin_sessions WHERE expires < now()")
            conn.execute(
                "INSERT INTO admin_sessions (key_hash, csrf, expires)"
                " VALUES (%s, %s, to_timestamp(%s))",
                (_digest(key), session.csrf, session.expires),
            )
        return f"{key}.{self._sign(key)}", session

    def get(self, cookie: str | None) -> Session | None:
        key = self._verified(cookie)
        if key is None:
            return None
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT csrf, extract(epoch FROM expires)::float8 FROM admin_sessions"
                " WHERE key_hash = %s AND expires > now()",
                (_digest(key),),
            ).fetchone()
        return None if row is None else Session(row[0], row[1])

    def close(self, cookie: str | None) -> None:
        key = self._verified(cookie)
        if key is not None:
            with self._pool.connection() as conn:
                conn.execute("DELETE FROM admin_sessions WHERE key_hash = %s", (_digest(key),))

    def _verified(self, cookie: str | None) -> str | None:
        key, _, signature = (cookie or "").partition(".")
        if not key or not same_token(signature, self._sign(key)):
            return None
        return key

    def _sign(self, key: str) -> str:
        return hmac.new(self._key(), key.encode("utf-8"), hashlib.sha256).hexdigest()

    def _key(self) -> bytes:
        if self._secret is None:
            with self._pool.connection() as conn:
                conn.execute(
                    "INSERT INTO club_settings (key, value) VALUES (%s, %s)"
                    " ON CONFLICT (key) DO NOTHING",
                    (SECRET_KEY, secrets.token_hex(32)),
                )
                row = conn.execute(
                    "SELECT value FROM club_settings WHERE key = %s", (SECRET_KEY,)
                ).fetchone()
            self._secret = bytes.fromhex(row[0])
        return self._secret


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


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
