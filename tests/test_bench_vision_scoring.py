"""How the vision bench scores a reading against labels, and what `--misses` lists."""

from pathlib import Path

from bench.scoring import Score, score_image
from bench.vision import print_misses
from vision.read.types import Die, Reading
from vision.train._photos import Labelled

PHOTO = Labelled(
    Path("tray.jpg"), ((3, (10, 10, 40, 40)), (5, (100, 10, 130, 40)), (2, (200, 10, 230, 40)))
)


def reading(*dice: Die) -> Reading:
    return Reading(dice=dice, ms=1.0)


def test_a_right_reading_scores_every_die_and_the_image() -> None:
    score = score_image(
        PHOTO,
        reading(Die(3, (25, 25), 0.99), Die(5, (115, 25), 0.98), Die(2, (215, 25), 0.97)),
        "whole die",
    )
    assert (score.dice, score.dice_right, score.images_exact) == (3, 3, 1)
    assert score.wrong == [] and score.unlabelled == []


def test_each_miss_names_its_box_and_how_the_die_was_read() -> None:
    score = score_image(
        PHOTO,
        reading(
            Die(3, (25, 25), 0.99),
            Die(6, (115, 25), 0.71),  # misread
            Die(None, (215, 25), 0.45, reason="unsure: 2 (0.45) or 3 (0.40)"),
            Die(4, (400, 300), 0.88),  # where no label is
        ),
        "whole die",
    )
    assert (score.dice_right, score.images_exact, score.unreadable_labelled) == (1, 0, 1)
    assert score.wrong == [
        "tray.jpg [100, 10, 130, 40]: 5 read as 6 (0.71)",
        "tray.jpg [200, 10, 230, 40]: 2 read as None (0.45, unsure: 2 (0.45) or 3 (0.40))",
    ]
    assert score.unlabelled == ["tray.jpg at [400, 300]: 4 (0.88)"]
    assert score.unlabelled_valued == 1


def test_a_die_with_no_reading_near_it_is_missed() -> None:
    score = score_image(PHOTO, reading(Die(3, (25, 25), 0.99)), "whole die")
    assert score.wrong == [
        "tray.jpg [100, 10, 130, 40]: 5 read as missed",
        "tray.jpg [200, 10, 230, 40]: 2 read as missed",
    ]


def test_scores_add_up_with_their_misses(capsys) -> None:
    total = Score()
    total.add(score_image(PHOTO, reading(Die(3, (25, 25), 0.99)), "whole die"))
    total.add(score_image(PHOTO, reading(Die(4, (400, 300), 0.88)), "whole die"))
    assert (total.images, total.dice, total.dice_right) == (2, 6, 1)
    print_misses(total)
    out = capsys.readouterr().out.splitlines()
    assert len([line for line in out if line.startswith("    miss: ")]) == 5
    assert out[-1] == "    no label: tray.jpg at [400, 300]: 4 (0.88)"


def test_close_up_scenes_have_large_dice_in_moderate_perspective() -> None:
    from bench.vision import CLOSE_UP_SIZE, close_up_style
    from vision.synth.render import SceneStyle

    style = close_up_style(SceneStyle(perspective=0.9, touch_chance=0.3, surface="felt"))
    assert style.die_size == CLOSE_UP_SIZE
    assert style.perspective == 0.6 and style.touch_chance == 0.0
    assert style.surface == "felt"  # the rest of the style is kept
