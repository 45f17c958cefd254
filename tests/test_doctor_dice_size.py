"""`tabletop doctor` says when the camera shows the tray's dice under the ruling's 40 px (#55)."""

from __future__ import annotations

from pathlib import Path

from companion.setup_checks import check_dice_size
from tabletop.cli import main
from vision.synth.render import SceneStyle, render_empty, render_scene


def tray(low: float, high: float) -> object:
    return render_scene([1, 4, 6, 2], seed=5, style=SceneStyle(die_size=(low, high))).frame


def test_dice_under_the_ruling_are_a_problem_naming_their_size_and_the_fix():
    check = check_dice_size(tray(24.0, 27.0), None)
    assert not check.ok and not check.blocking
    assert check.label == "dice size"
    assert "px across at 640x480, under the 40 px the reader needs" in check.detail
    size = int(check.detail.split("dice ")[1].split(" px")[0])
    assert 18 <= size < 40
    assert "no larger size" in check.fix and "closer" in check.fix


def test_dice_under_the_ruling_name_the_capture_size_that_reads_them():
    check = check_dice_size(tray(24.0, 27.0), None, offered=[(960, 720), (1920, 1440)])
    assert not check.ok
    assert "captures at 960x720" in check.fix or "captures at 1920x1440" in check.fix
    assert "settings screen" in check.fix


def test_dice_of_the_ruling_size_pass():
    check = check_dice_size(tray(50.0, 56.0), (20, 20, 600, 440))
    assert check.ok
    assert "in the calibrated tray" in check.detail and "(at least 40)" in check.detail


def test_an_empty_tray_says_how_to_check():
    check = check_dice_size(render_empty(seed=3), None)
    assert check.ok and "no dice seen at 640x480" in check.detail


def test_doctor_prints_the_dice_size_line(tmp_path: Path, capsys) -> None:
    config = tmp_path / "config.toml"
    config.write_text('language = "en"\n[camera]\nspec = "sim"\ntray_roi = [40, 30, 560, 420]\n')
    main(["doctor", "--config", str(config), "--state-dir", str(tmp_path / "s")])
    (line,) = [line for line in capsys.readouterr().out.splitlines() if "dice size" in line]
    assert line.startswith("OK") and "in the calibrated tray" in line
