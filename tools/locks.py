"""The lock files in locks/: made by uv from pyproject.toml, checked against it for staleness.

    python3 dev.py lock [--upgrade]     re-make every lock (keeps current pins unless --upgrade)
    python3 tools/locks.py check FILE   exit 1 with one line when FILE is older than pyproject.toml

Three locks, all with sha256 hashes (pip installs them with --require-hashes):
- locks/desktop.txt: every extra, any platform, Python >= 3.11 (uv's universal resolution, one
  version of each package for all Pythons where possible); `dev.py` installs it.
- locks/pi.txt: the app and the `pi` extra for the Raspberry Pi: aarch64, CPython 3.11 (Bookworm's
  /usr/bin/python3), manylinux glibc 2.36 (Bookworm's). Wheels only, except the pure-Python
  packages published only as source (SOURCE_ONLY), so a package without an aarch64 wheel fails
  here, on the developer's machine, not on a Pi. `firmware/install-pi.sh` installs it.
- locks/pi-all.txt: the same target with every extra (the test tools among them); `pi-check`
  installs it on top to run the test suite in the emulated Pi.
The Pi locks are constrained to the desktop lock's versions: one version of each package
everywhere.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
import tomllib
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCKS = ROOT / "locks"
UV_VERSION = "0.13.8"
UV_HOME = Path.home() / ".cache" / "tabletop" / f"uv-{UV_VERSION}"
FINGERPRINT_PREFIX = "# pyproject.toml dependencies: sha256 "
LOCK_COMMAND = "python3 dev.py lock"
# Pure-Python packages that PyPI has only as source: pip builds them without a compiler.
SOURCE_ONLY = ("sdnotify",)
PI_TARGET = [
    "--python-platform",
    "aarch64-manylinux_2_36",
    "--python-version",
    "3.11",
    "--only-binary",
    ":all:",
    *(option for name in SOURCE_ONLY for option in ("--no-binary", name)),
]
# pip's own options at the top of a Pi lock, in the order pip needs (a later `:all:` would undo
# the exceptions): wheels only, except the pure-Python sources.
PI_PIP_OPTIONS = "--only-binary :all:\n" + "".join(f"--no-binary {name}\n" for name in SOURCE_ONLY)
DESKTOP = LOCKS / "desktop.txt"
PI = LOCKS / "pi.txt"
PI_ALL = LOCKS / "pi-all.txt"


class LockError(Exception):
    """A lock could not be made or read; the message is one line for the user."""


def fingerprint(pyproject: Path = ROOT / "pyproject.toml") -> str:
    """What the locks depend on in pyproject.toml: Python, dependencies and extras."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    wanted = {
        "requires-python": project.get("requires-python", ""),
        "dependencies": project.get("dependencies", []),
        "optional-dependencies": project.get("optional-dependencies", {}),
        "source-only": SOURCE_ONLY,
    }
    return hashlib.sha256(json.dumps(wanted, sort_keys=True).encode()).hexdigest()


def recorded_fingerprint(lock: Path) -> str | None:
    if not lock.exists():
        return None
    for line in lock.read_text(encoding="utf-8").splitlines():
        if line.startswith(FINGERPRINT_PREFIX):
            return line.removeprefix(FINGERPRINT_PREFIX).strip()
    return None


def stale_reason(lock: Path, pyproject: Path = ROOT / "pyproject.toml") -> str | None:
    """One line saying why `lock` cannot be used with this pyproject.toml, or None if it can."""
    name = lock.relative_to(ROOT) if lock.is_relative_to(ROOT) else lock
    recorded = recorded_fingerprint(lock)
    if recorded is None:
        return f"{name} is missing or has no fingerprint line: run `{LOCK_COMMAND}`"
    if recorded != fingerprint(pyproject):
        return (
            f"{name} was made for other dependencies than pyproject.toml's (changed since): "
            f"run `{LOCK_COMMAND}` and commit locks/"
        )
    return None


def uv() -> Path:
    """uv at the pinned version, in its own venv under ~/.cache (installed from PyPI once)."""
    binary = UV_HOME / "bin" / "uv"
    if binary.exists():
        return binary
    print(f"locks: installing uv {UV_VERSION} into {UV_HOME}", flush=True)
    venv.EnvBuilder(with_pip=True, clear=True).create(UV_HOME)
    pip = [str(UV_HOME / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, f"uv=={UV_VERSION}"], check=True)
    return binary


def compile_lock(target: Path, args: list[str], upgrade: bool, pip_options: str = "") -> None:
    """Run `uv pip compile` into `target`, then put the fingerprint header on top."""
    command = [
        str(uv()),
        "pip",
        "compile",
        "pyproject.toml",
        "--generate-hashes",
        "--no-header",
        "--quiet",
        *(["--upgrade"] if upgrade else []),
        *args,
        "--output-file",
        str(target),
    ]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        raise LockError(f"uv could not make {target.relative_to(ROOT)} (its reasons above)")
    shown = " ".join(args)
    header = (
        f"# Made by `{LOCK_COMMAND}` (uv {UV_VERSION} pip compile pyproject.toml {shown});"
        " do not edit.\n"
        f"{FINGERPRINT_PREFIX}{fingerprint()}\n"
        f"{pip_options}"
    )
    target.write_text(header + target.read_text(encoding="utf-8"), encoding="utf-8")


def pins(lock: Path) -> str:
    """The `name==version ; marker` lines of a lock, without hashes: a constraints file."""
    lines = []
    for line in lock.read_text(encoding="utf-8").splitlines():
        if line and not line[0].isspace() and not line.startswith(("#", "-")):
            lines.append(line.rstrip(" \\"))
    return "\n".join(lines) + "\n"


def lock(upgrade: bool = False) -> None:
    LOCKS.mkdir(exist_ok=True)
    universal = ["--all-extras", "--universal", "--fork-strategy", "fewest"]
    compile_lock(DESKTOP, [*universal, "--python-version", "3.11"], upgrade)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as constraints:
        constraints.write(pins(DESKTOP))
    pinned = ["--constraint", constraints.name]
    try:
        compile_lock(PI, ["--extra", "pi", *PI_TARGET, *pinned], upgrade, PI_PIP_OPTIONS)
        compile_lock(PI_ALL, ["--all-extras", *PI_TARGET, *pinned], upgrade, PI_PIP_OPTIONS)
    finally:
        Path(constraints.name).unlink()
    # The temporary constraints file's name would make every lock differ: say what it was.
    for target in (PI, PI_ALL):
        text = target.read_text(encoding="utf-8").replace(constraints.name, "locks/desktop.txt")
        target.write_text(text, encoding="utf-8")
    for target in (DESKTOP, PI, PI_ALL):
        count = sum(1 for line in pins(target).splitlines() if "==" in line)
        print(f"locks: {target.relative_to(ROOT)}: {count} packages, hashed")


def main(argv: list[str]) -> int:
    try:
        if argv[:1] == ["check"] and len(argv) > 1:
            reasons = [
                reason for name in argv[1:] if (reason := stale_reason(Path(name).resolve()))
            ]
            for reason in reasons:
                print(f"locks: {reason}", file=sys.stderr)
            return 1 if reasons else 0
        if argv and argv[0] not in ("--upgrade",):
            print("usage: python3 dev.py lock [--upgrade]", file=sys.stderr)
            return 2
        lock(upgrade="--upgrade" in argv)
    except (LockError, OSError, subprocess.CalledProcessError) as error:
        print(f"locks: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
