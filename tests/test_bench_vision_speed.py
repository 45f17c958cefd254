"""The vision bench's speed figure: every frame timed in each pass, after a warm-up."""

import math

import numpy as np

from bench.vision import speed


def test_speed_times_every_frame_in_every_pass_after_a_warm_up() -> None:
    reads: list[int] = []
    frames = [np.full((4, 4, 3), value, np.uint8) for value in range(5)]
    figures = speed(lambda frame: reads.append(int(frame[0, 0, 0])), frames, passes=3)
    assert reads == [0, 1, 2] + [0, 1, 2, 3, 4] * 3
    assert len(figures["pass_medians"]) == 3
    assert 0.0 <= min(figures["pass_medians"]) <= figures["ms_per_frame"]
    assert figures["ms_per_frame"] <= max(figures["pass_medians"])


def test_speed_without_frames_is_not_a_number() -> None:
    figures = speed(lambda frame: None, [])
    assert math.isnan(figures["ms_per_frame"])
    assert figures["pass_medians"] == []


def test_the_bench_refuses_fewer_than_one_pass(capsys) -> None:
    from tabletop.cli import main

    assert main(["bench", "vision", "--speed-only", "--passes", "0"]) == 2
    assert capsys.readouterr().out == "error: --passes must be at least 1, got 0\n"


def test_speed_only_without_the_photos_says_where_its_frames_come_from(capsys, monkeypatch) -> None:
    from bench import vision as bench

    monkeypatch.setattr(bench, "default_shared_dir", lambda: None)
    assert bench.run(bench_args(speed_only=True)) == 2
    out = capsys.readouterr().out
    assert "made from shared/dice-photos, which was not found" in out
    assert "development" not in out  # no accuracy figures were asked for


def bench_args(**values):
    import argparse

    defaults = {
        "shared": None,
        "limit": None,
        "json": False,
        "speed_only": False,
        "passes": 5,
        "misses": False,
    }
    return argparse.Namespace(**{**defaults, **values})
