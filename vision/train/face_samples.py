"""The face net's training samples: crops of dice, of what lies beside them and of bare surface,
each with its class."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from vision.read._nets import crop_face
from vision.train.augment import jitter_colours
from vision.train.draws import pick
from vision.train.nets import to_tensor
from vision.train.photos import SYMBOL, Photo, far_from_dice

# Dice of --upright-sets are turned at most this much either way, so that the net can learn that
# of a die seen from the side the top face is the upper one. It helps only a reader whose squares
# are turned within 45 degrees of upright: `vision.read.find.face_angle` gives 0..90 today
# (the git history of docs/vision-reader.md has the run).
UPRIGHT_TURN = 30.0


def bare_sample(
    views: list[Photo], rng: np.random.Generator, size: int, stretch: float = 0.0
) -> tuple[np.ndarray, int, str]:
    """A "no die" crop where the finder saw a die in a bare view."""
    view = views[rng.integers(len(views))]
    x, y, side = view.mined[rng.integers(len(view.mined))]
    crop = random_face_crop(view, (x, y), side * rng.uniform(0.9, 1.1), rng, size, stretch)
    return crop, 0, view.source


def cut_short_sample(
    photos: list[Photo],
    rendered: list[Photo],
    rng: np.random.Generator,
    size: int,
    chances: np.ndarray | None = None,
    stretch: float = 0.0,
) -> tuple[np.ndarray, int, str]:
    """A die's crop cut short as the finder may give it (0.55-0.75 of its side, off its centre),
    labelled SYMBOL: a die whose value the crop cannot show (a pip may be cut off), so the net
    doubts and the reader refits the square rather than reading a 3 as a 2."""
    while True:
        photo = pick(photos, rendered, rng, chances)
        dice = photo.faces[pip_dice(photo.faces)]
        if len(dice):
            break
    x, y, side, _ = dice[rng.integers(len(dice))]
    direction = rng.uniform(0, 2 * math.pi)
    shift = side * rng.uniform(0.12, 0.2)
    center = (x + shift * math.cos(direction), y + shift * math.sin(direction))
    crop = random_face_crop(photo, center, side * rng.uniform(0.55, 0.75), rng, size, stretch)
    return crop, SYMBOL, photo.source


def random_face_crop(
    photo: Photo,
    center: tuple[float, float],
    side: float,
    rng: np.random.Generator,
    size: int,
    stretch: float = 0.0,
    upright: bool = False,
) -> np.ndarray:
    """A crop turned and mirrored at random, its colours jittered; with a `stretch`, half the
    crops are of the photo stretched out of shape (up to e**stretch times wider than tall, or
    taller than wide), as a resizing tool or a slanted camera shows dice. An `upright` crop is
    turned at most UPRIGHT_TURN either way: its top stays the photo's top."""
    angle = float(rng.uniform(-UPRIGHT_TURN, UPRIGHT_TURN) if upright else rng.uniform(0, 360))
    flip = bool(rng.random() < 0.5)
    scale = (1.0, 1.0)
    if stretch > 0 and rng.random() < 0.5:
        root = math.exp(rng.uniform(-stretch, stretch) / 2)
        scale = (root, 1.0 / root)
        center = (center[0] * root, center[1] / root)
    crop = crop_face(photo.image, center, side, angle, flip, size, scale)
    return jitter_colours(crop, rng)


def jittered_face_crop(
    photo: Photo,
    x: float,
    y: float,
    side: float,
    rng: np.random.Generator,
    size: int,
    stretch: float = 0.0,
    upright_sets: frozenset[str] = frozenset(),
) -> np.ndarray:
    """A positive: the labelled face a little off-centre and rescaled, as the finder gives it
    (upright where its photo is of one of `upright_sets`)."""
    offset = rng.normal(0, 0.08 * side, 2)
    center = (x + offset[0], y + offset[1])
    side = side * rng.uniform(0.8, 1.25)
    upright = photo.source in upright_sets
    return random_face_crop(photo, center, side, rng, size, stretch, upright)


@dataclass
class HardDice:
    """Labelled dice of the photos, each drawn with a chance that grows with how badly the net
    half-way through training reads it (dark pips on dark marbled dice, worn or glared faces)."""

    dice: list[tuple[Photo, int]]
    weights: np.ndarray

    def draw(self, rng: np.random.Generator) -> tuple[Photo, np.ndarray]:
        photo, index = self.dice[rng.choice(len(self.dice), p=self.weights)]
        return photo, photo.faces[index]


def pip_dice(faces: np.ndarray) -> np.ndarray:
    """Which labelled faces (x, y, side, value rows) are dice of a pip value 1..6."""
    return (faces[:, 3] > 0) & (faces[:, 3] < SYMBOL)


def hard_dice(net: nn.Module, photos: list[Photo], size: int) -> HardDice:
    dice = [(p, int(i)) for p in photos for i in np.flatnonzero(pip_dice(p.faces))]
    crops = [
        crop_face(p.image, tuple(p.faces[i, :2]), float(p.faces[i, 2]), size=size) for p, i in dice
    ]
    with torch.no_grad():
        net.eval()
        chances = torch.cat(
            [
                torch.softmax(net(to_tensor(crops[k : k + 256])), 1)
                for k in range(0, len(crops), 256)
            ]
        ).numpy()
        net.train()
    right = np.array([chances[k, int(p.faces[i, 3])] for k, (p, i) in enumerate(dice)])
    weights = (1.0 - right) + 0.02
    print(f"hard dice: {int((right < 0.5).sum())} of {len(dice)} read under 0.5")
    return HardDice(dice, weights / weights.sum())


def face_sample(
    photos: list[Photo],
    rendered: list[Photo],
    rng: np.random.Generator,
    size: int,
    hard: HardDice | None = None,
    hard_share: float = 0.0,
    chances: np.ndarray | None = None,
    stretch: float = 0.0,
    upright_sets: frozenset[str] = frozenset(),
) -> tuple[np.ndarray, int, str]:
    """A size-square crop, its class (0 not a die's top face, 1..6 the value, SYMBOL) and the set
    it comes from; photos are drawn with `chances` (by default evenly)."""
    if hard is not None and rng.random() < hard_share:
        photo, (x, y, side, value) = hard.draw(rng)
        crop = jittered_face_crop(photo, x, y, side, rng, size, stretch, upright_sets)
        return crop, int(value), photo.source
    while True:
        photo = pick(photos, rendered, rng, chances)
        if not len(photo.faces):
            continue
        x, y, side, value = photo.faces[rng.integers(len(photo.faces))]
        if rng.random() < 0.65 and value > 0:
            crop = jittered_face_crop(photo, x, y, side, rng, size, stretch, upright_sets)
            return crop, int(value), photo.source
        if len(photo.mined) and rng.random() < 0.3:
            mx, my, mside = photo.mined[rng.integers(len(photo.mined))]
            crop = random_face_crop(
                photo, (mx, my), mside * rng.uniform(0.9, 1.1), rng, size, stretch
            )
            return crop, 0, photo.source
        if rng.random() < 0.6:
            direction = rng.uniform(0, 2 * math.pi)
            distance = side * rng.uniform(0.5, 1.3)
            point = np.array(
                [x + distance * math.cos(direction), y + distance * math.sin(direction)]
            )
        else:
            height, width = photo.image.shape[:2]
            point = rng.uniform((0, 0), (width, height))
        span = side * rng.uniform(0.7, 1.4)
        if far_from_dice(photo, point, span):
            crop = random_face_crop(photo, tuple(point), span, rng, size, stretch)
            return crop, 0, photo.source
