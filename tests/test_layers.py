"""The architecture holds as the contracts in pyproject.toml's [tool.importlinter] say: the
packages depend one way and no module imports itself back through others, lazily or under
TYPE_CHECKING. import-linter (grimp) builds the graph and checks them."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def lint_imports(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    if not (Path(sys.executable).parent / "lint-imports").exists():
        pytest.skip("import-linter is not installed (python3 dev.py setup installs it)")
    environment = {**os.environ, "PYTHONPATH": str(cwd)}
    return subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), "--no-cache", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
    )


def test_the_architecture_contracts_hold() -> None:
    result = lint_imports(REPO)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


def write_package(root: Path, files: dict[str, str]) -> None:
    for name, source in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source))


def test_a_circle_through_a_type_checking_import_is_seen(tmp_path: Path) -> None:
    write_package(
        tmp_path,
        {
            "game/__init__.py": "",
            "game/state.py": "from game import notation\n",
            "game/notation.py": """
                from typing import TYPE_CHECKING
                if TYPE_CHECKING:
                    from game.state import State
            """,
            "setup.toml": """
                [tool.importlinter]
                root_packages = ["game"]
                [[tool.importlinter.contracts]]
                name = "no circles"
                type = "acyclic_siblings"
                ancestors = ["game"]
            """,
        },
    )
    result = lint_imports(tmp_path, "setup.toml")
    assert result.returncode != 0
    assert "No cycles are allowed in game" in result.stdout
    assert ".state -> .notation" in result.stdout
