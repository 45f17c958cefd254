"""The checks `tabletop run` depends on, as `doctor` runs them: config, poker profile, state
directory (a real write of data, free space, the database's health), each with a safe fix.

Nothing here changes the machine beyond a probe file written and removed in the state
directory; a damaged database is reported, not moved (the kiosk does that when it opens it).
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from pathlib import Path

import numpy as np

from companion.config import Config, ConfigError, default_state_dir, run_config
from companion.persistence.store import DB_NAME
from hardware.checks import Check

PROBE_BYTES = 64 * 1024
LOW_SPACE = 50 * 1024 * 1024  # below this the scorebook and its backups may soon fail
NO_SPACE = 2 * 1024 * 1024  # below this a game cannot be logged at all
# Never suggest changing the owner of these (or anything under the first ones).
SYSTEM_TREES = ("/proc", "/sys", "/dev", "/run", "/boot", "/usr", "/bin", "/sbin", "/lib", "/etc")
SYSTEM_DIRS = ("/", "/home", "/var", "/var/lib", "/opt", "/srv", "/tmp", "/mnt", "/media")
SAFE_DIR = "/var/lib/tabletop"


def check_config(path: Path | None, state_dir: Path | None = None) -> tuple[Check, Config | None]:
    """The config check, and the settings `run` would use (None when the file is broken)."""
    try:
        config, warnings = run_config(path, state_dir)
    except ConfigError as error:
        return Check(False, "config", str(error), "Correct the file (TOML) and rerun."), None
    where = f"{path} loads" if path else "no --config given: built-in defaults"
    if config.source and not path:
        where = f"{config.source} (saved in the state directory) loads"
    if warnings:
        return Check(False, "config", f"{where}; {'; '.join(warnings)}", blocking=False), config
    return Check(True, "config", where), config


def check_profile(config: Config | None) -> Check:
    """The poker profile named in the config: the kiosk ignores a bad one, with a warning."""
    label = "poker profile"
    path = config.camera.poker_profile if config else ""
    if not path:
        return Check(True, label, "none configured: the shipped profile", blocking=False)
    try:
        from vision.profiles.profile import FaceProfile

        profile = FaceProfile.load(path)
    except Exception as error:
        detail = str(error).splitlines()[0] if str(error) else type(error).__name__
        return Check(
            False,
            label,
            f"{path}: {detail} - the kiosk ignores it",
            f"Teach the dice again on the settings screen (saved in {SAFE_DIR}), or set "
            "camera.poker_profile to a readable profile inside the state directory.",
            blocking=False,
        )
    return Check(True, label, f"{path}: {profile.kind} profile", blocking=False)


def check_dice_size(
    frame_bgr: np.ndarray,
    roi: tuple[int, int, int, int] | None,
    offered: list[tuple[int, int]] | None = None,
) -> Check:
    """Whether the camera shows the tray's dice at least the camera ruling's 40 px across (#55):
    smaller dice come out unreadable. Measured on a frame at the capture size in use, within
    the calibrated tray; `offered` are the larger sizes the camera gives (the fix names the one
    that would do). A problem that blocks nothing."""
    from companion.capture_fit import fit_capture
    from vision.read.ruling import LEAST_SIDE

    label = "dice size"
    height, width = frame_bgr.shape[:2]
    fit = fit_capture(frame_bgr, roi, offered or [])
    where = f"at {width}x{height}" + ("" if roi is None else " in the calibrated tray")
    if fit is None:
        detail = f"no dice seen {where}: put a few in the tray and run doctor again to check"
        return Check(True, label, detail, blocking=False)
    side = fit.die_px
    if side < LEAST_SIDE:
        fix = "Move the camera closer to the tray (it gives no larger size of this shape)."
        if fit.raise_to is not None:
            fix = (
                f"Choose the tray again on the kiosk's settings screen with dice in it: the kiosk "
                f"then captures at {fit.raise_to[0]}x{fit.raise_to[1]} (dice about "
                f"{fit.choice.die_px:.0f} px). Or move the camera closer to the tray."
            )
        return Check(
            False,
            label,
            f"dice {side:.0f} px across {where}, under the {LEAST_SIDE:.0f} px the reader needs:"
            " they come out unreadable",
            fix,
            blocking=False,
        )
    return Check(True, label, f"dice {side:.0f} px across {where} (at least {LEAST_SIDE:.0f})")


def check_state_dir(path: Path | None) -> Check:
    """The directory exists or can be made, takes a real write of data, and has room."""
    label = "state directory"
    path = path or default_state_dir(os.environ)
    if "\0" in str(path):
        return Check(False, label, "the path contains a NUL byte", f"Use e.g. {SAFE_DIR}.")
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        return Check(False, label, f"{existing} is not a directory", safe_fix(existing))
    problem = write_probe(existing)
    if problem:
        return Check(False, label, f"{existing} cannot be written ({problem})", safe_fix(existing))
    free = free_bytes(existing)
    created = "" if existing == path else f" (will be created inside {existing})"
    room = f"{free / 1e6:.0f} MB free"
    if free < NO_SPACE:
        return Check(False, label, f"{path}: disk full ({room})", "Free some space on the disk.")
    database = database_problem(path)
    if database.endswith("read-only"):  # the kiosk would play, but save nothing
        return Check(False, label, f"{path}: {database}",
                     f"Make it writable: `sudo chmod u+w {path / DB_NAME}`.")  # fmt: skip
    if database:
        return Check(False, label, f"{path}: {database}",
                     "Nothing to do by hand: the kiosk moves it aside (kept) and salvages it "
                     "at its next start.", blocking=False)  # fmt: skip
    if free < LOW_SPACE:
        return Check(False, label, f"{path}: only {room}", "Free some space.", blocking=False)
    return Check(True, label, f"{path} is writable, {room}{created}")


def write_probe(folder: Path) -> str:
    """'' when PROBE_BYTES of data can be written, synced and removed in `folder`, else why."""
    probe = folder / f".tabletop-doctor-{uuid.uuid4().hex[:8]}"
    try:
        with open(probe, "wb") as handle:
            handle.write(os.urandom(PROBE_BYTES))
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as error:
        return error.strerror or str(error)
    finally:
        try:
            probe.unlink(missing_ok=True)
        except OSError:
            pass
    return ""


def free_bytes(folder: Path) -> int:
    stats = os.statvfs(folder)
    return stats.f_bavail * stats.f_frsize


def database_problem(state_dir: Path) -> str:
    """What is wrong with the scorebook file there ('' when nothing or no file yet)."""
    from companion.persistence import dbfile

    path = state_dir / DB_NAME
    try:
        damage = dbfile.damage(path)
    except dbfile.OpenProblem as problem:
        return str(problem)
    if damage or not path.exists():
        return damage or ""
    if not os.access(path, os.W_OK):
        return f"{path.name} is read-only"
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            rows = [row[0] for row in db.execute("PRAGMA quick_check").fetchall()]
    except sqlite3.Error as error:
        return f"{path.name}: {error}"
    return "" if rows == ["ok"] else f"{path.name} is damaged ({rows[0]})"


def safe_fix(path: Path) -> str:
    """How to make `path` usable, never by changing the owner of a system directory."""
    text = str(path.resolve() if path.exists() else path)
    if text in SYSTEM_DIRS or any(text == t or text.startswith(t + "/") for t in SYSTEM_TREES):
        return f"Choose another state directory (state_dir or --state-dir), e.g. {SAFE_DIR}."
    if path.exists() and not path.is_dir():
        return "It is a file: choose another state directory (state_dir or --state-dir)."
    return f"Make it writable for this user (`sudo chown -R $USER {text}`), or choose another."


def setup_checks(config_path: Path | None, state_dir: Path | None) -> list[Check]:
    """Config, profile and state directory, as `tabletop run` will meet them."""
    config_check, config = check_config(config_path, state_dir)
    directory = state_dir or (config.state_dir if config else None)
    return [config_check, check_profile(config), check_state_dir(directory)]
