"""A pip die's confidence as the chance its value is right, and the line above which it is sure.

The face nets' own chances are not that: on photos they never trained on, a quarter of the wrong
values came at 0.95 or more (dice seen from the side, their front face read). So every die read
with a value is checked once more, on the square it was read on:

* its *score*: the lesser of the reader's chance for its value and the 48 px face net's chance
  for that value on the square as it stands (the reader's first look is the 32 px net's, and
  most dice are read surely by it alone: the larger crop must see that value too, and see it
  alone; adding the 32 px net's own chance again ranked the dice no better, and cost 1.6 ms a
  frame of five dice);
* whether another die was read *just above it* (within `ABOVE_APART` of a side, `ABOVE_ACROSS`
  across): a die photographed from the side shows its top face above its front face, both read;
  the front face is the one the camera faces, and it is not the value thrown.

A fitted map (`vision/models/confidence.json`, made by `vision/calibrate.py` on the calibration
half of the held-out photos) turns the score into the share of dice read right at that score,
one map for dice with a face above and one for the others. A die is sure at `SURE_LINE` or more.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.read._nets import SECOND_OPINION_INPUT, classify_crops, crop_face
from vision.read.find import candidate_angle
from vision.read.types import Die, DieCandidate

SURE_LINE = 0.99
CALIBRATION_FILE = Path(__file__).resolve().parents[1] / "models" / "confidence.json"
# A die read with its centre this many sides or less above another's, and this many sides or
# less across, is that die's top face seen from the side (chosen on the development photos:
# it flags 19 of the boards' 31 wrong values read at 0.9 or more, 2 of the varied tables' 19,
# and 49 of the mixed tray's 1446 right values).
ABOVE_APART = 1.0
ABOVE_ACROSS = 0.35
GROUPS = ("alone", "face above")


@dataclass(frozen=True)
class StepMap:
    """A non-decreasing step function: `chances[i]` from `scores[i]` on (scores ascending)."""

    scores: tuple[float, ...]
    chances: tuple[float, ...]

    def __call__(self, score: float) -> float:
        index = int(np.searchsorted(self.scores, score, side="right")) - 1
        return self.chances[index] if index >= 0 else 0.0


@dataclass(frozen=True)
class Check:
    """What the check found for one die with a value."""

    score: float
    face_above: bool

    @property
    def group(self) -> str:
        return GROUPS[int(self.face_above)]


@lru_cache(maxsize=1)
def shipped_maps() -> dict[str, StepMap]:
    """The maps fitted by `vision/calibrate.py`, by group."""
    fitted = json.loads(CALIBRATION_FILE.read_text())
    return {
        group: StepMap(tuple(fitted[group]["scores"]), tuple(fitted[group]["chances"]))
        for group in GROUPS
    }


def checks(frame_bgr: np.ndarray, dice: Sequence[Die]) -> list[Check | None]:
    """Per die: its `Check`, or None for a die without a value or a square."""
    valued = [i for i, die in enumerate(dice) if die.value is not None and die.quad is not None]
    found: list[Check | None] = [None] * len(dice)
    if not valued:
        return found
    chances = larger_crops_chances(frame_bgr, [dice[i] for i in valued])
    for i, larger in zip(valued, chances, strict=True):
        die = dice[i]
        value = int(die.value)  # type: ignore[arg-type]  # pip dice: 1..6
        score = min(die.confidence, float(larger[value]))
        found[i] = Check(score, has_face_above(die, dice))
    return found


def larger_crops_chances(frame_bgr: np.ndarray, dice: Sequence[Die]) -> np.ndarray:
    """The 48 px face net's seven chances (no die, 1..6) for each die's square, in one batch."""
    squares = [DieCandidate(d.center, np.asarray(d.quad, np.float32), d.side) for d in dice]
    crops = [
        crop_face(frame_bgr, sq.center, sq.size, candidate_angle(sq), size=SECOND_OPINION_INPUT)
        for sq in squares
    ]
    return classify_crops(crops, SECOND_OPINION_INPUT)


def has_face_above(die: Die, dice: Sequence[Die]) -> bool:
    """Whether another die was read just above this one (its top face seen from the side)."""
    for other in dice:
        if other is die or other.quad is None:
            continue
        side = max(die.side, other.side)
        across = abs(other.center[0] - die.center[0])
        above = die.center[1] - other.center[1]
        if across < ABOVE_ACROSS * side and 0.0 < above < ABOVE_APART * side:
            return True
    return False


def calibrated(
    frame_bgr: np.ndarray,
    dice: Sequence[Die],
    line: float = SURE_LINE,
    maps: dict[str, StepMap] | None = None,
) -> list[Die]:
    """The dice with their confidences fitted (the chance each value is right) and `sure` set
    where it reaches `line`; dice without a value as they were."""
    maps = maps or shipped_maps()
    out = []
    for die, check in zip(dice, checks(frame_bgr, dice), strict=True):
        if check is None:
            out.append(replace(die, sure=False))
            continue
        chance = maps[check.group](check.score)
        out.append(replace(die, confidence=chance, sure=chance >= line))
    return out


def sure_at_own_confidence(dice: Sequence[Die], line: float = SURE_LINE) -> list[Die]:
    """Dice of a taught profile (poker dice, no fitted map): sure where their own confidence
    reaches the line."""
    return [replace(die, sure=die.value is not None and die.confidence >= line) for die in dice]
