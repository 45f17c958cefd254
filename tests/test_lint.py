"""The code base stays ruff clean (the rules are in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing() -> None:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -e .[test])")
    result = subprocess.run([ruff, "check", "--quiet", str(REPO)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
