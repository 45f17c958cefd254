"""The data the dice reader hands out: dice found in a frame and what each shows."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# A d6 value is an int 1-6; a poker value is one of these strings.
POKER_FACES: tuple[str, ...] = ("9", "10", "J", "Q", "K", "A")
D6_FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
Face = int | str


def faces_of(kind: str) -> tuple[Face, ...]:
    if kind == "d6":
        return D6_FACES
    if kind == "poker":
        return POKER_FACES
    raise ValueError(f"kind is 'd6' or 'poker', not {kind!r}")


def face_key(kind: str, face: Face | str) -> Face:
    """The canonical face value: int 1-6 for d6, string for poker; ValueError otherwise."""
    allowed = faces_of(kind)
    for value in allowed:
        if str(value) == str(face).strip().upper():
            return value
    raise ValueError(f"{face!r} is not a {kind} face; {kind} faces are {allowed}")


@dataclass(frozen=True)
class DieCandidate:
    """A region of the frame that looks like one die's top face, before reading it."""

    center: tuple[float, float]
    quad: np.ndarray  # 4x2 float32 corners of the top face, clockwise from top-left, in pixels
    size: float  # side length of the top face in pixels
    score: float = 1.0  # how die-like the region is, 0..1

    @property
    def box(self) -> tuple[int, int, int, int]:
        xs, ys = self.quad[:, 0], self.quad[:, 1]
        return int(xs.min()), int(ys.min()), int(np.ceil(xs.max())), int(np.ceil(ys.max()))


@dataclass(frozen=True)
class Die:
    """One die read in a frame: its value (None when unreadable) and how sure the reader is.

    For a pip die read by `DiceReader`, `confidence` is the chance its value is right, fitted on
    photos the nets never trained on (`vision/read/confidence.py`), and `sure` says it reaches the
    line (`vision.read.confidence.SURE_LINE`): a die not sure is shown as unsure, with its value as
    the best guess, and settled by a touch."""

    value: Face | None
    center: tuple[float, float]
    confidence: float
    quad: np.ndarray | None = None
    reason: str = ""  # why it is unreadable, when value is None
    sure: bool = False

    @property
    def readable(self) -> bool:
        return self.value is not None

    @property
    def side(self) -> float:
        """The side of the square it was read on, in pixels (0.0 when it has none)."""
        if self.quad is None:
            return 0.0
        quad = np.asarray(self.quad, np.float64)
        return float(np.linalg.norm(quad[1] - quad[0]))


@dataclass(frozen=True)
class Reading:
    """Everything read in one frame."""

    dice: tuple[Die, ...] = field(default_factory=tuple)
    ms: float = 0.0

    @property
    def values(self) -> list[Face]:
        return [d.value for d in self.dice if d.value is not None]

    @property
    def unreadable(self) -> int:
        return sum(1 for d in self.dice if d.value is None)
