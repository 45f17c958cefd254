"""Face textures for rendered dice: pip d6 faces and poker-die faces 9, 10, J, Q, K, A.

Each texture is a square BGR image with an alpha mask (a rounded square), drawn upright; the scene
renderer warps it onto the die face, so the 2, 3 and 6 layouts and the poker art turn with the die.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.synth._draw_logos import draw_logo

TEXTURE = 128  # side of a face texture in pixels
_SHIFT = 4  # sub-pixel bits for cv2 drawing
_ONE = 1 << _SHIFT

# Pip offsets on a 3x3 grid, in units of the grid step, (dx, dy) from the face centre.
PIP_LAYOUTS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}

RED = (40, 30, 200)
BLACK = (35, 30, 30)

# Poker faces: rank colour, art kind, art colour. Two inks on the die, as real poker dice have.
POKER_ART: dict[str, tuple[tuple[int, int, int], str, tuple[int, int, int]]] = {
    "9": (BLACK, "club", BLACK),
    "10": (RED, "diamond", RED),
    "J": (BLACK, "figure", RED),
    "Q": (RED, "heart", RED),
    "K": (BLACK, "crown", RED),
    "A": (BLACK, "spade", BLACK),
}


def rounded_square_mask(size: int = TEXTURE, corner: float = 0.16) -> np.ndarray:
    """Float mask 0..1 of a square with rounded corners, anti-aliased."""
    big = size * 4
    radius = int(big * corner)
    mask = np.zeros((big, big), np.uint8)
    cv2.rectangle(mask, (radius, 0), (big - 1 - radius, big - 1), 255, -1)
    cv2.rectangle(mask, (0, radius), (big - 1, big - 1 - radius), 255, -1)
    for cx in (radius, big - 1 - radius):
        for cy in (radius, big - 1 - radius):
            cv2.circle(mask, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    small = cv2.resize(mask, (size, size), interpolation=cv2.INTER_AREA)
    return small.astype(np.float32) / 255.0


def _pt(x: float, y: float) -> tuple[int, int]:
    return int(round(x * _ONE)), int(round(y * _ONE))


def _disc(img: np.ndarray, x: float, y: float, r: float, color: tuple[int, ...]) -> None:
    cv2.circle(img, _pt(x, y), int(round(r * _ONE)), color, -1, cv2.LINE_AA, _SHIFT)


def _poly(img: np.ndarray, points: list[tuple[float, float]], color: tuple[int, ...]) -> None:
    pts = np.array([_pt(x, y) for x, y in points], np.int32)
    cv2.fillPoly(img, [pts], color, cv2.LINE_AA, _SHIFT)


def draw_pips(face: np.ndarray, value: int, color: tuple[int, ...], pip_scale: float = 1.0) -> None:
    """Draw the pips of `value` (1-6) onto the square texture `face`, in place."""
    if value not in PIP_LAYOUTS:
        raise ValueError(f"a d6 face is 1-6, not {value!r}")
    size = face.shape[0]
    step = size * 0.27
    radius = size * (0.13 if value == 1 else 0.095) * pip_scale
    centre = size / 2
    for dx, dy in PIP_LAYOUTS[value]:
        _disc(face, centre + dx * step, centre + dy * step, radius, color)


def _heart(img: np.ndarray, cx: float, cy: float, s: float, color: tuple[int, ...]) -> None:
    _disc(img, cx - s * 0.26, cy - s * 0.15, s * 0.28, color)
    _disc(img, cx + s * 0.26, cy - s * 0.15, s * 0.28, color)
    _poly(
        img,
        [(cx - s * 0.52, cy - s * 0.06), (cx + s * 0.52, cy - s * 0.06), (cx, cy + s * 0.5)],
        color,
    )


def _spade(img: np.ndarray, cx: float, cy: float, s: float, color: tuple[int, ...]) -> None:
    _disc(img, cx - s * 0.26, cy + s * 0.1, s * 0.27, color)
    _disc(img, cx + s * 0.26, cy + s * 0.1, s * 0.27, color)
    _poly(
        img,
        [(cx - s * 0.52, cy + s * 0.02), (cx + s * 0.52, cy + s * 0.02), (cx, cy - s * 0.5)],
        color,
    )
    _poly(
        img,
        [(cx, cy + s * 0.1), (cx - s * 0.2, cy + s * 0.52), (cx + s * 0.2, cy + s * 0.52)],
        color,
    )


def _club(img: np.ndarray, cx: float, cy: float, s: float, color: tuple[int, ...]) -> None:
    _disc(img, cx, cy - s * 0.24, s * 0.22, color)
    _disc(img, cx - s * 0.25, cy + s * 0.1, s * 0.22, color)
    _disc(img, cx + s * 0.25, cy + s * 0.1, s * 0.22, color)
    _poly(img, [(cx, cy), (cx - s * 0.2, cy + s * 0.52), (cx + s * 0.2, cy + s * 0.52)], color)


def _diamond(img: np.ndarray, cx: float, cy: float, s: float, color: tuple[int, ...]) -> None:
    half_w, half_h = s * 0.36, s * 0.5
    _poly(img, [(cx, cy - half_h), (cx + half_w, cy), (cx, cy + half_h), (cx - half_w, cy)], color)


def _crown(img: np.ndarray, cx: float, cy: float, s: float, color: tuple[int, ...]) -> None:
    w, h = s * 0.5, s * 0.4
    points = [
        (cx - w, cy + h),
        (cx - w, cy - h),
        (cx - w / 2, cy),
        (cx, cy - h * 1.2),
        (cx + w / 2, cy),
        (cx + w, cy - h),
        (cx + w, cy + h),
    ]
    _poly(img, points, color)


def _figure(img: np.ndarray, cx: float, cy: float, s: float, color: tuple[int, ...]) -> None:
    """A court figure's bust: a head over shoulders."""
    _disc(img, cx, cy - s * 0.2, s * 0.2, color)
    _poly(
        img,
        [
            (cx - s * 0.5, cy + s * 0.5),
            (cx - s * 0.3, cy + s * 0.08),
            (cx + s * 0.3, cy + s * 0.08),
            (cx + s * 0.5, cy + s * 0.5),
        ],
        color,
    )


_ART = {
    "heart": _heart,
    "spade": _spade,
    "club": _club,
    "diamond": _diamond,
    "crown": _crown,
    "figure": _figure,
}


def _rank(
    img: np.ndarray, text: str, cx: float, cy: float, box: float, color: tuple[int, ...]
) -> None:
    """Draw `text` centred on (cx, cy), scaled to fit a box of side `box`."""
    font = cv2.FONT_HERSHEY_DUPLEX
    thickness = max(1, int(round(box * 0.12)))
    (w, h), _ = cv2.getTextSize(text, font, 1.0, thickness)
    scale = min(box / w, box * 0.85 / h)
    thickness = max(1, int(round(thickness * min(scale, 1.6) / 1.2)))
    (w, h), _ = cv2.getTextSize(text, font, scale, thickness)
    origin = (int(round(cx - w / 2)), int(round(cy + h / 2)))
    cv2.putText(img, text, origin, font, scale, color, thickness, cv2.LINE_AA)


def draw_poker(face: np.ndarray, value: str) -> None:
    """Draw poker face `value` ("9" "10" "J" "Q" "K" "A") onto the square texture, in place."""
    if value not in POKER_ART:
        raise ValueError(f"a poker face is one of {tuple(POKER_ART)}, not {value!r}")
    rank_color, art, art_color = POKER_ART[value]
    size = face.shape[0]
    _rank(face, value, size * 0.5, size * 0.33, size * 0.42, rank_color)
    _ART[art](face, size * 0.5, size * 0.7, size * 0.38, art_color)


def face_texture(
    face: int | str,
    kind: str,
    die_bgr: np.ndarray,
    pip_color: tuple[int, int, int],
    size: int = TEXTURE,
    logo: str | None = None,
    design: Any = None,
) -> np.ndarray:
    """A BGR texture of one face: `die_bgr` is the body (size x size x 3, e.g. marbled);
    `logo` a maker's symbol drawn instead of the face's pips (vision.synth._draw_logos); `design`
    (a `vision.synth.poker_designs.PokerDesign`) prints poker faces its own way."""
    texture = np.clip(die_bgr, 0, 255).astype(np.uint8)
    if logo is not None:
        draw_logo(texture, logo, pip_color)
    elif kind == "d6":
        draw_pips(texture, int(face), pip_color)
    elif kind == "poker" and design is not None:
        design.draw(texture, str(face))
    elif kind == "poker":
        draw_poker(texture, str(face))
    else:
        raise ValueError(f"kind is 'd6' or 'poker', not {kind!r}")
    return texture.astype(np.float32)
