"""The camera ruling (#55) for poker dice: a die measured far smaller than the table's camera
shows dice comes out unreadable, with the reason, never with a value."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vision.read.find import square_quad
from vision.read.ruling import LEAST_SIDE, MEASURED_LEAST_SIDE, beyond_ruling, within_ruling
from vision.read.types import Die


def die_of_side(side: float, value: str | None = "K") -> Die:
    return Die(value, (80.0, 80.0), 0.99, square_quad((80.0, 80.0), side, 30.0))


def test_a_die_measured_too_small_is_unreadable_with_the_reason():
    assert beyond_ruling(die_of_side(18.0)).startswith("too small: 18 px across")
    (ruled,) = within_ruling([die_of_side(18.0)])
    assert ruled.value is None and "too small" in ruled.reason and not ruled.sure


@given(st.floats(MEASURED_LEAST_SIDE, 400.0))
def test_a_die_of_a_measured_side_past_the_line_is_left_as_read(side):
    die = die_of_side(side)
    assert within_ruling([die]) == [die]


@given(st.floats(1.0, 399.0), st.sampled_from(["9", "10", "J", "Q", "K", "A", None]))
def test_the_ruling_never_gives_a_value_and_keeps_every_die(side, value):
    dice = [die_of_side(side, value), die_of_side(side + 1.0, value)]
    ruled = within_ruling(dice)
    assert len(ruled) == len(dice)
    for before, after in zip(dice, ruled, strict=True):
        assert after.value in (before.value, None)
        assert after.center == before.center
        if before.value is None:
            assert after == before  # an unreadable die keeps its own reason


def test_the_line_is_under_the_ruling():
    assert MEASURED_LEAST_SIDE < LEAST_SIDE
