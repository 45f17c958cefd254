#!/usr/bin/env python3
"""Set up a local virtual environment and run the demo or the tests: `python3 dev.py demo|test`.

Needs only Python >= 3.11 and network access to PyPI. The environment lives in `.venv/` beside
this file; it is installed from locks/desktop.txt with every hash checked, then the project
itself without dependencies, and re-installed when pyproject.toml or the lock changes.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import urllib.request
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / "bin"
STAMP = VENV / ".tabletop-installed"
LOCK = ROOT / "locks" / "desktop.txt"
USAGE = """usage: python3 dev.py demo [tabletop demo options]   set up, then run the simulated demo
       python3 dev.py test [pytest options]         set up, then run every test
       python3 dev.py setup                         only set up .venv
       python3 dev.py lock [--upgrade]              re-make locks/ from pyproject.toml (uv)
       python3 dev.py pi-check [--json]             the product in an emulated Raspberry Pi OS"""
# The helpers live in tools/; importing them here keeps dev.py a dispatcher.
sys.path.insert(0, str(ROOT))


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py runs before any check
        print("tabletop needs Python 3.11 or newer", file=sys.stderr)
        return 2
    if not argv or argv[0] not in ("demo", "test", "setup", "lock", "pi-check"):
        print(USAGE, file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    if command == "lock":
        from tools import locks

        return locks.main(rest)
    try:
        ensure_environment()
    except StaleLock as stale:
        print(f"dev.py: {stale}", file=sys.stderr)
        return 1
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"dev.py: setting up .venv failed: {error}", file=sys.stderr)
        return 1
    if command == "setup":
        return 0
    if command == "pi-check":
        from tools import pi_check

        return pi_check.main(rest)
    if command == "demo":
        args = rest or ["--out", str(ROOT / "demo-out")]
        return run([str(BIN / "tabletop"), "demo", *args])
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return run([str(BIN / "python"), "-m", "pytest", *rest], env=env)


def run(command: list[str], env: dict[str, str] | None = None) -> int:
    return subprocess.call(command, cwd=ROOT, env=env)


class StaleLock(Exception):
    """The lock no longer matches pyproject.toml's dependencies."""


def ensure_environment() -> None:
    from tools import locks

    reason = locks.stale_reason(LOCK)
    if reason:
        raise StaleLock(reason)
    sources = (ROOT / "pyproject.toml").read_bytes() + LOCK.read_bytes()
    wanted = hashlib.sha256(sources).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted and (BIN / "tabletop").exists():
        return
    if not (BIN / "python").exists():
        create_venv()
    pip = [str(BIN / "python"), "-m", "pip", "--disable-pip-version-check"]
    print("dev.py: installing tabletop and its test tools into .venv (1-2 minutes the first "
          "time) …", flush=True)  # fmt: skip
    quiet_call([*pip, "install", "--quiet", "--upgrade", "pip"])
    print("dev.py: … the locked dependencies (the longest step)", flush=True)
    quiet_call([*pip, "install", "--quiet", "--require-hashes", "-r", str(LOCK)])
    print("dev.py: … tabletop itself", flush=True)
    quiet_call([*pip, "install", "--quiet", "--no-deps", "-e", str(ROOT)])
    STAMP.write_text(wanted)


def quiet_call(command: list[str]) -> None:
    """Run pip, showing what it said only when it failed: setuptools warns about every editable
    install ("Please be careful with folders…"), which alarms a newcomer for nothing."""
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise subprocess.CalledProcessError(done.returncode, command)


def create_venv() -> None:
    """A venv with pip; where ensurepip is missing (Debian without python3-venv), bring pip in."""
    try:
        venv.EnvBuilder(with_pip=True).create(VENV)
        return
    except (subprocess.CalledProcessError, OSError):
        print("dev.py: ensurepip is not available; fetching pip from PyPI", flush=True)
    venv.EnvBuilder(with_pip=False, clear=True).create(VENV)
    wheel = download_pip_wheel()
    subprocess.check_call([str(BIN / "python"), f"{wheel}/pip", "install", "--quiet", str(wheel)])


def download_pip_wheel() -> Path:
    with urllib.request.urlopen("https://pypi.org/pypi/pip/json", timeout=60) as response:
        release = json.load(response)
    url = next(f["url"] for f in release["urls"] if f["filename"].endswith(".whl"))
    target = Path(tempfile.mkdtemp()) / url.rsplit("/", 1)[-1]
    urllib.request.urlretrieve(url, target)
    return target


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
