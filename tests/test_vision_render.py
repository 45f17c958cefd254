"""Rendered scenes: ground truth matches what is drawn, layouts are valid, seeds reproduce."""

from __future__ import annotations

import numpy as np
import pytest

from vision.read.types import POKER_FACES
from vision.synth.render import (
    SceneStyle,
    TruthDie,
    rectify_truth,
    render_empty,
    render_roll,
    render_scene,
)


def _polygon_area(quad: np.ndarray) -> float:
    x, y = quad[:, 0], quad[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def _pip_count(crop: np.ndarray) -> int:
    import cv2

    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    inner = gray[6:-6, 6:-6]
    dark = (inner < 100).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(dark)
    return sum(1 for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] > 15)


def test_scene_truth_lists_each_die_with_its_value():
    scene = render_scene([1, 2, 3, 4, 5, 6], seed=3)
    assert scene.frame.shape == (480, 640, 3)
    assert scene.frame.dtype == np.uint8
    assert [d.value for d in scene.dice] == [1, 2, 3, 4, 5, 6]
    assert all(isinstance(d, TruthDie) and not d.cocked for d in scene.dice)


def test_top_face_quads_lie_inside_the_frame_clockwise_and_square():
    scene = render_scene([6] * 8, seed=11, style=SceneStyle(perspective=1.0))
    for die in scene.dice:
        assert die.quad.shape == (4, 2)
        assert (
            (die.quad >= 0).all() and (die.quad[:, 0] < 640).all() and (die.quad[:, 1] < 480).all()
        )
        assert _polygon_area(die.quad) > 0  # clockwise on screen (y down)
        sides = np.linalg.norm(die.quad - np.roll(die.quad, -1, axis=0), axis=1)
        assert sides.max() / sides.min() < 1.05
        assert np.allclose(die.quad.mean(axis=0), die.center, atol=0.5)


def test_dice_never_overlap_though_some_touch():
    import cv2

    scene = render_scene([1, 2, 3, 4, 5, 6, 1, 2, 3, 4], seed=5, style=SceneStyle(touch_chance=0.6))
    gaps = []
    for i, a in enumerate(scene.dice):
        for b in scene.dice[i + 1 :]:
            overlap, _ = cv2.intersectConvexConvex(a.quad, b.quad)
            assert overlap < 1.0
            corners = np.linalg.norm(a.quad[:, None, :] - b.quad[None, :, :], axis=2)
            gaps.append(corners.min())
    assert min(gaps) < 4  # at least one pair lies flush


def test_drawn_pips_match_the_truth():
    scene = render_scene([1, 2, 3, 4, 5, 6], seed=8, style=SceneStyle(noise=0, blur=0.3))
    for die in scene.dice:
        assert _pip_count(rectify_truth(scene.frame, die)) == die.value


def test_same_seed_same_frame_and_other_seed_differs():
    first = render_scene(["A", "K"], kind="poker", seed=4)
    again = render_scene(["A", "K"], kind="poker", seed=4)
    other = render_scene(["A", "K"], kind="poker", seed=5)
    assert np.array_equal(first.frame, again.frame)
    assert not np.array_equal(first.frame, other.frame)


def test_poker_faces_are_strings_and_bad_faces_are_refused():
    scene = render_scene(list(POKER_FACES), kind="poker", seed=1)
    assert [d.value for d in scene.dice] == list(POKER_FACES)
    with pytest.raises(ValueError, match="poker faces"):
        render_scene(["B"], kind="poker")
    with pytest.raises(ValueError, match="d6 faces"):
        render_scene([7])
    with pytest.raises(ValueError, match="kind"):
        render_scene([1], kind="d20")


def test_random_styles_render_varied_valid_scenes():
    rng = np.random.default_rng(0)
    for seed in range(6):
        kind = "poker" if seed % 2 else "d6"
        style = SceneStyle.random(rng, kind)
        faces = ["9", "A", "Q"] if kind == "poker" else [2, 4, 6]
        scene = render_scene(faces, kind=kind, seed=seed, style=style)
        assert len(scene.dice) == 3


def test_distractors_stay_off_the_dice_and_stay_put_between_empty_and_busy_tray():
    style = SceneStyle(distractors=("hand", "coin", "pencil"))
    busy = render_scene([3, 4, 5], seed=2, style=style)
    empty = render_empty(seed=2, style=style)
    plain_empty = render_empty(seed=2)
    assert [d.value for d in busy.dice] == [3, 4, 5]
    props = np.abs(empty.astype(int) - plain_empty.astype(int)).max(axis=2) > 60
    assert props.mean() > 0.01  # hand, coin and pencil are drawn
    for die in busy.dice:
        x0, y0 = np.floor(die.quad.min(axis=0)).astype(int)
        x1, y1 = np.ceil(die.quad.max(axis=0)).astype(int)
        assert not props[y0:y1, x0:x1].any()  # no prop under a die's top face
    with pytest.raises(ValueError, match="distractor"):
        SceneStyle(distractors=("cat",))


def test_empty_tray_has_no_dice_and_too_many_dice_is_an_error():
    frame = render_empty(seed=1)
    assert frame.shape == (480, 640, 3)
    with pytest.raises(ValueError, match="cannot fit"):
        render_scene([1] * 200, seed=0)


def test_roll_moves_then_settles_in_the_scene_layout():
    frames = render_roll([2, 5], seed=9, moving_frames=6, settled_frames=4)
    assert len(frames) == 10
    still = render_scene([2, 5], seed=9)
    settled = frames[6:]
    for scene in settled:
        assert [d.value for d in scene.dice] == [2, 5]
        for a, b in zip(scene.dice, still.dice, strict=True):
            assert np.allclose(a.quad, b.quad)
    first_centres = np.array([d.center for d in frames[0].dice])
    final_centres = np.array([d.center for d in settled[0].dice])
    assert np.linalg.norm(first_centres - final_centres, axis=1).min() > 20
    change = np.abs(settled[0].frame.astype(int) - settled[1].frame.astype(int)).mean()
    assert change < 5  # only sensor noise changes once settled


def test_cocked_dice_are_flagged_and_their_top_face_is_foreshortened():
    scene = render_scene([2, 3, 4], seed=3, style=SceneStyle(cocked_chance=1.0))
    assert all(d.cocked for d in scene.dice)
    for die in scene.dice:
        sides = np.linalg.norm(die.quad - np.roll(die.quad, -1, axis=0), axis=1)
        assert sides.max() / sides.min() > 1.02


def test_truth_values_are_plain_ints_even_from_numpy_faces():
    scene = render_scene(list(np.array([2, 6])), seed=1)
    assert [type(d.value) for d in scene.dice] == [int, int]
    with pytest.raises(ValueError, match="d6 faces"):
        render_scene([True])
