"""Rolling backups of the scorebook, made with SQLite's online backup API (a few kept).

One backup a day, at open; each finished game refreshes the day's backup, so a lost or damaged
file costs at most the game in progress. The last few days are kept, in <state dir>/backups; a
failure to make one (a full disk) is logged, never raised: play goes on.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from pathlib import Path

log = logging.getLogger(__name__)

EVERY_S = 24 * 3600
KEPT = 3
PREFIX = "tabletop-"


def backup_files(folder: Path) -> list[Path]:
    """Backups in `folder`, oldest first (their names sort by time)."""
    return sorted(folder.glob(f"{PREFIX}*.sqlite3")) if folder.is_dir() else []


def backup_if_due(
    db: sqlite3.Connection,
    folder: Path,
    now: float | None = None,
    every_s: float = EVERY_S,
    refresh: bool = False,
) -> Path | None:
    """A new backup when the newest is older than `every_s` (with `refresh`, the newest is
    rewritten otherwise); returns it (None: none made)."""
    now = time.time() if now is None else now
    existing = backup_files(folder)
    recent = existing and now - existing[-1].stat().st_mtime < every_s
    if recent and not refresh:
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    target = existing[-1] if recent else folder / f"{PREFIX}{stamp}.sqlite3"
    scratch = folder / f".{target.name}.partial"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        copy = sqlite3.connect(scratch)
        try:
            db.backup(copy)
        finally:
            copy.close()
        os.replace(scratch, target)
        os.utime(target, (now, now))
    except (OSError, sqlite3.Error) as error:
        log.warning("scorebook backup not made: %s", error)
        scratch.unlink(missing_ok=True) if folder.is_dir() else None
        return None
    for old in backup_files(folder)[:-KEPT]:
        old.unlink(missing_ok=True)
    return target
