"""A second poker-dice renderer written from a description of real dice, used only to evaluate
the reader.

It was written without reading the reader or the renderer the reader was tuned on, so that the
reader can be measured on dice designs nobody tuned on. Every image comes from a design family
and a seed: `design(family, seed)` is one maker's set (fonts, colours, strokes, frames), and each
photo is drawn from that design and a numpy Generator. Dice are cubes seen through a pinhole
camera: near the edge of a tray photo, or off-centre in a close-up, a side face shows as a strip
beside the top face. Bounding boxes are `(x, y, w, h)` of the top face, in pixels.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

FACES: tuple[str, ...] = ("9", "10", "J", "Q", "K", "A")
FAMILIES: tuple[str, ...] = ("pips-figures", "card-letters", "bold-ranks", "coloured-body")

Colour = tuple[int, int, int]  # BGR
Box = tuple[int, int, int, int]  # x, y, w, h
Polygon = np.ndarray  # (n, 2) float, in units of a symbol's size, centred on 0

OPPOSITE = {"9": "10", "10": "9", "J": "Q", "Q": "J", "K": "A", "A": "K"}
LIGHT_BODIES: dict[str, Colour] = {
    "ivory": (200, 234, 246),
    "cream": (172, 220, 240),
    "white": (238, 238, 235),
    "bone": (196, 220, 228),
}
DARK_BODIES: dict[str, Colour] = {
    "red": (38, 36, 168),
    "green": (62, 122, 32),
    "black": (34, 32, 32),
    "blue": (136, 62, 22),
    "wine": (48, 28, 110),
}
INKS: dict[str, Colour] = {
    "black": (28, 28, 30),
    "red": (36, 36, 196),
    "blue": (168, 72, 28),
    "green": (58, 132, 36),
    "purple": (122, 44, 112),
    "orange": (28, 118, 224),
    "navy": (92, 40, 18),
    "brown": (30, 60, 110),
}
LIGHT_INKS: dict[str, Colour] = {"white": (236, 238, 238), "gold": (60, 170, 214)}
FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
)
SHIFT = 4  # sub-pixel bits of OpenCV's drawing calls
ONE = 1 << SHIFT


@dataclass(frozen=True)
class FacePrint:
    """What is printed on one face."""

    kind: str  # "pips", "rank", "figure", "suit"
    ink: Colour
    accent: Colour  # a figure's trim, a rank's corner suits
    suit: str  # the pips', the corners' or the ace's suit
    dots: bool  # pips as round dots rather than suit symbols
    corners: int  # 0, 2 or 4 small corner suits


@dataclass(frozen=True)
class Design:
    """One maker's set of poker dice."""

    family: str
    seed: int
    body: Colour
    gloss: float  # 0 matte .. 1 glossy
    corner: float  # corner radius / side
    edge: float  # width of the rounded edge's shading / side
    font: int
    stroke: float  # stroke width / side
    rank_height: float  # a printed rank's height / side
    frame: bool  # figures in a rectangular frame
    mirrored: bool  # figures drawn twice, head to foot, like a playing card
    prints: tuple[tuple[str, FacePrint], ...]

    def print_of(self, face: str) -> FacePrint:
        return dict(self.prints)[face]


@dataclass(frozen=True)
class Placement:
    """A die lying on the table: its footprint's centre and side (pixels at the table's plane)."""

    centre: tuple[float, float]
    side: float
    angle: float  # degrees

    def footprint(self) -> np.ndarray:
        turn = math.radians(self.angle)
        cos, sin = math.cos(turn), math.sin(turn)
        half = self.side / 2
        corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
        rotation = np.array([[cos, -sin], [sin, cos]])
        return corners @ rotation.T + np.array(self.centre)


@dataclass(frozen=True)
class Camera:
    """A pinhole camera looking straight down from `height` above `centre` (pixels)."""

    centre: tuple[float, float]
    height: float

    def project(self, points: np.ndarray, z: float) -> np.ndarray:
        centre = np.array(self.centre)
        return centre + (points - centre) * self.height / (self.height - z)


# --- designs ---------------------------------------------------------------------------------


def design(family: str, seed: int) -> Design:
    """One maker's set of the family, the same for the same seed."""
    if family not in FAMILIES:
        raise ValueError(f"unknown design family {family!r} (known: {', '.join(FAMILIES)})")
    rng = np.random.default_rng([zlib.crc32(family.encode()), seed])
    dark = family == "coloured-body"
    body = _jitter(rng, _pick(rng, DARK_BODIES if dark else LIGHT_BODIES), 10)
    prints = _FAMILY_PRINTS[family](rng, body)
    return Design(
        family=family,
        seed=seed,
        body=body,
        gloss=float(rng.choice([0.0, rng.uniform(0.2, 0.8)])),
        corner=float(rng.uniform(0.08, 0.22)),
        edge=float(rng.uniform(0.03, 0.08)),
        font=int(rng.choice(FONTS)) | (cv2.FONT_ITALIC if rng.random() < 0.15 else 0),
        stroke=float(
            rng.uniform(0.07, 0.11) if family == "bold-ranks" else rng.uniform(0.03, 0.07)
        ),
        rank_height=float(
            rng.uniform(0.55, 0.75) if family == "bold-ranks" else rng.uniform(0.38, 0.55)
        ),
        frame=bool(rng.random() < 0.7),
        mirrored=bool(rng.random() < 0.3),
        prints=tuple((face, prints[face]) for face in FACES),
    )


def _pips_figures(rng: np.random.Generator, body: Colour) -> dict[str, FacePrint]:
    black, red = _ink(rng, "black"), _ink(rng, "red")
    nine, ten = (black, red) if rng.random() < 0.8 else (red, black)
    dots = bool(rng.random() < 0.5)
    figure_inks = rng.choice([n for n in INKS if n != "navy"], size=3, replace=False)
    accent = _jitter(rng, LIGHT_INKS["gold"], 20) if rng.random() < 0.6 else black
    ace_suit = str(rng.choice(["club", "spade", "heart", "diamond"], p=[0.4, 0.4, 0.1, 0.1]))
    ace_ink = red if ace_suit in ("heart", "diamond") else black
    return {
        "9": FacePrint("pips", nine, nine, _suit_for(rng, nine == red), dots, 0),
        "10": FacePrint("pips", ten, ten, _suit_for(rng, ten == red), dots, 0),
        **{
            face: FacePrint("figure", _ink(rng, str(name)), accent, "spade", False, 0)
            for face, name in zip(("J", "Q", "K"), figure_inks, strict=True)
        },
        "A": FacePrint("suit", ace_ink, ace_ink, ace_suit, False, 0),
    }


def _card_letters(rng: np.random.Generator, body: Colour) -> dict[str, FacePrint]:
    corners = int(rng.choice([2, 4]))
    prints = {}
    for face in FACES:
        red = bool(rng.random() < 0.5)
        ink = _ink(rng, "red" if red else "black")
        prints[face] = FacePrint("rank", ink, ink, _suit_for(rng, red), False, corners)
    return prints


def _bold_ranks(rng: np.random.Generator, body: Colour) -> dict[str, FacePrint]:
    names = list(rng.choice(list(INKS), size=6, replace=True))
    suit = str(rng.choice(["club", "spade", "heart", "diamond"]))
    return {
        face: FacePrint("rank", _ink(rng, str(name)), _ink(rng, str(name)), suit, False, 0)
        for face, name in zip(FACES, names, strict=True)
    }


def _coloured_body(rng: np.random.Generator, body: Colour) -> dict[str, FacePrint]:
    light = LIGHT_INKS if sum(body) < 330 else {**LIGHT_INKS, "black": INKS["black"]}
    first, second = (light[str(name)] for name in rng.choice(list(light), 2, replace=False))
    ink, accent = _jitter(rng, first, 12), _jitter(rng, second, 12)
    numbers = "pips" if rng.random() < 0.5 else "rank"
    court = "figure" if rng.random() < 0.6 else "rank"
    ace_suit = str(rng.choice(["club", "spade", "heart", "diamond"]))
    return {  # the queen in the second ink, so that not all three figures differ by outline only
        "9": FacePrint(numbers, ink, accent, ace_suit, True, 0),
        "10": FacePrint(numbers, ink, accent, ace_suit, True, 0),
        "J": FacePrint(court, ink, accent, ace_suit, False, 0),
        "Q": FacePrint(court, accent, ink, ace_suit, False, 0),
        "K": FacePrint(court, ink, accent, ace_suit, False, 0),
        "A": FacePrint("suit", ink, accent, ace_suit, False, 0),
    }


_FAMILY_PRINTS: dict[str, Callable[[np.random.Generator, Colour], dict[str, FacePrint]]] = {
    "pips-figures": _pips_figures,
    "card-letters": _card_letters,
    "bold-ranks": _bold_ranks,
    "coloured-body": _coloured_body,
}


def _mix(a: Colour, b: Colour) -> Colour:
    return ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2, (a[2] + b[2]) // 2)


def _pick(rng: np.random.Generator, colours: dict[str, Colour]) -> Colour:
    return colours[str(rng.choice(list(colours)))]


def _jitter(rng: np.random.Generator, colour: Colour, spread: int) -> Colour:
    moved = np.clip(np.array(colour) + rng.integers(-spread, spread + 1, 3), 0, 255)
    return (int(moved[0]), int(moved[1]), int(moved[2]))


def _ink(rng: np.random.Generator, name: str) -> Colour:
    return _jitter(rng, INKS[name], 14)


def _suit_for(rng: np.random.Generator, red: bool) -> str:
    return str(rng.choice(["heart", "diamond"] if red else ["club", "spade"]))


# --- symbols ---------------------------------------------------------------------------------


def _circle(x: float, y: float, radius: float, points: int = 40) -> Polygon:
    turns = np.linspace(0, 2 * np.pi, points, endpoint=False)
    return np.stack([x + radius * np.cos(turns), y + radius * np.sin(turns)], axis=1)


def _heart(points: int = 80) -> Polygon:
    t = np.linspace(0, 2 * np.pi, points, endpoint=False)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    return np.stack([x, y - 2.5], axis=1) / 32


SUITS: dict[str, tuple[Polygon, ...]] = {
    "heart": (_heart(),),
    "diamond": (np.array([[0, -0.5], [0.34, 0], [0, 0.5], [-0.34, 0]], float),),
    "spade": (
        _heart() * np.array([1, -0.85]) + np.array([0, -0.06]),
        np.array([[0, 0.1], [0.15, 0.5], [-0.15, 0.5]], float),
    ),
    "club": (
        _circle(0, -0.24, 0.2),
        _circle(-0.23, 0.08, 0.2),
        _circle(0.23, 0.08, 0.2),
        _circle(0, 0.02, 0.12),
        np.array([[0, 0.0], [0.14, 0.5], [-0.14, 0.5]], float),
    ),
}


def _fill_polygons(
    img: np.ndarray,
    polygons: tuple[Polygon, ...] | list[Polygon],
    centre: tuple[float, float],
    size: float,
    colour: Colour,
    upside_down: bool = False,
) -> None:
    sign = -1.0 if upside_down else 1.0
    for polygon in polygons:
        points = (polygon * size * sign + np.array(centre)) * ONE
        cv2.fillPoly(img, [np.round(points).astype(np.int32)], colour, cv2.LINE_AA, SHIFT)


def _fill(img: np.ndarray, polygon: Polygon, colour: Colour) -> None:
    """Fills a polygon given in the image's pixels."""
    _fill_polygons(img, (polygon,), (0, 0), 1, colour)


def _suit(
    img: np.ndarray,
    suit: str,
    centre: tuple[float, float],
    size: float,
    colour: Colour,
    upside_down: bool = False,
) -> None:
    _fill_polygons(img, SUITS[suit], centre, size, colour, upside_down)


# --- faces -----------------------------------------------------------------------------------

NINE = [(x, y) for x in (0.29, 0.71) for y in (0.19, 0.397, 0.603, 0.81)] + [(0.5, 0.5)]
TEN = NINE[:-1] + [(0.5, 0.3), (0.5, 0.7)]


def _draw_pips(img: np.ndarray, design: Design, face: str, paint: FacePrint) -> None:
    side = img.shape[0]
    size = side * (0.16 if face == "9" else 0.15)
    for x, y in NINE if face == "9" else TEN:
        centre = (x * side, y * side)
        if paint.dots:
            _fill_polygons(img, (_circle(0, 0, 0.42),), centre, size, paint.ink)
        else:
            _suit(img, paint.suit, centre, size, paint.ink, upside_down=y > 0.55)


def _draw_rank(img: np.ndarray, design: Design, face: str, paint: FacePrint) -> None:
    side = img.shape[0]
    box = (0.5 * side, 0.5 * side, 0.62 * side, design.rank_height * side)
    if face == "A" and paint.corners == 0 and design.family == "bold-ranks":
        box = (0.5 * side, 0.42 * side, 0.5 * side, design.rank_height * side * 0.8)
        _suit(img, paint.suit, (0.5 * side, 0.82 * side), 0.2 * side, paint.accent)
    _text(img, face, box, design.font, design.stroke * side, paint.ink)
    if paint.corners:
        _corner_suits(img, paint)


def _corner_suits(img: np.ndarray, paint: FacePrint) -> None:
    side = img.shape[0]
    spots = [(0.17, 0.17)] + ([(0.83, 0.17)] if paint.corners == 4 else [])
    for _ in range(2):  # draw, turn the face over, draw the opposite corners
        for x, y in spots:
            _suit(img, paint.suit, (x * side, y * side), 0.15 * side, paint.accent)
        img[:] = cv2.rotate(img, cv2.ROTATE_180)


def _text(
    img: np.ndarray,
    text: str,
    box: tuple[float, float, float, float],
    font: int,
    stroke: float,
    colour: Colour,
) -> None:
    """`text` as large as fits the box (centre x, centre y, width, height)."""
    thickness = max(1, round(stroke))
    (width, height), _ = cv2.getTextSize(text, font, 1.0, thickness)
    scale = min(box[2] / width, box[3] / height)
    thickness = max(1, round(stroke * min(1.0, scale / 2)))  # thinner strokes for small text
    (width, height), _ = cv2.getTextSize(text, font, scale, thickness)
    origin = (round(box[0] - width / 2), round(box[1] + height / 2))
    cv2.putText(img, text, origin, font, scale, colour, thickness, cv2.LINE_AA)


def _draw_suit_face(img: np.ndarray, design: Design, face: str, paint: FacePrint) -> None:
    side = img.shape[0]
    _suit(img, paint.suit, (0.5 * side, 0.5 * side), 0.62 * side, paint.ink)


def _draw_figure(img: np.ndarray, design: Design, face: str, paint: FacePrint) -> None:
    side = img.shape[0]
    margin = int(side * (0.15 if design.frame else 0.1))
    x0, y0, x1, y1 = margin, margin, side - margin, side - margin
    thickness = max(1, round(design.stroke * side * 0.6))
    if design.frame:
        cv2.rectangle(img, (x0, y0), (x1, y1), paint.ink, thickness, cv2.LINE_AA)
        x0, y0, x1, y1 = x0 + thickness, y0 + thickness, x1 - thickness, y1 - thickness
    if not design.mirrored:
        _bust(img[y0:y1, x0:x1], face, paint, thickness, design.body)
        return
    half = (y1 - y0) // 2
    top = img[y0 : y0 + half, x0:x1]
    _bust(top, face, paint, thickness, design.body)
    img[y0 + half : y0 + 2 * half, x0:x1] = cv2.rotate(top, cv2.ROTATE_180)
    if design.frame:
        cv2.line(img, (x0, y0 + 2 * half), (x1, y0), paint.ink, max(1, thickness // 2), cv2.LINE_AA)


def _bust(img: np.ndarray, face: str, paint: FacePrint, thickness: int, body: Colour) -> None:
    """A king's, queen's or jack's bust filling `img`, in the face's ink."""
    height, width = img.shape[:2]
    tall = height / 1.05
    wide = float(np.clip(width * 0.95, 0.75 * tall, 1.9 * tall))
    unit = min(wide, tall)

    def at(u: float, v: float) -> tuple[float, float]:
        return (width / 2 + (u - 0.5) * wide, height - (1.0 - v) * tall)

    skin = _mix(body, (190, 210, 235))
    shoulders = _ellipse(at(0.5, 1.0), 0.44 * unit, 0.36 * unit, 180, 360)
    _fill(img, shoulders, paint.ink)
    collar = np.array([at(0.36, 0.66), at(0.5, 0.86), at(0.64, 0.66)])
    _polyline(img, collar, paint.accent, thickness)
    if face == "Q":
        _fill(img, _ellipse(at(0.5, 0.5), 0.22 * unit, 0.27 * unit), paint.ink)
    head = _ellipse(at(0.5, 0.46), 0.14 * unit, 0.17 * unit)
    _fill(img, head, skin)
    _polyline(img, head, paint.ink, max(1, thickness // 2), closed=True)
    for u in (0.45, 0.55):
        _fill(img, _circle(*at(u, 0.44), 0.018 * unit), paint.ink)
    _HEADGEAR[face](img, at, unit, paint, thickness)


def _crown(img: np.ndarray, at: Callable, unit: float, paint: FacePrint, thickness: int) -> None:
    points = [
        (0.34, 0.31),
        (0.33, 0.1),
        (0.42, 0.2),
        (0.5, 0.06),
        (0.58, 0.2),
        (0.67, 0.1),
        (0.66, 0.31),
    ]
    crown = np.array([at(u, v) for u, v in points])
    _fill(img, crown, paint.accent)
    _polyline(img, crown, paint.ink, max(1, thickness // 2), closed=True)
    beard = np.array([at(0.38, 0.52), at(0.5, 0.72), at(0.62, 0.52), at(0.5, 0.6)])
    _fill(img, beard, paint.ink)


def _tiara(img: np.ndarray, at: Callable, unit: float, paint: FacePrint, thickness: int) -> None:
    band = _ellipse(at(0.5, 0.31), 0.15 * unit, 0.05 * unit, 180, 360)
    _polyline(img, band, paint.accent, thickness)
    for u, v in ((0.38, 0.26), (0.5, 0.2), (0.62, 0.26)):
        _fill(img, _circle(*at(u, v), 0.035 * unit), paint.accent)


def _cap(img: np.ndarray, at: Callable, unit: float, paint: FacePrint, thickness: int) -> None:
    cap = _ellipse(at(0.46, 0.3), 0.2 * unit, 0.08 * unit, 0, 360, tilt=-12)
    _fill(img, cap, paint.ink)
    feather = np.array([at(0.6, 0.27), at(0.7, 0.18), at(0.78, 0.08)])
    _polyline(img, feather, paint.accent, thickness)


_HEADGEAR: dict[str, Callable[[np.ndarray, Callable, float, FacePrint, int], None]] = {
    "K": _crown,
    "Q": _tiara,
    "J": _cap,
}


def _ellipse(
    centre: tuple[float, float],
    a: float,
    b: float,
    start: float = 0,
    end: float = 360,
    tilt: float = 0,
) -> Polygon:
    turns = np.radians(np.linspace(start, end, 48))
    x, y = a * np.cos(turns), b * np.sin(turns)
    cos, sin = math.cos(math.radians(tilt)), math.sin(math.radians(tilt))
    return np.stack([centre[0] + x * cos - y * sin, centre[1] + x * sin + y * cos], axis=1)


def _polyline(
    img: np.ndarray, points: np.ndarray, colour: Colour, thickness: int, closed: bool = False
) -> None:
    fixed = np.round(np.asarray(points) * ONE).astype(np.int32)
    cv2.polylines(img, [fixed], closed, colour, thickness, cv2.LINE_AA, SHIFT)


_DRAW: dict[str, Callable[[np.ndarray, Design, str, FacePrint], None]] = {
    "pips": _draw_pips,
    "rank": _draw_rank,
    "figure": _draw_figure,
    "suit": _draw_suit_face,
}


def _printed_face(design: Design, face: str, side: int) -> np.ndarray:
    """The face's print on its body colour, flat and square, uint8."""
    if face not in FACES:
        raise ValueError(f"unknown poker face {face!r} (faces: {', '.join(FACES)})")
    img = np.full((side, side, 3), design.body, np.uint8)
    paint = design.print_of(face)
    _DRAW[paint.kind](img, design, face, paint)
    return img


def _rounded_mask(side: int, corner: float) -> np.ndarray:
    fine = side * int(np.clip(1024 // side, 1, 4))
    mask = np.zeros((fine, fine), np.uint8)
    radius = max(1, int(corner * fine))
    big = fine - 1
    cv2.rectangle(mask, (radius, 0), (big - radius, big), 255, -1)
    cv2.rectangle(mask, (0, radius), (big, big - radius), 255, -1)
    for x in (radius, big - radius):
        for y in (radius, big - radius):
            cv2.circle(mask, (x, y), radius, 255, -1, cv2.LINE_AA)
    return cv2.resize(mask, (side, side), interpolation=cv2.INTER_AREA).astype(np.float32) / 255


def _die_texture(
    design: Design, face: str, side: int, rng: np.random.Generator, light: float = 1.0
) -> tuple[np.ndarray, np.ndarray]:
    """A face of the die as it is lit (float BGR) and its rounded outline (alpha), `side` px."""
    fine = int(np.clip(side * 3, 96, 2048))
    colour = _printed_face(design, face, fine).astype(np.float32)
    alpha = _rounded_mask(fine, design.corner)
    body = cv2.copyMakeBorder((alpha > 0.5).astype(np.uint8), 1, 1, 1, 1, cv2.BORDER_CONSTANT)
    inside = cv2.distanceTransform(body, cv2.DIST_L2, 3)[1:-1, 1:-1]  # to the outline, not the edge
    falloff = np.clip(inside / max(1.0, design.edge * fine), 0, 1)
    colour *= (light * (0.72 + 0.28 * np.sqrt(falloff)))[..., None]
    if design.gloss > 0 and light >= 1.0:
        colour += _highlight(fine, design.gloss, rng)[..., None]
    colour = cv2.resize(colour, (side, side), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(alpha, (side, side), interpolation=cv2.INTER_AREA)
    return colour, alpha


def _highlight(side: int, gloss: float, rng: np.random.Generator) -> np.ndarray:
    yy, xx = np.mgrid[0:64, 0:64].astype(np.float32) / 64
    x, y = rng.uniform(0.15, 0.85, 2)
    spread = rng.uniform(0.06, 0.18)
    spot = (gloss * rng.uniform(25, 80)) * np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / spread**2)
    return cv2.resize(spot, (side, side), interpolation=cv2.INTER_LINEAR)


def face_image(design: Design, face: str, side_px: int, rng: np.random.Generator) -> np.ndarray:
    """The top face seen from straight above, `side_px` square, BGR uint8, on a dark table."""
    colour, alpha = _die_texture(design, face, side_px, rng)
    table = np.array(rng.integers(20, 90, 3), np.float32)
    blended = colour * alpha[..., None] + table * (1 - alpha[..., None])
    return np.clip(blended, 0, 255).astype(np.uint8)


# --- dice in a scene -------------------------------------------------------------------------


def _paste(img: np.ndarray, colour: np.ndarray, alpha: np.ndarray, quad: np.ndarray) -> None:
    """Warps a texture onto the quad (its corners clockwise from its top left) of `img`."""
    height, width = img.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if x1 <= x0 or y1 <= y0:
        return
    side = colour.shape[0]
    source = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32) - 0.5
    target = (quad - np.array([x0, y0])).astype(np.float32)
    warp = cv2.getPerspectiveTransform(source, target)
    size = (x1 - x0, y1 - y0)
    moved = cv2.warpPerspective(colour, warp, size, flags=cv2.INTER_LINEAR)
    cover = cv2.warpPerspective(alpha, warp, size, flags=cv2.INTER_LINEAR)
    region = img[y0:y1, x0:x1]
    region[:] = cv2.blendLinear(moved, region, cover, 1 - cover)


def _adjacent(face: str, rng: np.random.Generator) -> list[str]:
    around = [f for f in FACES if f not in (face, OPPOSITE[face])]
    return [str(f) for f in rng.permutation(around)]


def _draw_die(
    img: np.ndarray,
    design: Design,
    face: str,
    place: Placement,
    camera: Camera,
    rng: np.random.Generator,
) -> Box:
    """Draws the die (its visible sides, then its top) and returns its top face's box."""
    foot = place.footprint()
    top = camera.project(foot, place.side)
    top_side = int(np.ceil(np.linalg.norm(top[1] - top[0]))) + 1
    centre = np.array(camera.centre)
    for index, other in enumerate(_adjacent(face, rng)):
        a, b = foot[index], foot[(index + 1) % 4]
        outward = (a + b) / 2 - np.array(place.centre)
        if float(np.dot(outward, centre - (a + b) / 2)) <= 0:
            continue
        quad = np.array([top[index], top[(index + 1) % 4], b, a])
        strip = int(np.ceil(np.linalg.norm(quad[0] - quad[3])))
        if strip < 1:
            continue
        light = float(rng.uniform(0.6, 0.85))
        colour, alpha = _die_texture(design, other, top_side, rng, light)
        _paste(img, colour, alpha, quad)
    colour, alpha = _die_texture(design, face, top_side, rng)
    _paste(img, colour, alpha, top)
    x0, y0 = np.floor(top.min(axis=0)).astype(int)
    x1, y1 = np.ceil(top.max(axis=0)).astype(int)
    return (int(x0), int(y0), int(x1 - x0), int(y1 - y0))


def _shadow(
    img: np.ndarray, place: Placement, offset: np.ndarray, blur: float, strength: float
) -> None:
    height, width = img.shape[:2]
    pad = int(3 * blur + place.side)
    cx, cy = (np.array(place.centre) + offset).astype(int)
    x0, y0 = max(cx - pad, 0), max(cy - pad, 0)
    x1, y1 = min(cx + pad, width), min(cy + pad, height)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    corners = (place.footprint() + offset - np.array([x0, y0])) * ONE
    cv2.fillPoly(mask, [np.round(corners).astype(np.int32)], 1.0, cv2.LINE_AA, SHIFT)
    mask = _wide_blur(mask, max(blur, 0.5))
    img[y0:y1, x0:x1] *= (1 - strength * mask)[..., None]


def _wide_blur(img: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur, done on a shrunk copy when it is wide (the same look, far faster)."""
    shrink = max(1.0, sigma / 4)
    if shrink == 1.0:
        return cv2.GaussianBlur(img, (0, 0), sigma)
    height, width = img.shape[:2]
    small_size = (max(1, round(width / shrink)), max(1, round(height / shrink)))
    small = cv2.resize(img, small_size, interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / shrink)
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)


def _footprint_side(top_px: float, camera_height: float) -> float:
    """The footprint side of a die whose top face is seen `top_px` across."""
    return top_px * camera_height / (camera_height + top_px)


# --- trays -----------------------------------------------------------------------------------


def place_dice(
    rng: np.random.Generator,
    count: int,
    camera: Camera,
    size: tuple[int, int],
    die_px: tuple[int, int],
) -> list[Placement]:
    """Where `count` dice lie: inside the frame (sides included), touching at most."""
    placed: list[Placement] = []
    set_px = rng.uniform(*die_px)  # one set: every die the same size
    for _ in range(count * 400):
        if len(placed) == count:
            return placed
        seen_px = float(np.clip(set_px * rng.uniform(0.97, 1.03), *die_px))
        side = _footprint_side(seen_px, camera.height)
        candidate = _touching(rng, placed, side) if placed and rng.random() < 0.3 else None
        if candidate is None:
            centre = (rng.uniform(0, size[0]), rng.uniform(0, size[1]))
            candidate = Placement(centre, side, float(rng.uniform(0, 90)))
        if _in_frame(candidate, camera, size) and not any(_overlap(candidate, p) for p in placed):
            placed.append(candidate)
    raise ValueError(f"{count} dice of {die_px} px do not fit in a {size} tray")


def _touching(rng: np.random.Generator, placed: list[Placement], side: float) -> Placement:
    other = placed[int(rng.integers(len(placed)))]
    turn = math.radians(other.angle + 90 * int(rng.integers(4)))
    along = rng.uniform(-0.3, 0.3) * other.side
    distance = (other.side + side) / 2 + rng.uniform(0.0, 1.5)
    dx, dy = math.cos(turn), math.sin(turn)
    centre = (
        other.centre[0] + dx * distance - dy * along,
        other.centre[1] + dy * distance + dx * along,
    )
    return Placement(centre, side, other.angle + float(rng.uniform(-1, 1)))


def _in_frame(place: Placement, camera: Camera, size: tuple[int, int]) -> bool:
    corners = np.vstack([place.footprint(), camera.project(place.footprint(), place.side)])
    return bool(corners.min() >= 2 and (corners.max(axis=0) <= np.array(size) - 3).all())


def overlap_area(a: Placement, b: Placement) -> float:
    """The area the two footprints share (pixels)."""
    rects = [(p.centre, (p.side, p.side), p.angle) for p in (a, b)]
    kind, points = cv2.rotatedRectangleIntersection(*rects)
    if kind == cv2.INTERSECT_NONE or points is None:
        return 0.0
    return float(cv2.contourArea(cv2.convexHull(points)))


def _overlap(a: Placement, b: Placement) -> bool:
    return overlap_area(a, b) > 0.01 * min(a.side, b.side) ** 2


TABLES = ("felt", "blue", "black", "wood", "grey")


def tray(
    design: Design,
    faces: list[str],
    rng: np.random.Generator,
    size: tuple[int, int] = (640, 480),
    die_px: tuple[int, int] = (40, 90),
) -> tuple[np.ndarray, list[tuple[str, Box]]]:
    """The table camera's photo of dice showing `faces` in a tray, and each die's face and box.

    `size` is (width, height). The camera's view is up to 15-30 degrees off vertical at the
    frame's corners, so dice there show a side."""
    for face in faces:
        _printed_face(design, face, 8)  # refuses an unknown face before drawing anything
    width, height = size
    tilt = math.radians(rng.uniform(15, 30))
    principal = (width / 2 + rng.uniform(-20, 20), height / 2 + rng.uniform(-15, 15))
    camera = Camera(principal, math.hypot(width, height) / 2 / math.tan(tilt))
    img = _table(str(rng.choice(TABLES)), height, width, rng)
    places = place_dice(rng, len(faces), camera, size, die_px)
    light = rng.normal(0, 1, 2)
    for place in places:
        _shadow(img, place, light * place.side * 0.08, place.side * 0.12, rng.uniform(0.3, 0.6))
    order = sorted(range(len(places)), key=lambda i: -_distance(places[i].centre, principal))
    boxes: dict[int, Box] = {}
    for index in order:
        boxes[index] = _draw_die(img, design, faces[index], places[index], camera, rng)
    img = _light_spot(img, rng)
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.0))  # the lens
    photo = _sensor(img, rng, noise=(2.0, 6.0), quality=(55, 92))
    return photo, [(face, boxes[i]) for i, face in enumerate(faces)]


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _smooth_noise(height: int, width: int, cells: int, rng: np.random.Generator) -> np.ndarray:
    grid = rng.standard_normal((cells, max(2, cells * width // max(height, 1)))).astype(np.float32)
    return cv2.resize(grid, (width, height), interpolation=cv2.INTER_CUBIC)


def _table(kind: str, height: int, width: int, rng: np.random.Generator) -> np.ndarray:
    if kind == "wood":
        img = _wood(height, width, rng)
    else:
        base = {
            "felt": (48, 104, 36),
            "blue": (92, 44, 22),
            "black": (28, 28, 28),
            "grey": (112, 112, 108),
        }[kind]
        tone = np.array(_jitter(rng, base, 14), np.float32)
        small = (max(8, height // 4), max(8, width // 4))
        surface = tone + 10 * _smooth_noise(*small, 5, rng)[..., None]
        img = cv2.resize(surface, (width, height), interpolation=cv2.INTER_LINEAR)
    grain = cv2.GaussianBlur(rng.standard_normal((height, width), np.float32), (0, 0), 0.8)
    img += (6 if kind == "felt" else 3) * grain[..., None]
    if rng.random() < 0.5:
        img = _tray_rim(img, rng)
    return img


def _wood(height: int, width: int, rng: np.random.Generator) -> np.ndarray:
    """Planks: thin dark grain lines 5-25 px apart, wavering slowly, turned at random."""
    side = int(math.hypot(height, width)) + 2
    across = np.mgrid[0:side, 0:side][0].astype(np.float32)  # the grain runs along x here
    period = rng.uniform(5, 25)
    warp = period * rng.uniform(0.5, 2) * _stretched_noise(side, (8, 2), rng)
    lines = (0.5 + 0.5 * np.sin(2 * np.pi * (across + warp) / period)) ** rng.uniform(2, 6)
    strength = np.clip(0.6 + 0.5 * _stretched_noise(side, (24, 3), rng), 0.1, 1)
    light = np.array(_jitter(rng, (70, 132, 192), 18), np.float32)
    dark = light * rng.uniform(0.55, 0.8)
    tone = 1 + 0.06 * _stretched_noise(side, (4, 2), rng)
    wood = (light - (light - dark) * (lines * strength)[..., None]) * tone[..., None]
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), float(rng.uniform(0, 180)), 1.0)
    turned = cv2.warpAffine(wood, turn, (side, side), borderMode=cv2.BORDER_REFLECT)
    top, left = (side - height) // 2, (side - width) // 2
    return turned[top : top + height, left : left + width]


def _stretched_noise(side: int, cells: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Smooth noise with `cells` (rows, columns) of detail over a square."""
    grid = rng.standard_normal(cells).astype(np.float32)
    return cv2.resize(grid, (side, side), interpolation=cv2.INTER_CUBIC)


def _tray_rim(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    height, width = img.shape[:2]
    rim = int(rng.uniform(8, 40))
    inside = np.zeros((height, width), np.float32)
    cv2.rectangle(inside, (rim, rim), (width - rim, height - rim), 1.0, -1)
    inside = cv2.GaussianBlur(inside, (0, 0), 3)[..., None]
    return img * (inside + (1 - inside) * rng.uniform(0.5, 1.4))


def _light_spot(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    height, width = img.shape[:2]
    scale = 96 / max(width, height)
    yy, xx = np.mgrid[0 : max(2, round(height * scale)), 0 : max(2, round(width * scale))]
    x, y = rng.uniform(0, width * scale), rng.uniform(0, height * scale)
    spread = rng.uniform(0.3, 0.7) * 96
    spot = np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / (2 * spread**2)).astype(np.float32)
    gain = rng.uniform(0.75, 0.95) + rng.uniform(0.1, 0.4) * spot
    gain = cv2.resize(gain.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)
    return cv2.multiply(img, cv2.merge([gain, gain, gain]))


def _sensor(
    img: np.ndarray, rng: np.random.Generator, noise: tuple[float, float], quality: tuple[int, int]
) -> np.ndarray:
    """Sensor noise and JPEG compression."""
    grain = np.empty_like(img)
    cv2.setRNGSeed(int(rng.integers(2**31)))
    cv2.randn(grain, (0.0, 0.0, 0.0), (rng.uniform(*noise),) * 3)
    photo = np.clip(cv2.add(img, grain), 0, 255).astype(np.uint8)
    level = int(rng.integers(quality[0], quality[1] + 1))
    _, jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, level])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


# --- close-ups -------------------------------------------------------------------------------

BACKGROUNDS = ("board", "wood", "cloth", "hand")


SCENE_MAX_PX = 1600  # larger close-ups are drawn at this size, then enlarged as a phone would


def close_up(
    design: Design, face: str, rng: np.random.Generator, size_px: int, fill: float
) -> np.ndarray:
    """A player's photo of one die: `size_px` its longer side (4:3, 3:4 or square), the top face
    `fill` of its shorter side across, slightly off vertical, on a board, a table, a cloth or a
    hand."""
    if not 0.05 <= fill <= 1.0:
        raise ValueError(f"fill {fill} is not a share of the photo (0.05 to 1)")
    _printed_face(design, face, 8)
    height, width = _photo_shape(size_px, rng)
    shrink = min(1.0, SCENE_MAX_PX / size_px)
    scene = _close_scene(design, face, rng, (round(height * shrink), round(width * shrink)), fill)
    scene = cv2.GaussianBlur(scene, (0, 0), rng.uniform(0.3, 1.0))
    if shrink < 1.0:
        scene = cv2.resize(scene, (width, height), interpolation=cv2.INTER_CUBIC)
    return _sensor(scene, rng, noise=(1.5, 5.0), quality=(70, 95))


def _close_scene(
    design: Design, face: str, rng: np.random.Generator, shape: tuple[int, int], fill: float
) -> np.ndarray:
    height, width = shape
    short = min(width, height)
    camera_height = short * rng.uniform(1.0, 1.6)
    slack = (1 - fill) * short / 2
    seen = np.array([width / 2, height / 2]) + rng.uniform(-0.6, 0.6, 2) * slack
    tilt = math.radians(rng.uniform(0, 10))
    direction = rng.normal(0, 1, 2)
    direction /= np.linalg.norm(direction) + 1e-9
    side = _footprint_side(fill * short, camera_height)
    scale = camera_height / (camera_height - side)
    principal = seen - direction * camera_height * math.tan(tilt) * scale
    camera = Camera((float(principal[0]), float(principal[1])), camera_height)
    centre = principal + (seen - principal) / scale
    place = Placement((float(centre[0]), float(centre[1])), side, float(rng.uniform(0, 360)))
    background = str(rng.choice(BACKGROUNDS))
    img = _close_background(background, height, width, rng)
    top = camera.project(place.footprint(), place.side)
    hand = _jitter(rng, SKIN[int(rng.integers(len(SKIN)))], 12)
    if background == "hand":
        _palm(img, top, hand, rng)
    offset = rng.normal(0, 1, 2) * side * 0.12
    _shadow(img, place, offset, side * rng.uniform(0.08, 0.25), rng.uniform(0.25, 0.55))
    _draw_die(img, design, face, place, camera, rng)
    if background == "hand":
        _thumb(img, top, hand, rng)
    return _light_spot(img, rng)


def _photo_shape(size_px: int, rng: np.random.Generator) -> tuple[int, int]:
    if size_px < 16:
        raise ValueError(f"a close-up of {size_px} px is too small (16 px at least)")
    aspect = float(rng.choice([1.0, 0.75, 0.75]))
    short = max(16, round(size_px * aspect))
    return (size_px, short) if rng.random() < 0.5 else (short, size_px)


def _close_background(kind: str, height: int, width: int, rng: np.random.Generator) -> np.ndarray:
    small = (max(8, min(height, 480)), max(8, min(width, 480)))
    if kind == "board":
        tone = np.array(_jitter(rng, (232, 234, 234), 12), np.float32)
        surface = tone + 6 * _smooth_noise(*small, 3, rng)[..., None]
    elif kind == "wood":
        surface = _wood(*small, rng)
    elif kind == "cloth":
        surface = _cloth(*small, rng)
    else:
        surface = (
            np.array(_jitter(rng, (120, 120, 120), 60), np.float32)
            + 25 * _smooth_noise(*small, 3, rng)[..., None]
        )
    return cv2.resize(surface.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)


def _cloth(height: int, width: int, rng: np.random.Generator) -> np.ndarray:
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    period = rng.uniform(2.5, 6)
    weave = np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period)
    folds = _smooth_noise(height, width, 3, rng)
    tone = np.array(_jitter(rng, tuple(int(v) for v in rng.integers(40, 220, 3)), 0), np.float32)
    return tone * (1 + 0.12 * folds[..., None]) + 8 * weave[..., None]


SKIN = ((150, 180, 225), (120, 160, 205), (80, 120, 170), (60, 90, 130))


def _palm(img: np.ndarray, top: np.ndarray, tone: Colour, rng: np.random.Generator) -> None:
    """A hand under the die (`top`: its top face's corners in the photo)."""
    cx, cy = top.mean(axis=0)
    side = float(np.linalg.norm(top[1] - top[0]))
    reach = side * rng.uniform(0.9, 1.3)
    tilt = float(rng.uniform(-30, 30))
    _skin(img, _ellipse((cx, cy + side * 0.3), reach, reach * 0.9, tilt=tilt), tone)


def _thumb(img: np.ndarray, top: np.ndarray, tone: Colour, rng: np.random.Generator) -> None:
    """A thumb over one edge of the die's top face, covering a sliver of it."""
    edge = int(rng.integers(4))
    middle = (top[edge] + top[(edge + 1) % 4]) / 2
    outward = middle - top.mean(axis=0)
    tip = middle + outward * rng.uniform(0.55, 0.75)
    along = math.degrees(math.atan2(outward[1], outward[0]))
    side = float(np.linalg.norm(top[1] - top[0]))
    _skin(img, _ellipse((float(tip[0]), float(tip[1])), side * 0.35, side * 0.17, tilt=along), tone)


def _skin(img: np.ndarray, outline: Polygon, tone: Colour) -> None:
    """Skin filling the outline, darker towards its rim as a rounded finger or palm is."""
    height, width = img.shape[:2]
    x0, y0 = np.maximum(np.floor(outline.min(axis=0)).astype(int) - 2, 0)
    x1, y1 = np.minimum(np.ceil(outline.max(axis=0)).astype(int) + 2, [width, height])
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    _fill(mask, outline - np.array([x0, y0]), (1, 1, 1))
    rounded = _wide_blur(mask, 0.15 * min(mask.shape))
    colour = np.array(tone, np.float32) * (0.7 + 0.35 * rounded)[..., None]
    cover = cv2.GaussianBlur(mask, (0, 0), 0.8)
    region = img[y0:y1, x0:x1]
    region[:] = cv2.blendLinear(colour, region, cover, 1 - cover)
