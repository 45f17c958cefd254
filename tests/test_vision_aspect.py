"""Frames stretched out of shape (a photo squeezed into a fixed size): read un-stretched where
that makes the face net surer, the dice placed back in the frame, and no die of the view's own."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.vision import squeezed
from vision.read._nets import PIP_FINDER
from vision.read.aspect import ASPECTS, Stretch, in_place_of, likeliest_stretch
from vision.read.find import candidates_in, look, square_quad
from vision.read.pips import first_looks
from vision.read.types import Die, DieCandidate
from vision.reader import WEAK_PEAK_THRESHOLD, DiceReader
from vision.synth.render import RenderedScene, SceneStyle, render_scene

# Rendered trays of seven dice that the reader misreads squeezed to 3/4 of their height (dice
# look 4:3 wide) unless it reads them un-stretched.
SQUEEZED_MISREAD = (39, 44, 61, 66, 67)


def tray(seed: int) -> RenderedScene:
    rng = np.random.default_rng(seed)
    style = SceneStyle.random(rng, "d6")
    faces = [int(v) for v in rng.integers(1, 7, 7)]
    return render_scene(faces, kind="d6", seed=seed, style=style)


def stretch_of(frame: np.ndarray) -> Stretch:
    candidates = candidates_in(frame, look(frame, None, PIP_FINDER), WEAK_PEAK_THRESHOLD)
    return likeliest_stretch(frame, first_looks(frame, candidates))


@pytest.mark.parametrize("seed", SQUEEZED_MISREAD)
def test_a_squeezed_tray_is_read_unstretched_and_its_dice_placed_in_it(seed):
    scene = squeezed(tray(seed), 0.75)
    assert stretch_of(scene.frame) == Stretch(4 / 3)
    reading = DiceReader().read(scene.frame)
    assert sorted(reading.values) == sorted(d.value for d in scene.dice)
    outlines = [truth.quad.astype(np.float32) for truth in scene.dice]
    for die in reading.dice:
        assert any(cv2.pointPolygonTest(q, die.center, False) >= 0 for q in outlines), die


@pytest.mark.parametrize("seed", SQUEEZED_MISREAD)
def test_the_same_trays_as_rendered_are_not_stretched(seed):
    assert stretch_of(tray(seed).frame).is_true


@given(
    aspect=st.sampled_from(ASPECTS),
    x=st.floats(0, 640),
    y=st.floats(0, 480),
    side=st.floats(8, 200),
    turn=st.floats(-45, 45),
)
def test_a_die_read_in_the_view_is_placed_back_where_its_candidate_was(aspect, x, y, side, turn):
    stretch = Stretch(aspect)
    cand = DieCandidate((x, y), square_quad((x, y), side, turn), side)
    (seen,) = stretch.candidates_in_view([cand])
    assert seen.size >= side
    placed = stretch.die_from_view(Die(3, seen.center, 0.9, seen.quad))
    assert placed.center == pytest.approx((x, y), abs=1e-6)
    assert np.allclose(placed.quad.mean(axis=0), (x, y), atol=1e-3)


@pytest.mark.parametrize("aspect", ASPECTS)
def test_the_view_enlarges_the_short_axis_only(aspect):
    frame = np.zeros((480, 640, 3), np.uint8)
    height, width = Stretch(aspect).view(frame).shape[:2]
    assert min(height / 480, width / 640) == 1.0
    assert width / height == pytest.approx(640 / 480 / aspect, rel=0.01)


def die_at(x: float, value: int | None, confidence: float = 0.9) -> tuple[Die, float]:
    return Die(value, (x, 100.0), confidence, square_quad((x, 100.0), 40.0)), 0.0


def test_the_view_rereads_the_dice_read_as_they_are_but_adds_none():
    as_is = [die_at(100, 2), die_at(200, None)]
    view = [die_at(104, 3), die_at(200, 5), die_at(236, 4)]  # the last: a side face, squared
    kept = in_place_of(as_is, view)
    assert sorted((d.center[0], d.value) for d, _ in kept) == [(104, 3), (200, 5)]


def test_a_die_the_view_misses_is_kept_as_read():
    as_is = [die_at(100, 2), die_at(300, 6)]
    kept = in_place_of(as_is, [die_at(100, 2)])
    assert sorted(d.center[0] for d, _ in kept) == [100, 300]


def test_a_die_unreadable_as_it_is_takes_a_value_from_the_view_only_when_sure():
    as_is = [die_at(100, None, 0.4), die_at(200, None, 0.4)]
    view = [die_at(100, 1, 0.6), die_at(200, 6, 0.95)]  # a maker's symbol read as a 1, unsurely
    kept = in_place_of(as_is, view)
    assert sorted((d.center[0], d.value) for d, _ in kept) == [(100, None), (200, 6)]
