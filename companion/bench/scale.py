"""The scale sweep of `tabletop bench vision`: dice whose top face spans 3% to 60% of the frame's
shorter side, on rendered trays and on held-out real photos zoomed and cropped.

Rendered: at each size, scenes of 1-7 d6 (as many as fit), any style; past 40% the dice lie
square to the frame and seen from straight above, which is the only way one that large fits a
640x480 frame. Real: around one labelled die of a held-out photo, a 4:3 window in which the die's
face spans that share of its height, resized to 640x480 (dice whose labels lie wholly inside the
window are scored; dice cut by its edges are left out, as the labels skip cut dice).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from companion.bench.scoring import Score, score_image, score_rendered
from vision._photos import Labelled, PhotoSet, face_estimates, is_held_out

SWEEP = (0.03, 0.05, 0.08, 0.12, 0.2, 0.3, 0.45, 0.6)  # face side / frame's shorter side
FRAME = (640, 480)
FLAT_FROM = 0.4  # from this share on, dice lie square to the frame, seen from straight above


def rendered_sweep(reader: Any, scenes: int, seed: int = 5) -> dict[str, dict[str, Any]]:
    """Per share of the frame, the reader's figures on rendered d6 trays."""
    from vision import render

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
    from vision import render

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
    height, and the labels wholly inside it (None where the window leaves the photo)."""
    import cv2

    cx, cy, side = face_estimates(photo, box_kind)[index]
    height = side / share
    width = height * FRAME[0] / FRAME[1]
    x0, y0 = cx - width / 2, cy - height / 2
    if x0 < 0 or y0 < 0 or x0 + width > image.shape[1] or y0 + height > image.shape[0]:
        return None
    window = image[round(y0) : round(y0 + height), round(x0) : round(x0 + width)]
    shrinking = window.shape[0] > FRAME[1]
    frame = cv2.resize(
        window, FRAME, interpolation=cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR
    )
    scale = FRAME[1] / window.shape[0]
    inside = []
    for value, (bx0, by0, bx1, by1) in photo.dice:
        if bx0 >= x0 and by0 >= y0 and bx1 <= x0 + width and by1 <= y0 + height:
            box = tuple(round(v) for v in ((bx0 - x0) * scale, (by0 - y0) * scale,
                                           (bx1 - x0) * scale, (by1 - y0) * scale))  # fmt: skip
            inside.append((value, box))
    return frame, Labelled(photo.image, tuple(inside))
