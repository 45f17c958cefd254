"""Train the dice reader's two small networks on the real photos, export them to ONNX.

    .venv/bin/pip install torch onnx        # training only; the product runs them with cv2.dnn
    .venv/bin/python -m vision.train_reader --shared ../shared
    .venv/bin/python -m vision.train_reader --shared ../shared --only face --face-input 48

* the finder: a fully convolutional net that turns a frame (longer side FINDER_INPUT pixels) into
  a heat-map of top-face centres at stride 4, plus the log of each face's side;
* the face net: a 32x32 crop around a found centre -> not-a-die or 1..6; with --face-input 48,
  the second-opinion net, the same from a 48x48 crop.

Only the development split of the photos is used (`vision._photos.is_held_out` keeps 30% back).
Augmentation makes up for the small set: any scale, rotation and flip, hue rotation (dice come
in every colour), inverted colours (light pips on dark dice), blur, noise, brightness. The face
net's negatives are crops beside real dice (side faces, half dice, gaps between dice) and
crops of bare surface. Reproduces the shipped models in ~15 min on two CPU cores.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from vision import _nets
from vision._nets import (
    CLASSIFIER_INPUT,
    FINDER_STRIDE,
    MODEL_DIR,
    crop_face,
    crop_matrix,
    face_model_name,
)
from vision._photos import face_estimates, is_held_out, photo_sets

DIE_SIZES_AT_INPUT = (7.0, 40.0)  # top-face sides the finder learns, in its input's pixels
FINDER_PATCH = 160
RENDERED_SHARE = 0.2  # of training samples drawn from rendered scenes, when --rendered > 0
HARD_FROM = 0.5  # of the face net's steps, after which hard dice are drawn more often
HARD_SHARE = 0.3  # default share of the face net's samples drawn from the hard dice from then on
WHOLE_VIEW_SHARE = 0.25  # of the finder's samples tried as a whole photo shrunk (dice 12-44 px)
SYMBOL = 7  # value code of a die whose top face is a maker's symbol: a die of no known value
SYMBOL_SHARE = 0.35  # of the rendered d6 scenes whose dice carry a symbol on the 1 or the 6
BARE_VIEW = 200  # side in photo pixels of the bare views (--bare-share), as the bench's crops
PEAK_LR = 3e-3  # the one-cycle schedule's highest learning rate
# The sets the shipped faces48.onnx was trained on: what a teacher net knows (--teacher).
TEACHER_SETS = "mixed-tray-train,white-webcam-train,rendered"


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


def is_one_die_crop(image: np.ndarray, labelled) -> bool:
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
    from vision._draw_logos import LOGO_DESIGNS
    from vision.render import SceneStyle, render_scene
    from vision.types import POKER_FACES

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


def value_code(die) -> int:
    """1..6 for a pip face, SYMBOL for a maker's symbol, -1 for a poker face."""
    if die.symbol:
        return SYMBOL
    return die.value if isinstance(die.value, int) else -1


def mine_negatives(photos: list[Photo], finder_dir: Path) -> None:
    """Give each photo the false alarms (x, y, side) of the finder in `finder_dir`: the face
    net's hardest negatives, and where the new finder is shown bare tray again. A candidate
    counts as false when it is more than half a face from every labelled die.
    """
    from vision.find import find_dice

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


# ---------------------------------------------------------------- augmentation


def jitter_colours(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Hue rotation, saturation, brightness, contrast, sometimes inverted, blurred, noisy."""
    if rng.random() < 0.6:
        hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.int16)
        hsv[..., 0] = (hsv[..., 0] + rng.integers(0, 180)) % 180
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.5, 1.4), 0, 255)
        image = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    if rng.random() < 0.15:
        image = 255 - image
    image = image.astype(np.float32)
    image = (image - 128.0) * rng.uniform(0.6, 1.3) + 128.0 + rng.uniform(-40, 40)
    image *= rng.uniform(0.85, 1.15, size=3).astype(np.float32)
    if rng.random() < 0.3:
        sigma = rng.uniform(0.3, 1.2)
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    if rng.random() < 0.3:
        image += rng.normal(0, rng.uniform(2, 8), image.shape).astype(np.float32)
    return np.clip(image, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------- finder samples


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


# ---------------------------------------------------------------- face-net samples


def random_face_crop(
    photo: Photo, center, side: float, rng: np.random.Generator, size: int, stretch: float = 0.0
) -> np.ndarray:
    """A crop turned and mirrored at random, its colours jittered; with a `stretch`, half the
    crops are of the photo stretched out of shape (up to e**stretch times wider than tall, or
    taller than wide), as a resizing tool or a slanted camera shows dice."""
    angle = float(rng.uniform(0, 360))
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
) -> np.ndarray:
    """A positive: the labelled face a little off-centre and rescaled, as the finder gives it."""
    offset = rng.normal(0, 0.08 * side, 2)
    center = (x + offset[0], y + offset[1])
    return random_face_crop(photo, center, side * rng.uniform(0.8, 1.25), rng, size, stretch)


def far_from_dice(photo: Photo, point: np.ndarray, side: float) -> bool:
    if not len(photo.faces):
        return True
    distances = np.hypot(photo.faces[:, 0] - point[0], photo.faces[:, 1] - point[1])
    return bool((distances > 0.45 * np.maximum(photo.faces[:, 2], side)).all())


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
) -> tuple[np.ndarray, int, str]:
    """A size-square crop, its class (0 not a die's top face, 1..6 the value, SYMBOL) and the set
    it comes from; photos are drawn with `chances` (by default evenly)."""
    if hard is not None and rng.random() < hard_share:
        photo, (x, y, side, value) = hard.draw(rng)
        crop = jittered_face_crop(photo, x, y, side, rng, size, stretch)
        return crop, int(value), photo.source
    while True:
        photo = pick(photos, rendered, rng, chances)
        if not len(photo.faces):
            continue
        x, y, side, value = photo.faces[rng.integers(len(photo.faces))]
        if rng.random() < 0.65 and value > 0:
            crop = jittered_face_crop(photo, x, y, side, rng, size, stretch)
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


# ---------------------------------------------------------------- networks


def conv(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


def separable(channels: int, dilation: int = 1) -> nn.Sequential:
    """A 3x3 convolution per channel, then a 1x1 mixing them: a ninth of a full one's work."""
    return nn.Sequential(
        nn.Conv2d(channels, channels, 3, 1, dilation, dilation, groups=channels, bias=False),
        nn.BatchNorm2d(channels),
        nn.ReLU(inplace=True),
        nn.Conv2d(channels, channels, 1, bias=False),
        nn.BatchNorm2d(channels),
        nn.ReLU(inplace=True),
    )


class PyramidFinder(nn.Module):
    """The trunk's dilated layers at stride 8 (a quarter of the cells), brought back to stride 4
    beside the stride-4 features: the same reach over the tray for about half the work."""

    def __init__(self, width: int = 24) -> None:
        super().__init__()
        self.fine = nn.Sequential(conv(3, 12, 2), conv(12, width, 2))
        deep = width + 8
        self.coarse = nn.Sequential(
            conv(width, deep, 2),
            conv(deep, deep),
            conv(deep, deep, dilation=2),
            conv(deep, deep, dilation=4),
            nn.Upsample(scale_factor=2, mode="nearest"),
        )
        self.head = nn.Sequential(
            nn.Conv2d(width + deep, width, 1, bias=False),
            nn.BatchNorm2d(width),
            nn.ReLU(inplace=True),
            nn.Conv2d(width, 2, 1),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        fine = self.fine(x)
        return self.head(torch.cat([fine, self.coarse(fine)], dim=1))


def finder_net(width: int = 24, layers: str = "full") -> nn.Module:
    """Two strided convolutions down to the heat-map's stride, then four at growing dilations
    (the context of a whole die and its neighbours), full or separable; or the pyramid."""
    if layers == "pyramid":
        return PyramidFinder(width)
    trunk = conv if layers == "full" else lambda cin, cout, dilation=1: separable(cout, dilation)
    return nn.Sequential(
        conv(3, 12, 2),
        conv(12, width, 2),
        trunk(width, width),
        trunk(width, width, dilation=2),
        trunk(width, width, dilation=4),
        trunk(width, width, dilation=8),
        nn.Conv2d(width, 2, 1),
    )


def face_net(size: int, width: int = 16) -> nn.Module:
    """Four poolings down to size/16; `width` channels first, doubled twice (16: the shipped
    nets)."""
    return nn.Sequential(
        conv(3, width),
        conv(width, width),
        nn.MaxPool2d(2),
        conv(width, 2 * width),
        conv(2 * width, 2 * width),
        nn.MaxPool2d(2),
        conv(2 * width, 4 * width),
        nn.MaxPool2d(2),
        conv(4 * width, 4 * width),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(4 * width * (size // 16) ** 2, 64),
        nn.ReLU(inplace=True),
        nn.Dropout(0.2),
        nn.Linear(64, 7),
    )


def to_tensor(images: list[np.ndarray]) -> torch.Tensor:
    batch = np.stack(images).astype(np.float32) / 255.0 - 0.5
    return torch.from_numpy(batch.transpose(0, 3, 1, 2).copy())


def finder_loss(output: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """CenterNet focal loss on the heat-map plus L1 on log side at the centre cells."""
    heat = torch.sigmoid(output[:, 0]).clamp(1e-4, 1 - 1e-4)
    truth, log_side, mask = targets[:, 0], targets[:, 1], targets[:, 2]
    positive = truth.eq(1).float()
    pos_loss = -(torch.log(heat) * (1 - heat) ** 2 * positive).sum()
    neg_loss = -(torch.log(1 - heat) * heat**2 * (1 - truth) ** 4 * (1 - positive)).sum()
    focal = (pos_loss + neg_loss) / positive.sum().clamp(min=1)
    size = (torch.abs(output[:, 1] - log_side) * mask).sum() / mask.sum().clamp(min=1)
    return focal + size


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


def fit(net: nn.Module, name: str, steps: int, batch_loss, peak_lr: float = PEAK_LR) -> nn.Module:
    """AdamW with a one-cycle schedule; batch_loss(net) -> (loss, note) draws a fresh batch."""
    optimiser = torch.optim.AdamW(net.parameters(), lr=peak_lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, peak_lr, total_steps=steps)
    start = time.time()
    for step in range(steps):
        loss, note = batch_loss(net)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        if step % 100 == 0:
            elapsed = time.time() - start
            print(f"{name} step {step}/{steps} loss {loss.item():.3f} {note} {elapsed:.0f}s")
    return net.eval()


def train_finder(
    photos: list[Photo],
    rendered: list[Photo],
    steps: int,
    rng: np.random.Generator,
    net: nn.Module,
) -> nn.Module:
    chances = set_balanced_chances(photos)

    def batch_loss(net: nn.Module) -> tuple[torch.Tensor, str]:
        samples = [finder_sample(pick(photos, rendered, rng, chances), rng) for _ in range(24)]
        output = net(to_tensor([s[0] for s in samples]))
        return finder_loss(output, torch.from_numpy(np.stack([s[1] for s in samples]))), ""

    return fit(net, "finder", steps, batch_loss)


@dataclass
class Teacher:
    """A trained face net whose answers the new one learns beside the labels on the dice of the
    sets it knew (distillation), so that it keeps the sureness it had there. Only on dice: on
    "no die" crops the label stands (the teacher's doubts there, such as a laptop's keys at the
    edge of a webcam photo, are not taught)."""

    net: nn.Module
    sets: frozenset[str]
    weight: float  # of the teacher's chances in the target, the label's taking the rest


def train_face_net(
    photos: list[Photo],
    rendered: list[Photo],
    steps: int,
    rng: np.random.Generator,
    size: int,
    hard_share: float = HARD_SHARE,
    width: int = 16,
    init: Path | None = None,
    peak_lr: float = PEAK_LR,
    teacher: Teacher | None = None,
    set_weights: dict[str, float] | None = None,
    bare: list[Photo] | None = None,
    bare_share: float = 0.0,
    cut_share: float = 0.0,
    stretch: float = 0.0,
) -> nn.Module:
    hard: HardDice | None = None
    step = 0
    chances = weighted_sets(photos, set_weights) if set_weights else None

    def one_sample() -> tuple[np.ndarray, int, str]:
        draw = rng.random()
        if draw < bare_share and bare:
            return bare_sample(bare, rng, size, stretch)
        if bare_share <= draw < bare_share + cut_share:
            return cut_short_sample(photos, rendered, rng, size, chances, stretch)
        return face_sample(photos, rendered, rng, size, hard, hard_share, chances, stretch)

    def batch_loss(net: nn.Module) -> tuple[torch.Tensor, str]:
        nonlocal step, hard
        step += 1
        if hard_share > 0 and step == int(steps * HARD_FROM):
            hard = hard_dice(net, photos, size)
        samples = [one_sample() for _ in range(128)]
        inputs = to_tensor([s[0] for s in samples])
        logits = net(inputs)
        labels = torch.tensor([s[1] for s in samples])
        targets = face_targets(labels, logits.shape[1])
        if teacher is not None:
            taught = [s[2] in teacher.sets and 0 < s[1] < SYMBOL for s in samples]
            targets = with_teacher(targets, inputs, torch.tensor(taught), teacher)
        known = labels < SYMBOL
        accuracy = (logits.argmax(1)[known] == labels[known]).float().mean().item()
        loss = nn.functional.cross_entropy(logits, targets)
        return loss, f"batch accuracy {accuracy:.3f}"

    net = face_net(size, width)
    if init is not None:
        load_face_init(net, init, photos, rendered, size)
    return fit(net, "face", steps, batch_loss, peak_lr)


def weighted_sets(photos: list[Photo], set_weights: dict[str, float]) -> np.ndarray:
    """Each photo's chance to be drawn: even, times its set's weight (1 unless named)."""
    weights = np.array([set_weights.get(photo.source, 1.0) for photo in photos])
    return weights / weights.sum()


def with_teacher(
    targets: torch.Tensor, inputs: torch.Tensor, taught: torch.Tensor, teacher: Teacher
) -> torch.Tensor:
    """The targets of the taught rows blended with the teacher's chances on the same crops."""
    if not taught.any():
        return targets
    with torch.no_grad():
        chances = torch.softmax(teacher.net(inputs[taught]), 1)
    blended = targets.clone()
    blended[taught] = (1 - teacher.weight) * targets[taught] + teacher.weight * chances
    return blended


def load_teacher(
    folder: Path, sets: frozenset[str], weight: float, photos: list[Photo], size: int
) -> Teacher:
    net = face_net(size)
    load_face_init(net, folder / face_model_name(size), photos, [], size)
    return Teacher(net.eval(), sets, weight)


def load_face_init(
    net: nn.Module, path: Path, photos: list[Photo], rendered: list[Photo], size: int
) -> None:
    """Start the face net from trained weights: a .pt written beside an export, or a shipped
    .onnx (its convolutions have their batch norms folded in: see unfold_batch_norms)."""
    if path.suffix == ".pt":
        net.load_state_dict(torch.load(path))
        return
    rng = np.random.default_rng(0)
    calibration = [face_sample(photos, rendered, rng, size)[0] for _ in range(512)]
    unfold_batch_norms(net, onnx_weights(path), to_tensor(calibration))
    print(f"face net starts from {path}")


def onnx_weights(path: Path) -> list[torch.Tensor]:
    """An exported face net's initializers, in the order of the layers that use them."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    named = {item.name: numpy_helper.to_array(item) for item in model.graph.initializer}
    used = [name for node in model.graph.node for name in node.input if name in named]
    return [torch.from_numpy(named[name].copy()) for name in used]


def unfold_batch_norms(net: nn.Module, weights: list[torch.Tensor], batch: torch.Tensor) -> None:
    """Load an export's weights, where each convolution and its batch norm are one convolution
    with a bias. Each batch norm is given its convolution's output statistics on `batch` as running
    statistics and the scale and shift that undo them: the net computes exactly the exported
    function in eval mode and nearly it in training mode (batch statistics near these), so
    fine-tuning starts where the export left off."""
    layers = [m for m in net.modules() if isinstance(m, nn.Conv2d | nn.BatchNorm2d | nn.Linear)]
    pairs = []  # (layer, weight, bias for a following batch norm or None)
    queue = list(weights)
    for index, layer in enumerate(layers):
        if isinstance(layer, nn.BatchNorm2d):
            continue
        weight = queue.pop(0)
        if tuple(weight.shape) != tuple(layer.weight.shape):
            raise ValueError(f"{weight.shape} does not fit {layer}: not this net's export")
        bias = queue.pop(0)
        followed = index + 1 < len(layers) and isinstance(layers[index + 1], nn.BatchNorm2d)
        pairs.append((layer, weight, bias, layers[index + 1] if followed else None))
    if queue:
        raise ValueError("the export has more weights than the net")
    outputs: dict[nn.Module, torch.Tensor] = {}
    hooks = [
        conv.register_forward_hook(lambda m, _, out: outputs.__setitem__(m, out))
        for conv, _, _, norm in pairs
        if norm is not None
    ]
    with torch.no_grad():
        for layer, weight, bias, norm in pairs:
            layer.weight.copy_(weight)
            if norm is None:
                layer.bias.copy_(bias)
            else:  # a pass-through for now: eval mode with mean 0, variance 1 - eps
                norm.running_mean.zero_()
                norm.running_var.fill_(1.0 - norm.eps)
                norm.weight.fill_(1.0)
                norm.bias.copy_(bias)
        net.eval()
        net(batch)
        for conv, _, bias, norm in pairs:
            if norm is None:
                continue
            out = outputs[conv]  # the convolution without its bias
            mean = out.mean(dim=(0, 2, 3))
            var = out.var(dim=(0, 2, 3), unbiased=False)
            norm.running_mean.copy_(mean)
            norm.running_var.copy_(var)
            norm.weight.copy_(torch.sqrt(var + norm.eps))
            norm.bias.copy_(bias + mean)
    for hook in hooks:
        hook.remove()
    net.train()


def face_targets(labels: torch.Tensor, classes: int) -> torch.Tensor:
    """Each crop's chances: its class (slightly smoothed), or for a maker's symbol an even spread
    over 1..6 (a die, of no value the net can know), so the reader keeps the die and calls it
    unreadable."""
    targets = torch.full((len(labels), classes), 0.02 / classes)
    known = labels < SYMBOL
    targets[known, labels[known]] += 0.98
    targets[~known] = torch.tensor([0.0] + [1.0 / (classes - 1)] * (classes - 1))
    return targets


def sharpen(net: nn.Module, factor: float) -> None:
    """The net's scores times `factor` (its last layer's weights and bias): the same value read,
    more surely (factor > 1). The reader averages the two face nets' chances and keeps a value
    only at 0.5 or more, so a net trained on hard sets, which hedges on dice it reads right,
    makes dice unreadable that a surer net keeps."""
    last = [m for m in net.modules() if isinstance(m, nn.Linear)][-1]
    with torch.no_grad():
        last.weight.mul_(factor)
        last.bias.mul_(factor)


def export(net: nn.Module, path: Path, shape: tuple[int, int, int, int], dynamic: bool) -> None:
    axes = {"input": {0: "batch", 2: "height", 3: "width"}} if dynamic else {"input": {0: "batch"}}
    torch.onnx.export(
        net,
        torch.zeros(shape),
        str(path),
        input_names=["input"],
        output_names=["output"],
        dynamic_axes=axes,
        dynamo=False,
    )
    torch.save(net.state_dict(), path.with_suffix(".pt"))  # to resume from; not shipped
    print(f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB)")


def parse_set_weight(item: str) -> tuple[str, float]:
    """SET=FACTOR, for argparse: a bad item is one line naming it."""
    name, _, factor = item.partition("=")
    try:
        weight = float(factor)
    except ValueError:
        weight = -1.0
    if not name or weight < 0:
        raise argparse.ArgumentTypeError(f"expected SET=FACTOR (a number >= 0), not {item!r}")
    return name, weight


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared"
    )
    parser.add_argument("--finder-steps", type=int, default=4500)
    parser.add_argument("--face-steps", type=int, default=4500)
    parser.add_argument("--finder-width", type=int, default=24, help="the finder's channels")
    parser.add_argument(
        "--finder-layers",
        choices=("full", "separable", "pyramid"),
        default="full",
        help="the finder's dilated layers: full 3x3 convolutions, separable ones, or full ones at "
        "stride 8 beside the stride-4 features (pyramid)",
    )
    parser.add_argument("--rendered", type=int, default=150, help="rendered scenes to mix in")
    parser.add_argument("--out", type=Path, default=MODEL_DIR)
    parser.add_argument(
        "--mine-with",
        type=Path,
        default=None,
        help="folder of the finder used to mine negatives "
        "for the face net (default: --out, where the finder was just written)",
    )
    parser.add_argument(
        "--finder-negatives-from",
        type=Path,
        default=None,
        help="folder of the finder whose false alarms the new finder is shown more often "
        "(default: the shipped vision/models)",
    )
    parser.add_argument(
        "--finder-init",
        type=Path,
        default=None,
        help="a finder.pt (written beside each finder.onnx) to go on training from",
    )
    parser.add_argument("--only", choices=("finder", "face"), default=None)
    parser.add_argument("--seed", type=int, default=0, help="for torch and the sample draws")
    parser.add_argument(
        "--hard-share",
        type=float,
        default=HARD_SHARE,
        help="share of the face net's samples drawn, in its second half, from the dice it read "
        "worst half-way (0: none, as for the shipped faces.onnx)",
    )
    parser.add_argument(
        "--face-input",
        type=int,
        choices=(32, 48),
        default=CLASSIFIER_INPUT,
        help="the face net's crop side: 32 (faces.onnx) or 48 (faces48.onnx, the second opinion)",
    )
    parser.add_argument(
        "--face-width",
        type=int,
        default=16,
        help="the face net's first channels, doubled twice further in (16: the shipped nets)",
    )
    parser.add_argument(
        "--symbol-share",
        type=float,
        default=SYMBOL_SHARE,
        help="share of the rendered d6 scenes whose dice carry a maker's symbol (0: none)",
    )
    parser.add_argument(
        "--face-init",
        type=Path,
        default=None,
        help="a face net to go on training from: a .pt written beside an export, or an exported "
        ".onnx of the same --face-input and --face-width (the shipped faces48.onnx)",
    )
    parser.add_argument(
        "--face-lr",
        type=float,
        default=PEAK_LR,
        help="the face net's peak learning rate (lower when going on from --face-init)",
    )
    parser.add_argument(
        "--teacher",
        type=Path,
        default=None,
        help="folder of a face net (of the same --face-input) whose chances the new one learns "
        "beside the labels on the dice of --teacher-sets (distillation)",
    )
    parser.add_argument(
        "--teacher-sets",
        default=TEACHER_SETS,
        help="comma-separated photo sets (and 'rendered') on whose dice the teacher is learned",
    )
    parser.add_argument(
        "--teacher-weight",
        type=float,
        default=0.5,
        help="share of the teacher's chances in those crops' targets (the label has the rest)",
    )
    parser.add_argument(
        "--face-set-weight",
        action="append",
        type=parse_set_weight,
        default=[],
        metavar="SET=FACTOR",
        help="draw the face net's photos of SET FACTOR times as often (repeatable; default: "
        "every photo as often)",
    )
    parser.add_argument(
        "--bare-share",
        type=float,
        default=0.0,
        help="share of the face net's samples that are 'no die' crops where the finder saw a die "
        f"in {BARE_VIEW} px squares of the photos away from the dice (0: none)",
    )
    parser.add_argument(
        "--cut-share",
        type=float,
        default=0.0,
        help="share of the face net's samples that are dice cut short (0.55-0.75 of their side, "
        "off centre), taught as dice of no readable value (0: none)",
    )
    parser.add_argument(
        "--face-stretch",
        type=float,
        default=0.0,
        help="stretch half the face net's crops out of shape, by a factor up to e**F along a "
        "random axis (0.35: up to 1.4 times; 0: none)",
    )
    parser.add_argument(
        "--face-sharpen",
        type=float,
        default=1.0,
        help="multiply the trained face net's scores by this before export (1: as trained)",
    )
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(args.seed)
    photos = load_photos(args.shared)
    print(f"{len(photos)} development photos, {sum(len(p.faces) for p in photos)} dice")
    rendered = (
        rendered_photos(args.rendered, seed=1, symbol_share=args.symbol_share)
        if args.rendered
        else []
    )
    print(f"{len(rendered)} rendered scenes")
    args.out.mkdir(parents=True, exist_ok=True)
    if args.only in (None, "finder"):
        mine_negatives(photos + rendered, args.finder_negatives_from or MODEL_DIR)
        net = finder_net(args.finder_width, args.finder_layers)
        if args.finder_init:
            net.load_state_dict(torch.load(args.finder_init))
        finder = train_finder(photos, rendered, args.finder_steps, rng, net)
        export(finder, args.out / "finder.onnx", (1, 3, FINDER_PATCH, FINDER_PATCH), True)
    if args.only in (None, "face"):
        mine_negatives(photos + rendered, args.mine_with or args.out)
        bare = bare_views(photos) if args.bare_share > 0 else []
        if bare:
            mine_negatives(bare, args.mine_with or args.out)
            bare = [view for view in bare if len(view.mined)]
            print(f"{len(bare)} bare views with false candidates")
        size = args.face_input
        face = train_face_net(
            photos,
            rendered,
            args.face_steps,
            rng,
            size,
            args.hard_share,
            args.face_width,
            init=args.face_init,
            peak_lr=args.face_lr,
            teacher=load_teacher(
                args.teacher,
                frozenset(args.teacher_sets.split(",")),
                args.teacher_weight,
                photos,
                size,
            )
            if args.teacher
            else None,
            set_weights=dict(args.face_set_weight),
            bare=bare,
            bare_share=args.bare_share,
            cut_share=args.cut_share,
            stretch=args.face_stretch,
        )
        if args.face_sharpen != 1.0:
            sharpen(face, args.face_sharpen)
        export(face, args.out / face_model_name(size), (1, 3, size, size), False)


if __name__ == "__main__":
    main()
