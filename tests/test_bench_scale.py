"""The real photos' scale sweep: windows of a labelled photo at a share of the frame, mirrored
out where the photo is too small for the window."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bench.scale import FRAME, zoom_on
from vision.train._photos import Labelled

BOX = (60, 40, 100, 80)  # a 40 px die in a 320 x 240 photo


def photo_with_one_die() -> tuple[np.ndarray, Labelled]:
    image = np.full((240, 320, 3), 90, np.uint8)
    image[:, :, 0] = np.linspace(40, 140, 320, dtype=np.uint8)[None, :]  # left and right differ
    x0, y0, x1, y1 = BOX
    image[y0:y1, x0:x1] = 250
    image[y0 + 5 : y0 + 15, x0 + 5 : x0 + 15] = 0  # a mark in one corner: mirrors show it moved
    return image, Labelled(Path("one.jpg"), ((4, BOX),))


@pytest.mark.parametrize("share", [0.03, 0.05, 0.08])
def test_a_window_larger_than_the_photo_is_filled_with_it_mirrored_and_labelled(share) -> None:
    image, photo = photo_with_one_die()
    zoomed = zoom_on(image, photo, "whole die", 0, share)
    assert zoomed is not None
    frame, labelled = zoomed
    assert frame.shape == (FRAME[1], FRAME[0], 3)
    assert len(labelled.dice) > 1  # the die and mirrored copies of it
    for value, (x0, y0, x1, y1) in labelled.dice:
        assert value == 4
        assert 0 <= x0 < x1 <= FRAME[0] and 0 <= y0 < y1 <= FRAME[1]
        assert abs((y1 - y0) - share * FRAME[1]) <= 1.5  # the die spans the share asked for
        middle = frame[(y0 + y1) // 2, (x0 + x1) // 2]
        assert middle.min() >= 200, "every label lies on a die"


def test_a_mirrored_copy_is_the_die_mirrored() -> None:
    image, photo = photo_with_one_die()
    zoomed = zoom_on(image, photo, "whole die", 0, 0.05)
    assert zoomed is not None
    frame, labelled = zoomed
    corners = set()
    for _, (x0, y0, x1, y1) in labelled.dice:
        die = frame[y0:y1, x0:x1, 1].astype(int)
        h, w = die.shape
        dark = die < 128
        quarters = {(r, c): dark[r * h // 2 : (r + 1) * h // 2, c * w // 2 : (c + 1) * w // 2].sum()
                    for r in (0, 1) for c in (0, 1)}  # fmt: skip
        corners.add(max(quarters, key=quarters.get))
    assert len(corners) == 4  # the mark in each corner: copies turned over left-right, up-down


def test_a_window_inside_the_photo_is_cut_from_it_as_before() -> None:
    image, photo = photo_with_one_die()
    zoomed = zoom_on(image, photo, "whole die", 0, 0.5)
    assert zoomed is not None
    frame, labelled = zoomed
    assert len(labelled.dice) == 1
    x0, y0, x1, y1 = labelled.dice[0][1]
    assert abs((x0 + x1) / 2 - FRAME[0] / 2) <= 1 and abs((y0 + y1) / 2 - FRAME[1] / 2) <= 1
    assert abs((y1 - y0) - 0.5 * FRAME[1]) <= 1.5


def test_a_window_the_photo_could_hold_elsewhere_is_not_mirrored_but_left_out() -> None:
    image, photo = photo_with_one_die()
    assert zoom_on(image, photo, "whole die", 0, 0.25) is None  # 213 x 160, off the left edge
