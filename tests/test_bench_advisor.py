"""`tabletop bench advisor --opponent heuristic`: one line per sparring partner, the fields of
the plain bench kept, the held-out partner marked."""

from __future__ import annotations

import json

import pytest

from tabletop.cli import main


def test_heuristic_opponents_report_one_line_each_with_the_plain_fields(capsys) -> None:
    status = main(["bench", "advisor", "--only", "sequence", "--games", "2", "--budget", "5",
                   "--opponent", "heuristic", "--json"])  # fmt: skip
    assert status == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["sparring"] for line in lines] == ["liner", "cluster", "blocker"]
    assert [line["held_out"] for line in lines] == [False, False, True]
    plain = {"game", "players", "opponent", "budget_ms", "games", "win_rate", "win_rate_ci95",
             "fair_share", "advice_ms_median", "advice_ms_p95", "advice_cpu_ms_p95"}  # fmt: skip
    for line in lines:
        assert plain <= set(line) and line["games"] == 2
        low, high = line["win_rate_ci95"]
        assert 0 <= low <= line["win_rate"] <= high <= 1


def test_an_unknown_opponent_is_one_clear_line(capsys) -> None:
    assert main(["bench", "advisor", "--opponent", "nobody"]) == 2
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "--opponent" in out


def test_games_is_a_count_and_only_names_the_games_as_in_bench_review(capsys) -> None:
    """Issue 60: `bench review --games` was a count and `bench advisor --games` names."""
    with pytest.raises(SystemExit):
        main(["bench", "advisor", "--games", "sequence"])
    said = capsys.readouterr().err
    assert "not a count of games" in said and "--only" in said
    assert main(["bench", "advisor", "--only", "nosuchgame", "--games", "1"]) == 1
    assert "nosuchgame: no such game" in capsys.readouterr().out


def test_a_game_that_never_ends_is_left_out_and_counted(monkeypatch) -> None:
    """A Sequence partner may exchange dead cards without end (RULINGS 4 sets no limit): the
    bench hung on it; such a game is left out of the win rate and counted as unended."""
    import bench.review_games
    from bench.advisor import bench_game

    monkeypatch.setattr(bench.review_games, "MAX_ACTIONS", 3)  # no game ends within 3 actions
    figures = bench_game("sequence", 2, 5.0, "simple", seed=1)
    assert figures.unended == 2 and figures.games == 0
