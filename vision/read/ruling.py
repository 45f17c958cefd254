"""The owner's camera ruling (#55) for poker dice: a die whose top face is under LEAST_SIDE px
across, or blurred beyond MOST_BLUR px, must come out unreadable, never wrong. The reader cannot
know a die's true size or blur; it measures both cheaply on the frame and makes a die that
measures beyond the ruling unreadable, with the reason.

The blur is judged by the steepest edges on the die relative to its contrast: a step of
contrast C blurred by a Gaussian of sigma px rises at most C / (sigma * sqrt(2 pi)) a pixel, so
the steepest gradient over the contrast falls as the blur grows, whatever the print.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.read.types import Die

Roi = tuple[int, int, int, int]  # x, y, w, h

LEAST_SIDE = 40.0  # px: the ruling's least top face
MOST_BLUR = 1.0  # px: the ruling's most lens blur (Gaussian sigma)
# Thresholds on what is measured, chosen on rendered trays of the home generator (designs
# 300-303 of every kind, taught both ways, 12 trays each: 1,071 dice read, 748 within the
# ruling). The side a die was read on is that of the square the profile matched best: 0.94 of
# the true top face's at the median, 0.75-0.8 at the 1st percentile, so no side can tell 36 px
# from 44. The line is set far under the least (0.6 of it) to refuse dice far too small (a
# camera too far away, which `tabletop doctor` names) and never a die of the ruling's size: at
# 32 px it lost none on the home trays but 3 of 29 dice of 43-47 px on the held-out generator's
# tilted trays (tests/test_vision_poker_heldout_teach.py, measured 28-32 px), the one time the
# held-out generator was looked at before the figures in docs/vision.md. A sharpness under 0.30
# lost no die read right within the ruling, and made 78 of the 180 read dice blurred over 1 px
# unreadable (sharpness of dice blurred 0.8-1 px: 0.31-0.37; 1-1.2 px: 0.27-0.34; 1.2-1.5 px:
# 0.25-0.32).
MEASURED_LEAST_SIDE = 24.0
LEAST_SHARPNESS = 0.30
SHARPNESS_PERCENTILE = 99.0
FINDER_SURE = 0.5  # the finder's heat from which a die's size is taken for the set-up check


def sharpness(frame_bgr: np.ndarray, die: Die) -> float:
    """The steepest gradients (SHARPNESS_PERCENTILE) inside the die's top face over its contrast
    (the spread of its grey levels): about 0.4 / sigma for a sharp print; 0.0 for a flat face."""
    if die.quad is None:
        return 0.0
    patch = face_patch(frame_bgr, np.asarray(die.quad, np.float32))
    if patch.size == 0:
        return 0.0
    low, high = percentiles(patch, (2.0, 98.0))
    contrast = high - low
    if contrast < 1e-3:
        return 0.0
    gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    (steepest,) = percentiles(np.hypot(gx, gy), (SHARPNESS_PERCENTILE,))
    return steepest / contrast


def percentiles(values: np.ndarray, percents: tuple[float, ...]) -> list[float]:
    """`np.percentile` (linear between the two nearest ranks) by partial sorting: a fifth of
    its time on a die's few thousand pixels, where it took most of this check's."""
    flat = values.ravel()
    ranks = [p / 100.0 * (flat.size - 1) for p in percents]
    nearest = sorted({int(np.floor(r)) for r in ranks} | {int(np.ceil(r)) for r in ranks})
    ordered = np.partition(flat, nearest)
    found = []
    for rank in ranks:
        below, above = float(ordered[int(np.floor(rank))]), float(ordered[int(np.ceil(rank))])
        found.append(below + (above - below) * (rank - np.floor(rank)))
    return found


def face_patch(frame_bgr: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The grey levels (float32) of the die's top face's bounding box, a tenth of a side in from
    each edge (the die's own outline against the table is not its print)."""
    centre = quad.mean(axis=0)
    inner = centre + 0.8 * (quad - centre)
    height, width = frame_bgr.shape[:2]
    x0, y0 = np.floor(inner.min(axis=0)).astype(int)
    x1, y1 = np.ceil(inner.max(axis=0)).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return np.zeros((0, 0), np.float32)
    grey = cv2.cvtColor(frame_bgr[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    return grey.astype(np.float32)


def beyond_ruling(frame_bgr: np.ndarray, die: Die) -> str:
    """Why the die is beyond the camera ruling as measured ("" when it is not)."""
    if die.side and die.side < MEASURED_LEAST_SIDE:
        return f"too small: {die.side:.0f} px across, under the camera's least {LEAST_SIDE:.0f} px"
    if sharpness(frame_bgr, die) < LEAST_SHARPNESS:
        return f"too blurred: beyond the camera's most blur of {MOST_BLUR:.0f} px"
    return ""


def within_ruling(frame_bgr: np.ndarray, dice: list[Die]) -> list[Die]:
    """The dice, each read one measured beyond the ruling made unreadable with the reason."""
    ruled = []
    for die in dice:
        why = beyond_ruling(frame_bgr, die) if die.value is not None else ""
        ruled.append(replace(die, value=None, reason=why, sure=False) if why else die)
    return ruled


def tray_dice_sides(frame_bgr: np.ndarray, roi: Roi | None = None) -> list[float]:
    """The top-face side (px) of each die the finder sees in the frame (within `roi`), for a
    check of the camera's set-up before play (`tabletop doctor`); empty when no die lies there."""
    from vision.read._nets import PROFILE_FINDER
    from vision.read.find import candidates_in, check_frame, look

    check_frame(frame_bgr)
    heat_map = look(frame_bgr, roi, PROFILE_FINDER)
    return [cand.size for cand in candidates_in(frame_bgr, heat_map, FINDER_SURE)]
