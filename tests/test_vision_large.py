"""Dice close to the camera (top faces of a fifth of the frame and more): found by the finder's
coarse look and read whole, not as their pips; and a large "face" that is no die refused."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.read.find import find_large_faces, look, square_quad
from vision.read.large import may_hold_large_dice, with_large_dice
from vision.read.pips import PipReading
from vision.read.types import POKER_FACES, Die, DieCandidate
from vision.reader import DiceReader
from vision.synth import render
from vision.train._photos import face_estimates, photo_sets

CLOSE_UP = render.SceneStyle(die_size=(115.0, 125.0), perspective=0.3)  # ~19% of 640 px
SURFACES = (("light", "red"), ("felt", "white"), ("wood", "ivory"), ("dark", "blue"))


@pytest.fixture(scope="module")
def d6_reader() -> DiceReader:
    return DiceReader()


@pytest.mark.parametrize("surface,colour", SURFACES)
def test_two_d6_close_to_the_camera_are_read_whole(d6_reader, surface, colour):
    style = dataclasses.replace(CLOSE_UP, surface=surface, die_colors=(colour,))
    for value in range(1, 7):
        faces = [value, (value + 1) % 6 + 1]
        scene = render.render_scene(faces, seed=40 + value, style=style)
        reading = d6_reader.read(scene.frame)
        assert sorted(reading.values) == sorted(faces), (surface, faces, reading.dice)
        assert reading.unreadable == 0


@pytest.mark.parametrize("surface", ["light", "wood"])
def test_poker_dice_close_to_the_camera_are_read_whole(surface):
    reader = DiceReader(kind="poker")
    style = dataclasses.replace(CLOSE_UP, surface=surface)
    for index, face in enumerate(POKER_FACES):
        faces = [face, POKER_FACES[(index + 2) % 6]]
        scene = render.render_scene(faces, kind="poker", seed=40 + index, style=style)
        assert sorted(reader.read(scene.frame).values) == sorted(faces), (surface, faces)


def test_dice_of_the_usual_size_have_no_large_faces():
    scene = render.render_scene([1, 2, 3, 4, 5, 6], seed=3)
    assert find_large_faces(scene.frame, look(scene.frame)) == []


# ---------------------------------------------------------------- the rules, on given squares


def square(center: tuple[float, float], side: float, score: float = 1.0) -> DieCandidate:
    return DieCandidate(center, square_quad(center, side), side, score)


def die(center: tuple[float, float], side: float, value, confidence: float) -> Die:
    return Die(value, center, confidence, square_quad(center, side))


FRAME = np.full((480, 640, 3), 200, np.uint8)
LARGE = square((320.0, 240.0), 150.0)


def reads_as(*dice: Die | None):
    calls: list[list[DieCandidate]] = []

    def read_squares(squares: list[DieCandidate]) -> list[Die | None]:
        calls.append(squares)
        return [dice[i % len(dice)] for i in range(len(squares))]

    return read_squares, calls


def test_a_large_die_takes_the_place_of_its_pips_read_as_dice():
    pips = [die((290.0, 210.0), 30.0, 1, 0.8), die((350.0, 270.0), 30.0, 1, 0.85)]
    six = die(LARGE.center, 150.0, 6, 0.97)
    read_squares, _ = reads_as(six)
    assert with_large_dice(FRAME, pips, [LARGE], read_squares) == [six]


def test_a_large_die_read_less_surely_than_a_die_inside_it_changes_nothing():
    inside = [die((300.0, 230.0), 60.0, 4, 0.99)]
    read_squares, _ = reads_as(die(LARGE.center, 150.0, 2, 0.9))
    assert with_large_dice(FRAME, inside, [LARGE], read_squares) == inside


def test_a_die_read_surely_elsewhere_and_much_smaller_refuses_the_large_faces():
    small_elsewhere = [die((60.0, 60.0), 40.0, 3, 0.95), die((300.0, 230.0), 40.0, 1, 0.7)]
    read_squares, calls = reads_as(die(LARGE.center, 150.0, 1, 0.99))
    assert with_large_dice(FRAME, small_elsewhere, [LARGE], read_squares) == small_elsewhere
    assert calls == []  # refused before reading them


BOARD = square((320.0, 240.0), 460.0)
# Number tokens on it: finder peaks far smaller than any pip of a die that large.
TOKENS = [
    square((250.0, 200.0), 25.0, 0.45),
    square((400.0, 300.0), 25.0, 0.38),
    square((300.0, 330.0), 25.0, 0.33),
]


def test_a_large_face_holding_a_die_far_smaller_than_its_pips_is_no_die():
    """A game board seen whole (the coarse look's square of most of the frame) read as a 6 took
    the place of the real die on it, under a tenth of its side: no pip of a die is that small."""
    small_inside = [die((420.0, 300.0), 22.0, 4, 0.69)]
    read_squares, calls = reads_as(die(BOARD.center, 460.0, 6, 0.87))
    assert with_large_dice(FRAME, small_inside, [BOARD], read_squares) == small_inside
    assert calls == []
    unread_inside = [die((420.0, 300.0), 22.0, None, 0.47)]
    assert with_large_dice(FRAME, unread_inside, [BOARD], read_squares) == unread_inside


def test_a_large_face_read_unsurely_over_several_tiny_peaks_is_a_board():
    """A Catan board's number tokens peak inside the board's square, far smaller than any pip."""
    read_squares, _ = reads_as(die(BOARD.center, 460.0, 6, 0.7))
    assert with_large_dice(FRAME, [], [BOARD], read_squares, peaks=TOKENS) == []


def test_a_large_die_read_surely_or_over_two_specks_still_stands():
    sure = die(BOARD.center, 460.0, 6, 0.95)
    read_squares, _ = reads_as(sure)
    assert with_large_dice(FRAME, [], [BOARD], read_squares, peaks=TOKENS) == [sure]
    unsure = die(BOARD.center, 460.0, 6, 0.7)
    read_squares, _ = reads_as(unsure)
    assert with_large_dice(FRAME, [], [BOARD], read_squares, peaks=TOKENS[:2]) == [unsure]
    faint = [square(p.center, p.size, 0.2) for p in TOKENS]
    assert with_large_dice(FRAME, [], [BOARD], read_squares, peaks=faint) == [unsure]


def test_unsure_small_dice_beside_a_large_die_are_dropped_but_not_like_sized_ones():
    side_face_pip = die((420.0, 250.0), 35.0, 6, 0.55)
    like_sized = die((520.0, 240.0), 140.0, 3, 0.6)
    five = die(LARGE.center, 150.0, 5, 0.98)
    read_squares, _ = reads_as(five)
    kept = with_large_dice(FRAME, [side_face_pip, like_sized], [LARGE], read_squares)
    assert kept == [like_sized, five]


def test_a_large_face_the_usual_look_read_whole_is_not_read_again():
    read_whole = [die((322.0, 238.0), 140.0, 4, 0.95)]
    read_squares, calls = reads_as(die(LARGE.center, 150.0, 4, 0.99))
    assert with_large_dice(FRAME, read_whole, [LARGE], read_squares) == read_whole
    assert calls == []


def test_a_die_read_whole_beside_a_large_face_does_not_refuse_it():
    """A die the usual look read whole is no 'much smaller die elsewhere' for the other large
    faces: two close dice, one read by each look."""
    four = die((120.0, 240.0), 100.0, 4, 0.97)
    pip = die((320.0, 240.0), 30.0, 1, 0.6)
    one = die(LARGE.center, 150.0, 1, 0.99)
    read_squares, calls = reads_as(one)
    beside = square((120.0, 240.0), 115.0)
    assert with_large_dice(FRAME, [four, pip], [beside, LARGE], read_squares) == [four, one]
    assert len(calls) == 1 and calls[0][0] is LARGE  # the square as found (then fitted)


def test_a_large_face_holding_a_die_read_at_full_confidence_is_not_read():
    """No large die could be surer than it, so reading the square would change nothing."""
    certain = [die((300.0, 230.0), 100.0, "K", 1.0)]
    read_squares, calls = reads_as(die(LARGE.center, 150.0, "K", 1.0))
    assert with_large_dice(FRAME, certain, [LARGE], read_squares, fits_its_squares=True) == certain
    assert calls == []
    nearly = [die((300.0, 230.0), 100.0, "K", 0.99)]
    surer = die(LARGE.center, 150.0, "A", 1.0)
    read_squares, calls = reads_as(surer)
    assert with_large_dice(FRAME, nearly, [LARGE], read_squares, fits_its_squares=True) == [surer]
    assert len(calls) == 1


def test_a_large_face_read_unsurely_by_the_usual_look_is_read_again():
    unsure = die((322.0, 238.0), 140.0, 3, 0.6)
    four = die(LARGE.center, 150.0, 4, 0.99)
    read_squares, _ = reads_as(four)
    assert with_large_dice(FRAME, [unsure], [LARGE], read_squares) == [four]


def test_the_coarse_look_is_skipped_only_when_every_die_read_is_sure_and_small():
    small_sure = [die((100.0 * i, 100.0), 40.0, 2, 0.97) for i in range(1, 4)]
    # (scale, input side): the finder input pixels per frame pixel, and its longer side
    assert not may_hold_large_dice(small_sure, 0.4, 256)  # 16 px at the finder's input
    assert may_hold_large_dice(small_sure, 0.8, 256)  # 32 px: maybe a large die's part
    assert may_hold_large_dice(small_sure[:2], 0.4, 256)  # too few to tell
    unsure = [*small_sure[:2], die((400.0, 100.0), 40.0, 1, 0.7)]
    assert may_hold_large_dice(unsure, 0.4, 256)  # pips of a large die read as dice
    assert may_hold_large_dice([], 0.4, 256)


def test_a_large_square_read_as_no_die_changes_nothing():
    pips = [die((300.0, 230.0), 30.0, 1, 0.7)]
    read_squares, _ = reads_as(None)
    assert with_large_dice(FRAME, pips, [LARGE], read_squares) == pips


@pytest.mark.parametrize(
    ("confidence", "no_die", "stands"),
    [(0.76, 0.18, False), (0.85, 0.18, True), (0.76, 0.01, True), (0.55, 0.15, False)],
)
def test_a_large_face_read_unsurely_with_a_real_chance_of_no_die_is_none(
    monkeypatch, confidence, no_die, stands
):
    """The reader refuses more of a large face than of a usual candidate: a grey wall read as
    a large 1 at 0.76, with 0.18 on "no die"."""
    import vision.reader

    reading = PipReading(1, confidence, no_die=no_die)
    monkeypatch.setattr(
        vision.reader, "read_faces", lambda frame, squares: [reading] * len(squares)
    )
    [read] = DiceReader().read_squares(FRAME, [LARGE])
    assert (read is not None) == stands


# ---------------------------------------------------------------- real photos


def zoomed(image: np.ndarray, center, side: float, share: float) -> np.ndarray:
    """A 640x480 frame of the photo, zoomed about `center` until `side` spans `share` of 640."""
    scale = 640.0 * share / side
    matrix = np.float32([[scale, 0, 320 - center[0] * scale], [0, scale, 240 - center[1] * scale]])
    return cv2.warpAffine(image, matrix, (640, 480), borderMode=cv2.BORDER_REFLECT101)


def test_real_dice_zoomed_to_a_quarter_of_the_frame_are_read(shared_dir: Path, d6_reader):
    """Webcam photos zoomed until a die spans a quarter of the frame's width: before the coarse
    look, 5 of 55 such dice were read right (their pips were read as 1s); now about 51."""
    (webcam,) = [s for s in photo_sets(shared_dir) if s.name == "white-webcam-train"]
    right = total = 0
    for photo in webcam.photos[::20]:
        image = cv2.imread(str(photo.image))
        (value, _), (x, y, side) = photo.dice[0], face_estimates(photo, webcam.box_kind)[0]
        reading = d6_reader.read(zoomed(image, (x, y), side, 0.25))
        half = 0.25 * 640 / 2
        on_it = [d for d in reading.dice if abs(d.center[0] - 320) < half]
        right += [d.value for d in on_it if abs(d.center[1] - 240) < half] == [value]
        total += 1
    assert total >= 15
    assert right >= 0.8 * total


def test_a_dot_on_the_tray_rim_is_not_read_as_a_large_die(shared_dir: Path, d6_reader):
    """The mixed-tray photos have a grey dot on the tray's rim that the coarse look of the first
    sessions' finder took for a large face (read as a 1 at 0.99; the small dice read surely
    elsewhere refuse it). The finder trained on all six sets does not see it at all."""
    image = cv2.imread(str(shared_dir / "dice-photos/mixed-tray-train/IMG_20191208_111751.jpg"))
    dot = (586.0, 605.0)
    reading = d6_reader.read(image)
    assert not any(np.hypot(d.center[0] - dot[0], d.center[1] - dot[1]) < 30 for d in reading.dice)


def test_a_catan_board_seen_whole_is_not_read_as_a_die(shared_dir: Path, d6_reader):
    """A board photo whose coarse look read the whole board (a 603 px square) as a 6 at 0.87, in
    place of the 22 px 4 it holds."""
    folder = shared_dir / "dice-photos/coloured-boards-train"
    image = cv2.imread(str(folder / "dice_280_jpg.rf.f17aee4e608dcfe520ccdfc286108505.jpg"))
    reading = d6_reader.read(image)
    assert all(d.side < 100 for d in reading.dice)
    assert 4 in reading.values


def test_a_catan_board_holding_no_die_found_is_not_read_as_a_die(shared_dir: Path, d6_reader):
    """Its whole board was read as a 6 at 0.54 (a 584 px square over 7 number tokens); the 23 px
    6 on it is found on a faint peak (tests/test_vision_faint.py)."""
    folder = shared_dir / "dice-photos/coloured-boards-train"
    image = cv2.imread(str(folder / "dice_258_jpg.rf.098b039ec4512a018d9808b0c2259f72.jpg"))
    assert all(d.side < 100 for d in d6_reader.read(image).dice)


def test_a_die_knows_the_side_of_the_square_it_was_read_on():
    assert die((50.0, 50.0), 37.5, 2, 0.9).side == pytest.approx(37.5)
    assert Die(2, (50.0, 50.0), 0.9).side == 0.0


def _bench_sweep_scene(share: float, number: int) -> render.RenderedScene:
    """Scene `number` of `tabletop bench vision`'s rendered scale sweep at `share`."""
    from bench.scale import sweep_draws

    values, seed, style = sweep_draws(share, number + 1)[number]
    return render.render_scene(values, kind="d6", seed=seed, style=style)


@pytest.mark.parametrize("number", [13, 18])
def test_a_die_filling_half_the_frame_is_read_though_its_pips_peak_above_it(d6_reader, number):
    """A plain die at 45% of the frame's height: the half look's peaks on its pips were stronger
    than the quarter look's on its face, which was dropped as their rival (nothing was read).
    Peaks under PIP_SIZED of a face's side at its place are its pips, kept beside it."""
    scene = _bench_sweep_scene(0.45, number)
    assert list(d6_reader.read(scene.frame).values) == [d.value for d in scene.dice]


def test_a_pip_sized_peak_is_no_rival_to_the_face_around_it():
    from vision.read.find import suppress_rivals

    face, pip, twin = (
        (300.0, 240.0, 240.0, 0.45),
        (290.0, 230.0, 80.0, 0.5),
        (310.0, 240.0, 200.0, 0.4),
    )
    assert sorted(suppress_rivals([face, pip, twin])) == sorted([face, pip])
    weaker_pip = (290.0, 230.0, 80.0, 0.3)  # a weaker peak inside a stronger face: no die
    assert suppress_rivals([face, weaker_pip]) == [face]
