"""Ink maps: the stroke vectors a profile compares, computed many crops at once."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.profiles.ink_maps import CROP, FEATURE_LENGTH, features_many


def _face(seed: int) -> np.ndarray:
    """A light die face with a few dark and red marks."""
    rng = np.random.default_rng(seed)
    crop = np.full((CROP, CROP, 3), 225, np.uint8)
    for _ in range(int(rng.integers(1, 6))):
        x, y = rng.integers(12, CROP - 12, 2)
        colour = (30, 30, 200) if rng.random() < 0.4 else (20, 20, 20)
        crop[y - 4 : y + 4, x - 4 : x + 4] = colour
    return crop


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=2, max_size=6), st.sampled_from([0.0, 6.0, 90.0]))
def test_a_crops_vector_does_not_depend_on_the_crops_read_with_it(seeds, turn):
    warps = [(_face(seed), turn, 1.0, 0.0, 0.0) for seed in seeds]
    together = features_many(warps)
    alone = np.array([features_many([warp])[0] for warp in warps])
    assert together.shape == (len(seeds), FEATURE_LENGTH)
    np.testing.assert_allclose(together, alone, atol=1e-6)


def test_vectors_are_unit_length_and_a_blank_face_is_all_zero():
    blank = np.full((CROP, CROP, 3), 200, np.uint8)
    vectors = features_many([(_face(1), 0.0, 1.0, 0.0, 0.0), (blank, 0.0, 1.0, 0.0, 0.0)])
    assert abs(float(np.linalg.norm(vectors[0])) - 1.0) < 1e-5
    assert not vectors[1].any()


def test_a_face_is_closer_to_itself_turned_slightly_than_to_another_face():
    one, other = _face(3), _face(4)
    vectors = features_many(
        [(one, 0.0, 1.0, 0.0, 0.0), (one, 6.0, 1.0, 0.0, 0.0), (other, 0.0, 1.0, 0.0, 0.0)]
    )
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]


def test_no_crops_no_vectors():
    assert features_many([]).shape == (0, FEATURE_LENGTH)
