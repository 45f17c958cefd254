"""`tabletop doctor`: what a user runs first on a new Pi - is everything the companion needs there?

One line per check, "OK" or "PROBLEM", and under each problem the fix in one sentence. Exit 0
when nothing blocks the companion (missing buttons or touch do not), 1 otherwise. The config,
profile and state-directory checks are the ones `tabletop run` meets (companion.setup_checks).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from companion.config import CameraConfig
from companion.setup_checks import check_config, check_state_dir, setup_checks
from hardware.checks import Check

__all__ = ["check_config", "check_state_dir", "club_refusals", "print_report", "run"]


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

    _, config = check_config(args.config, args.state_dir)
    camera_spec = args.camera or (config.camera.spec if config else "auto")
    checks = [*hardware_checks(camera_spec), *setup_checks(args.config, args.state_dir)]
    dice = dice_size(camera_spec, config.camera if config else None)
    if dice is not None:
        checks.append(dice)
    state_dir = args.state_dir or (config.state_dir if config else None)
    if state_dir is not None:
        club = club_refusals(state_dir)
        if not club.ok or (config and config.club.url):  # a table of no club: no line
            checks.append(club)
    return 0 if print_report(checks, sys.stdout) else 1


def dice_size(camera_spec: str, camera: CameraConfig | None) -> Check | None:
    """The tray's dice measured on one frame of the camera in use, at the capture size the kiosk
    uses (`check_dice_size`); None where the camera gives no frame (its own lines say why)."""
    from companion.setup_checks import check_dice_size
    from hardware.checks import PROBE_TIMEOUT_S, first_frame
    from hardware.factory import open_camera

    size = camera.capture_size if camera else None
    try:
        source = open_camera(camera_spec, **({"size": size} if size else {}))
    except ValueError:
        return None
    with source:
        frame, _ = first_frame(source, PROBE_TIMEOUT_S)
        offered = getattr(source, "capture_sizes", list)()
    if frame is None:
        return None
    return check_dice_size(frame.image, camera.tray_roi if camera else None, offered)


def club_refusals(state_dir: Path) -> Check:
    """The games the club refused (set aside by the outbox): a problem that blocks nothing."""
    from companion.persistence.outbox import refused_games

    refused = refused_games(state_dir)
    if not refused:
        return Check(True, "club", "no game refused by the club")
    first_id, _, reason = refused[0]
    return Check(
        False, "club", f"{len(refused)} game(s) refused by the club (game {first_id}: {reason})",
        "See docs/club.md, 'When the club refuses a game'; then tabletop sync --retry-refused.",
        blocking=False,
    )  # fmt: skip
