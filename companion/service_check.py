"""`tabletop doctor --as-service`: the doctor's checks run as the systemd unit runs the kiosk.

The installed unit (and its drop-ins) is read, and `tabletop doctor` is started through
`systemd-run --pipe --wait` with the unit's user, groups, directories, environment and sandbox
(ProtectSystem=, ProtectHome=, DevicePolicy=, SystemCallFilter=, ...), so a path or device the
service cannot reach is reported before the kiosk starts. Needs systemd as PID 1 and root.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

UNIT_NAME = "tabletop.service"
UNIT_DIRS = (
    Path("/etc/systemd/system"),
    Path("/usr/lib/systemd/system"),
    Path("/lib/systemd/system"),
)
# Settings about how systemd supervises the kiosk, not what it can reach: left out of the check,
# which is a one-shot command whose output comes back through the pipe.
SUPERVISION = {
    "Type",
    "NotifyAccess",
    "WatchdogSec",
    "TimeoutStartSec",
    "TimeoutStopSec",
    "ExecStart",
    "ExecStartPre",
    "ExecStartPost",
    "ExecStop",
    "ExecReload",
    "Restart",
    "RestartSec",
    "RestartPreventExitStatus",
    "StandardOutput",
    "StandardError",
    "StandardInput",
    "SyslogIdentifier",
}


class ServiceCheckError(Exception):
    """The check cannot run here; the message is one line saying why and what to do."""


def unit_files(name: str = UNIT_NAME, dirs: Sequence[Path] = UNIT_DIRS) -> list[Path]:
    """The unit file systemd uses (the first found), then its drop-ins in name order."""
    unit = next((d / name for d in dirs if (d / name).is_file()), None)
    if unit is None:
        raise ServiceCheckError(
            f"{name} is not installed (looked in {', '.join(map(str, dirs))}): "
            "run firmware/install-pi.sh first"
        )
    drop_ins = sorted(
        (path for d in dirs for path in (d / f"{name}.d").glob("*.conf")),
        key=lambda path: path.name,
    )
    return [unit, *drop_ins]


def service_settings(texts: Sequence[str]) -> list[tuple[str, str]]:
    """Every KEY=value of the [Service] sections, in order; an empty value resets the key."""
    settings: list[tuple[str, str]] = []
    for text in texts:
        section = ""
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith(("#", ";")):
                continue
            if line.startswith("["):
                section = line
            elif section == "[Service]" and "=" in line:
                key, value = (part.strip() for part in line.split("=", 1))
                settings.append((key, value))
    return settings


def exec_start(settings: Sequence[tuple[str, str]]) -> list[str]:
    """The kiosk's command line as the last ExecStart= (after any reset) gives it."""
    commands = [value for key, value in settings if key == "ExecStart"]
    if not commands or not commands[-1]:
        raise ServiceCheckError(
            "the unit has no ExecStart=: reinstall it with firmware/install-pi.sh"
        )
    return shlex.split(commands[-1].lstrip("-@:+!"))


def doctor_command(settings: Sequence[tuple[str, str]], extra: Sequence[str]) -> list[str]:
    """`tabletop doctor` from the unit's own binary, with the unit's --config if it has one."""
    program, *args = exec_start(settings)
    config = [args[i + 1] for i, arg in enumerate(args[:-1]) if arg == "--config"]
    wanted = list(extra)
    if config and "--config" not in wanted:
        wanted += ["--config", config[-1]]
    return [program, "doctor", *wanted]


def systemd_run_command(
    settings: Sequence[tuple[str, str]], extra: Sequence[str] = ()
) -> list[str]:
    properties = [f"--property={key}={value}" for key, value in settings if key not in SUPERVISION]
    return [
        "systemd-run",
        "--pipe",
        "--wait",
        "--quiet",
        "--collect",
        "--service-type=exec",
        "--unit=tabletop-doctor",
        *properties,
        "--",
        *doctor_command(settings, extra),
    ]


def doctor_arguments(args: object) -> list[str]:
    """The doctor options given on the command line, passed on to the doctor in the sandbox."""
    extra: list[str] = []
    for option in ("config", "state_dir", "camera"):
        value = getattr(args, option, None)
        if value is not None:
            extra += [f"--{option.replace('_', '-')}", str(value)]
    return extra


def systemd_is_pid1() -> bool:
    return Path("/run/systemd/system").is_dir()


def why_it_cannot_run() -> str | None:
    if not systemd_is_pid1():
        return (
            "systemd is not running as PID 1 here (a container, chroot or CI sandbox), so the "
            "unit's sandbox cannot be tried: run `sudo tabletop doctor --as-service` on the Pi"
        )
    if os.geteuid() != 0:
        return "starting a check under the unit's user and sandbox needs root: use sudo"
    return None


def run_as_service(extra: Sequence[str] = ()) -> int:
    """Runs the doctor under the installed unit's sandbox; its exit status is the doctor's."""
    try:
        reason = why_it_cannot_run()
        if reason:
            raise ServiceCheckError(reason)
        files = unit_files()
        settings = service_settings([path.read_text(encoding="utf-8") for path in files])
        command = systemd_run_command(settings, extra)
    except (ServiceCheckError, OSError) as error:
        print(f"doctor --as-service: {error}", file=sys.stderr)
        return 1
    user = dict(settings).get("User", "root")
    print(f"As the service runs it: user {user}, the sandbox of {', '.join(map(str, files))}\n")
    sys.stdout.flush()
    return subprocess.call(command)
