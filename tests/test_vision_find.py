"""The dice finder on frames drawn here with cv2: where the dice are, how big, and nothing else."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.read.find import MIN_FACE_PX, find_dice, rectify
from vision.read.types import DieCandidate
from vision.reader import DiceReader

PIP_SPOTS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
WHITE, BLACK, RED = (235, 238, 240), (30, 28, 32), (40, 40, 200)


def tray(colour: tuple[int, int, int] = (150, 160, 165), size=(480, 640), seed: int = 0):
    """A plain tray with a soft light gradient and sensor noise."""
    rng = np.random.default_rng(seed)
    frame = np.empty((*size, 3), np.float32)
    frame[:] = colour
    frame *= np.linspace(0.9, 1.08, size[1], dtype=np.float32)[None, :, None]
    frame += rng.normal(0, 2.0, frame.shape).astype(np.float32)
    return np.clip(frame, 0, 255).astype(np.uint8)


def draw_die(
    frame: np.ndarray,
    center: tuple[float, float],
    side: float,
    value: int,
    face=WHITE,
    pips=BLACK,
    angle: float = 0.0,
) -> None:
    """A die seen from above: a rounded square face with its pips, turned by angle degrees."""
    cx, cy = center
    theta = np.deg2rad(angle)
    rotation = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    half = side / 2.0
    corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    shadow = (corners @ rotation.T + (cx + side * 0.06, cy + side * 0.08)).astype(np.int32)
    cv2.fillPoly(frame, [shadow], tuple(int(c * 0.6) for c in frame[int(cy), int(cx)]), cv2.LINE_AA)
    face_poly = (corners * 0.97 @ rotation.T + (cx, cy)).astype(np.int32)
    cv2.fillPoly(frame, [face_poly], face, cv2.LINE_AA)
    cv2.polylines(frame, [face_poly], True, tuple(int(c * 0.8) for c in face), 2, cv2.LINE_AA)
    for dx, dy in PIP_SPOTS[value]:
        px, py = rotation @ (dx * side * 0.27, dy * side * 0.27) + (cx, cy)
        radius = side * (0.14 if value == 1 else 0.09)
        cv2.circle(frame, (int(px * 16), int(py * 16)), int(radius * 16), pips, -1, cv2.LINE_AA, 4)


def near(candidate: DieCandidate, center: tuple[float, float], tolerance: float) -> bool:
    return float(np.hypot(candidate.center[0] - center[0], candidate.center[1] - center[1])) < (
        tolerance
    )


def assert_found(found: list[DieCandidate], centers, side: float) -> None:
    assert len(found) == len(centers), [c.center for c in found]
    for center in centers:
        matches = [c for c in found if near(c, center, side * 0.3)]
        assert len(matches) == 1, f"no single candidate at {center}: {[c.center for c in found]}"
        assert 0.65 * side < matches[0].size < 1.45 * side


@pytest.mark.parametrize(
    ("surface", "face", "pips"),
    [
        pytest.param((150, 160, 165), WHITE, BLACK, id="white-on-grey"),
        pytest.param((210, 215, 220), BLACK, WHITE, id="black-on-light"),
        pytest.param((60, 90, 60), RED, WHITE, id="red-on-felt"),
    ],
)
def test_each_die_is_found_once_with_its_size(surface, face, pips):
    """Through the reader, which joins a die the raw finder split into two pip-sized peaks."""
    frame = tray(surface)
    centers = [(120.0, 120.0), (330.0, 150.0), (500.0, 330.0), (200.0, 360.0)]
    for index, center in enumerate(centers):
        draw_die(frame, center, 56, index + 2, face, pips, angle=17.0 * index)
    dice = DiceReader().read(frame).dice
    found = [
        DieCandidate(d.center, d.quad, float(np.linalg.norm(d.quad[1] - d.quad[0]))) for d in dice
    ]
    assert_found(found, centers, 56)
    assert sorted(d.value for d in dice) == [2, 3, 4, 5]


def test_touching_dice_are_two_candidates():
    frame = tray()
    draw_die(frame, (300, 240), 56, 5)
    draw_die(frame, (356, 240), 56, 3)
    assert_found(find_dice(frame), [(300, 240), (356, 240)], 56)


def test_empty_tray_has_no_dice():
    for seed, colour in enumerate([(150, 160, 165), (40, 45, 50), (120, 170, 200)]):
        assert DiceReader().read(tray(colour, seed=seed)).dice == ()


def test_specks_in_a_small_frame_are_not_taken_for_faces_too_small_to_read():
    frame = tray(size=(200, 200))  # the finder, shown a small frame, sees specks as 7 px faces
    for x in range(20, 190, 25):
        cv2.circle(frame, (x, 60), 1, BLACK, -1, cv2.LINE_AA)
        cv2.rectangle(frame, (x - 2, 120), (x + 2, 124), (20, 20, 20), -1)
    assert find_dice(frame) == []
    assert MIN_FACE_PX <= 14  # the smallest labelled face of the real photos stays readable


def test_hand_and_pencil_are_not_dice():
    frame = tray()
    cv2.ellipse(frame, (420, 300), (120, 70), 30, 0, 360, (120, 150, 200), -1, cv2.LINE_AA)
    for offset in range(4):
        finger = (330 - offset * 30, 200 - offset * 10)
        cv2.ellipse(frame, finger, (60, 14), 60, 0, 360, (125, 155, 205), -1, cv2.LINE_AA)
    cv2.line(frame, (60, 420), (260, 380), (40, 190, 230), 10, cv2.LINE_AA)
    cv2.circle(frame, (90, 90), 22, (140, 170, 190), -1, cv2.LINE_AA)
    assert DiceReader().read(frame).dice == ()


def test_region_of_interest_limits_the_search_and_keeps_frame_coordinates():
    frame = tray()
    draw_die(frame, (150, 240), 56, 4)
    draw_die(frame, (480, 240), 56, 6)
    found = find_dice(frame, roi=(320, 0, 320, 480))
    assert_found(found, [(480, 240)], 56)


def test_die_at_the_frame_edge_is_found():
    frame = tray()
    draw_die(frame, (34, 240), 56, 2)
    assert_found(find_dice(frame), [(34, 240)], 56)


def test_rectify_cuts_the_top_face_square():
    frame = tray()
    draw_die(frame, (320, 240), 80, 1, angle=30)
    quad = np.array([[280, 200], [360, 200], [360, 280], [280, 280]], np.float32)
    crop = rectify(frame, DieCandidate((320.0, 240.0), quad, 80.0), size=48)
    assert crop.shape == (48, 48, 3) and crop.dtype == np.uint8
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    assert gray[24, 24] < 80 and gray[10:14, 22:26].mean() > 180  # the pip, then the face


def test_candidate_quads_follow_the_turn_of_the_die():
    frame = tray()
    draw_die(frame, (320, 240), 70, 6, angle=25)
    (candidate,) = find_dice(frame)
    dx, dy = candidate.quad[1] - candidate.quad[0]
    turn = np.degrees(np.arctan2(dy, dx)) % 90
    assert min(abs(turn - 25), abs(turn - 25 - 90), abs(turn - 25 + 90)) < 8


@pytest.mark.parametrize(
    ("frame", "roi", "message"),
    [
        (np.zeros((480, 640), np.uint8), None, "HxWx3"),
        (np.zeros((480, 640, 3), np.float32), None, "uint8"),
        (np.zeros((8, 8, 3), np.uint8), None, "too small"),
        (np.zeros((480, 640, 3), np.uint8), (700, 0, 100, 100), "roi"),
        ("frame.jpg", None, "numpy array"),
    ],
)
def test_bad_frames_and_regions_are_refused(frame, roi, message):
    with pytest.raises(ValueError, match=message):
        find_dice(frame, roi)


def test_a_board_speck_smaller_than_any_pip_face_is_no_die(shared_dir):
    """A dice-free crop of a development photo of the boards: a speck of 12 px on the board was
    read as a 2 at 0.96 before pip faces had to be 13 px (the smallest labelled face is 14)."""
    from bench.vision import dice_free_crops
    from vision.train._photos import load_photo_set

    photo_set = load_photo_set(shared_dir / "dice-photos/coloured-boards-train")
    [photo] = [p for p in photo_set.photos if p.image.name.startswith("dice_285_jpg")]
    crop = dice_free_crops(photo, cv2.imread(str(photo.image)))[4]
    assert DiceReader().read(crop).dice == ()


def test_readers_of_both_kinds_read_in_turn_without_loading_a_net_again() -> None:
    """The companion alternates pip and poker trays, near and far: every net either reader
    uses stays loaded (ten nets once thrashed a cache of eight: each net loaded again cost its
    loading and its first, allocating, run, about a tenth of the settled trays' reading time)."""
    from dataclasses import replace

    from vision.read._nets import load_net
    from vision.synth.render import SceneStyle, render_scene

    def tray(kind: str, faces: list, side: float) -> np.ndarray:
        style = replace(SceneStyle(), die_size=(0.9 * side, side))
        return render_scene(faces, kind=kind, seed=3, style=style).frame

    trays = [
        ("d6", tray("d6", [1, 4, 6], 40)),
        ("poker", tray("poker", ["9", "K", "A"], 40)),
        ("d6", tray("d6", [5], 190)),
        ("poker", tray("poker", ["Q"], 190)),
    ]
    readers = {kind: DiceReader(kind=kind) for kind in ("d6", "poker")}
    for kind, frame in trays:
        readers[kind].read(frame)
    loaded = load_net.cache_info().misses
    for kind, frame in trays:
        readers[kind].read(frame)
    assert load_net.cache_info().misses == loaded
