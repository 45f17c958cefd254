"""Ink maps: a face crop -> the unit stroke vector a profile compares, for many crops at once.

A crop's "ink" is where its colour departs strongly from the face's body colour, split into
colourful and neutral ink (so black-on-white and white-on-black read alike and red art differs
from black). The map is centred on its ink and reduced to strokes over the whole face but its
very edge (playing-card dice print indices in the corners).

    vectors = features_many([(crop, turn, scale, dx, dy), ...])   # N x FEATURE_LENGTH
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import cv2
import numpy as np

from vision.read.find import edge_turn

CROP = 64  # examples are stored, and crops compared, at this size
SIDE = 24  # side of the ink map compared
# The compared square, as a fraction of the crop side: the whole face but its very edge (corner
# indices of playing-card dice sit near the corners; a disc left them out).
INSET = 0.92
STROKE_BLUR = 0.7  # sigma, in map pixels
SHADING_BLUR = 3.0
CENTRE_RADIUS = 0.4  # ink centring: where to look for the ink, and how far it may move it
MAX_SHIFT = 0.15

# (crop, turn in degrees, scale, dx, dy in crop pixels)
Warp = tuple[np.ndarray, float, float, float, float]


def _face_mask(side: int) -> np.ndarray:
    centre = (side - 1) / 2
    ys, xs = np.mgrid[0:side, 0:side]
    return np.maximum(abs(xs - centre), abs(ys - centre)) <= INSET * side / 2


_MASK_INDEX = np.flatnonzero(_face_mask(SIDE))
FEATURE_LENGTH = 2 * len(_MASK_INDEX)
_MIDDLE = len(_MASK_INDEX) // 2
_P99 = int(0.99 * (len(_MASK_INDEX) - 1))
_YS, _XS = np.mgrid[0:SIDE, 0:SIDE].astype(np.float32)
_NEAR_MIDDLE = (
    np.hypot(_XS - (SIDE - 1) / 2, _YS - (SIDE - 1) / 2) <= CENTRE_RADIUS * SIDE
).astype(np.float32)


def square_crop(crop_bgr: np.ndarray) -> np.ndarray:
    """The crop as CROP x CROP BGR uint8; ValueError for anything that is not a colour image."""
    crop = np.asarray(crop_bgr)
    if crop.ndim == 2:
        crop = cv2.cvtColor(crop.astype(np.uint8), cv2.COLOR_GRAY2BGR)
    if crop.ndim != 3 or crop.shape[2] != 3 or min(crop.shape[:2]) < 8:
        raise ValueError(f"a face crop is an HxWx3 BGR image of at least 8x8, not {crop.shape}")
    if crop.dtype != np.uint8:
        crop = np.clip(crop, 0, 255).astype(np.uint8)
    if crop.shape[:2] == (CROP, CROP):
        return crop
    return cv2.resize(crop, (CROP, CROP), interpolation=cv2.INTER_AREA)


def face_turn(crop_bgr: np.ndarray) -> float:
    """The turn of the face in the crop, -45..45 degrees: the strongest edge direction modulo
    90 (vision.read.find.edge_turn, as the finder turns its candidates)."""
    return edge_turn(square_crop(crop_bgr))


def features_many(warps: Sequence[Warp]) -> np.ndarray:
    """N x FEATURE_LENGTH float32 stroke vectors of CROP-square crops, each warped as given.
    Computed together: a 24 px map is so small that numpy's cost per call, not its arithmetic,
    is most of one crop's time."""
    if not len(warps):
        return np.zeros((0, FEATURE_LENGTH), np.float32)
    small = np.stack(
        [cv2.resize(_warped(*warp), (SIDE, SIDE), interpolation=cv2.INTER_AREA) for warp in warps]
    )
    return stroke_features_many(_centred_many(ink_maps(small)))


def ink_maps(images: np.ndarray) -> np.ndarray:
    """N x SIDE x SIDE x BGR uint8 -> N x SIDE x SIDE x 2 maps, 0..1, of where each face's colour
    departs strongly from its body colour: colourful ink (red, gold, blue) in channel 0, neutral
    ink (black, white) in 1."""
    count = len(images)
    image = images.astype(np.float32)
    inside = image.reshape(count, -1, 3)[:, _MASK_INDEX]
    body = np.partition(inside, _MIDDLE, axis=1)[:, _MIDDLE]  # the median: np.median costs 4x
    blue, green, red = image[..., 0], image[..., 1], image[..., 2]
    distance = np.sqrt(
        (blue - body[:, 0, None, None]) ** 2
        + (green - body[:, 1, None, None]) ** 2
        + (red - body[:, 2, None, None]) ** 2
    )
    # Pips and ink are the strongest departures from the body; marbling and shading are weaker,
    # so keep only what comes near the strongest (a soft threshold relative to it).
    inside = distance.reshape(count, -1)[:, _MASK_INDEX]
    strongest = np.partition(inside, _P99, axis=1)[:, _P99].astype(np.float64) + 1e-3
    ink = np.clip((distance / strongest.astype(np.float32)[:, None, None] - 0.35) / 0.5, 0.0, 1.0)
    # Channel by channel: numpy's max over a last axis of three is ten times slower.
    brightest = np.maximum(np.maximum(blue, green), red)
    darkest = np.minimum(np.minimum(blue, green), red)
    saturation = (brightest - darkest) / (brightest + 1.0)
    colourful = np.clip((saturation - 0.15) / 0.2, 0.0, 1.0)
    return np.stack([ink * colourful, ink * (1 - colourful)], axis=-1)


def _centred_many(inks: np.ndarray) -> np.ndarray:
    """Each ink map moved so that the centre of mass of its ink (looked for near the middle) sits
    in the middle. Templates are centred the same way, so a finder's slightly-off crop still
    lines up; the move is bounded so a lopsided face is moved no more than a finder's error."""
    centre, limit = (SIDE - 1) / 2, MAX_SHIFT * SIDE
    weights = (inks[..., 0] + inks[..., 1]) * _NEAR_MIDDLE  # both channels' ink, near the middle
    mass = weights.sum(axis=(1, 2))
    dxs = np.clip(centre - (weights * _XS).sum(axis=(1, 2)) / np.maximum(mass, 1e-3), -limit, limit)
    dys = np.clip(centre - (weights * _YS).sum(axis=(1, 2)) / np.maximum(mass, 1e-3), -limit, limit)
    out = inks.copy()
    for index in np.flatnonzero(mass >= 1e-3):
        matrix = np.array([[1.0, 0, dxs[index]], [0, 1.0, dys[index]]])
        out[index] = cv2.warpAffine(
            inks[index], matrix, (SIDE, SIDE), borderMode=cv2.BORDER_REPLICATE
        )
    return out


def stroke_features_many(inks: np.ndarray) -> np.ndarray:
    """The compared vectors: each ink map's strokes inside the face, zero-mean, unit length.

    Subtracting a blurred copy keeps the strokes (pips, rank, art) and drops slow shading, so faces
    differ by shape rather than by where their ink mass sits.
    """
    strokes = np.empty_like(inks)
    for index, ink in enumerate(inks):
        small = cv2.GaussianBlur(ink, (0, 0), STROKE_BLUR)
        strokes[index] = small - cv2.GaussianBlur(small, (0, 0), SHADING_BLUR)
    # Channel by channel, each a contiguous row: numpy takes and averages rows far faster than
    # columns (the templates are made by this same function, so the order is theirs).
    rows = strokes.transpose(0, 3, 1, 2).reshape(len(inks), 2, -1)[:, :, _MASK_INDEX]
    rows = (rows - rows.mean(axis=2, keepdims=True)).reshape(len(inks), -1)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return np.where(norms > 1e-6, rows / np.maximum(norms, 1e-6), rows).astype(np.float32)


def turned(crop_bgr: np.ndarray, angle: float) -> np.ndarray:
    """A CROP-square crop turned by `angle` degrees about its centre (as `features_many` turns
    it), its corners filled from its edges."""
    return _warped(square_crop(crop_bgr), angle, 1.0, 0.0, 0.0)


def _warped(crop: np.ndarray, angle: float, scale: float, dx: float, dy: float) -> np.ndarray:
    if angle == 0 and scale == 1 and dx == 0 and dy == 0:
        return crop
    matrix = _warp_matrix(round(angle, 1), scale, dx, dy)
    return cv2.warpAffine(crop, matrix, (CROP, CROP), borderMode=cv2.BORDER_REPLICATE)


@functools.lru_cache(maxsize=4096)  # the same few hundred turns and moves, over and over
def _warp_matrix(angle: float, scale: float, dx: float, dy: float) -> np.ndarray:
    centre = ((CROP - 1) / 2, (CROP - 1) / 2)
    matrix = cv2.getRotationMatrix2D(centre, angle, scale)
    matrix[:, 2] += (dx, dy)
    matrix.flags.writeable = False
    return matrix
