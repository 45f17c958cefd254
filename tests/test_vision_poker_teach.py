"""Teaching the reader a poker design the shipped profile never saw, from close-up photos and from
tray photos, then reading whole trays of it (issue #25)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from bench.poker import Tally, read_tray, tray_scene, write_teaching_photos
from vision.profiles.profile_learning import learn_from_dir
from vision.read.find import candidate_angle
from vision.read.types import POKER_FACES
from vision.reader import DiceReader
from vision.synth.poker_designs import DESIGN_KINDS, PokerDesign
from vision.synth.render import SceneStyle, render_close_up, render_scene

TRAYS = 12
# Floors under what was measured on this design and these trays: 59 of 60 dice right, none
# wrong, taught either way (2026-11-27; close-up taught 0.68 when its A was learned on the large
# club alone). The target is 99.5% of dice right, which this reader reaches on the
# bench's default designs but not on every design (docs/vision.md, "Teaching poker dice: what
# to expect").
FLOORS = {"tray": 0.95, "close-up": 0.95}
WRONG_AT_MOST = 0.02


@pytest.mark.parametrize("way", ["tray", "close-up"])
def test_a_design_never_seen_is_taught_from_three_photos_per_face_and_read(way, tmp_path):
    cv2.setNumThreads(1)
    design = PokerDesign.random(np.random.default_rng([7, 1]), "pips")
    write_teaching_photos(tmp_path, design, way, seed=7)
    profile = learn_from_dir(tmp_path, "poker")
    assert profile.self_check() >= 0.5  # said honestly, whatever it is
    reader = DiceReader("poker", profile=profile)
    tally = Tally()
    for tray in range(TRAYS):
        read_tray(reader, design, 7, tray, tally)
    figures = tally.figures()
    assert figures["dice_right"] >= FLOORS[way], figures
    assert figures["wrong"] <= WRONG_AT_MOST, figures


def test_a_close_up_photo_of_one_die_is_learned_not_refused(tmp_path):
    """Before: "no die found in this photo" at the first close-up."""
    design = PokerDesign.random(np.random.default_rng(11), "letters")
    write_teaching_photos(tmp_path, design, "close-up", seed=11)
    profile = learn_from_dir(tmp_path, "poker")
    assert profile.counts() and all(n >= 2 for n in profile.counts().values())


@pytest.mark.parametrize("kind", DESIGN_KINDS)
def test_designs_print_six_different_faces_and_vary_between_makers(kind):
    rng = np.random.default_rng(3)
    first, second = PokerDesign.random(rng, kind), PokerDesign.random(rng, kind)
    assert first.kind == kind and first != second
    body = np.full((128, 128, 3), 235, np.uint8)
    textures = []
    for face in POKER_FACES:
        texture = body.copy()
        first.draw(texture, face)
        assert (texture != body).any()
        textures.append(texture)
    assert len({t.tobytes() for t in textures}) == 6
    with pytest.raises(ValueError, match="poker face"):
        first.draw(body.copy(), "B")
    with pytest.raises(ValueError, match="design kind"):
        PokerDesign.random(rng, "runes")


def test_a_close_up_shows_one_large_die_with_its_truth():
    design = PokerDesign.random(np.random.default_rng(5), "figures")
    style = replace(SceneStyle(), poker_design=design)
    scene = render_close_up("Q", seed=4, style=style, fill=0.5)
    assert scene.frame.shape == (480, 640, 3) and len(scene.dice) == 1
    die = scene.dice[0]
    side = float(np.linalg.norm(die.quad[0] - die.quad[1]))
    assert die.value == "Q" and 0.4 * 480 < side < 0.6 * 480
    assert render_scene(["Q"], kind="poker", style=style, seed=4).dice[0].value == "Q"


def test_a_real_poker_set_is_taught_and_read_when_the_photos_are_there():
    from bench.poker import bench_real_set

    result = bench_real_set(None)
    if isinstance(result, str):
        pytest.skip(result)
    assert result["self_check"] > 0 and result["dice"] > 0


def test_teaching_module_finds_the_die_in_a_tray_photo_and_a_close_up():
    from vision.profiles.teaching import best_square, dice_in_photo, shrunk

    design = PokerDesign.random(np.random.default_rng(9), "pips")
    style = replace(SceneStyle(), poker_design=design)
    for scene in (
        render_scene(["K"], kind="poker", seed=2, style=style),
        render_close_up("K", seed=2, style=style, fill=0.45),
    ):
        truth = scene.dice[0]
        side = float(np.linalg.norm(truth.quad[0] - truth.quad[1]))
        dice = dice_in_photo(shrunk(scene.frame))
        near = [d for d in dice if np.hypot(*np.subtract(d.center, truth.center)) < side / 2]
        assert near, "the die is found"
        square = best_square(scene.frame, near[0])
        assert abs(square.size / side - 1) < 0.3


@pytest.mark.parametrize("kind", DESIGN_KINDS)
def test_a_close_ups_die_stands_out_from_its_border_whole(kind):
    """The finder sees a close die's print (a 9's loop, a crown) as small dice; the patch
    standing out from the table around it is the whole die."""
    from vision.profiles.close_up import die_standing_out

    for seed in range(3):
        design = PokerDesign.random(np.random.default_rng([seed, 5]), kind)
        style = replace(SceneStyle(), poker_design=design)
        scene = render_close_up("9", seed=seed, style=style, fill=0.3 + 0.1 * seed)
        truth = scene.dice[0]
        side = float(np.linalg.norm(truth.quad[0] - truth.quad[1]))
        found = die_standing_out(scene.frame)
        assert found is not None
        assert np.hypot(*np.subtract(found.center, truth.center)) < 0.2 * side
        assert 0.9 < found.size / side < 1.3  # its shadow and side faces with it


def test_nothing_stands_out_of_a_bare_table():
    from vision.profiles.close_up import die_standing_out

    rng = np.random.default_rng(3)
    table = np.clip(rng.normal(120, 6, (480, 640, 3)), 0, 255).astype(np.uint8)
    assert die_standing_out(table) is None


def test_a_photo_is_brought_to_the_cameras_size():
    from vision.profiles.teaching import PHOTO_SIDE, shrunk

    assert shrunk(np.zeros((3000, 4000, 3), np.uint8)).shape == (480, PHOTO_SIDE, 3)
    assert shrunk(np.zeros((100, 75, 3), np.uint8)).shape == (PHOTO_SIDE, 480, 3)  # grown
    camera = np.zeros((480, PHOTO_SIDE, 3), np.uint8)
    assert shrunk(camera) is camera


def test_a_close_ups_top_face_is_found_with_the_photo_zoomed_out():
    """Shrunk until the die is a tray die's size, the finder gives the close-up's die (centre
    and side near its top face's), and nothing where no die is."""
    from vision.profiles.close_up import die_standing_out
    from vision.profiles.teaching import die_zoomed_out

    for seed in range(8):
        kind = DESIGN_KINDS[seed % len(DESIGN_KINDS)]
        design = PokerDesign.random(np.random.default_rng([seed, 6]), kind)
        style = replace(SceneStyle(), poker_design=design)
        scene = render_close_up(POKER_FACES[seed % 6], seed=seed, style=style, fill=0.45)
        truth = scene.dice[0]
        side = float(np.linalg.norm(truth.quad[0] - truth.quad[1]))
        top = die_zoomed_out(scene.frame, die_standing_out(scene.frame))
        assert top is not None
        assert np.hypot(*np.subtract(top.center, truth.center)) < 0.15 * side
        assert 0.8 < top.size / side < 1.3
    rng = np.random.default_rng(4)
    table = np.clip(rng.normal(120, 6, (480, 640, 3)), 0, 255).astype(np.uint8)
    patch = die_standing_out(scene.frame)
    assert die_zoomed_out(table, patch) is None


def test_a_close_ups_top_face_is_turned_as_the_die_is():
    """The square learned from a close-up is turned as the die's top face, whatever its print:
    the finder's own turn of a face of clubs or a spade was often far off (up to 45 degrees).
    (A white die on a white table is the exception: what stands out is its print.)"""
    from vision.profiles.close_up import die_standing_out
    from vision.profiles.teaching import die_zoomed_out

    offs = []
    for seed in range(12):
        kind = DESIGN_KINDS[seed % len(DESIGN_KINDS)]
        design = PokerDesign.random(np.random.default_rng([seed, 7]), kind)
        style = replace(SceneStyle(), poker_design=design)
        for face in ("9", "A"):
            scene = render_close_up(face, seed=100 + seed, style=style, fill=0.45)
            edge = scene.dice[0].quad[1] - scene.dice[0].quad[0]
            patch = die_standing_out(scene.frame)
            top = die_zoomed_out(scene.frame, patch) if patch else None
            if top is None:  # a die on a table of its own colour: learning uses the usual look
                continue
            off = (candidate_angle(top) - np.degrees(np.arctan2(edge[1], edge[0]))) % 90
            offs.append(min(off, 90 - off))
    assert len(offs) >= 20
    assert sum(off < 5 for off in offs) >= len(offs) - 2, np.round(offs)


def _bench_close_up(kind: str, seed: int, face: str, photo: int):
    """The close-up `tabletop bench poker` teaches design `seed` of `kind` from: photo `photo`
    of `face`."""
    from bench.poker import teaching_photos

    design = PokerDesign.random(np.random.default_rng([seed, 1]), kind)
    photos = teaching_photos(design, "close-up", seed)
    (chosen,) = [p for p in photos if (p.face, p.index) == (face, photo)]
    return chosen.render()


@pytest.mark.parametrize(
    ("kind", "seed", "face", "photo"),
    [("letters", 1, "A", 0), ("letters", 1, "Q", 2), ("figures", 2, "J", 0), ("pips", 1, "Q", 2)],
)
def test_an_ivory_die_on_a_pale_table_lit_from_one_side_stands_out(kind, seed, face, photo):
    """The table is taken as a smooth surface of colour, not one colour: with one colour, the
    lit side's gradient counted as the table's spread, and these dice stood out only by their
    print (no square, or a third of the die)."""
    from vision.profiles.close_up import die_standing_out

    scene = _bench_close_up(kind, seed, face, photo)
    truth = scene.dice[0]
    side = float(np.linalg.norm(truth.quad[0] - truth.quad[1]))
    found = die_standing_out(scene.frame)
    assert found is not None
    assert np.hypot(*np.subtract(found.center, truth.center)) < 0.2 * side
    assert 0.9 < found.size / side < 1.3


def test_a_pencils_end_beside_the_die_in_two_photos_of_a_face_is_not_learned(tmp_path):
    """Design 13 of the bench's figures, taught in the tray: two of the K photos show the end of
    the same yellow pencil beside the die, and the two ends were more alike than the dice, so K
    was learned as a pencil and no K was read. The dice of a set show about one size in the
    tray photos; the pencil's end is half of it."""
    cv2.setNumThreads(1)
    design = PokerDesign.random(np.random.default_rng([13, 1]), "figures")
    write_teaching_photos(tmp_path, design, "tray", seed=13)
    reader = DiceReader("poker", profile=learn_from_dir(tmp_path, "poker"))
    kings = read = 0
    for tray in range(10):
        rng = np.random.default_rng([13, 3, tray])
        style = replace(SceneStyle.random(rng, "poker"), poker_design=design)
        scene = render_scene(["K", "Q", "A"], kind="poker", seed=95_000 + tray, style=style)
        reading = reader.read(scene.frame)
        king = next(d for d in scene.dice if d.value == "K")
        kings += 1
        read += any(
            d.value == "K" and np.hypot(*np.subtract(d.center, king.center)) < 15
            for d in reading.dice
        )
    assert read >= 9, f"{read} of {kings} kings read"


def test_only_one_cameras_photos_narrow_a_photos_dice_to_the_usual_size():
    """Tray photos of one camera (one pixel size) show the set's dice about one size: a far
    smaller die beside one of the usual size is not offered. Photos of other sizes and dice
    photographed large keep every die, and no photo loses all of its dice."""
    from pathlib import Path

    from vision.profiles.profile_learning import _of_usual_sizes
    from vision.read.find import square_quad
    from vision.read.types import DieCandidate

    def die(side: float, score: float) -> DieCandidate:
        return DieCandidate((100.0, 100.0), square_quad((100.0, 100.0), side, 0.0), side, score)

    tray, close_up = np.zeros((480, 640, 3), np.uint8), np.zeros((80, 80, 3), np.uint8)
    photos = [[die(50, 0.6), die(24, 0.5)], [die(47, 0.5)], [die(22, 0.7), die(48, 0.5)]]
    photos += [[die(49, 0.6)], [die(20, 0.4), die(21, 0.3)]]
    found = [("K", Path(f"K/{i}.png"), tray, dice) for i, dice in enumerate(photos)]
    found += [("K", Path("K/close.png"), close_up, [die(60, 0.6), die(20, 0.5)])]
    # close-ups brought to the camera's size: as large as three tray photos' dice, no matter
    found += [("Q", Path(f"Q/{i}.png"), tray, [die(300, 0.9), die(30, 0.3)]) for i in range(3)]
    kept = [[d.size for d in dice] for *_, dice in _of_usual_sizes(found)]
    assert kept == [[50], [47], [48], [49], [20, 21], [60, 20]] + [[300, 30]] * 3


def test_a_close_up_taught_nine_is_found_in_the_tray(tmp_path):
    """Design 0 of the bench's pip designs, taught from close-ups: its 9 (nine black clubs) was
    learned crisp, and in the tray, 40 px across, a 9 was less like those templates than the
    threshold: 12 of the 9s of 40 trays were never found. A die photographed large is learned
    as the table's camera sees one too."""
    cv2.setNumThreads(1)
    design = PokerDesign.random(np.random.default_rng([0, 1]), "pips")
    write_teaching_photos(tmp_path, design, "close-up", seed=0)
    reader = DiceReader("poker", profile=learn_from_dir(tmp_path, "poker"))
    nines = read = 0
    for tray in (1, 2, 10, 22):  # trays where the 9s were lost
        scene = tray_scene(design, 0, tray)
        reading = reader.read(scene.frame)
        for nine in (d for d in scene.dice if d.value == "9"):
            nines += 1
            read += any(
                d.value == "9" and np.hypot(*np.subtract(d.center, nine.center)) < 15
                for d in reading.dice
            )
    assert nines >= 6 and read >= nines - 1, f"{read} of {nines} nines read"


def test_a_die_photographed_large_is_learned_as_the_table_sees_one_too():
    from vision.profiles.profile_learning import as_the_table_sees
    from vision.profiles.teaching import TABLE_SIDE

    crop = np.zeros((64, 64, 3), np.uint8)
    crop[::2] = 255  # a print finer than the table's camera shows
    seen = as_the_table_sees(crop)
    assert seen.shape == crop.shape
    assert seen.std() < crop.std() / 2
    assert TABLE_SIDE < 64
