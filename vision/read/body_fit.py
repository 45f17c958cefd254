"""Fitting a candidate's square to the die's body: the patch of the body's own colour around it.

The finder guesses a face's side from a small heat-map; on poker dice, whose print fills the face,
it is often a fifth too small or large, and a crop cut on it shows part of the face or the tray
around it. A die's top face is one even colour (ivory, white) around its print: here the patch of
that colour about the candidate, its print closed over, is taken, and the square fitted to it.
Cheap (under a millisecond; `vision.read.outline.fit_outline`, which fits squares to edges, takes
four or five), so every candidate can be fitted before it is read.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.read.find import square_quad
from vision.read.types import DieCandidate

WORK = 48  # px: the patch around a candidate is looked at this size
REACH = 1.3  # of the candidate's side, each way from its centre: the patch looked at
# A pixel is body where no channel departs from the body colour by more than this share of its
# brightness (at least BODY_FLOOR grey levels): lit and shaded parts of one face stay within it.
BODY_SHARE = 0.12
BODY_FLOOR = 18.0
# A patch longer than this many times its width is two faces (touching dice, or a face and a lit
# side face): its shorter side is the face's.
TWO_FACES = 1.25
SMALLEST = 0.5  # of the candidate's side: a body patch smaller than this is not the die's
# ... and one larger than this is the table: a die of the table's own colour (ivory on a white
# cloth) gave squares filling the whole patch looked at, 2.6 times the die, and teaching learned
# them (`tabletop bench poker --designs 4 --seed 10 --trays 20`: 92.7 -> 94.8% of dice right).
LARGEST = 1.6


def fit_body(frame_bgr: np.ndarray, cand: DieCandidate) -> DieCandidate | None:
    """The candidate's square fitted to the body around it, or None where no patch of one colour
    about its size surrounds its centre (none much smaller, none much larger)."""
    cx, cy = cand.center
    scale = WORK / (2 * REACH * cand.size)
    matrix = np.array(
        [[scale, 0, WORK / 2 - cx * scale], [0, scale, WORK / 2 - cy * scale]], np.float32
    )
    patch = cv2.warpAffine(
        frame_bgr, matrix, (WORK, WORK), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )
    mask = _body_mask(patch.astype(np.float32), cand.size * scale / 2)
    region = _region_at_centre(mask, cand.size * scale / 2)
    if region is None:
        return None
    (x, y), (w, h), angle = cv2.minAreaRect(cv2.convexHull(region))
    if min(w, h) < SMALLEST * cand.size * scale:
        return None
    side = min(w, h)
    if max(w, h) > TWO_FACES * side:
        # Slide the square along the long side to where the finder saw the face.
        theta = np.deg2rad(angle if w >= h else angle + 90)
        axis = np.array([np.cos(theta), np.sin(theta)])
        along = float(np.dot(np.array([WORK / 2 - x, WORK / 2 - y]), axis))
        room = (max(w, h) - side) / 2
        x, y = np.array([x, y]) + axis * np.clip(along, -room, room)
    else:
        side = (w + h) / 2
    center = ((x - WORK / 2) / scale + cx, (y - WORK / 2) / scale + cy)
    side /= scale
    if side > LARGEST * cand.size:
        return None
    return DieCandidate(
        (float(center[0]), float(center[1])), square_quad(center, side, angle), side, cand.score
    )


def body_colour(frame_bgr: np.ndarray, center: tuple[float, float], side: float) -> np.ndarray:
    """The colour (Lab) of the body of a die of `side` at `center`: the median of its middle,
    most of which is body whether the print is darker or lighter (the brighter half was the
    print of dark dice with a large light symbol, which then matched no die of their set)."""
    half = max(2, int(side * 0.4))
    x, y = int(center[0]), int(center[1])
    middle = frame_bgr[max(0, y - half) : y + half, max(0, x - half) : x + half].reshape(1, -1, 3)
    if not middle.size:
        return np.full(3, np.nan, np.float32)
    lab = cv2.cvtColor(middle.astype(np.uint8), cv2.COLOR_BGR2LAB)[0].astype(np.float32)
    return np.median(lab, axis=0)


def _median_of_brighter_half(pixels: np.ndarray, brightness: np.ndarray) -> np.ndarray:
    """The median colour of the pixels at least as bright as their median: a face's body, its
    print being the smaller part."""
    return np.median(pixels[brightness >= np.median(brightness)], axis=0)


def _body_mask(patch: np.ndarray, half_side: float) -> np.ndarray:
    """Where the patch has the body's colour (the brighter half of the candidate's middle),
    its print closed over."""
    middle = WORK / 2
    r0, r1 = int(middle - 0.8 * half_side), int(middle + 0.8 * half_side) + 1
    inner = patch[r0:r1, r0:r1].reshape(-1, 3)
    body = _median_of_brighter_half(inner, inner.sum(axis=1))
    departure = np.abs(patch - body).max(axis=2)
    mask = (departure < max(BODY_FLOOR, BODY_SHARE * float(body.mean()))).astype(np.uint8)
    close = max(3, int(round(half_side * 0.5)) | 1)
    mask = cv2.morphologyEx(
        mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (close, close))
    )
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _region_at_centre(mask: np.ndarray, half_side: float) -> np.ndarray | None:
    """The points (x, y) of the mask's connected region at the patch's centre (or the largest
    one in its middle), as float32; None when the middle holds none."""
    _, labels = cv2.connectedComponents(mask)
    middle = WORK // 2
    label = int(labels[middle, middle])
    if label == 0:
        r0, r1 = int(middle - 0.8 * half_side), int(middle + 0.8 * half_side) + 1
        inside = labels[r0:r1, r0:r1]
        inside = inside[inside > 0]
        if not len(inside):
            return None
        label = int(np.bincount(inside).argmax())
    ys, xs = np.nonzero(labels == label)
    return np.column_stack([xs, ys]).astype(np.float32)
