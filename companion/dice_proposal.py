"""The faces read for the roll the engine waits for, as the players correct them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class DiceProposal:
    """One reading on its way to a confirmed roll: a face per die (None: unread)."""

    faces: list[str | None]
    centers: list[tuple[float, float] | None]  # None: a die entered by hand
    quads: list[tuple[tuple[float, float], ...] | None]
    corrected: set[int] = field(default_factory=set)
    unsure: set[int] = field(default_factory=set)  # read below the sure line, not yet settled
    image: Any = None  # the settled frame the faces were read on

    def complete(self, wanted: int) -> bool:
        return len(self.faces) == wanted and all(f is not None for f in self.faces)

    def first_unsure(self) -> int | None:
        """The die to touch next before the roll can be confirmed (None: none waits)."""
        return min(self.unsure, default=None)
