"""Shared fixtures: where the read-only shared data lives (absent in a user's clone)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# CI runs the same examples every time (a red CI is then a real regression, reproducible);
# local runs keep exploring new random examples.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

REPO = Path(__file__).resolve().parents[1]


def find_shared_dir() -> Path | None:
    """`../shared` beside the clone (CI), or $TABLETOP_SHARED; None in a user's clone."""
    candidates = [os.environ.get("TABLETOP_SHARED"), REPO.parent / "shared"]
    for candidate in candidates:
        if candidate and (Path(candidate) / "dice-photos").is_dir():
            return Path(candidate)
    return None


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    found = find_shared_dir()
    if found is None:
        pytest.skip("../shared (real dice photos) is not beside this clone; CI has it")
    return found
