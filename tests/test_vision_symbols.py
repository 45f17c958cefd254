"""Dice printing a maker's symbol instead of the 1 or the 6: rendered, and never read as a value."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision._draw_faces import face_texture
from vision._draw_logos import LOGO_DESIGNS
from vision.render import SceneStyle, render_scene


@pytest.mark.parametrize("design", LOGO_DESIGNS)
def test_a_symbol_face_is_drawn_instead_of_the_pips(design: str) -> None:
    body = np.full((64, 64, 3), 230.0, np.float32)
    pips = face_texture(1, "d6", body, (30, 30, 30), 64)
    symbol = face_texture(1, "d6", body, (30, 30, 30), 64, logo=design)
    assert (symbol < 128).any()  # ink was drawn
    assert np.abs(symbol - pips).mean() > 3.0


def test_only_dice_showing_the_symbol_face_are_marked_as_symbols() -> None:
    style = replace(SceneStyle(), logo_faces=(6,), logo="star")
    scene = render_scene([6, 6, 2, 5], seed=3, style=style)
    assert sorted((die.value, die.symbol) for die in scene.dice) == [
        (2, False),
        (5, False),
        (6, True),
        (6, True),
    ]
