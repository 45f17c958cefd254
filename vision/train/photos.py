"""The training photos: the labelled development photos, rendered scenes and bare views, with
the false alarms a trained finder raises in them."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.read import _nets
from vision.train._photos import Labelled, face_estimates, is_held_out, photo_sets

if TYPE_CHECKING:
    from vision.synth.render import TruthDie

SYMBOL = 7  # value code of a die whose top face is a maker's symbol: a die of no known value
SYMBOL_SHARE = 0.35  # of the rendered d6 scenes whose dice carry a symbol on the 1 or the 6
BARE_VIEW = 200  # side in photo pixels of the bare views (--bare-share), as the bench's crops


@dataclass
class Photo:
    image: np.ndarray
    faces: np.ndarray  # N x 4: centre x, centre y, side, value
    mined: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))
    source: str = "rendered"  # the photo set it comes from
    tight: Photo | None = None  # a one-die crop as it came, before pad_crop


def load_photos(shared: Path) -> list[Photo]:
    photos = []
    for photo_set in photo_sets(shared):
        for labelled in photo_set.photos:
            if is_held_out(labelled.image.name):
                continue
            faces = face_estimates(labelled, photo_set.box_kind)
            values = [v for v, _ in labelled.dice]
            rows = [(x, y, s, v) for (x, y, s), v in zip(faces, values, strict=True)]
            image = cv2.imread(str(labelled.image))
            faces = np.array(rows, np.float32).reshape(-1, 4)
            tight = None
            if is_one_die_crop(image, labelled):
                tight = Photo(image, faces, source=photo_set.name)
                image, faces = pad_crop(image, faces)
            photos.append(Photo(image, faces, source=photo_set.name, tight=tight))
    return photos


def bare_views(photos: list[Photo], side: int = BARE_VIEW) -> list[Photo]:
    """Squares of the photos more than a die's side from every labelled die, every third one:
    board tokens, marks and table seen close up, as a camera near the board sees them (the
    finder, given such a square at its full input, sees far more in them than in the photo)."""
    views = []
    for photo in photos:
        if photo.tight is not None or not len(photo.faces):
            continue
        height, width = photo.image.shape[:2]
        occupied = np.zeros((height, width), np.uint8)
        for x, y, die_side, _ in photo.faces:
            reach = 1.7 * die_side
            occupied[
                int(max(0, y - reach)) : int(y + reach), int(max(0, x - reach)) : int(x + reach)
            ] = 1
        squares = [
            (x, y)
            for y in range(0, height - side + 1, side // 2)
            for x in range(0, width - side + 1, side // 2)
            if not occupied[y : y + side, x : x + side].any()
        ]
        for x, y in squares[::3]:
            crop = np.ascontiguousarray(photo.image[y : y + side, x : x + side])
            views.append(Photo(crop, np.zeros((0, 4), np.float32), source=photo.source))
    return views


def is_one_die_crop(image: np.ndarray, labelled: Labelled) -> bool:
    """A photo that is a crop around one die (translucent-felt-crops): its box is the image."""
    if len(labelled.dice) != 1:
        return False
    x0, y0, x1, y1 = labelled.dice[0][1]
    height, width = image.shape[:2]
    return (x1 - x0) >= 0.9 * width and (y1 - y0) >= 0.9 * height


def pad_crop(image: np.ndarray, faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The crop in a frame three times its size, its edges stretched outwards: samples drawn
    around it then mirror no die into view (a reflected border shows unlabelled copies)."""
    height, width = image.shape[:2]
    padded = cv2.copyMakeBorder(image, height, height, width, width, cv2.BORDER_REPLICATE)
    moved = faces.copy()
    moved[:, 0] += width
    moved[:, 1] += height
    return padded, moved


def rendered_photos(count: int, seed: int, symbol_share: float = SYMBOL_SHARE) -> list[Photo]:
    """Scenes from the project's renderer (varied styles, d6 and poker, props, empty trays).

    They widen what the finder sees beyond the photo sets; poker dice are marked value -1
    so the face net never learns them as pips (nor as "no die"); some d6 sets print a maker's
    symbol on the 1 or the 6 (value SYMBOL), which the face net learns as a die of no value.
    """
    from vision.read.types import POKER_FACES
    from vision.synth._draw_logos import LOGO_DESIGNS
    from vision.synth.render import SceneStyle, render_scene

    rng = np.random.default_rng(seed)
    photos = []
    for number in range(count):
        kind = "poker" if number % 3 == 2 else "d6"
        style = SceneStyle.random(rng, kind)
        if kind == "d6" and rng.random() < symbol_share:
            logo = str(rng.choice(LOGO_DESIGNS))
            style = replace(style, logo_faces=(int(rng.choice([1, 6])),), logo=logo)
        dice = int(rng.integers(0, 9))
        faces = [int(v) for v in rng.integers(1, 7, dice)]
        if style.logo_faces:  # half the dice show the symbol
            faces = [style.logo_faces[0] if rng.random() < 0.5 else f for f in faces]
        if kind == "poker":
            faces = [POKER_FACES[v - 1] for v in faces]
        scene = render_scene(faces, kind=kind, seed=seed + number, style=style)
        rows = [
            (*die.center, float(np.linalg.norm(die.quad[1] - die.quad[0])), value_code(die))
            for die in scene.dice
        ]
        photos.append(Photo(scene.frame, np.array(rows, np.float32).reshape(-1, 4)))
    return photos


def value_code(die: TruthDie) -> int:
    """1..6 for a pip face, SYMBOL for a maker's symbol, -1 for a poker face."""
    if die.symbol:
        return SYMBOL
    return die.value if isinstance(die.value, int) else -1


def mine_negatives(photos: list[Photo], finder_dir: Path) -> None:
    """Give each photo the false alarms (x, y, side) of the finder in `finder_dir`: the face
    net's hardest negatives, and where the new finder is shown bare tray again. A candidate
    counts as false when it is more than half a face from every labelled die.
    """
    from vision.read.find import find_dice

    _nets.MODEL_DIR = finder_dir
    _nets.load_net.cache_clear()  # the cache is keyed by model name, not by folder
    for photo in photos:
        false = [
            (*cand.center, cand.size)
            for cand in find_dice(photo.image, threshold=0.2)
            if far_from_dice(photo, np.array(cand.center), cand.size)
        ]
        photo.mined = np.array(false, np.float32).reshape(-1, 3)
    print(f"mined {sum(len(p.mined) for p in photos)} false candidates")


def far_from_dice(photo: Photo, point: np.ndarray, side: float) -> bool:
    if not len(photo.faces):
        return True
    distances = np.hypot(photo.faces[:, 0] - point[0], photo.faces[:, 1] - point[1])
    return bool((distances > 0.45 * np.maximum(photo.faces[:, 2], side)).all())
