"""Shared fixtures: where the read-only shared data lives (absent in a user's clone)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# No test may depend on the machine's speed or load: hypothesis's per-example deadline (200 ms by
# default) and its "too slow" health check fail a correct test on a busy machine: both are off.
# CI runs the same examples every time (a red CI is then a real regression, reproducible);
# local runs keep exploring new random examples.
UNTIMED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("local", **UNTIMED)
settings.register_profile("ci", **UNTIMED, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "local")

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
