"""Counting a die's pips against a brightness threshold fitted to one table's examples.

The faces net sees a face whole, so a soft highlight where a pip would be (one table's light on
glossy dice) can read as that pip, surely. Pips themselves are small sharp spots: counted from
the sharp peaks of a crop, with how strong a peak must be to count learned from the table's
confirmed dice, a highlight falls below the threshold. The count describes a crop for the
table's nearest examples (vision/profiles/adapt.py); it decides nothing on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.read._nets import CROP_CONTEXT

STRONGEST = 8  # peaks kept a crop, strongest first
# Peaks are looked for in this middle share of the face: every pip of a d6 lies within it, and
# the pips of a touching neighbour the crop's margin shows mostly do not.
FACE_MIDDLE = 0.8
PIP_BLUR, SURROUND_BLUR = 1.0, 3.0  # sigmas (px of a 64 px crop): a pip against its surround
PEAK_APART = 5  # px: one peak per this square
FLOOR = 1e-3  # the strength of a peak a crop has not got
LEAST_PEAK = 2.0  # grey levels: a crop whose sharpest peak is weaker has no pips to count
MOST_PIPS = 6
SOFTNESS = 0.1  # how sharply a peak's strength around the threshold counts (log units)
MARGIN_CAP = 0.3  # a fit counts each example's margin up to this much (log units)
# Pips light on a dark face take the crop's darkest channel (a white pip is bright in all three,
# a red face only in one); dark pips on a light face its brightest, turned over.
LOOKS = ("light pips", "dark pips")


def _channel(crop: np.ndarray, look: str) -> np.ndarray:
    if look == "light pips":
        return crop.min(axis=2).astype(np.float32)
    return 255.0 - crop.max(axis=2).astype(np.float32)


def peak_strengths(crops: Sequence[np.ndarray], look: str) -> np.ndarray:
    """N x STRONGEST: the log strength of each crop's sharpest peaks in the face's middle, as
    a share of its sharpest (0 for the sharpest; all far below 0 where even the sharpest is
    under LEAST_PEAK)."""
    rows = np.full((len(crops), STRONGEST), FLOOR, np.float32)
    for row, crop in zip(rows, crops, strict=True):
        channel = _channel(crop, look)
        sharp = cv2.GaussianBlur(channel, (0, 0), PIP_BLUR) - cv2.GaussianBlur(
            channel, (0, 0), SURROUND_BLUR
        )
        side = crop.shape[0]
        edge = int((side - side * FACE_MIDDLE / CROP_CONTEXT) / 2)
        middle = sharp[edge : side - edge, edge : side - edge]
        tops = middle == cv2.dilate(middle, np.ones((PEAK_APART, PEAK_APART), np.uint8))
        peaks = np.sort(middle[tops & (middle > 0)])[::-1][:STRONGEST]
        row[: len(peaks)] = peaks
    return np.log(np.maximum(rows, FLOOR) / np.maximum(rows[:, :1], LEAST_PEAK))


@dataclass(frozen=True)
class PipCount:
    """How one table's pips are counted: on which look, and from which strength a peak is a
    pip (log share of the crop's sharpest)."""

    look: str
    threshold: float

    @classmethod
    def fit(cls, crops: Sequence[np.ndarray], values: Sequence[int]) -> PipCount:
        """The look and threshold that count the examples' pips best: the most margin between
        each example's weakest pip and its strongest other peak, summed (capped, so a few odd
        examples do not pull the threshold away from all the others)."""
        faces = np.clip(np.asarray(values, int), 1, MOST_PIPS)
        best: tuple[float, PipCount] | None = None
        for look in LOOKS:
            strengths = peak_strengths(crops, look)
            weakest_pip = strengths[np.arange(len(faces)), faces - 1]
            strongest_other = strengths[np.arange(len(faces)), faces]
            for threshold in np.linspace(-3.0, 0.0, 301):
                margin = np.minimum(weakest_pip - threshold, threshold - strongest_other)
                score = float(np.clip(margin, -MARGIN_CAP, MARGIN_CAP).sum())
                if best is None or score > best[0]:
                    best = (score, cls(look, float(threshold)))
        assert best is not None
        return best[1]

    def counts(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """N: the pips counted on each crop."""
        return (peak_strengths(crops, self.look) > self.threshold).sum(axis=1)

    def described(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """N x (STRONGEST + 1) unit rows: each crop's count from 0, softly one-hot (a peak near
        the threshold counts partly), for nearest-example comparisons."""
        above = (peak_strengths(crops, self.look) - self.threshold) / SOFTNESS
        counted = 1.0 / (1.0 + np.exp(-np.clip(above, -50.0, 50.0)))
        at_least = np.hstack([np.ones((len(counted), 1)), counted])  # column k: k pips or more
        one_hot = at_least - np.hstack([counted, np.zeros((len(counted), 1))])
        return one_hot / (np.linalg.norm(one_hot, axis=1, keepdims=True) + 1e-6)
