"""The finder's training samples: patches and shrunk whole views of the photos, with their
heat-map, log-side and mask targets."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.read._nets import FINDER_STRIDE, crop_matrix
from vision.train.augment import jitter_colours
from vision.train.photos import Photo

DIE_SIZES_AT_INPUT = (7.0, 40.0)  # top-face sides the finder learns, in its input's pixels
FINDER_PATCH = 160
WHOLE_VIEW_SHARE = 0.25  # of the finder's samples tried as a whole photo shrunk (dice 12-44 px)


def finder_sample(photo: Photo, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A training sample: mostly a patch of the photo, sometimes the whole photo shrunk."""
    if photo.tight is not None and rng.random() < WHOLE_VIEW_SHARE:
        # what the framed look shows the finder: the crop as it is, shrunk onto grey
        return whole_view_sample(photo.tight, rng.uniform(24.0, 48.0), rng)
    if rng.random() < WHOLE_VIEW_SHARE and len(photo.faces):
        height, width = photo.image.shape[:2]
        wanted = rng.uniform(12.0, 44.0)  # the dice's side in the view
        longer = max(height, width) * wanted / float(np.median(photo.faces[:, 2]))
        if 32 <= longer <= FINDER_PATCH:
            return whole_view_sample(photo, longer, rng)
    return patch_sample(photo, rng)


def whole_view_sample(
    photo: Photo, longer: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """The whole photo shrunk (area-averaged, as the reader shrinks a frame) to `longer` px on its
    longer side, on a mid-grey patch: what the finder's coarse looks see, a small input with
    nothing past its edges (mid-grey is the nets' zero), where a die close to the camera
    fills much of it. A patch of the photo never shows the finder an edge like that."""
    height, width = photo.image.shape[:2]
    scale = longer / max(height, width)
    size = (max(8, round(width * scale)), max(8, round(height * scale)))
    small = jitter_colours(cv2.resize(photo.image, size, interpolation=cv2.INTER_AREA), rng)
    offset_x = int(rng.integers(0, FINDER_PATCH - size[0] + 1))
    offset_y = int(rng.integers(0, FINDER_PATCH - size[1] + 1))
    matrix = np.array(
        [[size[0] / width, 0.0, offset_x], [0.0, size[1] / height, offset_y]], np.float64
    )
    if rng.random() < 0.5:  # mirrored left to right within its place
        small = np.ascontiguousarray(small[:, ::-1])
        matrix[0] = [-size[0] / width, 0.0, offset_x + size[0]]
    patch = np.full((FINDER_PATCH, FINDER_PATCH, 3), 128, np.uint8)
    patch[offset_y : offset_y + size[1], offset_x : offset_x + size[0]] = small
    return patch, finder_targets(photo, matrix)


def patch_sample(photo: Photo, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A patch at a random scale/rotation and its targets: heat (1), log side (1), mask (1)."""
    median_side = float(np.median(photo.faces[:, 2])) if len(photo.faces) else 40.0
    wanted = math.exp(rng.uniform(*np.log(DIE_SIZES_AT_INPUT)))
    side_in_photo = FINDER_PATCH * median_side / wanted
    height, width = photo.image.shape[:2]
    draw = rng.random()
    if len(photo.faces) and draw < 0.6:
        anchor = photo.faces[rng.integers(len(photo.faces)), :2] + rng.normal(0, median_side, 2)
    elif len(photo.mined) and draw < 0.8:  # where a finder saw a die that is not there
        anchor = photo.mined[rng.integers(len(photo.mined)), :2] + rng.normal(0, median_side, 2)
    else:
        anchor = rng.uniform((0, 0), (width, height))
    angle = float(rng.choice([0, 90, 180, 270]) + rng.uniform(-20, 20))
    flip = bool(rng.random() < 0.5)
    matrix = crop_matrix(tuple(anchor), side_in_photo, FINDER_PATCH, angle, flip)
    patch = cv2.warpAffine(
        photo.image, matrix, (FINDER_PATCH, FINDER_PATCH), borderMode=cv2.BORDER_REFLECT101
    )
    return jitter_colours(patch, rng), finder_targets(photo, matrix)


def finder_targets(photo: Photo, matrix: np.ndarray) -> np.ndarray:
    cells = FINDER_PATCH // FINDER_STRIDE
    targets = np.zeros((3, cells, cells), np.float32)
    scale = math.sqrt(abs(np.linalg.det(matrix[:, :2])))
    ys, xs = np.mgrid[0:cells, 0:cells].astype(np.float32) + 0.5
    for x, y, side, _ in photo.faces:
        px, py = matrix @ np.array([x, y, 1.0])
        cx, cy, s = px / FINDER_STRIDE, py / FINDER_STRIDE, side * scale / FINDER_STRIDE
        if not (-s < cx < cells + s and -s < cy < cells + s):
            continue
        sigma = max(0.7, 0.25 * s)
        heat = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * sigma**2))
        targets[0] = np.maximum(targets[0], heat)
        ix, iy = int(cx), int(cy)
        if 0 <= ix < cells and 0 <= iy < cells:
            targets[0, iy, ix] = 1.0
            targets[1, iy, ix] = math.log(side * scale / 16.0)
            targets[2, iy, ix] = 1.0
    return targets
