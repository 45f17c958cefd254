"""Rendered dice trays with exact ground truth: for tests, benchmarks, the simulated camera, demos.

A scene is a tray surface seen from above by a pinhole camera, with cube dice (pip d6 or poker)
standing on it: the top face carries the value, side faces show in perspective away from the image
centre. Everything is numpy/cv2 and deterministic for a seed.

    scene = render_scene([3, 5, 6], seed=7)          # scene.frame (BGR), scene.dice (TruthDie...)
    frames = render_roll(["A", "K", "9"], kind="poker", seed=2)   # tumbling, then settled
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from vision.read.types import D6_FACES, POKER_FACES, Face
from vision.synth import _draw_faces as faces_art
from vision.synth import _draw_scene as draw

__all__ = [
    "RenderedScene",
    "SceneStyle",
    "TruthDie",
    "render_close_up",
    "render_empty",
    "render_roll",
    "render_scene",
    "rectify_truth",
]

Size = tuple[int, int]
_DISTRACTORS = ("hand", "coin", "pencil")
LIGHT_DIE_COLORS = ("white", "ivory")  # a poker die's body
# A random style's finish, each as often as it is listed
FINISH_DRAWS = ("opaque", "opaque", "opaque", "marbled", "translucent")


@dataclass(frozen=True)
class TruthDie:
    """What a rendered die really shows: value, top-face centre and corners (clockwise from TL)."""

    value: Face
    center: tuple[float, float]
    quad: np.ndarray
    cocked: bool = False
    symbol: bool = False  # its top face shows a maker's symbol: to be read as unreadable


@dataclass(frozen=True)
class RenderedScene:
    frame: np.ndarray  # BGR uint8
    dice: tuple[TruthDie, ...]


@dataclass(frozen=True)
class SceneStyle:
    """How a tray looks. Defaults: plain white dice with black pips on a light tray, soft light.

    Sizes are for a 640x480 frame and scale with the frame's smaller side.
    """

    surface: str = "light"  # light, dark, wood, felt
    die_colors: tuple[str, ...] = ("white",)  # each die picks one: white ivory red black blue green
    finish: str = "opaque"  # opaque, marbled, translucent
    pip_color: tuple[int, int, int] | None = None  # None: black on light dice, white on dark ones
    light_gradient: float = 0.15  # brightness change across the frame, 0..0.6
    light_angle: float = 0.6  # radians: where the light comes from
    glare: float = 0.0  # strength of highlights on dice, 0..1
    shadows: float = 0.3  # darkness of die shadows, 0..1
    blur: float = 0.6  # lens blur sigma in pixels
    noise: float = 2.0  # sensor noise sigma in grey levels
    perspective: float = 0.5  # 0: straight down, no side faces; 1: strong perspective
    die_size: tuple[float, float] = (42.0, 58.0)  # top-face side in pixels, min..max
    rotation: bool = True  # dice lie at any angle (else nearly square to the frame)
    cocked_chance: float = 0.0  # chance a die leans (its top face tilted)
    touch_chance: float = 0.0  # chance a die lies against another, faces flush
    distractors: tuple[str, ...] = field(default_factory=tuple)  # any of: hand, coin, pencil
    logo_faces: tuple[int, ...] = ()  # d6 faces printed with a maker's symbol instead of pips
    logo: str = "star"  # which symbol (vision.synth._draw_logos.LOGO_DESIGNS)
    # The tray's own look (surface pattern, where props lie) comes from this seed when set, so
    # successive rolls on one tray (a simulated camera) keep it; None: from each scene's seed.
    tray_seed: int | None = None
    # How poker faces are printed (a `vision.synth.poker_designs.PokerDesign`); None: the project's
    # own.
    poker_design: Any = None

    def __post_init__(self) -> None:
        unknown = set(self.distractors) - set(_DISTRACTORS)
        if unknown:
            raise ValueError(f"unknown distractor(s) {sorted(unknown)}; use {_DISTRACTORS}")
        if not self.die_colors:
            raise ValueError("die_colors needs at least one colour")
        low, high = self.die_size
        if not 8 <= low <= high:
            raise ValueError(f"die_size must be 8 <= min <= max, not {self.die_size}")

    @classmethod
    def random(cls, rng: np.random.Generator, kind: str = "d6") -> SceneStyle:
        """A varied but realistic style, for benchmark scenes."""
        finish = str(rng.choice(FINISH_DRAWS))
        if kind == "poker":
            colors: tuple[str, ...] = (str(rng.choice(LIGHT_DIE_COLORS)),)
        elif rng.random() < 0.3:
            colors = tuple(str(c) for c in rng.choice(list(draw.DIE_COLORS), size=3))
        else:
            colors = (str(rng.choice(list(draw.DIE_COLORS))),)
        smallest = float(rng.uniform(34, 50))
        return cls(
            surface=str(rng.choice(list(draw.SURFACES))),
            die_colors=colors,
            finish=finish,
            light_gradient=float(rng.uniform(0, 0.45)),
            light_angle=float(rng.uniform(0, 2 * np.pi)),
            glare=float(rng.choice([0.0, 0.0, rng.uniform(0.15, 0.5)])),
            shadows=float(rng.uniform(0.1, 0.5)),
            blur=float(rng.uniform(0.3, 1.4)),
            noise=float(rng.uniform(0.5, 5)),
            perspective=float(rng.uniform(0, 1)),
            die_size=(smallest, smallest + float(rng.uniform(0, 18))),
            rotation=bool(rng.random() < 0.9),
            distractors=tuple(str(d) for d in _DISTRACTORS[1:] if rng.random() < 0.25),
            touch_chance=float(rng.uniform(0, 0.4)),
        )


@dataclass(frozen=True)
class _Pose:
    """One die's pose on the table: where, how big, turned and tilted, which face up."""

    face: Face
    x: float
    y: float
    side: float
    yaw: float  # radians, rotation about the vertical
    tilt: float = 0.0  # radians, lean of the top face (cocked die)
    color: str = "white"
    sides: tuple[Face, ...] = ()  # the other five faces: bottom, then the four around

    @property
    def xy(self) -> np.ndarray:
        return np.array([self.x, self.y])


def render_scene(
    faces: Sequence[Face],
    *,
    kind: str = "d6",
    seed: int = 0,
    size: Size = (640, 480),
    style: SceneStyle | None = None,
) -> RenderedScene:
    """One still frame of dice at rest showing `faces`, with each die's truth."""
    style = style or SceneStyle()
    rng = np.random.default_rng(seed)
    props, covered = _place_distractors(_tray_rng(seed, style, 3), size, style)
    poses = _layout(_check_faces(faces, kind), kind, rng, size, style, covered)
    return _draw_frame(poses, props, kind, seed, size, style, rng, frame_index=0)


def render_empty(
    *, seed: int = 0, size: Size = (640, 480), style: SceneStyle | None = None
) -> np.ndarray:
    """A frame of the empty tray (with the style's distractors, if any)."""
    style = style or SceneStyle()
    rng = np.random.default_rng(seed)
    props, _ = _place_distractors(_tray_rng(seed, style, 3), size, style)
    return _draw_frame([], props, "d6", seed, size, style, rng, frame_index=0).frame


def render_roll(
    faces: Sequence[Face],
    *,
    kind: str = "d6",
    seed: int = 0,
    size: Size = (640, 480),
    moving_frames: int = 10,
    settled_frames: int = 8,
    style: SceneStyle | None = None,
) -> list[RenderedScene]:
    """A roll as the camera sees it: dice thrown in tumbling (with a hand at first when the style
    lists "hand"), then `settled_frames` frames at rest in the final layout (only sensor noise
    changes). The settled layout is the one `render_scene` gives for the same arguments."""
    if moving_frames < 0 or settled_frames < 0:
        raise ValueError("moving_frames and settled_frames must be >= 0")
    style = style or SceneStyle()
    rng = np.random.default_rng(seed)
    checked = _check_faces(faces, kind)
    props, covered = _place_distractors(_tray_rng(seed, style, 3), size, style)
    final = _layout(checked, kind, rng, size, style, covered)
    static_props = [p for p in props if p[0] != "hand"]
    motion = np.random.default_rng([seed, 1])
    start, throw_angle = _throw_start(size, motion)
    spins = motion.uniform(2, 6, len(final)) * motion.choice([-1, 1], len(final))
    tilts = motion.uniform(0.3, 0.8, len(final))
    scenes = []
    previous = [replace(pose, x=float(start[0]), y=float(start[1])) for pose in final]
    for index in range(moving_frames):
        progress = (index + 1) / (moving_frames + 1)
        poses = [
            _tumbling(pose, start, progress, spin, tilt, kind, motion)
            for pose, spin, tilt in zip(final, spins, tilts, strict=True)
        ]
        frame_props = list(static_props)
        if "hand" in style.distractors and progress < 0.45:
            frame_props.append(_throwing_hand(start, throw_angle, progress, size))
        smear = [
            [_part_way(before, now, share) for before, now in zip(previous, poses, strict=True)]
            for share in (0.2, 0.4)
        ]
        scenes.append(
            _draw_frame(poses, frame_props, kind, seed, size, style, None, index + 1, smear)
        )
        previous = poses
    for index in range(settled_frames):
        frame_index = moving_frames + 1 + index
        scenes.append(_draw_frame(final, static_props, kind, seed, size, style, None, frame_index))
    return scenes


def rectify_truth(frame: np.ndarray, die: TruthDie, size: int = 64) -> np.ndarray:
    """The top face of a rendered die cut out square (size x size BGR), from its true quad."""
    import cv2

    target = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    matrix = cv2.getPerspectiveTransform(die.quad.astype(np.float32), target)
    return cv2.warpPerspective(frame, matrix, (size, size), flags=cv2.INTER_LINEAR)


def render_close_up(
    face: Face,
    *,
    kind: str = "poker",
    seed: int = 0,
    size: Size = (640, 480),
    style: SceneStyle | None = None,
    fill: float = 0.45,
) -> RenderedScene:
    """A close-up photo of one die, as a phone takes it: its top face spans `fill` of the
    photo's shorter side (about 0.3-0.6), side faces showing around it, off-centre a little."""
    import cv2

    style = replace(style or SceneStyle(), distractors=(), touch_chance=0.0, cocked_chance=0.0)
    # A phone held close sees the die from nearby: strong perspective, and the die away from the
    # middle of a wide canvas shows side faces, then the canvas is cut down around it.
    side = 160.0
    canvas = int(side * 5)
    perspective = float(np.random.default_rng([seed, 22]).uniform(1.5, 3.0))
    drawn = side / _scale((canvas, canvas))  # die sizes are given for a 640x480 frame
    style = replace(style, die_size=(drawn, drawn), perspective=perspective)
    scene = render_scene([face], kind=kind, seed=seed, size=(canvas, canvas), style=style)
    die = scene.dice[0]
    top = float(np.linalg.norm(die.quad[0] - die.quad[1]))
    height = min(top / fill, canvas)
    width = min(height * size[0] / size[1], canvas)
    rng = np.random.default_rng([seed, 21])
    centre = np.array(die.center) + rng.uniform(-0.12, 0.12, 2) * height
    x0 = float(np.clip(centre[0] - width / 2, 0, canvas - width))
    y0 = float(np.clip(centre[1] - height / 2, 0, canvas - height))
    scale = np.array([size[0] / width, size[1] / height])
    matrix = np.array([[scale[0], 0, -x0 * scale[0]], [0, scale[1], -y0 * scale[1]]])
    frame = cv2.warpAffine(scene.frame, matrix, size, flags=cv2.INTER_AREA)
    quad = ((die.quad - [x0, y0]) * scale).astype(np.float32)
    centre_out = quad.mean(axis=0)
    truth = replace(die, quad=quad, center=(float(centre_out[0]), float(centre_out[1])))
    return RenderedScene(frame=frame, dice=(truth,))


def _tray_rng(seed: int, style: SceneStyle, stream: int) -> np.random.Generator:
    """Random numbers for the tray itself: from the style's tray seed, else the scene's."""
    return np.random.default_rng([seed if style.tray_seed is None else style.tray_seed, stream])


def _check_faces(faces: Sequence[Face], kind: str) -> list[Face]:
    """The faces as the truth reports them: plain ints 1-6 (numpy ints too) or poker strings."""
    allowed: tuple[Face, ...]
    if kind == "d6":
        allowed = D6_FACES
        faces = [int(f) if isinstance(f, np.integer) else f for f in faces]
    elif kind == "poker":
        allowed = POKER_FACES
        faces = [str(f) for f in faces]
    else:
        raise ValueError(f"kind is 'd6' or 'poker', not {kind!r}")
    bad = [f for f in faces if f not in allowed or isinstance(f, bool | float)]
    if bad:
        raise ValueError(f"{kind} faces are {allowed}; got {bad}")
    return list(faces)


def _other_faces(face: Face, kind: str, rng: np.random.Generator) -> tuple[Face, ...]:
    """The bottom face then the four around, as on a real die (d6 opposite faces sum to 7)."""
    if kind == "d6":
        value = int(face)
        around = [v for v in D6_FACES if v not in (value, 7 - value)]
        first, second = around[0], around[1] if around[1] != 7 - around[0] else around[2]
        ring = [first, second, 7 - first, 7 - second]
        shift = int(rng.integers(4))
        return (7 - value, *ring[shift:], *ring[:shift])
    others = [f for f in POKER_FACES if f != face]
    order = rng.permutation(len(others))
    return tuple(others[i] for i in order)


def _scale(size: Size) -> float:
    return min(size) / 480


def _layout(
    faces: list[Face],
    kind: str,
    rng: np.random.Generator,
    size: Size,
    style: SceneStyle,
    avoid: list[tuple[float, float, float]],
) -> list[_Pose]:
    """Place dice at rest, wholly inside the frame, never overlapping each other nor the circles
    in `avoid` (props); with `style.touch_chance` a die may lie flush against another."""
    width, height = size
    poses: list[_Pose] = []
    for face in faces:
        side = float(rng.uniform(*style.die_size)) * _scale(size)
        yaw = float(rng.uniform(0, 2 * np.pi)) if style.rotation else float(rng.normal(0, 0.03))
        tilt = float(rng.uniform(0.2, 0.4)) if rng.random() < style.cocked_chance else 0.0
        margin = side * (0.8 + 0.3 * style.perspective) + 4
        if width <= 2 * margin or height <= 2 * margin:
            raise ValueError(f"a {side:.0f} px die does not fit a {width}x{height} frame")
        touching = None
        if poses and not tilt and rng.random() < style.touch_chance:
            touching = _touching(poses, side, margin, size, avoid, rng)
        if touching is not None:
            x, y, yaw = touching
        else:
            x, y = _free_spot(poses, side, margin, size, avoid, rng, len(faces), style)
        color = str(rng.choice(list(style.die_colors)))
        poses.append(_Pose(face, x, y, side, yaw, tilt, color, _other_faces(face, kind, rng)))
    return poses


def _free_spot(
    poses: list[_Pose],
    side: float,
    margin: float,
    size: Size,
    avoid: list[tuple[float, float, float]],
    rng: np.random.Generator,
    count: int,
    style: SceneStyle,
) -> tuple[float, float]:
    width, height = size
    for _ in range(2000):
        x, y = rng.uniform(margin, width - margin), rng.uniform(margin, height - margin)
        if _clear(x, y, _reach(side), poses, avoid):
            return float(x), float(y)
    raise ValueError(f"cannot fit {count} dice of {style.die_size} px in {size}")


def _touching(
    poses: list[_Pose],
    side: float,
    margin: float,
    size: Size,
    avoid: list[tuple[float, float, float]],
    rng: np.random.Generator,
) -> tuple[float, float, float] | None:
    """A spot flush against a die lying flat (a hair's gap apart), turned like it; None if no
    such spot is free."""
    width, height = size
    for _ in range(20):
        other = poses[int(rng.integers(len(poses)))]
        if other.tilt:
            continue
        direction = other.yaw + int(rng.integers(4)) * np.pi / 2
        distance = (other.side + side) / 2 + float(rng.uniform(0.5, 2.0))
        x = other.x + np.cos(direction) * distance
        y = other.y + np.sin(direction) * distance
        inside = margin <= x <= width - margin and margin <= y <= height - margin
        rest = [p for p in poses if p is not other]
        if inside and _clear(x, y, _reach(side), rest, avoid):
            return float(x), float(y), other.yaw
    return None


def _clear(
    x: float, y: float, reach: float, poses: list[_Pose], avoid: list[tuple[float, float, float]]
) -> bool:
    away_from_dice = all(np.hypot(x - p.x, y - p.y) >= reach + _reach(p.side) for p in poses)
    return away_from_dice and all(np.hypot(x - cx, y - cy) >= reach + r for cx, cy, r in avoid)


def _reach(side: float) -> float:
    """Radius around a die's centre that its body (with side faces) stays within."""
    return side * 0.76


def _place_distractors(
    rng: np.random.Generator, size: Size, style: SceneStyle
) -> tuple[list[tuple], list[tuple[float, float, float]]]:
    """Props lying near the tray's edges, (kind, parameters...), and circles covering them.

    They depend on the seed and style only, so the empty tray and a roll share them."""
    props: list[tuple] = []
    covered: list[tuple[float, float, float]] = []
    for name in style.distractors:
        (x, y), inward = _edge_point(size, rng)
        depth = float(rng.uniform(0.08, 0.2)) * min(size)
        x, y = x + depth * np.cos(inward), y + depth * np.sin(inward)
        prop, circles = _prop(name, x, y, float(rng.uniform(0, 2 * np.pi)), rng, size)
        props.append(prop)
        covered.extend(circles)
    return props, covered


def _prop(
    name: str, x: float, y: float, angle: float, rng: np.random.Generator, size: Size
) -> tuple[tuple, list[tuple[float, float, float]]]:
    """A prop's drawing parameters and the circles that cover it."""
    scale = _scale(size)
    if name == "coin":
        radius = 30 * scale
        return ("coin", (x, y), radius, bool(rng.random() < 0.5)), [(x, y, radius)]
    if name == "pencil":
        length, width = 260 * scale, 14 * scale
        steps = np.linspace(-0.5, 0.5, 12)[:, None] * length
        points = np.array([x, y]) + steps * [np.cos(angle), np.sin(angle)]
        return ("pencil", (x, y), length, width, angle), [(px, py, width) for px, py in points]
    wrist, inward = _edge_point(size, rng)
    hand_scale = 80 * scale
    direction = np.array([np.cos(inward), np.sin(inward)])
    palm = np.array(wrist) + direction * hand_scale * 1.2
    return ("hand", wrist, inward, hand_scale), [(palm[0], palm[1], hand_scale * 1.6)]


def _edge_point(size: Size, rng: np.random.Generator) -> tuple[tuple[float, float], float]:
    """A point on the frame edge and the angle pointing into the frame from there."""
    width, height = size
    edge = int(rng.integers(4))
    along = float(rng.uniform(0.2, 0.8))
    points = [
        (along * width, 0.0),
        (width, along * height),
        (along * width, height),
        (0.0, along * height),
    ]
    inward = [np.pi / 2, np.pi, -np.pi / 2, 0.0][edge] + float(rng.normal(0, 0.25))
    return points[edge], inward


def _throw_start(size: Size, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """Where the dice enter the frame, and the direction they are thrown in."""
    (x, y), inward = _edge_point(size, rng)
    return np.array([x, y]) + 40 * _scale(size) * np.array([np.cos(inward), np.sin(inward)]), inward


def _tumbling(
    pose: _Pose,
    start: np.ndarray,
    progress: float,
    spin: float,
    tilt: float,
    kind: str,
    rng: np.random.Generator,
) -> _Pose:
    """The die part-way from the throw to its resting pose: spinning, leaning, changing face."""
    eased = 1 - (1 - progress) ** 2
    remaining = 1 - eased
    x = start[0] + (pose.x - start[0]) * eased
    y = start[1] + (pose.y - start[1]) * eased
    faces = D6_FACES if kind == "d6" else POKER_FACES
    face = pose.face if progress > 0.85 else faces[int(rng.integers(len(faces)))]
    others = pose.sides if face == pose.face else _other_faces(face, kind, rng)
    return replace(
        pose,
        face=face,
        x=float(x),
        y=float(y),
        yaw=pose.yaw + spin * remaining,
        tilt=float(tilt * remaining * abs(np.sin(progress * 9))) + pose.tilt,
        sides=others,
    )


def _part_way(before: _Pose, now: _Pose, share: float) -> _Pose:
    """Where a moving die was a short exposure before `now`: `share` of the way back to `before`,
    showing the same face."""
    return replace(
        now,
        x=now.x + (before.x - now.x) * share,
        y=now.y + (before.y - now.y) * share,
        yaw=now.yaw + (before.yaw - now.yaw) * share,
    )


def _throwing_hand(start: np.ndarray, angle: float, progress: float, size: Size) -> tuple:
    """The throwing hand, reaching in early in the roll and pulling back out."""
    reach = 1 - abs(progress - 0.15) / 0.3
    direction = np.array([np.cos(angle), np.sin(angle)])
    wrist = start - direction * (80 - 60 * max(reach, 0)) * _scale(size)
    return ("hand", (float(wrist[0]), float(wrist[1])), angle, 80 * _scale(size))


# --- drawing -------------------------------------------------------------------------------

_FACE_NORMALS = np.array(
    # top, bottom, then the four around: +x, +y, -x, -y (die-local axes; z up)
    [[0, 0, 1], [0, 0, -1], [1, 0, 0], [0, 1, 0], [-1, 0, 0], [0, -1, 0]],
    np.float64,
)
_FACE_AXES = np.array(  # (u, v) texture axes of each face, u x v = normal so none is mirrored
    [
        [[1, 0, 0], [0, 1, 0]],
        [[-1, 0, 0], [0, 1, 0]],
        [[0, -1, 0], [0, 0, -1]],
        [[1, 0, 0], [0, 0, -1]],
        [[0, 1, 0], [0, 0, -1]],
        [[-1, 0, 0], [0, 0, -1]],
    ],
    np.float64,
)


def _rotation(yaw: float, tilt: float) -> np.ndarray:
    cos_t, sin_t = np.cos(tilt), np.sin(tilt)
    lean = np.array([[1, 0, 0], [0, cos_t, -sin_t], [0, sin_t, cos_t]])
    cos_y, sin_y = np.cos(yaw), np.sin(yaw)
    turn = np.array([[cos_y, -sin_y, 0], [sin_y, cos_y, 0], [0, 0, 1]])
    return turn @ lean


class _Camera:
    """A pinhole camera straight above the frame centre; the table plane maps 1:1 to pixels."""

    def __init__(self, size: Size, perspective: float) -> None:
        self.centre = np.array([size[0] / 2, size[1] / 2])
        self.height = max(size) * 2.5 / max(perspective, 1e-3)

    def project(self, points: np.ndarray) -> np.ndarray:
        factor = self.height / (self.height - points[:, 2])
        return self.centre + (points[:, :2] - self.centre) * factor[:, None]

    def position(self) -> np.ndarray:
        return np.array([*self.centre, self.height])


def _die_faces(pose: _Pose) -> list[tuple[Face, np.ndarray, np.ndarray, np.ndarray]]:
    """Each face of the posed cube: value, world normal, world corners (TL, TR, BR, BL), centre."""
    rotation = _rotation(pose.yaw, pose.tilt)
    half = pose.side / 2
    lift = half * (np.abs(np.cos(pose.tilt)) + np.abs(np.sin(pose.tilt)))
    centre = np.array([pose.x, pose.y, lift])
    values = (pose.face, *pose.sides)
    result = []
    for value, normal, (u, v) in zip(values, _FACE_NORMALS, _FACE_AXES, strict=True):
        corners_local = [
            normal * half + (su * u + sv * v) * half
            for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]
        corners = np.array(corners_local) @ rotation.T + centre
        result.append((value, rotation @ normal, corners, centre + rotation @ normal * half))
    return result


def _draw_frame(
    poses: list[_Pose],
    props: list[tuple],
    kind: str,
    seed: int,
    size: Size,
    style: SceneStyle,
    rng: np.random.Generator | None,
    frame_index: int,
    smear_from: Sequence[list[_Pose]] = (),
) -> RenderedScene:
    """Render the tray with `poses` and `props` and pass it through the camera. `smear_from`
    (where the dice were moments earlier) smears moving dice across the exposure."""
    image, truth = _draw_tray(poses, props, kind, seed, size, style)
    for earlier in smear_from:
        image += _draw_tray(earlier, props, kind, seed, size, style)[0]
    image /= 1 + len(smear_from)
    noise_rng = rng if rng is not None else np.random.default_rng([seed, 13, frame_index])
    frame = draw.camera_effects(
        image,
        gradient=style.light_gradient,
        gradient_angle=style.light_angle + np.pi,
        blur=style.blur,
        noise=style.noise,
        rng=noise_rng,
    )
    return RenderedScene(frame=frame, dice=truth)


def _draw_tray(
    poses: list[_Pose], props: list[tuple], kind: str, seed: int, size: Size, style: SceneStyle
) -> tuple[np.ndarray, tuple[TruthDie, ...]]:
    """The tray as light leaves it (float BGR), and the dice's truth; the surface depends on the
    tray only."""
    image = draw.surface(style.surface, size, _tray_rng(seed, style, 7))
    camera = _Camera(size, style.perspective)
    light = np.array([np.cos(style.light_angle), np.sin(style.light_angle), 2.2])
    light /= np.linalg.norm(light)
    looks = np.random.default_rng([seed, 11])
    dice_faces = [_die_faces(pose) for pose in poses]
    for pose, faces in zip(poses, dice_faces, strict=True):
        footprint = camera.project(np.vstack([f[2] for f in faces]))
        offset = -light[:2] * pose.side * 0.35
        draw.shadow(image, footprint, offset, style.shadows)
    for prop in props:
        _draw_prop(image, prop)
    # Dice farther from the image centre first: a nearer die hides the side of a farther one that
    # touches it, as the camera sees them.
    far_first = sorted(range(len(poses)), key=lambda i: -np.hypot(*(poses[i].xy - camera.centre)))
    truth: list[TruthDie | None] = [None] * len(poses)
    for i in far_first:
        truth[i] = _draw_die(image, poses[i], dice_faces[i], kind, camera, light, style, looks)
    return image, tuple(t for t in truth if t is not None)


def _draw_prop(image: np.ndarray, prop: tuple) -> None:
    name, *params = prop
    {"coin": draw.coin, "pencil": draw.pencil, "hand": draw.hand}[name](image, *params)


def _pip_color(style: SceneStyle, die_color: str) -> tuple[int, int, int]:
    if style.pip_color is not None:
        return style.pip_color
    return (30, 28, 28) if np.mean(draw.DIE_COLORS[die_color]) > 120 else (235, 235, 235)


def _draw_die(
    image: np.ndarray,
    pose: _Pose,
    faces: list,
    kind: str,
    camera: _Camera,
    light: np.ndarray,
    style: SceneStyle,
    rng: np.random.Generator,
) -> TruthDie:
    """Draw one die (visible faces, shaded) and return its truth."""
    texture_size = int(np.clip(pose.side * 2, 32, faces_art.TEXTURE))
    mask = faces_art.rounded_square_mask(texture_size)
    body = draw.die_body(pose.color, style.finish, texture_size, rng)
    all_corners = camera.project(np.vstack([f[2] for f in faces]))
    hull = _convex_hull(all_corners)
    shade_body = np.array(draw.DIE_COLORS[pose.color], np.float32) * 0.55
    opacity = 0.8 if style.finish == "translucent" else 1.0
    draw.fill_polygon(image, hull, tuple(shade_body), opacity)
    eye = camera.position()
    top_index = int(np.argmax([f[1][2] for f in faces]))
    visible = [i for i, f in enumerate(faces) if np.dot(f[1], eye - f[3]) > 0]
    visible.sort(key=lambda i: faces[i][3][2])  # lower faces first, the top face last
    for i in visible:
        value, normal, corners, _ = faces[i]
        logo = style.logo if kind == "d6" and value in style.logo_faces else None
        texture = faces_art.face_texture(
            value, kind, body, _pip_color(style, pose.color), texture_size, logo, style.poker_design
        )
        alpha = mask * _face_opacity(texture, body, opacity)
        shade = (0.45 + 0.55 * max(0.0, float(np.dot(normal, light)))) / (0.45 + 0.55 * light[2])
        draw.warp_onto(image, texture * min(shade, 1.1), alpha, camera.project(corners))
    top_quad = _clockwise_from_top_left(camera.project(faces[top_index][2]))
    if style.glare > 0 and rng.random() < 0.6:
        spot = top_quad.mean(axis=0) + rng.uniform(-0.3, 0.3, 2) * pose.side
        draw.glare(image, tuple(spot), pose.side * rng.uniform(0.15, 0.35), style.glare)
    cocked = abs(pose.tilt) > 0.08
    centre = top_quad.mean(axis=0)
    symbol = kind == "d6" and pose.face in style.logo_faces
    return TruthDie(
        pose.face, (float(centre[0]), float(centre[1])), top_quad.astype(np.float32), cocked, symbol
    )


def _face_opacity(texture: np.ndarray, body: np.ndarray, opacity: float) -> np.ndarray | float:
    """Translucent dice let the table through the body but not through pips or ink."""
    if opacity >= 1:
        return 1.0
    ink = np.clip(np.abs(texture - body).max(axis=2) / 60, 0, 1)
    return opacity + (1 - opacity) * ink


def _convex_hull(points: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.convexHull(points.astype(np.float32)).reshape(-1, 2)


def _clockwise_from_top_left(quad: np.ndarray) -> np.ndarray:
    """Order 4 corners clockwise on screen (y down), starting from the one nearest the top-left."""
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    ordered = quad[np.argsort(angles)]
    start = int(np.argmin(ordered.sum(axis=1)))
    return np.roll(ordered, -start, axis=0)
