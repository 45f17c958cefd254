"""Scoring a reading against the dice known to be there: `match_dice` pairs the dice read with
labelled boxes, `score_image` (labelled photos) and `score_rendered` (rendered scenes, whose
truth is known) count the dice read right, wrong and where no label is into a `Score`, whose
figures every vision bench reports (bench vision, its scale sweep and --adapt, bench poker).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bench.reliability import expected_calibration_error
from vision.train._photos import Labelled


@dataclass
class Score:
    dice: int = 0
    dice_right: int = 0
    images: int = 0
    images_exact: int = 0  # every labelled die right
    images_strict: int = 0  # and no value given where no label is
    unreadable_labelled: int = 0
    missed: int = 0  # labelled dice with no die read for them
    sure_right: int = 0  # labelled dice read right and sure
    sure_wrong: int = 0  # labelled dice given a wrong value as sure: the misreads that cost a game
    wrong: list[str] = field(default_factory=list)
    # dice read with a value where no label is (blurred or cut dice, or phantoms)
    unlabelled: list[str] = field(default_factory=list)
    # (confidence, read right) of each labelled die read with a value
    outcomes: list[tuple[float, bool]] = field(default_factory=list)

    def add(self, other: Score) -> None:
        for name in COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.wrong.extend(other.wrong)
        self.unlabelled.extend(other.unlabelled)
        self.outcomes.extend(other.outcomes)

    @property
    def unlabelled_valued(self) -> int:
        return len(self.unlabelled)

    def figures(self) -> dict[str, Any]:
        """`right`: share of labelled dice given their value (sure or not; `die_accuracy` too);
        `sure_right`: read right and sure; `wrong`: given a wrong value as sure; `unsure_wrong`:
        given a wrong value, shown unsure; `ece`: the expected calibration error of the
        confidences of the dice given a value (bench/reliability.py)."""
        dice = max(self.dice, 1)
        valued_wrong = sum(1 for _, right in self.outcomes if not right)
        return {
            "images": self.images,
            "dice": self.dice,
            "right": round(self.dice_right / dice, 4),
            "sure_right": round(self.sure_right / dice, 4),
            "wrong": round(self.sure_wrong / dice, 4),
            "unsure_wrong": round((valued_wrong - self.sure_wrong) / dice, 4),
            "ece": expected_calibration_error(self.outcomes),
            "die_accuracy": round(self.dice_right / dice, 4),
            "image_exact": round(self.images_exact / max(self.images, 1), 4),
            "image_exact_strict": round(self.images_strict / max(self.images, 1), 4),
            "unreadable_labelled": self.unreadable_labelled,
            "missed": self.missed,
            "unlabelled_valued": self.unlabelled_valued,
        }


COUNTS = (
    "dice",
    "dice_right",
    "images",
    "images_exact",
    "images_strict",
    "unreadable_labelled",
    "missed",
    "sure_right",
    "sure_wrong",
)


def box_center(box: tuple[int, int, int, int]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0


def match_dice(
    labels: tuple[tuple[int, tuple[int, int, int, int]], ...],
    found: list[tuple[Any, tuple[float, float], float]],
    box_kind: str,
) -> list[int | None]:
    """For each label, the index of the die read for it (or None).

    Whole-die boxes: a die matches a box its centre lies inside. Pip boxes are smaller than the
    face, so a die matches the nearest label centre within one die size of it. Greedy, nearest
    first, each die used once.
    """
    pairs = []
    for li, (_, box) in enumerate(labels):
        lx, ly = box_center(box)
        for di, (_, (dx, dy), size) in enumerate(found):
            distance = float(np.hypot(dx - lx, dy - ly))
            if box_kind == "whole die":
                inside = box[0] <= dx <= box[2] and box[1] <= dy <= box[3]
            else:
                inside = distance <= max(size * 0.75, 0.6 * max(box[2] - box[0], box[3] - box[1]))
            if inside:
                pairs.append((distance, li, di))
    matched: list[int | None] = [None] * len(labels)
    used: set[int] = set()
    for _, li, di in sorted(pairs):
        if matched[li] is None and di not in used:
            matched[li] = di
            used.add(di)
    return matched


def score_image(photo: Labelled, reading: Any, box_kind: str) -> Score:
    found = [(d.value, d.center, d.side) for d in reading.dice]
    matched = match_dice(photo.dice, found, box_kind)
    score = Score(images=1, dice=len(photo.dice))
    for (value, box), di in zip(photo.dice, matched, strict=True):
        got = found[di][0] if di is not None else "missed"
        if di is not None and got is not None:
            die = reading.dice[di]
            score.outcomes.append((die.confidence, got == value))
            sure = bool(getattr(die, "sure", False))
            score.sure_right += sure and got == value
            score.sure_wrong += sure and got != value
        if got == value:
            score.dice_right += 1
        else:
            score.unreadable_labelled += got is None
            score.missed += di is None
            how = "" if di is None else f" ({how_read(reading.dice[di])})"
            score.wrong.append(f"{photo.image.name} {list(box)}: {value} read as {got}{how}")
    used = {di for di in matched if di is not None}
    extras = [i for i, d in enumerate(found) if i not in used and d[0] is not None]
    for i in extras:
        die = reading.dice[i]
        at = [round(c) for c in die.center]
        score.unlabelled.append(f"{photo.image.name} at {at}: {die.value} ({how_read(die)})")
    score.images_exact = int(score.dice_right == score.dice)
    score.images_strict = int(score.images_exact and not extras)
    return score


def how_read(die: Any) -> str:
    """A die's confidence, whether it is sure, and for an unreadable one why."""
    sure = ", sure" if getattr(die, "sure", False) else ""
    return f"{die.confidence:.2f}{sure}" + (f", {die.reason}" if die.reason else "")


def score_rendered(scene: Any, reading: Any, name: str = "rendered") -> Score:
    """Match rendered truth (value and top-face corners of each die) to the dice read."""
    labels = []
    for truth in scene.dice:
        xs, ys = truth.quad[:, 0], truth.quad[:, 1]
        labels.append((truth.value, (int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max()))))
    return score_image(Labelled(Path(name), tuple(labels)), reading, "whole die")
