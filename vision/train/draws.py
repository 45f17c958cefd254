"""Which photo a training sample is drawn from: a rendered scene's share and each photo's chance."""

from __future__ import annotations

import math

import numpy as np

from vision.train.photos import Photo

RENDERED_SHARE = 0.2  # of training samples drawn from rendered scenes, when --rendered > 0


def set_balanced_chances(photos: list[Photo]) -> np.ndarray:
    """Each photo's chance to be drawn: every set weighs as the square root of its size, so a
    large set (varied tables) does not drown a small one (the mixed tray) nor the other way."""
    sizes: dict[str, int] = {}
    for photo in photos:
        sizes[photo.source] = sizes.get(photo.source, 0) + 1
    weights = np.array([1.0 / math.sqrt(sizes[photo.source]) for photo in photos])
    return weights / weights.sum()


def pick(
    photos: list[Photo],
    rendered: list[Photo],
    rng: np.random.Generator,
    chances: np.ndarray | None = None,
) -> Photo:
    """A rendered scene (RENDERED_SHARE of the draws) or a photo, drawn with `chances` (by
    default evenly)."""
    if rendered and rng.random() < RENDERED_SHARE:
        return rendered[rng.integers(len(rendered))]
    if chances is None:
        return photos[rng.integers(len(photos))]
    return photos[rng.choice(len(photos), p=chances)]


def weighted_sets(photos: list[Photo], set_weights: dict[str, float]) -> np.ndarray:
    """Each photo's chance to be drawn: even, times its set's weight (1 unless named)."""
    weights = np.array([set_weights.get(photo.source, 1.0) for photo in photos])
    return weights / weights.sum()
