#!/usr/bin/env python3
"""Set up a local virtual environment and run the demo or the tests: `python3 dev.py demo|test`.

Needs only Python >= 3.11 and network access to PyPI. The environment lives in `.venv/` beside
this file and is re-installed when pyproject.toml changes.
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
USAGE = """usage: python3 dev.py demo [tabletop demo options]   set up, then run the simulated demo
       python3 dev.py test [pytest options]         set up, then run every test
       python3 dev.py setup                         only set up .venv"""


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py runs before any check
        print("tabletop needs Python 3.11 or newer", file=sys.stderr)
        return 2
    if not argv or argv[0] not in ("demo", "test", "setup"):
        print(USAGE, file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    try:
        ensure_environment()
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"dev.py: setting up .venv failed: {error}", file=sys.stderr)
        return 1
    if command == "setup":
        return 0
    if command == "demo":
        args = rest or ["--out", str(ROOT / "demo-out")]
        return run([str(BIN / "tabletop"), "demo", *args])
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return run([str(BIN / "python"), "-m", "pytest", *rest], env=env)


def run(command: list[str], env: dict[str, str] | None = None) -> int:
    return subprocess.call(command, cwd=ROOT, env=env)


def ensure_environment() -> None:
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted and (BIN / "tabletop").exists():
        return
    if not (BIN / "python").exists():
        create_venv()
    pip = [str(BIN / "python"), "-m", "pip", "--disable-pip-version-check"]
    print("dev.py: installing tabletop and its test tools into .venv …", flush=True)
    subprocess.check_call([*pip, "install", "--quiet", "--upgrade", "pip"])
    subprocess.check_call([*pip, "install", "--quiet", "-e", f"{ROOT}[test]"])
    STAMP.write_text(wanted)


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
