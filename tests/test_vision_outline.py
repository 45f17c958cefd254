"""Fitting a rough candidate square to the die's own edges (the poker path's outlines)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.find import square_quad
from vision.outline import fit_outline
from vision.render import SceneStyle, render_scene
from vision.types import DieCandidate


def rough(center, side: float, angle: float, scale: float, shift: float) -> DieCandidate:
    moved = (center[0] + shift * side, center[1] - shift * side)
    return DieCandidate(moved, square_quad(moved, side * scale, angle), side * scale, 0.5)


def true_side(die) -> float:
    return float(np.linalg.norm(die.quad[1] - die.quad[0]))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("scale", [0.75, 1.3])
def test_a_square_a_quarter_off_is_fitted_to_the_die(seed, scale):
    scene = render_scene(["K"], kind="poker", seed=seed, style=SceneStyle())
    die = scene.dice[0]
    side = true_side(die)
    edge = die.quad[1] - die.quad[0]
    angle = float(np.degrees(np.arctan2(edge[1], edge[0])))
    fitted = fit_outline(scene.frame, rough(die.center, side, angle, scale, 0.06))
    assert abs(fitted.size - side) < 0.1 * side
    assert np.hypot(*np.subtract(fitted.center, die.center)) < 0.1 * side


def test_a_square_on_bare_tray_is_left_as_it_was():
    scene = render_scene([], kind="poker", seed=3, style=SceneStyle())
    cand = rough((320, 240), 50, 0, 1.0, 0)
    assert fit_outline(scene.frame, cand) is cand
