"""Where the benches find the project's shared labelled data (dice photos), if anywhere."""

from __future__ import annotations

import os
from pathlib import Path


def default_shared_dir() -> Path | None:
    """$TABLETOP_SHARED, or `shared/` beside the clone; None when neither has dice photos."""
    repo = Path(__file__).resolve().parents[2]
    for candidate in (os.environ.get("TABLETOP_SHARED"), repo.parent / "shared"):
        if candidate and (Path(candidate) / "dice-photos").is_dir():
            return Path(candidate)
    return None
