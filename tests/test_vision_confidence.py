"""A die's confidence is the chance its value is right, and `sure` marks those at the line:
the fitted map, the check of a die with a face read just above it, the reader's use of both,
the table's examples sharpening the line, and the bench's reliability figures."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from bench.calibration import UNSEEN_WRONG, fit_step_map, kinds_held_out, pooled_sets
from bench.reliability import expected_calibration_error, reliability
from bench.scoring import score_image
from vision.read.confidence import (
    SURE_LINE,
    StepMap,
    calibrated,
    has_face_above,
    shipped_maps,
)
from vision.read.find import square_quad
from vision.read.types import Die, Reading
from vision.reader import DiceReader
from vision.synth.render import render_scene
from vision.train._photos import Labelled


def die_at(
    x: float, y: float, side: float = 40.0, value: int | None = 3, conf: float = 0.999
) -> Die:
    return Die(value, (x, y), conf, square_quad((x, y), side, 0.0))


# ---------------------------------------------------------------- the fitted map


samples = st.lists(st.tuples(st.floats(0.0, 1.0), st.booleans()), max_size=300)


@given(samples)
def test_a_fitted_map_rises_with_the_score_and_never_claims_more_than_it_saw(pairs) -> None:
    fitted = fit_step_map(pairs)
    chances = fitted["chances"]
    assert fitted["scores"][0] == 0.0 and fitted["scores"] == sorted(fitted["scores"])
    assert all(0.0 <= c <= 1.0 for c in chances)
    assert all(a <= b for a, b in zip(chances, chances[1:], strict=False))
    if pairs:
        rights = sum(right for _, right in pairs)
        assert chances[-1] <= 1.0 and min(chances) <= rights / len(pairs) + 1e-9


def test_a_step_claims_the_sure_line_only_with_room_to_spare() -> None:
    many = fit_step_map([(0.5, False)] * 5 + [(0.99, True)] * 400)
    few = fit_step_map([(0.5, False)] * 5 + [(0.99, True)] * 50)
    assert StepMap(tuple(many["scores"]), tuple(many["chances"]))(0.995) >= SURE_LINE
    assert StepMap(tuple(few["scores"]), tuple(few["chances"]))(0.995) < SURE_LINE
    assert few["chances"][-1] == round(50 / (50 + UNSEEN_WRONG), 4)


def test_a_kind_held_out_is_judged_by_a_map_fitted_on_the_others_alone() -> None:
    """The webcam's dice would be sure by a map fitted with them; the boards' dice, all right at
    0.9, make 0.9 sure for the webcam, whose wrong die at 0.9 then counts as sure and wrong."""
    by_set = {
        "boards": {"alone": [(0.9, True)] * 400, "face above": []},
        "webcam": {"alone": [(0.9, False)] + [(0.99, True)] * 300, "face above": [(0.99, True)]},
    }
    figures = kinds_held_out(by_set)
    assert figures["webcam"] == {"dice": 302, "sure_right": 300, "sure_wrong": 1}
    assert figures["boards"] == {"dice": 400, "sure_right": 0, "sure_wrong": 0}
    assert len(pooled_sets(by_set)["alone"]) == 701
    assert pooled_sets(by_set, leaving_out="boards")["face above"] == [(0.99, True)]


@given(st.dictionaries(st.sampled_from(["a", "b", "c"]), samples, min_size=1))
def test_a_kind_held_out_counts_each_of_its_dice_at_most_once(sets) -> None:
    by_set = {name: {"alone": pairs} for name, pairs in sets.items()}
    for name, figures in kinds_held_out(by_set).items():
        assert figures["dice"] == len(sets[name])
        assert 0 <= figures["sure_right"] + figures["sure_wrong"] <= figures["dice"]
        assert figures["sure_wrong"] <= sum(not right for _, right in sets[name])


def test_the_shipped_map_never_makes_a_die_with_a_face_above_sure() -> None:
    maps = shipped_maps()
    assert maps["alone"](1.0) >= SURE_LINE
    assert maps["alone"](0.5) < SURE_LINE
    assert maps["face above"](1.0) < SURE_LINE


# ---------------------------------------------------------------- the check


def test_a_die_read_just_above_another_is_its_top_face_seen_from_the_side() -> None:
    front, top = die_at(100, 100), die_at(103, 70)
    assert has_face_above(front, [front, top])
    assert not has_face_above(top, [front, top])  # the top face is the one thrown


def test_dice_side_by_side_or_a_die_apart_have_no_face_above() -> None:
    die = die_at(100, 100)
    beside, far_above = die_at(140, 100), die_at(100, 30)
    assert not has_face_above(die, [die, beside, far_above])


def test_calibrated_dice_are_sure_exactly_at_the_line(monkeypatch) -> None:
    monkeypatch.setattr(
        "vision.read.confidence.checks", lambda frame, dice: [None, fake(0.9), fake(1.0)]
    )
    maps = {"alone": StepMap((0.0, 0.95), (0.5, 0.995)), "face above": StepMap((0.0,), (0.2,))}
    unread = Die(None, (10.0, 10.0), 0.3, None, "unsure")
    dice = [unread, die_at(100, 100), die_at(200, 100)]
    out = calibrated(np.zeros((240, 320, 3), np.uint8), dice, maps=maps)
    assert out[0] == unread and not out[0].sure
    assert (out[1].confidence, out[1].sure) == (0.5, False)
    assert (out[2].confidence, out[2].sure) == (0.995, True)
    assert [d.value for d in out] == [None, 3, 3]


def fake(score: float):
    from vision.read.confidence import Check

    return Check(score, face_above=False)


# ---------------------------------------------------------------- the reader


def test_every_die_the_reader_gives_is_sure_exactly_when_its_confidence_reaches_the_line() -> None:
    reader = DiceReader()
    for seed in range(3):
        scene = render_scene([1, 2, 3, 4, 5, 6], kind="d6", seed=seed)
        for die in reader.read(scene.frame).dice:
            assert 0.0 <= die.confidence <= 1.0
            assert die.sure is (die.value is not None and die.confidence >= SURE_LINE)


class Disputing:
    """A table's examples that vouch for a 6 wherever they are asked."""

    def verdicts(self, crops):
        return [(6, 0.99)] * len(crops)


class Agreeing:
    def __init__(self, value: int) -> None:
        self.value = value

    def verdicts(self, crops):
        return [(self.value, 0.99)] * len(crops)


def test_the_tables_examples_sharpen_the_line_and_never_lower_it(monkeypatch) -> None:
    frame = np.zeros((240, 320, 3), np.uint8)
    sure, unsure = die_at(100, 100, conf=0.999), die_at(200, 100, conf=0.6)
    sure, unsure = (
        Die(3, sure.center, 0.999, sure.quad, sure=True),
        Die(3, unsure.center, 0.6, unsure.quad),
    )
    monkeypatch.setattr("vision.reader.calibrated", lambda frame, dice: list(dice))
    disputed = DiceReader(adapter=Disputing()).checked(frame, [sure, unsure])  # type: ignore[arg-type]
    assert [d.sure for d in disputed] == [False, False]
    agreed = DiceReader(adapter=Agreeing(3)).checked(frame, [sure, unsure])  # type: ignore[arg-type]
    assert [d.sure for d in agreed] == [True, False]


# ---------------------------------------------------------------- the bench's figures


def test_a_sure_wrong_value_counts_as_wrong_and_an_unsure_one_does_not() -> None:
    labels = ((2, (0, 0, 40, 40)), (5, (100, 0, 140, 40)), (6, (200, 0, 240, 40)))
    photo = Labelled(Path("tray.jpg"), labels)
    sure_wrong = Die(3, (20.0, 20.0), 0.995, square_quad((20.0, 20.0), 40.0, 0.0), sure=True)
    unsure_wrong = Die(4, (120.0, 20.0), 0.7, square_quad((120.0, 20.0), 40.0, 0.0))
    figures = score_image(photo, Reading((sure_wrong, unsure_wrong)), "whole die").figures()
    assert (figures["right"], figures["wrong"], figures["unsure_wrong"]) == (0.0, 0.3333, 0.3333)
    assert figures["missed"] == 1 and figures["unreadable_labelled"] == 0


def test_confidences_that_mean_what_they_say_have_no_calibration_error() -> None:
    outcomes = [(0.75, True)] * 3 + [(0.75, False)] + [(1.0, True)] * 10
    assert expected_calibration_error(outcomes) == 0.0
    rows = reliability(outcomes)
    assert [(r["from"], r["dice"], r["right"]) for r in rows] == [(0.7, 4, 0.75), (0.99, 10, 1.0)]
    assert expected_calibration_error([(0.99, False)] * 2) == 0.99


# ------------------------------------------------------- seen at a slant, seen from the side


def test_dice_up_to_thirty_degrees_off_vertical_are_still_read_and_none_surely_wrong() -> None:
    """A camera straight down over a wide tray (the renderer's perspective 2.9: a die at the
    frame's side edge is seen 30 degrees off vertical, in a corner 36), its side faces showing
    toward the middle of the frame."""
    from dataclasses import replace as replaced

    from bench.scoring import Score, score_rendered
    from vision.synth.render import SceneStyle

    rng = np.random.default_rng(5)
    reader, score = DiceReader(), Score()
    for seed in range(12):
        style = replaced(SceneStyle.random(rng, "d6"), perspective=2.9)
        faces = [int(v) for v in rng.integers(1, 7, size=int(rng.integers(1, 8)))]
        scene = render_scene(faces, kind="d6", seed=32_000 + seed, style=style)
        score.add(score_rendered(scene, reader.read(scene.frame), f"scene {seed}"))
    figures = score.figures()
    assert figures["right"] >= 0.95, score.wrong
    assert figures["wrong"] == 0.0, score.wrong


def test_dice_photographed_from_the_side_are_never_given_a_wrong_value_as_sure(shared_dir) -> None:
    """Held-out photos of dice on felt seen from the side (all of one value): the front face,
    the one the camera faces, is read too, and must be shown unsure."""
    import cv2

    from bench.scoring import Score
    from vision.train._photos import load_photo_set

    boards = load_photo_set(shared_dir / "dice-photos" / "coloured-boards-train")
    side_views = [p for p in boards.photos if p.image.name.startswith(("dice_387_", "dice_423_"))]
    reader, score = DiceReader(), Score()
    for photo in side_views:
        score.add(score_image(photo, reader.read(cv2.imread(str(photo.image))), "whole die"))
    assert len(side_views) == 2 and score.dice >= 15
    assert score.sure_wrong == 0, score.wrong
    assert score.figures()["unsure_wrong"] > 0  # the front faces, shown unsure
