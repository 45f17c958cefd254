"""Counting pips on a rectified top face (a square BGR crop of one die's top face).

Pips are small round spots that contrast with the face, darker on light dice and lighter on
dark dice. Every threshold is relative to the crop: pip sizes are fractions of the face, and the
pip/face split comes from the crop's own brightness distribution, so the count does not depend on
the camera, the lighting or the die's colour.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# A pip's area as a fraction of the face area: a 6 has pips ~1/12 of the side across (0.5%),
# a big 1 pip or a logo covers up to a third of the face.
MIN_PIP_AREA = 0.004
MAX_PIP_AREA = 0.30
# Only the middle of the crop is searched, so the die's edges and its neighbours don't count.
MARGIN = 0.1


@dataclass(frozen=True)
class PipCount:
    value: int | None
    confidence: float
    reason: str = ""


def face_polarity(gray: np.ndarray) -> bool:
    """True when the face is light (pips dark): most of the face is brighter than its midrange."""
    low, high = np.percentile(gray, (5, 95))
    return float(np.median(gray)) > (low + high) / 2.0


def pip_mask(gray: np.ndarray) -> tuple[np.ndarray, float]:
    """Pixels of pip colour as 0/255, and the contrast between pips and face (0..1)."""
    light_face = face_polarity(gray)
    working = gray if not light_face else 255 - gray  # pips become the bright minority
    _, mask = cv2.threshold(working, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    contrast = (float(working[mask > 0].mean()) - float(working[mask == 0].mean())) / 255.0
    return mask, contrast


def round_blobs(mask: np.ndarray) -> list[tuple[float, float, float]]:
    """(x, y, area fraction) of the round blobs of pip size in the mask's middle."""
    side = mask.shape[0]
    count, _, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    blobs = []
    for index in range(1, count):
        x, y, w, h, area = stats[index]
        fraction = area / float(side * side)
        cx, cy = centroids[index]
        inside = (
            MARGIN * side <= cx <= (1 - MARGIN) * side
            and MARGIN * side <= cy <= (1 - MARGIN) * side
        )
        aspect = min(w, h) / max(w, h)
        fill = area / float(w * h)
        if inside and MIN_PIP_AREA <= fraction <= MAX_PIP_AREA and aspect > 0.5 and fill > 0.5:
            blobs.append((float(cx), float(cy), fraction))
    return blobs


def consistent_sizes(blobs: list[tuple[float, float, float]]) -> bool:
    """Pips on one face (other than a lone 1) are all about the same size."""
    if len(blobs) < 2:
        return True
    areas = np.array([b[2] for b in blobs])
    return float(areas.max() / areas.min()) < 3.0


def count_pips(face_bgr: np.ndarray) -> PipCount:
    """The number of pips on a rectified top face, or None with the reason it can't be read."""
    if face_bgr.ndim != 3 or face_bgr.shape[0] != face_bgr.shape[1] or face_bgr.shape[0] < 16:
        raise ValueError(f"face must be a square BGR crop of at least 16 px, got {face_bgr.shape}")
    gray = cv2.cvtColor(face_bgr, cv2.COLOR_BGR2GRAY)
    mask, contrast = pip_mask(gray)
    if contrast < 0.12:
        return PipCount(None, 0.0, "no pip contrast")
    blobs = round_blobs(mask)
    if not 1 <= len(blobs) <= 6:
        return PipCount(None, 0.0, f"{len(blobs)} pip-like spots")
    if not consistent_sizes(blobs):
        return PipCount(None, 0.2, "pips of mixed sizes")
    confidence = float(np.clip(contrast * 2.5, 0.0, 1.0))
    return PipCount(len(blobs), confidence)
