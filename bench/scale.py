"""The scale sweep of `tabletop bench vision`: dice whose top face spans 3% to 60% of the frame's
shorter side, on rendered trays and on held-out real photos zoomed and cropped.

Rendered: at each size, scenes of 1-7 d6 (as many as fit), any style; past 40% the dice lie
square to the frame and seen from straight above, which is the only way one that large fits a
640x480 frame. Real: around one labelled die of a held-out photo, a 4:3 window in which the die's
face spans that share of its height, resized to 640x480 (dice whose labels lie wholly inside the
window are scored; dice cut by its edges are left out, as the labels skip cut dice). A window
larger than the photo (the small shares) is filled with the photo mirrored out, its labelled
dice mirrored with it: the whole tray's dice, over and over, small.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from bench.scoring import Score, score_image, score_rendered
from vision.train._photos import Labelled, PhotoSet, face_estimates, is_held_out

SWEEP = (0.03, 0.05, 0.08, 0.12, 0.2, 0.3, 0.45, 0.6)  # face side / frame's shorter side
FRAME = (640, 480)
FLAT_FROM = 0.4  # from this share on, dice lie square to the frame, seen from straight above


def rendered_sweep(reader: Any, scenes: int, seed: int = 5) -> dict[str, dict[str, Any]]:
    """Per share of the frame, the reader's figures on rendered d6 trays."""
    from vision.synth import render

    figures = {}
    for share in SWEEP:
        score = Score()
        for number, (values, scene_seed, style) in enumerate(sweep_draws(share, scenes, seed)):
            scene = render.render_scene(values, kind="d6", seed=scene_seed, style=style)
            score.add(score_rendered(scene, reader.read(scene.frame), f"{share} scene {number}"))
        figures[f"{share:.2f}"] = score.figures()
    return figures


def sweep_draws(share: float, scenes: int, seed: int = 5) -> list[tuple[list[int], int, Any]]:
    """The rendered sweep's scenes at `share` as drawn: (dice values, scene seed, style) each."""
    from vision.synth import render

    rng = np.random.default_rng(seed + int(share * 1000))
    return [
        (
            dice_values(rng, share),
            40_000 + int(share * 1000) * 100 + number,
            style_at(render.SceneStyle.random(rng, "d6"), share),
        )
        for number in range(scenes)
    ]


def dice_values(rng: np.random.Generator, share: float) -> list[int]:
    """1-7 dice, as many as may fit at that size (one die past a quarter of the frame)."""
    most = 1 if share > 0.25 else max(1, min(7, int((0.35 / share) ** 2)))
    return [int(v) for v in rng.integers(1, 7, size=int(rng.integers(1, most + 1)))]


def style_at(style: Any, share: float) -> Any:
    side = share * FRAME[1]
    if share >= FLAT_FROM:  # (a die of 60% fits the frame only just)
        size = (0.97 * side, side)
        flat = {"rotation": False, "perspective": 0.0, "distractors": ()}
        return replace(style, die_size=size, touch_chance=0.0, **flat)
    style = replace(style, die_size=(0.95 * side, 1.05 * side), touch_chance=0.0)
    return replace(style, perspective=min(style.perspective, 0.5))


def real_sweep(reader: Any, sets: list[PhotoSet], per_share: int) -> dict[str, dict[str, Any]]:
    """Per share of the frame, the reader's figures on held-out real dice zoomed to that size."""
    import cv2

    dice = [
        (photo_set, photo, index)
        for photo_set in sets
        for photo in photo_set.photos
        if is_held_out(photo.image.name)
        for index in range(len(photo.dice))
    ]
    rng = np.random.default_rng(9)
    chosen = [dice[i] for i in rng.permutation(len(dice))[:per_share]]
    images: dict[Path, np.ndarray] = {}
    figures = {}
    for share in SWEEP:
        score = Score()
        for photo_set, photo, index in chosen:
            image = images.setdefault(photo.image, cv2.imread(str(photo.image)))
            zoomed = zoom_on(image, photo, photo_set.box_kind, index, share)
            if zoomed is not None:
                frame, labelled = zoomed
                score.add(score_image(labelled, reader.read(frame), photo_set.box_kind))
        figures[f"{share:.2f}"] = score.figures()
    return figures


def zoom_on(
    image: np.ndarray, photo: Labelled, box_kind: str, index: int, share: float
) -> tuple[np.ndarray, Labelled] | None:
    """A 640x480 frame of the 4:3 window in which die `index`'s face spans `share` of the
    height, and the labels wholly inside it; None where the window leaves the photo about this
    die. A window larger than the whole photo (small shares: a die at 3% of the frame wants a
    window 33 faces high) is filled with the photo mirrored out, its labelled dice with it (a
    die reads the same in a mirror)."""

    cx, cy, side = face_estimates(photo, box_kind)[index]
    height = side / share
    width = height * FRAME[0] / FRAME[1]
    x0, y0 = cx - width / 2, cy - height / 2
    if width > image.shape[1] or height > image.shape[0]:
        return mirrored_out(image, photo, (x0, y0, height))
    if x0 < 0 or y0 < 0 or x0 + width > image.shape[1] or y0 + height > image.shape[0]:
        return None  # the photo is large enough for windows of this size, but not about this die
    window = image[round(y0) : round(y0 + height), round(x0) : round(x0 + width)]
    frame = resized(window, FRAME)
    scale = FRAME[1] / window.shape[0]
    return frame, Labelled(photo.image, labels_inside(photo.dice, (x0, y0, width, height), scale))


def mirrored_out(
    image: np.ndarray, photo: Labelled, window: tuple[float, float, float]
) -> tuple[np.ndarray, Labelled]:
    """The 640x480 frame of a window (left, top, height in photo pixels) that leaves the photo:
    the photo shrunk to the frame's scale and mirrored over and over (numpy's symmetric pad) as
    far as the window reaches, with its labels in every mirrored copy."""

    x0, y0, height = window
    scale = FRAME[1] / height
    size = (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale)))
    small = resized(image, size)
    left, top = round(x0 * scale), round(y0 * scale)
    pads = [(max(0, -start), max(0, start + extent - have)) for start, extent, have in
            ((top, FRAME[1], size[1]), (left, FRAME[0], size[0]))]  # fmt: skip
    padded = np.pad(small, [*pads, (0, 0)], mode="symmetric")
    row, column = top + pads[0][0], left + pads[1][0]
    frame = np.ascontiguousarray(padded[row : row + FRAME[1], column : column + FRAME[0]])
    copies = mirrored_labels(photo.dice, scale, size, (left, top))
    inside = labels_inside(copies, (left, top, *FRAME), 1.0)
    return frame, Labelled(photo.image, inside)


def resized(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The image at `size` (width, height): averaged over when shrunk, interpolated when grown."""
    import cv2

    shrinking = image.shape[0] > size[1]
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR)


def mirrored_labels(
    dice: tuple[tuple[int, tuple[int, int, int, int]], ...],
    scale: float,
    size: tuple[int, int],
    origin: tuple[int, int],
) -> tuple[tuple[int, tuple[float, float, float, float]], ...]:
    """The labels (scaled) of every mirrored copy of the shrunk photo (`size`) that the frame
    at `origin` (its top-left corner, in shrunk photo pixels) reaches: copy k along an axis
    spans [k * side, (k + 1) * side), mirrored where k is odd."""

    def copies(low: float, high: float, side: int, start: int, extent: int) -> list[tuple]:
        first, last = int(np.floor(start / side)), int(np.floor((start + extent) / side))
        return [
            (k * side + low, k * side + high) if k % 2 == 0 else
            (k * side + side - high, k * side + side - low)
            for k in range(first, last + 1)
        ]  # fmt: skip

    labels = []
    for value, (bx0, by0, bx1, by1) in dice:
        xs = copies(bx0 * scale, bx1 * scale, size[0], origin[0], FRAME[0])
        ys = copies(by0 * scale, by1 * scale, size[1], origin[1], FRAME[1])
        labels += [(value, (x[0], y[0], x[1], y[1])) for x in xs for y in ys]
    return tuple(labels)


def labels_inside(
    dice: tuple[tuple[int, tuple[float, float, float, float]], ...],
    window: tuple[float, float, float, float],
    scale: float,
) -> tuple[tuple[int, tuple[int, int, int, int]], ...]:
    """The labels wholly inside the window (left, top, width, height, in the labels' pixels), in
    the frame's pixels (`scale` of theirs)."""
    x0, y0, width, height = window
    inside = []
    for value, (bx0, by0, bx1, by1) in dice:
        if bx0 >= x0 and by0 >= y0 and bx1 <= x0 + width and by1 <= y0 + height:
            box = tuple(round(v) for v in ((bx0 - x0) * scale, (by0 - y0) * scale,
                                           (bx1 - x0) * scale, (by1 - y0) * scale))  # fmt: skip
            inside.append((value, box))
    return tuple(inside)
