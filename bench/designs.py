"""Dice designs the shipped reader never saw, for `tabletop bench vision --adapt` and its tests.

* "d6-engraved": a red die with small white pips, each engraved (a dark rim round a lit
  centre), as a maker of "premium" dice prints them.
* "poker-pips": a poker set unlike the project's own: 9 and 10 as card pip patterns (black
  pips for 9, red for 10), J, Q and K as one bust outline in blue, green and red (they differ
  mostly in colour), A as a large spade.

The renderer draws its own designs only; `designed(name)` lends it one of these for the scenes
rendered inside it (the renderer looks its face art up in one module attribute, swapped back on
leaving), so this file adds designs without touching the renderer the other work changes.
"""

from __future__ import annotations

import contextlib
import types
from collections.abc import Iterator

import cv2
import numpy as np

from vision.synth import _draw_faces as faces_art

DESIGNS = {"d6-engraved": "d6", "poker-pips": "poker"}
DESIGN_COLORS = {"d6-engraved": ("red",), "poker-pips": ("ivory", "white")}

_PIP = (230, 230, 230)
_PIP_RIM = (40, 40, 40)
_BLACK = (30, 28, 28)
_RED = (40, 30, 200)
_FIGURES = {"J": (190, 80, 30), "Q": (50, 150, 40), "K": (40, 30, 200)}
# Card pip layouts on a 3 x 4 grid, (column -1..1, row -1.5..1.5): 9 and 10 as cards show them.
_CARD_PIPS = {
    "9": ((-1, -1.5), (-1, -0.5), (-1, 0.5), (-1, 1.5), (0, 0), (1, -1.5), (1, -0.5), (1, 0.5),
          (1, 1.5)),
    "10": ((-1, -1.5), (-1, -0.5), (-1, 0.5), (-1, 1.5), (0, -1), (0, 1), (1, -1.5), (1, -0.5),
           (1, 0.5), (1, 1.5)),
}  # fmt: skip


def _circle(img: np.ndarray, x: float, y: float, r: float, color: tuple[int, ...]) -> None:
    cv2.circle(img, (int(round(x * 16)), int(round(y * 16))), int(round(r * 16)), color, -1,
               cv2.LINE_AA, 4)  # fmt: skip


def engraved_pips(face: np.ndarray, value: int) -> None:
    """Small white pips, each a dark rim round a lit centre."""
    size = face.shape[0]
    step, radius = size * 0.25, size * 0.07
    for dx, dy in faces_art.PIP_LAYOUTS[value]:
        x, y = size / 2 + dx * step, size / 2 + dy * step
        _circle(face, x, y, radius, _PIP_RIM)
        _circle(face, x - radius * 0.15, y - radius * 0.15, radius * 0.7, _PIP)


def poker_pips_face(face: np.ndarray, value: str) -> None:
    size = face.shape[0]
    if value in _CARD_PIPS:
        color = _BLACK if value == "9" else _RED
        for col, row in _CARD_PIPS[value]:
            _circle(face, size * (0.5 + col * 0.24), size * (0.5 + row * 0.2), size * 0.065, color)
    elif value in _FIGURES:
        color = _FIGURES[value]
        cv2.ellipse(face, (size // 2, int(size * 0.36)), (int(size * 0.13), int(size * 0.16)), 0,
                    0, 360, color, max(1, size // 24), cv2.LINE_AA)  # fmt: skip
        shoulders = (
            np.array([[0.2, 0.82], [0.3, 0.56], [0.7, 0.56], [0.8, 0.82]], np.float32) * size
        )
        cv2.polylines(face, [shoulders.astype(np.int32)], False, color, max(1, size // 24),
                      cv2.LINE_AA)  # fmt: skip
    else:  # A: one large spade
        faces_art._ART["spade"](face, size * 0.5, size * 0.5, size * 0.7, _BLACK)


def _texture_of(design: str):  # noqa: ANN202 - the renderer's face_texture signature
    def face_texture(  # this design is drawn here: `logo`, `poker_design` ignored
        face, kind, die_bgr, pip_color, size=faces_art.TEXTURE, logo=None, poker_design=None
    ) -> np.ndarray:
        texture = np.clip(die_bgr, 0, 255).astype(np.uint8)
        if design == "d6-engraved":
            engraved_pips(texture, int(face))
        else:
            poker_pips_face(texture, str(face))
        return texture.astype(np.float32)

    return face_texture


@contextlib.contextmanager
def designed(design: str) -> Iterator[None]:
    """Scenes rendered inside show `design`'s faces."""
    if design not in DESIGNS:
        raise ValueError(f"design is one of {tuple(DESIGNS)}, not {design!r}")
    from vision.synth import render

    lent = types.SimpleNamespace(**vars(faces_art))
    lent.face_texture = _texture_of(design)
    original = render.faces_art
    render.faces_art = lent
    try:
        yield
    finally:
        render.faces_art = original
