"""The camera ruling (#55) for poker dice: a die measured smaller or blurrier than the table's
camera shows dice comes out unreadable, with the reason, never wrong."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.read.find import square_quad
from vision.read.ruling import (
    MEASURED_LEAST_SIDE,
    beyond_ruling,
    percentiles,
    sharpness,
    within_ruling,
)
from vision.read.types import Die
from vision.reader import DiceReader
from vision.synth.render import SceneStyle, render_scene


def printed_face(side: int, blur: float, ink: float, body: float) -> tuple[np.ndarray, Die]:
    """A frame holding one die face of `side` px (a bar printed on it), blurred by `blur` px,
    and the die read there."""
    frame = np.full((160, 160, 3), 60.0, np.float32)
    frame[20 : 20 + side, 20 : 20 + side] = body
    third = side // 3
    frame[20 + third : 20 + 2 * third, 20 + third : 20 + 2 * third] = ink
    frame = cv2.GaussianBlur(frame, (0, 0), blur) if blur > 0 else frame
    quad = square_quad((20 + side / 2, 20 + side / 2), float(side), 0.0)
    die = Die("K", (20 + side / 2, 20 + side / 2), 0.99, quad)
    return np.clip(frame, 0, 255).astype(np.uint8), die


@given(
    st.floats(0.4, 2.5),
    st.floats(0.2, 1.0),
    st.floats(10.0, 120.0),
    st.floats(150.0, 250.0),
)
def test_sharpness_falls_as_blur_grows_whatever_the_print(blur, more, ink, body):
    frame, die = printed_face(60, blur, ink, body)
    blurrier, _ = printed_face(60, blur + more, ink, body)
    assert sharpness(blurrier, die) < sharpness(frame, die)


@given(st.floats(10.0, 100.0), st.floats(150.0, 250.0))
def test_sharpness_is_about_the_same_at_any_contrast(ink, body):
    frame, die = printed_face(60, 0.8, ink, body)
    faint, _ = printed_face(60, 0.8, 120.0, 150.0)
    assert abs(sharpness(frame, die) - sharpness(faint, die)) < 0.06


def test_a_die_measured_too_small_is_unreadable_with_the_reason():
    frame, die = printed_face(18, 0.5, 30.0, 220.0)
    assert die.side < MEASURED_LEAST_SIDE
    assert beyond_ruling(frame, die).startswith("too small: 18 px across")
    (ruled,) = within_ruling(frame, [die])
    assert ruled.value is None and "too small" in ruled.reason and not ruled.sure
    large, die = printed_face(60, 0.5, 30.0, 220.0)
    assert within_ruling(large, [die]) == [die]


def test_an_unreadable_die_keeps_its_own_reason():
    frame, die = printed_face(18, 0.5, 30.0, 220.0)
    unread = Die(None, die.center, 0.4, die.quad, "profile: no face matches")
    assert within_ruling(frame, [unread]) == [unread]


def test_poker_dice_blurred_beyond_the_ruling_are_unreadable_sharp_ones_read():
    reader = DiceReader("poker")
    faces = ["K", "Q", "9"]
    for blur, read in ((0.5, True), (0.9, True), (1.8, False)):
        style = SceneStyle(blur=blur, die_size=(46.0, 52.0))
        dice = reader.read(render_scene(faces, kind="poker", seed=3, style=style).frame).dice
        if read:
            assert sorted(die.value for die in dice) == sorted(faces), blur
        else:
            assert dice and all(die.value is None for die in dice)
            assert all(die.reason.startswith("too blurred") for die in dice)


@given(st.lists(st.floats(0.0, 255.0), min_size=1, max_size=300), st.floats(0.0, 100.0))
def test_percentiles_are_numpys(values, percent):
    array = np.array(values, np.float32)
    (found,) = percentiles(array, (percent,))
    assert found == pytest.approx(float(np.percentile(array, percent)), abs=1e-3)
