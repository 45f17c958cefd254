"""Finding dice in a frame: candidate top faces, each with a quad, and rectified crops of them.

Classical finder: a die differs in colour or brightness from the surface it lies on, so the
surface is estimated with a heavy blur of the frame, pixels far from it (relative to the frame's
own spread) form blobs, and blobs of die-like size and squareness become candidates. Touching
dice are split with a distance transform. `vision.reader` may replace this with a learned finder;
`rectify` is shared by both.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.types import DieCandidate

Roi = tuple[int, int, int, int]

# Dice occupy between these fractions of the frame's shorter side (a die on a tray under a Pi
# camera is 3-25% of it): smaller blobs are noise, larger ones are hands, cables or the tray.
MIN_SIDE_FRACTION = 0.03
MAX_SIDE_FRACTION = 0.25


def check_frame(frame_bgr: np.ndarray) -> None:
    """Raise ValueError unless the frame is an HxWx3 uint8 image."""
    if not isinstance(frame_bgr, np.ndarray):
        raise ValueError(f"frame must be a numpy array, got {type(frame_bgr).__name__}")
    if frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3 or frame_bgr.dtype != np.uint8:
        raise ValueError(
            f"frame must be HxWx3 uint8 BGR, got shape {frame_bgr.shape} dtype {frame_bgr.dtype}"
        )
    if min(frame_bgr.shape[:2]) < 16:
        raise ValueError(
            f"frame is too small to hold dice: {frame_bgr.shape[1]}x{frame_bgr.shape[0]}"
        )


def clip_roi(frame_shape: tuple[int, ...], roi: Roi | None) -> Roi:
    """The region of interest clipped to the frame; the whole frame when roi is None."""
    height, width = frame_shape[:2]
    if roi is None:
        return 0, 0, width, height
    if len(roi) != 4:
        raise ValueError(f"roi must be (x, y, w, h), got {roi!r}")
    x, y, w, h = (int(v) for v in roi)
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(width, x + w), min(height, y + h)
    if x1 - x0 < 16 or y1 - y0 < 16:
        raise ValueError(f"roi {roi!r} leaves less than 16x16 pixels of a {width}x{height} frame")
    return x0, y0, x1 - x0, y1 - y0


def square_quad(center: tuple[float, float], size: float, angle_deg: float = 0.0) -> np.ndarray:
    """4x2 float32 corners of a square, clockwise from top-left before rotation."""
    half = size / 2.0
    corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]], np.float32)
    theta = np.deg2rad(angle_deg)
    rotation = np.array(
        [[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]], np.float32
    )
    return corners @ rotation.T + np.array(center, np.float32)


def order_clockwise(points: np.ndarray) -> np.ndarray:
    """Corners ordered clockwise (in image coordinates) starting from the top-left-most one."""
    points = np.asarray(points, np.float32).reshape(4, 2)
    center = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - center[1], points[:, 0] - center[0])
    points = points[np.argsort(angles)]
    start = int(np.argmin(points.sum(axis=1)))
    return np.roll(points, -start, axis=0)


def rectify(frame_bgr: np.ndarray, cand: DieCandidate, size: int = 64) -> np.ndarray:
    """The candidate's top face warped to a size x size BGR square."""
    if size < 8:
        raise ValueError(f"rectified size must be at least 8 pixels, got {size}")
    target = np.array([[0, 0], [size - 1, 0], [size - 1, size - 1], [0, size - 1]], np.float32)
    matrix = cv2.getPerspectiveTransform(order_clockwise(cand.quad), target)
    return cv2.warpPerspective(
        frame_bgr, matrix, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )


def foreground_mask(image_bgr: np.ndarray, die_side: float) -> np.ndarray:
    """Pixels whose colour stands out from the local surface, as a 0/255 mask."""
    lab = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    blur_side = int(die_side * 4) | 1
    small = cv2.resize(lab, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    surface = cv2.medianBlur(small.astype(np.uint8), max(3, (blur_side // 4) | 1))
    surface = cv2.resize(surface, (lab.shape[1], lab.shape[0])).astype(np.float32)
    difference = np.linalg.norm(lab - surface, axis=2)
    # The surface's own texture sets the bar: a robust spread of the difference over the frame.
    median = float(np.median(difference))
    spread = float(np.median(np.abs(difference - median))) + 1.0
    mask = (difference > median + 6.0 * spread + 12.0).astype(np.uint8) * 255
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel, iterations=2)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)


def blob_candidates(mask: np.ndarray, min_side: float, max_side: float) -> list[DieCandidate]:
    """Square-ish blobs of die size; blobs as large as two or more dice are split."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found: list[DieCandidate] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_side**2 * 0.6:
            continue
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        side = float(np.sqrt(area))
        squareness = min(w, h) / max(w, h, 1e-6)
        fill = area / max(w * h, 1e-6)
        if side <= max_side and squareness > 0.6 and fill > 0.7:
            quad = order_clockwise(cv2.boxPoints(((cx, cy), (w, h), angle)))
            score = float(np.clip(squareness * fill, 0.0, 1.0))
            found.append(DieCandidate((float(cx), float(cy)), quad, float(np.sqrt(w * h)), score))
    return found


def find_dice(frame_bgr: np.ndarray, roi: Roi | None = None) -> list[DieCandidate]:
    """Candidate dice (top faces) in the frame, in frame coordinates, left to right."""
    check_frame(frame_bgr)
    x0, y0, w, h = clip_roi(frame_bgr.shape, roi)
    view = frame_bgr[y0 : y0 + h, x0 : x0 + w]
    short = min(w, h)
    min_side, max_side = short * MIN_SIDE_FRACTION, short * MAX_SIDE_FRACTION
    mask = foreground_mask(view, die_side=max_side)
    found = blob_candidates(mask, min_side, max_side)
    shifted = [
        DieCandidate(
            (c.center[0] + x0, c.center[1] + y0),
            c.quad + np.array([x0, y0], np.float32),
            c.size,
            c.score,
        )
        for c in found
    ]
    return sorted(shifted, key=lambda c: (c.center[0], c.center[1]))
