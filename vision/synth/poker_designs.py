"""Rendered poker-dice designs of the kinds real makers print, each with many random variants.

No two makers print poker dice alike. Three kinds are drawn here, on the ivory or white body the
renderer gives:

- "pips": 9 and 10 as pip patterns in card layouts (black pips for 9, red for 10; round or suit
  shaped), J, Q and K as coloured figures (blue, green, red in some order) that differ mostly in
  colour and outline (cap, tiara, crown), A as one large club or spade;
- "figures": 9 and 10 as large coloured numerals, J, Q, K as figures filling the face, A a suit;
- "letters": the playing-card kind, a large rank letter with its suit in two corners (or
  over a large suit).

    design = PokerDesign.random(np.random.default_rng(4), "pips")
    style = replace(SceneStyle.random(rng, "poker"), poker_design=design)
    scene = render_scene(["9", "A"], kind="poker", style=style)

Tests and benches teach the reader from designs the shipped profile never saw, and read them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth import _draw_faces as art

Colour = tuple[int, int, int]
DESIGN_KINDS = ("pips", "figures", "letters")
FACES = ("9", "10", "J", "Q", "K", "A")
_FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
)
_SUITS = ("spade", "heart", "club", "diamond")
_RED_SUITS = ("heart", "diamond")
# Pip places, (x, y) as fractions of the face: card layouts and dice-like grids.
_NINE_LAYOUTS = (
    tuple((x, y) for x in (0.28, 0.5, 0.72) for y in (0.28, 0.5, 0.72)),
    tuple((x, y) for x in (0.3, 0.7) for y in (0.2, 0.4, 0.6, 0.8)) + ((0.5, 0.5),),
    ((0.5, 0.18), (0.3, 0.36), (0.7, 0.36), (0.5, 0.5), (0.3, 0.64), (0.7, 0.64), (0.5, 0.82))
    + ((0.2, 0.5), (0.8, 0.5)),
)
_TEN_LAYOUTS = (
    tuple((x, y) for x in (0.3, 0.7) for y in (0.2, 0.4, 0.6, 0.8)) + ((0.5, 0.3), (0.5, 0.7)),
    tuple((x, 0.25) for x in (0.3, 0.5, 0.7))
    + tuple((x, 0.5) for x in (0.2, 0.4, 0.6, 0.8))
    + tuple((x, 0.75) for x in (0.3, 0.5, 0.7)),
    tuple((x, y) for x in (0.22, 0.41, 0.59, 0.78) for y in (0.3, 0.7)) + ((0.5, 0.5), (0.5, 0.15)),
)


def _tint(rng: np.random.Generator, base: Colour, spread: float = 25) -> Colour:
    b, g, r = (float(np.clip(c + rng.normal(0, spread), 0, 255)) for c in base)
    return int(b), int(g), int(r)


@dataclass(frozen=True)
class PokerDesign:
    """One maker's poker dice: how each of the six faces is printed. Drawing is deterministic."""

    kind: str
    black: Colour
    red: Colour
    figure_colours: tuple[Colour, Colour, Colour]  # J, Q, K
    font: int
    italic: bool
    pip_shape: str  # "round" or "suit"
    nine_layout: int
    ten_layout: int
    pip_size: float
    ace_suit: str  # club or spade
    suits: tuple[str, ...]  # letters kind: each face's suit
    corner_index: (
        bool  # letters kind: a big letter with suits in two corners, else letter over suit
    )
    figure_scale: float
    outline: int  # outline thickness of figures, in texture pixels at 128
    small_rank: bool  # a small rank letter beside pips and figures
    border: bool  # a printed frame inside the face's edge
    seed: int

    @classmethod
    def random(cls, rng: np.random.Generator, kind: str | None = None) -> PokerDesign:
        """A design of `kind` (any of DESIGN_KINDS when None) with random inks, layout, font."""
        kind = kind or str(rng.choice(DESIGN_KINDS))
        if kind not in DESIGN_KINDS:
            raise ValueError(f"a poker design kind is one of {DESIGN_KINDS}, not {kind!r}")
        blue, green, red = (
            _tint(rng, c, 20) for c in ((170, 70, 30), (60, 130, 30), (40, 30, 190))
        )
        order = rng.permutation(3)
        colours = tuple((blue, green, red)[i] for i in order)
        return cls(
            kind=kind,
            black=_tint(rng, (30, 28, 28), 8),
            red=_tint(rng, (40, 35, 195), 15),
            figure_colours=(colours[0], colours[1], colours[2]),
            font=int(rng.choice(_FONTS)),
            italic=bool(rng.random() < 0.2),
            pip_shape=str(rng.choice(["round", "suit"])),
            nine_layout=int(rng.integers(len(_NINE_LAYOUTS))),
            ten_layout=int(rng.integers(len(_TEN_LAYOUTS))),
            pip_size=float(rng.uniform(0.75, 1.15)),
            ace_suit=str(rng.choice(["club", "spade"])),
            suits=tuple(str(s) for s in rng.choice(_SUITS, size=6)),
            corner_index=bool(rng.random() < 0.5),
            figure_scale=float(rng.uniform(0.8, 1.05)),
            outline=int(rng.integers(1, 4)),
            small_rank=bool(rng.random() < 0.4),
            border=bool(rng.random() < 0.25),
            seed=int(rng.integers(1 << 30)),
        )

    def draw(self, texture: np.ndarray, face: str) -> None:
        """Draw `face` onto the square texture (BGR, the die's body), in place."""
        if face not in FACES:
            raise ValueError(f"a poker face is one of {FACES}, not {face!r}")
        size = texture.shape[0]
        if self.border:
            inset = int(size * 0.1)
            cv2.rectangle(texture, (inset, inset), (size - inset, size - inset), self.black, 1)
        if self.kind == "letters":
            self._letters(texture, face)
        elif face in ("9", "10"):
            self._pips(texture, face) if self.kind == "pips" else self._numeral(texture, face)
        elif face == "A":
            suit = _SUIT_ART[self.ace_suit]
            suit(texture, size * 0.5, size * 0.5, size * 0.62 * self.figure_scale, self.black)
        else:
            self._figure(texture, face)
        if self.small_rank and self.kind != "letters":
            self._text(texture, face, size * 0.17, size * 0.17, size * 0.16, self.colour_of(face))

    def colour_of(self, face: str) -> Colour:
        if face in ("J", "Q", "K"):
            return self.figure_colours[("J", "Q", "K").index(face)]
        return self.red if face == "10" else self.black

    def _pips(self, texture: np.ndarray, face: str) -> None:
        size = texture.shape[0]
        layout = _NINE_LAYOUTS[self.nine_layout] if face == "9" else _TEN_LAYOUTS[self.ten_layout]
        colour = self.colour_of(face)
        suit = "club" if face == "9" else "diamond"
        radius = size * 0.062 * self.pip_size * (0.95 if face == "10" else 1.0)
        for x, y in layout:
            cx, cy = 0.5 + (x - 0.5) * 0.92, 0.5 + (y - 0.5) * 0.92
            if self.pip_shape == "round":
                art._disc(texture, cx * size, cy * size, radius, colour)
            else:
                _SUIT_ART[suit](texture, cx * size, cy * size, radius * 2.3, colour)

    def _numeral(self, texture: np.ndarray, face: str) -> None:
        size = texture.shape[0]
        colour = self.colour_of(face)
        self._text(texture, face, size * 0.5, size * 0.42, size * 0.6, colour)
        suit = "club" if face == "9" else "heart"
        _SUIT_ART[suit](texture, size * 0.5, size * 0.8, size * 0.2, colour)

    def _figure(self, texture: np.ndarray, face: str) -> None:
        """A court figure's bust in the face's colour, outlined in black; the headgear (cap,
        tiara, crown) and the hair or beard tell J, Q and K apart beside their colour."""
        size = texture.shape[0]
        s = size * (0.78 if self.kind == "figures" else 0.64) * self.figure_scale
        cx, cy = size * 0.5, size * 0.54
        colour = self.colour_of(face)
        shapes = _figure_shapes(face, cx, cy, s)
        for kind, points in shapes:
            pts = np.array([art._pt(x, y) for x, y in points], np.int32)
            fill = colour if kind == "fill" else (235, 238, 240) if kind == "face" else self.black
            cv2.fillPoly(texture, [pts], fill, cv2.LINE_AA, art._SHIFT)
            cv2.polylines(texture, [pts], True, self.black, self.outline, cv2.LINE_AA, art._SHIFT)

    def _letters(self, texture: np.ndarray, face: str) -> None:
        size = texture.shape[0]
        suit = self.suits[FACES.index(face)]
        colour = self.red if suit in _RED_SUITS else self.black
        if self.corner_index:  # a large rank letter, its suit small in two corners
            self._text(texture, face, size * 0.5, size * 0.5, size * 0.5, colour)
            for corner in (0.2, 0.8):
                _SUIT_ART[suit](texture, size * corner, size * corner, size * 0.16, colour)
        else:
            self._text(texture, face, size * 0.5, size * 0.34, size * 0.44, colour)
            _SUIT_ART[suit](texture, size * 0.5, size * 0.72, size * 0.36, colour)

    def _text(
        self, img: np.ndarray, text: str, cx: float, cy: float, box: float, colour: Colour
    ) -> None:
        font = self.font | (cv2.FONT_ITALIC if self.italic else 0)
        thickness = max(1, int(round(box * 0.1)))
        (w, h), _ = cv2.getTextSize(text, font, 1.0, thickness)
        scale = min(box / w, box * 0.85 / h)
        (w, h), _ = cv2.getTextSize(text, font, scale, thickness)
        origin = (int(round(cx - w / 2)), int(round(cy + h / 2)))
        cv2.putText(img, text, origin, font, scale, colour, thickness, cv2.LINE_AA)


def _figure_shapes(
    face: str, cx: float, cy: float, s: float
) -> list[tuple[str, list[tuple[float, float]]]]:
    """Polygons of a bust: shoulders, head, then the face's headgear and hair or beard."""
    shoulders = [
        (cx - 0.5 * s, cy + 0.45 * s),
        (cx - 0.42 * s, cy + 0.12 * s),
        (cx - 0.15 * s, cy + 0.02 * s),
        (cx + 0.15 * s, cy + 0.02 * s),
        (cx + 0.42 * s, cy + 0.12 * s),
        (cx + 0.5 * s, cy + 0.45 * s),
    ]
    angles = np.linspace(0, 2 * np.pi, 20, endpoint=False)
    head = [(cx + 0.16 * s * np.cos(a), cy - 0.14 * s + 0.19 * s * np.sin(a)) for a in angles]
    top = cy - 0.33 * s
    shapes = [("fill", shoulders), ("face", head)]
    if face == "J":  # a flat cap with a feather
        shapes.append(
            (
                "fill",
                [
                    (cx - 0.26 * s, top + 0.06 * s),
                    (cx + 0.22 * s, top + 0.06 * s),
                    (cx + 0.14 * s, top - 0.08 * s),
                    (cx - 0.18 * s, top - 0.08 * s),
                ],
            )
        )
        shapes.append(("fill", [(cx + 0.14 * s, top - 0.04 * s), (cx + 0.38 * s, top - 0.2 * s),
                                (cx + 0.2 * s, top - 0.0 * s)]))  # fmt: skip
    elif face == "Q":  # long hair down both sides and a small tiara
        for side in (-1, 1):
            shapes.append(("fill", [(cx + side * 0.15 * s, top + 0.05 * s),
                                    (cx + side * 0.27 * s, top + 0.1 * s),
                                    (cx + side * 0.3 * s, cy + 0.1 * s),
                                    (cx + side * 0.17 * s, cy + 0.05 * s)]))  # fmt: skip
        shapes.append(("fill", [(cx - 0.14 * s, top + 0.05 * s), (cx - 0.1 * s, top - 0.07 * s),
                                (cx, top + 0.0 * s), (cx + 0.1 * s, top - 0.07 * s),
                                (cx + 0.14 * s, top + 0.05 * s)]))  # fmt: skip
    else:  # K: a tall three-pointed crown and a beard
        shapes.append(("fill", [(cx - 0.2 * s, top + 0.06 * s), (cx - 0.22 * s, top - 0.22 * s),
                                (cx - 0.1 * s, top - 0.08 * s), (cx, top - 0.26 * s),
                                (cx + 0.1 * s, top - 0.08 * s), (cx + 0.22 * s, top - 0.22 * s),
                                (cx + 0.2 * s, top + 0.06 * s)]))  # fmt: skip
        beard = [(cx - 0.14 * s, cy - 0.1 * s), (cx + 0.14 * s, cy - 0.1 * s),
                 (cx + 0.05 * s, cy + 0.1 * s), (cx - 0.05 * s, cy + 0.1 * s)]  # fmt: skip
        shapes.append(("fill", beard))
    return shapes


_SUIT_ART: dict[str, Callable[..., None]] = {
    "spade": art._spade,
    "heart": art._heart,
    "club": art._club,
    "diamond": art._diamond,
}
