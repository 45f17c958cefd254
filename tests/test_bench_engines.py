"""`tabletop bench engines`: games named with --only, as in every bench."""

from __future__ import annotations

import json

from tabletop.cli import main


def test_only_names_the_games_and_json_gives_one_object_each(capsys) -> None:
    assert main(["bench", "engines", "--only", "roudalon", "--seconds", "0.05", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["game"] for line in lines] == ["roudalon"]


def test_the_former_games_option_still_names_games(capsys) -> None:
    assert main(["bench", "engines", "--games", "roudalon", "--seconds", "0.05", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == "roudalon"


def test_an_unknown_game_is_one_line_and_a_failure(capsys) -> None:
    assert main(["bench", "engines", "--only", "nosuchgame", "--seconds", "0.05"]) == 1
    said = capsys.readouterr().out
    assert said.count("\n") == 1 and "nosuchgame" in said
