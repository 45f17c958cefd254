"""Maker's symbols that some dice print in place of the 1 or the 6: a star, a ring around a
letter, a sun, two letters. The reader has to call such a face unreadable, never a value."""

from __future__ import annotations

import math

import cv2
import numpy as np

LOGO_DESIGNS = ("star", "ring", "sun", "letters")


def draw_logo(face: np.ndarray, design: str, color: tuple[int, ...]) -> None:
    """Draw the symbol `design` onto the square texture `face`, in place."""
    if design not in LOGO_DESIGNS:
        raise ValueError(f"a logo design is one of {LOGO_DESIGNS}, not {design!r}")
    size = face.shape[0]
    centre = size / 2
    if design == "star":
        _star(face, centre, size * 0.36, color)
    elif design == "ring":
        cv2.circle(face, _px(centre, centre), round(size * 0.33), color, max(2, size // 20))
        _text(face, "T", centre, size * 0.34, color)
    elif design == "sun":
        cv2.circle(face, _px(centre, centre), round(size * 0.14), color, -1, cv2.LINE_AA)
        for ray in range(8):
            dx, dy = math.cos(ray * math.pi / 4) * size, math.sin(ray * math.pi / 4) * size
            inner = _px(centre + dx * 0.2, centre + dy * 0.2)
            outer = _px(centre + dx * 0.36, centre + dy * 0.36)
            cv2.line(face, inner, outer, color, max(2, size // 24), cv2.LINE_AA)
    else:
        _text(face, "GD", centre, size * 0.6, color)


def _px(x: float, y: float) -> tuple[int, int]:
    return int(round(x)), int(round(y))


def _star(face: np.ndarray, centre: float, radius: float, color: tuple[int, ...]) -> None:
    points = []
    for corner in range(10):
        reach = radius if corner % 2 == 0 else radius * 0.42
        angle = -math.pi / 2 + corner * math.pi / 5
        points.append(_px(centre + math.cos(angle) * reach, centre + math.sin(angle) * reach))
    cv2.fillPoly(face, [np.array(points, np.int32)], color, cv2.LINE_AA)


def _text(face: np.ndarray, text: str, centre: float, box: float, color: tuple[int, ...]) -> None:
    font = cv2.FONT_HERSHEY_DUPLEX
    thickness = max(1, int(round(box * 0.1)))
    (width, height), _ = cv2.getTextSize(text, font, 1.0, thickness)
    scale = min(box / width, box * 0.8 / height)
    (width, height), _ = cv2.getTextSize(text, font, scale, thickness)
    origin = _px(centre - width / 2, centre + height / 2)
    cv2.putText(face, text, origin, font, scale, color, thickness, cv2.LINE_AA)
