"""locks/: hashed, pinned, in step with pyproject.toml, and the same versions for the Pi and the
desktop; tools/locks.py tells a stale lock in one line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tools import locks

REQUIREMENT = re.compile(r"^([A-Za-z0-9_.-]+)==([^ ;\\]+)")


def pinned(lock: Path) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in lock.read_text().splitlines():
        if match := REQUIREMENT.match(line):
            found[match[1].lower()] = match[2]
    return found


@pytest.mark.parametrize("lock", [locks.DESKTOP, locks.PI, locks.PI_ALL], ids=lambda p: p.name)
def test_every_lock_is_current_and_every_requirement_pinned_with_hashes(lock: Path) -> None:
    assert locks.stale_reason(lock) is None, locks.stale_reason(lock)
    text = lock.read_text()
    requirements = [line for line in text.splitlines() if REQUIREMENT.match(line)]
    assert requirements
    for block in re.split(r"\n(?=[A-Za-z0-9])", text):
        if REQUIREMENT.match(block):
            assert "--hash=sha256:" in block, block.splitlines()[0]


def test_the_pi_gets_the_versions_the_desktop_tests_chose() -> None:
    desktop = pinned(locks.DESKTOP)
    for lock in (locks.PI, locks.PI_ALL):
        for name, version in pinned(lock).items():
            assert desktop[name] == version, f"{lock.name}: {name} {version} != {desktop[name]}"
    assert pinned(locks.PI)["opencv-python-headless"] == "5.0.0.93"
    assert "simplejpeg" in pinned(locks.PI) and "pytest" not in pinned(locks.PI)
    assert "pytest" in pinned(locks.PI_ALL)


def test_pi_locks_take_wheels_only_except_pure_python_sources() -> None:
    for lock in (locks.PI, locks.PI_ALL):
        options = [line for line in lock.read_text().splitlines() if line.startswith("--")]
        # pip applies them in order: `:all:` first, or it would undo the exceptions.
        assert options == ["--only-binary :all:", *(f"--no-binary {n}" for n in locks.SOURCE_ONLY)]


def write_pyproject(path: Path, dependencies: list[str], extra: str = "") -> Path:
    listed = ", ".join(f'"{name}"' for name in dependencies)
    path.write_text(f'[project]\nname = "x"\ndependencies = [{listed}]\n{extra}')
    return path


def test_fingerprint_follows_dependencies_not_tool_settings(tmp_path: Path) -> None:
    base = locks.fingerprint(write_pyproject(tmp_path / "a.toml", ["numpy"]))
    tooling = "[tool.ruff]\nline-length = 99\n"
    assert locks.fingerprint(write_pyproject(tmp_path / "b.toml", ["numpy"], tooling)) == base
    assert locks.fingerprint(write_pyproject(tmp_path / "c.toml", ["numpy", "babel"])) != base
    extras = "[project.optional-dependencies]\nclub = ['starlette']\n"
    assert locks.fingerprint(write_pyproject(tmp_path / "d.toml", ["numpy"], extras)) != base


def test_a_stale_lock_is_told_in_one_line_naming_the_command(tmp_path: Path) -> None:
    pyproject = write_pyproject(tmp_path / "pyproject.toml", ["numpy", "babel"])
    lock = tmp_path / "desktop.txt"
    lock.write_text(f"{locks.FINGERPRINT_PREFIX}{'0' * 64}\nnumpy==2.4.6\n")
    reason = locks.stale_reason(lock, pyproject)
    assert reason is not None and "\n" not in reason
    assert "python3 dev.py lock" in reason and "changed since" in reason
    lock.write_text(f"{locks.FINGERPRINT_PREFIX}{locks.fingerprint(pyproject)}\n")
    assert locks.stale_reason(lock, pyproject) is None
    assert "missing" in (locks.stale_reason(tmp_path / "none.txt", pyproject) or "")


def test_check_command_exits_1_on_a_stale_lock(tmp_path: Path, capsys) -> None:
    lock = tmp_path / "pi.txt"
    lock.write_text("numpy==1\n")
    assert locks.main(["check", str(lock)]) == 1
    assert "python3 dev.py lock" in capsys.readouterr().err
    assert locks.main(["check", str(locks.PI)]) == 0
