"""`tabletop bench poker`'s figures per design kind, and `tabletop bench vision` reporting them."""

import pytest

from companion.bench import poker
from companion.bench import vision as bench_vision


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
    from vision.poker_designs import DESIGN_KINDS

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
