"""`tabletop doctor`: what a user runs first on a new Pi - is everything the companion needs there?

One line per check, "OK" or "PROBLEM", and under each problem the fix in one sentence. Exit 0
when nothing blocks the companion (missing buttons or touch do not), 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import TextIO

from companion.config import Config, ConfigError, default_state_dir, load_config
from hardware.checks import Check


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "doctor",
        help="check cameras, GPIO, display, config and state directory",
        description="Checks what the companion needs on this machine and says how to fix "
        "what is missing. Exit status 0 when nothing blocks, 1 otherwise.",
    )
    parser.add_argument("--config", type=Path, help="config file to check")
    parser.add_argument("--state-dir", type=Path, help="state directory to check")
    parser.add_argument("--camera", help="camera spec to try (default: the config's, else auto)")
    parser.add_argument(
        "--as-service",
        action="store_true",
        help="run the checks as the installed systemd unit runs the kiosk: its user and sandbox",
    )
    parser.set_defaults(handler=run)


def check_config(path: Path | None) -> tuple[Check, Config | None]:
    """The config check, and the settings it loaded (None when the file is broken)."""
    if path is None:
        return Check(True, "config", "no --config given: built-in defaults"), load_config(None)
    try:
        config = load_config(path)
    except ConfigError as error:
        return Check(False, "config", str(error), "Correct the file (TOML) and rerun."), None
    return Check(True, "config", f"{path} loads"), config


def check_state_dir(path: Path | None) -> Check:
    label = "state directory"
    path = path or default_state_dir(os.environ)
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        return Check(False, label, f"{existing} is not a directory", "Choose another --state-dir.")
    try:
        with tempfile.NamedTemporaryFile(dir=existing, prefix=".tabletop-doctor-"):
            pass
    except OSError as error:
        return Check(
            False,
            label,
            f"{existing} is not writable ({error.strerror})",
            f"Make it writable for this user: `sudo chown $USER {existing}`.",
        )
    created = "" if existing == path else f" (will be created inside {existing})"
    return Check(True, label, f"{path} is writable{created}")


def print_report(checks: list[Check], out: TextIO) -> bool:
    """Prints the checks; True when none of the problems blocks."""
    width = max(len(c.label) for c in checks)
    for check in checks:
        word = "OK     " if check.ok else "PROBLEM"
        out.write(f"{word} {check.label.ljust(width)}  {check.detail}\n")
        if not check.ok and check.fix:
            out.write(f"        {' ' * width}  fix: {check.fix}\n")
    blocking = [c.label for c in checks if not c.ok and c.blocking]
    others = [c.label for c in checks if not c.ok and not c.blocking]
    if blocking:
        out.write(f"\nBlocking: {', '.join(blocking)}. The companion cannot run until fixed.\n")
    elif others:
        out.write(f"\nReady, without: {', '.join(others)}.\n")
    else:
        out.write("\nAll good.\n")
    return not blocking


def run(args: argparse.Namespace) -> int:
    if args.as_service:
        from companion.service_check import doctor_arguments, run_as_service

        return run_as_service(doctor_arguments(args))
    from hardware.checks import hardware_checks

    config_check, config = check_config(args.config)
    camera_spec = args.camera or (config.camera.spec if config else "auto")
    state_dir = args.state_dir or (config.state_dir if config else None)
    checks = [*hardware_checks(camera_spec), config_check, check_state_dir(state_dir)]
    return 0 if print_report(checks, sys.stdout) else 1
