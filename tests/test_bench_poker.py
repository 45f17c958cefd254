"""`tabletop bench poker`'s figures per design kind, and `tabletop bench vision` reporting them."""

import pytest

from bench import poker
from bench import vision as bench_vision


def test_design_figures_report_each_kind_and_way_and_all_of_them(capsys) -> None:
    report = poker.design_figures(["letters"], ["tray"], designs=1, trays=1, seed=3)
    figures = report["kinds"]["letters"]["tray"]
    assert figures["designs"] == 1 and figures["trays"] == 1
    assert 1 <= figures["dice"] <= 7
    assert figures["dice_right"] + figures["unreadable"] + figures["wrong"] == pytest.approx(1.0)
    assert report["all"]["dice"] == figures["dice"]
    assert "letters  taught tray" in capsys.readouterr().out


def test_quiet_design_figures_print_nothing(capsys) -> None:
    poker.design_figures(["pips"], ["close-up"], designs=1, trays=1, seed=4, quiet=True)
    assert capsys.readouterr().out == ""


def test_bench_vision_reports_every_design_kind_and_way(monkeypatch) -> None:
    from vision.synth.poker_designs import DESIGN_KINDS

    asked = {}

    def fake(kinds, ways, designs, trays, seed, quiet=False):
        asked.update(kinds=kinds, ways=ways, designs=designs, trays=trays, seed=seed)
        return {"kinds": {}, "all": {}}

    monkeypatch.setattr(poker, "design_figures", fake)
    assert bench_vision.poker_design_figures(limit=5) == {"kinds": {}, "all": {}}
    assert asked == {
        "kinds": list(DESIGN_KINDS),
        "ways": list(poker.WAYS),
        "designs": poker.DESIGNS,
        "trays": 5,
        "seed": 0,
    }
    bench_vision.poker_design_figures(limit=None)
    assert asked["trays"] == poker.TRAYS


def test_heldout_figures_report_every_family_apart() -> None:
    """One tray of one design of each held-out family, taught in the tray: right, wrong and the
    figures of each family and way, the shares of what was read."""
    from bench import poker_heldout
    from vision.synth.heldout_poker import FAMILIES

    report = poker_heldout.heldout_figures(["tray"], designs=1, trays=1, seed=0)
    assert set(report["by_family"]) == set(FAMILIES)
    for family in FAMILIES:
        figures = report["by_family"][family]
        tray = figures["tray"]
        assert tray["designs"] == 1 and tray["trays"] == 1
        assert (figures["right"], figures["wrong"]) == (tray["dice_right"], tray["wrong"])
        assert tray["dice_right"] + tray["unreadable"] + tray["wrong"] == pytest.approx(1.0)
    assert 0.0 <= report["right"] <= 1.0 and 0.0 <= report["wrong"] <= 1.0
    assert report["ways"] == {"tray": {"right": report["right"], "wrong": report["wrong"]}}
    assert 4 <= report["dice"] <= 7 * len(FAMILIES)


def test_heldout_close_ups_come_in_every_size_a_player_takes(tmp_path) -> None:
    import cv2

    from bench import poker_heldout
    from vision.synth.heldout_poker import FACES, design

    poker_heldout.write_heldout_photos(tmp_path, design("pips-figures", 1), "close-up", seed=1)
    sizes = [max(cv2.imread(str(p)).shape[:2]) for p in tmp_path.glob("*/*.png")]
    assert len(sizes) == len(FACES) * poker.PHOTOS_PER_FACE
    low, high = poker_heldout.CLOSE_UP_PX
    assert all(low <= size <= high for size in sizes)
    assert min(sizes) < 300 < max(sizes)


def test_a_bench_poker_argument_out_of_range_is_one_line(capsys) -> None:
    from tabletop.cli import main

    assert main(["bench", "poker", "--trays", "0", "--no-heldout"]) == 2
    assert capsys.readouterr().out.strip().count("\n") == 0
