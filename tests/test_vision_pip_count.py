"""Counting pips against a table's own threshold (vision/read/pip_count.py)."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.read.pip_count import PipCount, peak_strengths

SIDE = 64
FACE = 51  # the face within an example crop (vision.read._nets.CROP_CONTEXT 1.25)
LAYOUTS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def face(value: int, body=(40, 40, 200), pips=(235, 235, 235), highlight: float = 0.0,
         noise: int = 0) -> np.ndarray:  # fmt: skip
    """An example-style crop of a die: `highlight` adds a soft light spot in the middle."""
    crop = np.full((SIDE, SIDE, 3), 150, np.uint8)
    edge = (SIDE - FACE) // 2
    crop[edge : edge + FACE, edge : edge + FACE] = body
    step = FACE / 4
    for dx, dy in LAYOUTS[value]:
        centre = (int(SIDE / 2 + dx * step), int(SIDE / 2 + dy * step))
        cv2.circle(crop, centre, 3, pips, -1, lineType=cv2.LINE_AA)
    if highlight:
        ys, xs = np.mgrid[0:SIDE, 0:SIDE]
        spot = np.exp(-((xs - SIDE / 2) ** 2 + (ys - SIDE / 2) ** 2) / (2 * 7.0**2)) * highlight
        crop = np.clip(crop + spot[..., None] * np.array([0.6, 0.6, 0.3]), 0, 255).astype(np.uint8)
    if noise:
        rng = np.random.default_rng(value * 31 + noise)
        crop = np.clip(crop + rng.normal(0, noise, crop.shape), 0, 255).astype(np.uint8)
    return crop


def examples(**look) -> tuple[list[np.ndarray], list[int]]:
    """Three confirmed dice of each face, one of them under the table's light spot."""
    crops = [
        face(v, **look, noise=n, highlight=90.0 if n == 2 else 0.0)
        for v in range(1, 7)
        for n in (1, 2, 3)
    ]
    return crops, [v for v in range(1, 7) for _ in (1, 2, 3)]


def test_a_soft_highlight_where_a_pip_would_be_is_not_counted():
    count = PipCount.fit(*examples())
    assert count.look == "light pips"
    lit = [face(v, highlight=90.0, noise=4) for v in (2, 4, 6)]
    assert count.counts(lit).tolist() == [2, 4, 6]


def test_a_plain_crop_has_no_pips():
    count = PipCount.fit(*examples())
    plain = np.full((SIDE, SIDE, 3), (40, 40, 200), np.uint8)
    assert count.counts([plain]).tolist() == [0]


def test_dark_pips_on_a_light_face_are_counted_on_their_own_look():
    dark = {"body": (225, 230, 235), "pips": (20, 20, 20)}
    count = PipCount.fit(*examples(**dark))
    assert count.look == "dark pips"
    assert count.counts([face(v, **dark) for v in range(1, 7)]).tolist() == [1, 2, 3, 4, 5, 6]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 255), min_size=8 * 8 * 3, max_size=8 * 8 * 3))
def test_any_crop_gives_strengths_and_a_count_description(pixels):
    small = np.array(pixels, np.uint8).reshape(8, 8, 3)
    crop = cv2.resize(small, (SIDE, SIDE), interpolation=cv2.INTER_NEAREST)
    strengths = peak_strengths([crop], "light pips")
    assert strengths.shape == (1, 8) and np.all(strengths <= 0.0) and np.isfinite(strengths).all()
    described = PipCount("dark pips", -0.5).described([crop])
    assert described.shape == (1, 9) and abs(float(np.linalg.norm(described)) - 1.0) < 1e-3


@settings(max_examples=15, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 6), st.integers(0, 2**32 - 1), st.floats(0.0, 120.0)),
        min_size=1,
        max_size=12,
    )
)
def test_a_fit_to_any_examples_counts_within_a_face(examples):
    from vision.read.pip_count import LOOKS, STRONGEST

    crops = [face(value, highlight=lit, noise=1 + seed % 5) for value, seed, lit in examples]
    count = PipCount.fit(crops, [value for value, _, _ in examples])
    assert count.look in LOOKS and -3.0 <= count.threshold <= 0.0
    assert all(0 <= n <= STRONGEST for n in count.counts(crops))
