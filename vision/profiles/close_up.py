"""The one die of a close-up photo, found as what stands out from the photo's border.

A phone's close-up of one die shows the die large in the middle and the table all around it.
The finder, trained on dice a tenth of the frame or smaller, sees such a die's print (a 9's
loop, a club, a crown) as small dice and often misses the die itself. Here the photo's border
gives the table's colour, as a smooth surface across the photo (a lamp or a window lights one
side of a table more than the other); the largest compact patch that departs from it is the
die with its shadow and side faces, and its square is offered to teaching beside the finder's
(learning keeps whichever looks most like the other photos of the face: on a tray photo the
patch is the tray, unlike them all).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.read.find import square_quad
from vision.read.types import DieCandidate

BORDER_SHARE = 1 / 40  # of the shorter side: the strip of border that gives the table's colour
# A pixel stands out when further from the table's colour (in Lab) than SPREAD times the
# border's own 95th-percentile spread, and at least FLOOR.
SPREAD = 1.5
FLOOR = 12.0
# A die's patch: its side this share of the photo's shorter side, its outline this square
# (longer over shorter side of the rectangle around it) and this full (of that rectangle).
SIDES = (0.15, 0.8)
SQUARE = 1.3
FULL = 0.6
SCORE = 1.0  # the score given to the square (it is offered, not read: any surest score)


def die_standing_out(photo_bgr: np.ndarray) -> DieCandidate | None:
    """The square of the largest patch that stands out from the photo's border, where that patch
    is shaped like one die seen close (or None)."""
    height, width = photo_bgr.shape[:2]
    shorter = min(height, width)
    mask = _standing_out(photo_bgr, max(2, round(shorter * BORDER_SHARE)))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    (x, y), (w, h), angle = cv2.minAreaRect(hull)
    longer, side = max(w, h), min(w, h)
    if not (
        SIDES[0] * shorter <= side <= SIDES[1] * shorter
        and longer <= SQUARE * side
        and cv2.contourArea(hull) >= FULL * w * h
    ):
        return None
    center = (float(x), float(y))
    return DieCandidate(center, square_quad(center, side, angle), float(side), SCORE)


def _standing_out(photo_bgr: np.ndarray, border: int) -> np.ndarray:
    """1 where the photo departs from its table (`_table_colour`), specks opened away, holes
    closed."""
    lab = cv2.cvtColor(cv2.GaussianBlur(photo_bgr, (5, 5), 0), cv2.COLOR_BGR2LAB)
    lab = lab.astype(np.float32)
    ring = np.zeros(lab.shape[:2], bool)
    ring[:border] = ring[-border:] = True
    ring[:, :border] = ring[:, -border:] = True
    departure = np.linalg.norm(lab - _table_colour(lab, ring), axis=2)
    spread = float(np.percentile(departure[ring], 95))
    mask = (departure > max(SPREAD * spread, FLOOR)).astype(np.uint8)
    k = max(3, min(photo_bgr.shape[:2]) // 60) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3 * k, 3 * k), np.uint8))


def _table_colour(lab: np.ndarray, ring: np.ndarray) -> np.ndarray:
    """The table's colour at every pixel: a quadratic surface in x and y (per Lab channel)
    fitted to the border `ring`. One colour for the whole table (the border's median) took a
    lit side's gradient for spread: ivory dice on pale tables stood out only by their print
    (30 of 324 rendered close-ups got no good square, 14 with the surface)."""
    height, width = lab.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    xs, ys = xs / width - 0.5, ys / height - 0.5
    terms = np.stack([np.ones_like(xs), xs, ys, xs * xs, xs * ys, ys * ys], axis=-1)
    weights, *_ = np.linalg.lstsq(terms[ring], lab[ring], rcond=None)
    return terms @ weights
