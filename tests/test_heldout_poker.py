"""The held-out poker-dice renderer: deterministic from its seeds, every family draws every face,
dice lie inside the tray's frame touching at most, close-ups from 50 to 4000 px."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.synth import heldout_poker as hp


def test_there_are_four_families_at_least() -> None:
    assert len(hp.FAMILIES) >= 4
    assert hp.FACES == ("9", "10", "J", "Q", "K", "A")


@pytest.mark.parametrize("family", hp.FAMILIES)
def test_a_design_is_the_same_for_the_same_seed(family: str) -> None:
    assert hp.design(family, 3) == hp.design(family, 3)
    makers = {hp.design(family, seed) for seed in range(6)}
    assert len(makers) == 6


@pytest.mark.parametrize("family", hp.FAMILIES)
def test_every_family_draws_six_different_faces(family: str) -> None:
    for seed in range(3):
        maker = hp.design(family, seed)
        faces = [hp.face_image(maker, face, 64, np.random.default_rng(0)) for face in hp.FACES]
        for image in faces:
            assert image.shape == (64, 64, 3) and image.dtype == np.uint8
            middle = image[12:52, 12:52].astype(float)
            assert middle.std() > 8  # something is printed on the face
        for a in range(6):
            for b in range(a + 1, 6):
                difference = np.abs(faces[a].astype(float) - faces[b].astype(float)).mean()
                assert difference > 3, (family, seed, hp.FACES[a], hp.FACES[b])


def test_a_tray_is_the_same_for_the_same_seeds() -> None:
    maker = hp.design("pips-figures", 1)
    faces = ["9", "A", "K", "K", "10"]
    first = hp.tray(maker, faces, np.random.default_rng(7))
    second = hp.tray(maker, faces, np.random.default_rng(7))
    assert np.array_equal(first[0], second[0]) and first[1] == second[1]
    other = hp.tray(maker, faces, np.random.default_rng(8))
    assert not np.array_equal(first[0], other[0])


@pytest.mark.parametrize("family", hp.FAMILIES)
def test_a_tray_holds_each_die_inside_its_frame(family: str) -> None:
    faces = ["9", "10", "J", "Q", "K", "A", "A"]
    image, dice = hp.tray(hp.design(family, 0), faces, np.random.default_rng(1))
    assert image.shape == (480, 640, 3) and image.dtype == np.uint8
    assert [face for face, _ in dice] == faces
    for _, (x, y, w, h) in dice:
        assert 0 <= x and 0 <= y and x + w <= 640 and y + h <= 480
        assert 36 <= max(w, h) <= 140  # 40-90 px across, turned and magnified by its height


def test_a_tray_of_another_size_and_die_size() -> None:
    image, dice = hp.tray(hp.design("bold-ranks", 2), ["Q"] * 3, np.random.default_rng(0),
                          size=(320, 240), die_px=(30, 40))  # fmt: skip
    assert image.shape == (240, 320, 3)
    assert all(25 <= max(w, h) <= 62 for _, (_, _, w, h) in dice)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    count=st.integers(1, 7),
    smallest=st.integers(40, 90),
    tilt=st.floats(15, 30),
)
def test_dice_touch_at_most_and_stay_in_frame(seed: int, count: int, smallest: int,
                                              tilt: float) -> None:  # fmt: skip
    camera = hp.Camera((320, 240), 400 / math.tan(math.radians(tilt)))
    rng = np.random.default_rng(seed)
    places = hp.place_dice(rng, count, camera, (640, 480), (smallest, 90))
    assert len(places) == count
    for index, place in enumerate(places):
        seen = np.vstack([place.footprint(), camera.project(place.footprint(), place.side)])
        assert seen.min() >= 0 and (seen.max(axis=0) <= [640, 480]).all()
        for other in places[index + 1 :]:
            assert hp.overlap_area(place, other) <= 0.01 * min(place.side, other.side) ** 2


@pytest.mark.parametrize("size_px", [50, 173, 640, 4000])
def test_close_ups_from_50_to_4000_px(size_px: int) -> None:
    fill = 0.3 if size_px == 4000 else 0.95
    photo = hp.close_up(hp.design("card-letters", 4), "10", np.random.default_rng(2), size_px, fill)
    assert photo.dtype == np.uint8 and photo.ndim == 3 and photo.shape[2] == 3
    assert max(photo.shape[:2]) == size_px
    assert min(photo.shape[:2]) in (size_px, round(size_px * 0.75))


@pytest.mark.parametrize("family", hp.FAMILIES)
def test_a_close_up_is_the_same_for_the_same_seeds(family: str) -> None:
    maker = hp.design(family, 5)
    first = hp.close_up(maker, "J", np.random.default_rng(3), 300, 0.6)
    assert np.array_equal(first, hp.close_up(maker, "J", np.random.default_rng(3), 300, 0.6))


def test_bad_requests_are_refused_with_one_clear_line() -> None:
    with pytest.raises(ValueError, match="unknown design family"):
        hp.design("marbled", 0)
    maker = hp.design("pips-figures", 0)
    with pytest.raises(ValueError, match="unknown poker face"):
        hp.face_image(maker, "7", 40, np.random.default_rng(0))
    with pytest.raises(ValueError, match="unknown poker face"):
        hp.tray(maker, ["9", "joker"], np.random.default_rng(0))
    with pytest.raises(ValueError, match="not a share"):
        hp.close_up(maker, "9", np.random.default_rng(0), 400, 1.5)
    with pytest.raises(ValueError, match="do not fit"):
        hp.tray(maker, ["9"] * 7, np.random.default_rng(0), size=(100, 100))
