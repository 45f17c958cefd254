"""The project installed as a user's machine installs it: the wheel pyproject.toml describes, in a
fresh venv, run from outside the checkout, where nothing of the clone is on the path."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import cv2
import pytest

from vision.synth.render import render_scene

REPO = Path(__file__).resolve().parents[1]
LOCK = REPO / "locks" / "desktop.txt"


def exported_source(target: Path) -> Path:
    """The files git tracks (as they are in the working tree), as the installer exports them."""
    listed = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, (entry.decode() for entry in listed)):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("the source is exported with git, and this copy is not a git checkout")
    work = tmp_path_factory.mktemp("wheel")
    source = exported_source(work / "source")
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    subprocess.run(
        [*pip, "wheel", "--quiet", "--no-deps", "--wheel-dir", str(work / "dist"), str(source)],
        check=True,
    )
    (built,) = (work / "dist").glob("*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the lock's dependencies and the wheel (not editable); its bin folder."""
    home = tmp_path_factory.mktemp("user")
    environment = home / "venv"
    venv.EnvBuilder(with_pip=True).create(environment)
    python = environment / "bin" / "python"
    pip = [str(python), "-m", "pip", "--disable-pip-version-check", "--no-input", "install"]
    subprocess.run([*pip, "--quiet", "--require-hashes", "-r", str(LOCK)], check=True, cwd=home)
    subprocess.run([*pip, "--quiet", "--no-deps", str(wheel)], check=True, cwd=home)
    return environment / "bin"


def run_installed(bin_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {
        key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")
    }
    environment |= {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "HOME": str(cwd)}
    return subprocess.run(
        [str(bin_dir / "tabletop"), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment,
        timeout=600,
    )


def test_the_installed_command_has_help(installed: Path, tmp_path: Path) -> None:
    result = run_installed(installed, "--help", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "demo" in result.stdout and "Traceback" not in result.stderr


def test_the_installed_demo_plays_a_whole_game(installed: Path, tmp_path: Path) -> None:
    result = run_installed(
        installed, "demo", "--game", "roudalon", "--out", str(tmp_path / "out"), cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr[-2000:]
    scores = json.loads((tmp_path / "out" / "result.json").read_text())["scores"]
    assert "roudalon" in scores


def test_the_installed_doctor_runs_every_check(installed: Path, tmp_path: Path) -> None:
    result = run_installed(installed, "doctor", cwd=tmp_path)
    assert result.returncode in (0, 1), result.stderr[-2000:]
    assert "Traceback" not in result.stdout + result.stderr
    assert "config" in result.stdout


def test_the_installed_reader_reads_a_rendered_photo(installed: Path, tmp_path: Path) -> None:
    photo = tmp_path / "tray.png"
    cv2.imwrite(str(photo), render_scene([2, 5, 6], kind="d6", seed=3).frame)
    result = run_installed(installed, "read", "--json", "--kind", "d6", str(photo), cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    reading = json.loads(result.stdout.splitlines()[0])
    assert sorted(die["value"] for die in reading["dice"]) == [2, 5, 6]


def top_level_packages() -> set[str]:
    return {path.parent.name for path in REPO.glob("*/__init__.py")}


def imported_top_levels(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_every_package_the_shipped_code_imports_is_in_the_wheel(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        shipped = {name.split("/")[0] for name in archive.namelist() if "/" in name}
        imported = set().union(
            *(
                imported_top_levels(archive.read(name).decode())
                for name in archive.namelist()
                if name.endswith(".py")
            )
        )
    ours = top_level_packages()
    missing = sorted((imported & ours) - shipped)
    assert not missing, f"shipped code imports {missing}, which the wheel does not hold"
    assert {"companion", "engines", "vision", "advisor"} <= shipped
