"""Reading d6 values on frames drawn here with cv2, confidence, unreadable dice, the reader API."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.test_vision_find import BLACK, RED, WHITE, draw_die, tray
from vision.read._nets import CLASSIFIER_INPUT, SECOND_OPINION_INPUT, classify_crops, crop_face
from vision.read.find import rectify
from vision.read.pips import count_pips
from vision.read.types import DieCandidate
from vision.reader import DiceReader, read_image

IVORY, BLUE, GREEN = (200, 225, 235), (170, 90, 30), (60, 150, 40)
SPOTS = [(110, 130), (320, 120), (520, 140), (120, 350), (320, 360), (520, 340)]


def six_dice(face, pips, surface=(150, 160, 165), side: float = 56, seed: int = 0):
    """A frame with the values 1..6, each at its spot, turned differently."""
    frame = tray(surface, seed=seed)
    for value, spot in enumerate(SPOTS, start=1):
        draw_die(frame, spot, side, value, face, pips, angle=13.0 * value)
    return frame


def values_by_spot(reading) -> list:
    """The value read nearest each spot (or 'missing'), to compare with 1..6."""
    out = []
    for spot in SPOTS:
        near = [d for d in reading.dice if np.hypot(*np.subtract(d.center, spot)) < 20]
        out.append(near[0].value if len(near) == 1 else "missing")
    return out


@pytest.mark.parametrize(
    ("face", "pips", "surface"),
    [
        (WHITE, BLACK, (150, 160, 165)),
        (IVORY, BLACK, (70, 110, 150)),
        (BLACK, WHITE, (205, 210, 215)),
        (RED, WHITE, (150, 160, 165)),
        (BLUE, WHITE, (200, 200, 200)),
        pytest.param(GREEN, BLACK, (40, 40, 45)),
    ],
    ids=["white", "ivory-on-wood", "black", "red", "blue", "green-on-dark"],
)
def test_reads_every_value_on_light_and_dark_dice(face, pips, surface):
    reading = DiceReader().read(six_dice(face, pips, surface))
    assert values_by_spot(reading) == [1, 2, 3, 4, 5, 6]
    assert len(reading.dice) == 6
    assert all(0.5 <= d.confidence <= 1.0 for d in reading.dice)


@pytest.mark.parametrize("side", [36, 80])
def test_reads_small_and_large_dice(side):
    reading = DiceReader().read(six_dice(WHITE, BLACK, side=side, seed=side))
    assert values_by_spot(reading) == [1, 2, 3, 4, 5, 6]


def test_a_lone_one_is_a_die_not_a_blank():
    frame = tray()
    draw_die(frame, (320, 240), 60, 1)
    (die,) = DiceReader().read(frame).dice
    assert die.value == 1 and np.hypot(die.center[0] - 320, die.center[1] - 240) < 10


def test_a_smeared_die_is_unreadable_not_guessed():
    frame = tray()
    draw_die(frame, (320, 240), 60, 5)
    smeared = frame.copy()
    kernel = np.zeros((41, 41), np.float32)
    kernel[20, :] = 1.0 / 41  # motion blur across a die and a half
    smeared[150:330, 200:440] = cv2.filter2D(frame[150:330, 200:440], -1, kernel)
    assert DiceReader().read(smeared).values == []


def test_min_confidence_turns_unsure_dice_into_unreadable_ones_with_a_reason():
    frame = six_dice(WHITE, BLACK)
    reading = DiceReader(min_confidence=1.0).read(frame)
    assert len(reading.dice) == 6 and reading.unreadable == 6
    assert all(d.value is None and d.reason.startswith("unsure") for d in reading.dice)


def test_count_pips_on_rectified_faces():
    frame = six_dice(WHITE, BLACK)
    for value, (x, y) in enumerate(SPOTS, start=1):
        angle = np.deg2rad(13.0 * value)
        corners = np.array([[-28, -28], [28, -28], [28, 28], [-28, 28]], np.float32)
        rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        quad = (corners @ rotation.T.astype(np.float32) + (x, y)).astype(np.float32)
        face = rectify(frame, DieCandidate((float(x), float(y)), quad, 56.0), size=48)
        assert count_pips(face).value == value


@pytest.mark.parametrize("size", [CLASSIFIER_INPUT, SECOND_OPINION_INPUT])
def test_both_face_nets_read_every_value_from_their_own_crop_size(size):
    frame = six_dice(RED, WHITE)
    crops = [crop_face(frame, spot, 56.0, 13.0 * v, size=size) for v, spot in enumerate(SPOTS, 1)]
    assert all(crop.shape == (size, size, 3) for crop in crops)
    chances = classify_crops(crops, size)
    assert np.allclose(chances.sum(axis=1), 1.0, atol=1e-4)
    assert list(chances.argmax(axis=1)) == [1, 2, 3, 4, 5, 6]


def test_count_pips_refuses_a_crop_that_is_not_square():
    with pytest.raises(ValueError, match="square"):
        count_pips(np.zeros((30, 40, 3), np.uint8))


class LetterProfile:
    """A stand-in face profile: calls every crop 'K', and records what it was shown."""

    def __init__(self) -> None:
        self.crops: list[np.ndarray] = []

    def classify(self, crop_bgr: np.ndarray) -> tuple[str, float]:
        self.crops.append(crop_bgr)
        return "K", 0.9


def test_a_profile_classifies_each_rectified_crop():
    profile = LetterProfile()
    reading = DiceReader(kind="poker", profile=profile).read(two_dice())
    assert reading.values == ["K", "K"]
    # Each die is read on a few squares (as found, resized, fitted to its body): 64 px crops.
    assert len(profile.crops) >= 2 and all(c.shape == (64, 64, 3) for c in profile.crops)


class FixedProfile:
    """A stand-in face profile that always answers the same."""

    def __init__(self, value, confidence: float) -> None:
        self.answer = (value, confidence)

    def classify(self, crop_bgr: np.ndarray):
        return self.answer


def two_dice() -> np.ndarray:
    frame = tray()
    draw_die(frame, (200, 240), 60, 4)
    draw_die(frame, (420, 240), 60, 2)
    return frame


def test_what_a_profile_cannot_match_is_unreadable_or_no_die():
    unsure = DiceReader(profile=FixedProfile(None, 0.4)).read(two_dice())
    assert len(unsure.dice) == 2 and unsure.unreadable == 2
    assert all("profile" in d.reason for d in unsure.dice)
    assert DiceReader(profile=FixedProfile(None, 0.0)).read(two_dice()).dice == ()
    low = DiceReader(profile=FixedProfile("A", 0.3)).read(two_dice())
    assert low.unreadable == 2 and all(d.reason.startswith("unsure: A") for d in low.dice)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"kind": "d20"}, "kind"),
        ({"min_confidence": 1.5}, "min_confidence"),
        ({"roi": (0, 0, -5, 10)}, "roi"),
        ({"profile": object()}, "classify"),
    ],
)
def test_bad_reader_settings_are_refused(arguments, message):
    with pytest.raises(ValueError, match=message):
        DiceReader(**arguments)


def test_read_image_reads_a_photo_file(tmp_path: Path):
    frame = six_dice(WHITE, BLACK)
    path = tmp_path / "tray.jpg"
    cv2.imwrite(str(path), frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert sorted(read_image(path).values) == [1, 2, 3, 4, 5, 6]


def test_read_image_names_the_file_it_cannot_read(tmp_path: Path):
    missing = tmp_path / "missing.jpg"
    with pytest.raises(ValueError, match="missing.jpg"):
        read_image(missing)
    text = tmp_path / "notes.jpg"
    text.write_text("not a picture")
    with pytest.raises(ValueError, match="notes.jpg"):
        read_image(text)
    ok, encoded = cv2.imencode(".jpg", six_dice(WHITE, BLACK))
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(encoded.tobytes()[: len(encoded) // 2])
    with pytest.raises(ValueError, match="cut.jpg.*truncated"):
        read_image(cut)


def test_no_die_is_read_beside_a_lone_die_on_a_bare_tray():
    frame = tray()
    draw_die(frame, (320, 240), 60, 4)
    reading = DiceReader().read(frame)
    assert reading.values == [4]


@settings(max_examples=200, deadline=None)
@given(
    logits=st.lists(st.lists(st.floats(-8.0, 8.0), min_size=7, max_size=7), min_size=4, max_size=4)
)
def test_no_second_look_lifts_a_value_above_what_a_join_trial_is_skipped_for(logits):
    """A join whose first look bounds it below its parts skips the second looks: whatever the
    mirror and the second-opinion net answer, the value's final chance stays within the bound."""
    from vision.read import pips

    looks = [np.exp(row) / np.exp(row).sum() for row in np.array(logits)]
    answers = iter(looks[1:])
    crop = np.zeros((CLASSIFIER_INPUT, CLASSIFIER_INPUT, 3), np.uint8)
    cand = DieCandidate((40.0, 40.0), np.zeros((4, 2), np.float32), 20.0, 1.0)
    first = pips.FirstLooks([cand], [0.0], [crop], np.array([looks[0]]))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pips, "classify_crops", lambda crops, size=32: np.array([next(answers)]))
        final = pips.looked_again(np.zeros((80, 80, 3), np.uint8), first)[0]
    assert final[1:].max() <= pips.best_after_second_looks(looks[0]) + 1e-6


class _FaintHeat:
    """A finder's heat of 0.35 everywhere: over the weak peak threshold, under the usual one."""

    def at(self, point):
        return 0.35


def test_a_die_on_a_faint_peak_stands_when_plainly_a_die_however_unsure_of_its_value():
    from vision.read.types import Die
    from vision.reader import strong

    unsure = Die(None, (10.0, 10.0), 0.45, reason="unsure: 5 (0.45) or 6")
    sure = Die(5, (10.0, 10.0), 0.97)
    assert strong(unsure, _FaintHeat(), no_die=0.01)  # reported unreadable, not lost
    assert not strong(unsure, _FaintHeat(), no_die=0.1)  # a board token's kind of doubt
    assert strong(sure, _FaintHeat(), no_die=0.1)
