"""The table's outbox to its club: game snapshots queued in the table's SQLite, pushed when the
network allows, so a game never waits for the network and nothing is lost or counted twice.

`Outbox.collect` looks at the store's games: each one whose log or status changed since it was
last queued gets the next revision number and its snapshot (set-up, whole log, status) queued,
replacing any older snapshot of it still waiting. Games being played are queued at most every
`live_interval_s` (the club's live tables); a finished, reopened (undo past the end) or abandoned
game at once. `Pusher` sends what is due in batches and removes a snapshot only once the club
acknowledged it; a failure waits longer each time (exponential back-off with jitter, at most
about 10 s). The club keys every snapshot by (table, game id, revision): a resent one is a
duplicate, an older one never replaces a newer one, so delivering at least once is delivering
exactly once.
"""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from companion.persistence.store import DB_NAME
from companion.persistence.store_open import REVIEWS

# Its own tables, and the store's reviews it reads with the games (the table's page may run
# before the kiosk migrated the file).
SCHEMA = f"""
CREATE TABLE IF NOT EXISTS club_revisions (
    game_id INTEGER PRIMARY KEY,
    revision INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    queued_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS club_outbox (
    game_id INTEGER PRIMARY KEY,
    revision INTEGER NOT NULL,
    payload TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_try REAL NOT NULL DEFAULT 0,
    refused TEXT
);
{REVIEWS}"""
# A cheap picture of a game's log: an undo followed by a new action changes its newest time.
# A game that is not being played changes its status or end first (a reopened game is played
# again): one queued with the same status and end is passed over without reading its log, so a
# table with years of games does not read them all every few seconds.
# A finished game is queued again each time its review is stored (pushed with it): a review
# computed again, as one of an older format is, replaces the club's copy too.
SETTLED = (
    "g.status || ':' || COALESCE(g.ended, 0)"
    " || COALESCE((SELECT 'r' || v.at FROM reviews v WHERE v.game_id = g.id), '')"
)
# A game with a robot seat is practice, not a league game: it is never pushed.
CHANGES = f"""
SELECT g.id, {SETTLED}, COUNT(a.seq), COALESCE(MAX(a.at), 0)
FROM games g LEFT JOIN actions a ON a.game_id = g.id
WHERE (g.status = 'playing' OR NOT EXISTS (
    SELECT 1 FROM club_revisions r WHERE r.game_id = g.id
    AND substr(r.fingerprint, 1, length({SETTLED}) + 1) = {SETTLED} || ':'))
AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.kind = 'bot')
GROUP BY g.id ORDER BY g.id
"""
REFUSALS = (
    "SELECT game_id, revision, refused FROM club_outbox WHERE refused IS NOT NULL ORDER BY game_id"
)
PLAYERS_EVERY_S = 300.0
BACKOFF_FIRST_S = 1.0
BACKOFF_MAX_S = 10.0  # a club on the LAN: tables are back within ~12 s of its return
UNFIT_BODY = (400, 413)  # the club cannot take what was sent: sending it again will not help


@dataclass
class PushReport:
    sent: int = 0
    acknowledged: int = 0
    refused: list[str] = field(default_factory=list)
    error: str = ""


class Outbox:
    """The queue in the table's SQLite (its own tables beside the store's)."""

    def __init__(self, state_dir: str | Path, live_interval_s: float = 15.0) -> None:
        self.path = Path(state_dir) / DB_NAME
        self.db = sqlite3.connect(
            self.path, isolation_level=None, timeout=10, check_same_thread=False
        )
        self.db.execute("PRAGMA busy_timeout=10000")
        self.db.executescript(SCHEMA)
        self.live_interval_s = live_interval_s
        self.lock = threading.Lock()

    def close(self) -> None:
        self.db.close()

    def collect(self, now: float | None = None) -> int:
        """Queue a snapshot of every game changed since it was last queued; returns how many."""
        now = time.time() if now is None else now
        with self.lock:
            known = {
                row[0]: (row[1], row[2], row[3])
                for row in self.db.execute(
                    "SELECT game_id, revision, fingerprint, queued_at FROM club_revisions"
                )
            }
            queued = 0
            for game_id, settled, count, newest in self.db.execute(CHANGES).fetchall():
                fingerprint = f"{settled}:{count}:{newest}"
                revision, last, queued_at = known.get(game_id, (0, "", 0.0))
                if fingerprint == last:
                    continue
                if (
                    settled.startswith("playing:")
                    and last.startswith("playing:")
                    and (now - queued_at < self.live_interval_s)
                ):
                    continue  # live summaries: at most one per interval
                self._queue(game_id, revision + 1, fingerprint, now)
                queued += 1
        return queued

    def _queue(self, game_id: int, revision: int, fingerprint: str, now: float) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            payload = self._snapshot(game_id, revision, now)
            self.db.execute(
                "INSERT INTO club_revisions (game_id, revision, fingerprint, queued_at)"
                " VALUES (?, ?, ?, ?)"
                " ON CONFLICT(game_id) DO UPDATE SET revision = excluded.revision,"
                " fingerprint = excluded.fingerprint, queued_at = excluded.queued_at",
                (game_id, revision, fingerprint, now),
            )
            self.db.execute(
                "INSERT INTO club_outbox (game_id, revision, payload) VALUES (?, ?, ?)"
                " ON CONFLICT(game_id) DO UPDATE SET revision = excluded.revision,"
                " payload = excluded.payload, attempts = 0, next_try = 0, refused = NULL",
                (game_id, revision, json.dumps(payload, ensure_ascii=False)),
            )
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def _snapshot(self, game_id: int, revision: int, now: float) -> dict:
        game, options, seed, mode, status, started, ended = self.db.execute(
            "SELECT game, options, seed, mode, status, started, ended FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        players = [row[0] for row in self.db.execute(
            "SELECT p.name FROM seats s JOIN players p ON p.id = s.player_id"
            " WHERE s.game_id = ? ORDER BY s.seat", (game_id,))]  # fmt: skip
        history = [row[0] for row in self.db.execute(
            "SELECT notation FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]  # fmt: skip
        snapshot = {
            "game_id": game_id, "revision": revision, "game": game, "players": players,
            "options": json.loads(options), "seed": seed, "mode": mode, "status": status,
            "history": history, "started": started, "ended": ended, "updated": now,
        }  # fmt: skip
        review = self.db.execute("SELECT review FROM reviews WHERE game_id = ?", (game_id,))
        found = review.fetchone()
        if status == "over" and found is not None:
            snapshot["review"] = json.loads(found[0])
        return snapshot

    def due(self, now: float, limit: int) -> list[tuple[int, int, str]]:
        """(game id, revision, payload) of the snapshots to send now, oldest game first."""
        with self.lock:
            rows = self.db.execute(
                "SELECT game_id, revision, payload FROM club_outbox"
                " WHERE refused IS NULL AND next_try <= ? ORDER BY game_id LIMIT ?",
                (now, limit),
            )
            return rows.fetchall()

    def acknowledged(self, game_id: int, revision: int) -> None:
        with self.lock:  # a newer snapshot queued meanwhile stays
            self.db.execute(
                "DELETE FROM club_outbox WHERE game_id = ? AND revision = ?", (game_id, revision)
            )

    def refused(self, game_id: int, revision: int, reason: str) -> None:
        with self.lock:
            self.db.execute(
                "UPDATE club_outbox SET refused = ? WHERE game_id = ? AND revision = ?",
                (reason[:500], game_id, revision),
            )

    def postpone(self, game_ids: list[int], now: float, wait_s: float | None = None) -> None:
        """Try these again later: after `wait_s`, else after a back-off that grows per attempt."""
        with self.lock:
            for game_id in game_ids:
                row = self.db.execute(
                    "SELECT attempts FROM club_outbox WHERE game_id = ?", (game_id,)
                ).fetchone()
                if row is None:
                    continue
                delay = wait_s if wait_s is not None else backoff(row[0] + 1)
                self.db.execute(
                    "UPDATE club_outbox SET attempts = attempts + 1, next_try = ?"
                    " WHERE game_id = ?",
                    (now + delay, game_id),
                )

    def pending(self) -> int:
        with self.lock:
            row = self.db.execute("SELECT COUNT(*) FROM club_outbox WHERE refused IS NULL")
            return int(row.fetchone()[0])

    def offer_players(self, names: list[str]) -> int:
        """Add the club's players to the names the table offers at set-up; returns how many
        were new. (The store's players table: a name with no game yet is just offered.)"""
        with self.lock:
            before = self.db.total_changes
            self.db.executemany(
                "INSERT OR IGNORE INTO players (name) VALUES (?)",
                [(name,) for name in names if isinstance(name, str) and 0 < len(name) <= 40],
            )
            return self.db.total_changes - before

    def refusals(self) -> list[tuple[int, int, str]]:
        with self.lock:
            return self.db.execute(REFUSALS).fetchall()

    def retry_refused(self) -> int:
        """Queue the refused snapshots again (the club was fixed); returns how many."""
        with self.lock:
            cursor = self.db.execute(
                "UPDATE club_outbox SET refused = NULL, attempts = 0, next_try = 0"
                " WHERE refused IS NOT NULL"
            )
            return cursor.rowcount


def refused_games(state_dir: str | Path) -> list[tuple[int, int, str]]:
    """(game id, revision, the club's reason) of the games the club refused, read without
    writing (the table's page, `tabletop doctor`); empty when there is no outbox."""
    path = Path(state_dir) / DB_NAME
    if not path.exists():
        return []
    try:
        read_only = f"{path.resolve().as_uri()}?mode=ro"
        with closing(sqlite3.connect(read_only, uri=True, timeout=5)) as db:
            return db.execute(REFUSALS).fetchall()
    except sqlite3.Error:  # no outbox table yet (never synced), or the file is unreadable
        return []


def backoff(attempt: int, rng: random.Random | None = None) -> float:
    """Seconds before attempt number `attempt` (1, 2, 4, 8, then 10 s, ±20 % jitter)."""
    base = min(BACKOFF_MAX_S, BACKOFF_FIRST_S * 2 ** max(0, attempt - 1))
    return base * (0.8 + 0.4 * (rng or random).random())


class Pusher:
    """Sends the outbox's due snapshots to the club's /api/push, batch by batch."""

    def __init__(
        self,
        outbox: Outbox,
        url: str,
        token: str,
        batch: int = 50,
        timeout_s: float = 15.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.outbox = outbox
        self.endpoint = url.rstrip("/") + "/api/push"
        self.token = token
        self.batch = batch
        self.timeout_s = timeout_s
        self.clock = clock

    def club_players(self) -> list[str]:
        """The club's player names (GET /api/players); empty when the club cannot be reached."""
        request = urllib.request.Request(
            self.endpoint.removesuffix("/push") + "/players",
            headers={"Authorization": f"Bearer {self.token}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                names = json.loads(response.read()).get("players", [])
        except (OSError, ValueError, AttributeError):
            return []
        return names if isinstance(names, list) else []

    def push_due(self, most: int = 10_000) -> PushReport:
        """Send what is due now, batch by batch, each once; stops at the first failed batch."""
        report = PushReport()
        rows = self.outbox.due(self.clock(), most)
        for start in range(0, len(rows), self.batch):
            if not self._send(rows[start : start + self.batch], report):
                break
        return report

    def _send(self, rows: list[tuple[int, int, str]], report: PushReport) -> bool:
        body = ('{"games": [' + ",".join(payload for _, _, payload in rows) + "]}").encode()
        request = urllib.request.Request(
            self.endpoint, data=body, method="POST",
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )  # fmt: skip
        ids = [game_id for game_id, _, _ in rows]
        report.sent += len(rows)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                answer = json.loads(response.read())
        except urllib.error.HTTPError as error:
            if error.code in UNFIT_BODY:
                return self._set_aside(rows, _said(error), report)
            wait = _retry_after(error)
            report.error = f"the club answered {error.code}"
            self.outbox.postpone(ids, self.clock(), wait)
            return False
        except (OSError, ValueError) as error:  # network down, server away, garbled answer
            report.error = f"cannot reach the club: {getattr(error, 'reason', error)}"
            self.outbox.postpone(ids, self.clock())
            return False
        sent = {game_id: revision for game_id, revision, _ in rows}
        for result in answer.get("results", []):
            game_id, revision = result.get("game_id"), result.get("revision")
            if sent.get(game_id) != revision:
                continue
            if result.get("outcome") == "refused":
                self.outbox.refused(game_id, revision, str(result.get("error", "")))
                report.refused.append(f"game {game_id}: {result.get('error', '')}")
            else:
                self.outbox.acknowledged(game_id, revision)
                report.acknowledged += 1
        return True

    def _set_aside(self, rows: list[tuple[int, int, str]], said: str, report: PushReport) -> bool:
        """The club refused the body whole: each game alone finds the one it cannot take,
        which is set aside as refused while the others go on."""
        if len(rows) > 1:
            report.sent -= len(rows)
            return all([self._send([row], report) for row in rows])
        game_id, revision, _ = rows[0]
        self.outbox.refused(game_id, revision, said)
        report.refused.append(f"game {game_id}: {said}")
        return True


def _said(error: urllib.error.HTTPError) -> str:
    """The club's reason for a refused body (its JSON "error"), else its status."""
    try:
        said = json.loads(error.read(2000)).get("error", "")
    except (OSError, ValueError, AttributeError):
        said = ""
    return str(said)[:300] or f"the club answered {error.code}"


def _retry_after(error: urllib.error.HTTPError) -> float | None:
    if error.code == 401:
        return 10 * BACKOFF_MAX_S  # a revoked or mistyped token: an admin must act first
    value = error.headers.get("Retry-After", "") if error.headers else ""
    return float(value) if value.isdigit() else None


def run(outbox: Outbox, pusher: Pusher, stop: threading.Event, every_s: float = 2.0,
        say: Callable[[str], None] = print) -> None:  # fmt: skip
    """Collect and push until `stop` is set; says each new kind of failure once. The club's
    player names are fetched at start and every `PLAYERS_EVERY_S`, to be offered at set-up."""
    last_error = ""
    players_due = 0.0
    while not stop.is_set():
        if time.monotonic() >= players_due:
            outbox.offer_players(pusher.club_players())
            players_due = time.monotonic() + PLAYERS_EVERY_S
        outbox.collect()
        report = pusher.push_due()
        for refusal in report.refused:
            say(f"club refused {refusal}")
        if report.error and report.error != last_error:
            say(f"club: {report.error}; {outbox.pending()} snapshot(s) wait in the outbox")
        last_error = report.error
        stop.wait(every_s)
