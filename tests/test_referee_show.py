"""The referee's `show` returns the position as each docs/games page describes it, for a
spectator or, with `show PLAYER` / `--as PLAYER`, as that player sees it; docs/referee.md's
examples are what the referee really answers (#23)."""

from __future__ import annotations

import json
import random
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import engines
from companion.referee import Referee
from tests.test_engine_parsers import _advance

CASES = [(name, mode) for name in engines.available_games() for mode in ("full", "table")]
DOC = Path(__file__).resolve().parent.parent / "docs" / "referee.md"


def referee_at(name: str, mode: str, steps: int, **kwargs) -> Referee:
    rng = random.Random(steps)
    cls = engines.game_class(name)
    players = [f"P{i}" for i in range(cls.player_counts()[0])]
    state = cls(players, seed=steps, mode=mode).new_state()
    return Referee(_advance(state, rng, steps), **kwargs)


@pytest.mark.parametrize(("name", "mode"), CASES)
@pytest.mark.parametrize("steps", [0, 30, 120])
def test_show_returns_the_engines_view_for_a_spectator_and_for_each_player(name, mode, steps):
    referee = referee_at(name, mode, steps)
    before = referee.state.clone()
    reply = referee.handle("show")
    assert reply["ok"] and reply["view"] == referee.state.view(None) and reply["viewer"] is None
    for seat, player in enumerate(referee.state.players):
        assert referee.handle(f"show {seat}")["view"] == referee.state.view(seat)
        assert referee.handle(f"show {player.lower()}")["viewer"] == seat
    json.dumps(reply)  # the view is JSON as it is
    assert referee.state == before


def test_show_as_a_player_given_at_the_start():
    referee = referee_at("strategix", "full", 10, viewer=1)
    view = referee.handle("show")["view"]
    assert view == referee.state.view(1)
    assert view["hands"][1] is not None and view["hands"][0] is None


def test_show_for_an_unknown_player_is_refused_and_changes_nothing():
    referee = referee_at("struggle", "table", 5)
    reply = referee.handle("show Zed")
    assert reply["ok"] is False and "Zed" in reply["error"] and "view" not in reply


def examples() -> list[tuple[list[str], list[tuple[str, dict]]]]:
    """Each `$ tabletop referee …` block of docs/referee.md: its arguments and (line, reply)."""
    found = []
    for block in re.findall(r"```\n(\$ tabletop referee .*?)```", DOC.read_text(), re.S):
        command, *rest = block.strip().splitlines()
        pairs = [(rest[i], json.loads(rest[i + 1])) for i in range(0, len(rest), 2)]
        found.append((shlex.split(command)[3:], pairs))
    return found


@pytest.mark.parametrize("example", examples(), ids=lambda e: " ".join(e[0]))
def test_the_documented_examples_are_what_the_referee_answers(example):
    arguments, pairs = example
    lines = "".join(line + "\n" for line, _ in pairs)
    done = subprocess.run([sys.executable, "-m", "tabletop", "referee", *arguments],
                          input=lines, capture_output=True, text=True, timeout=120)  # fmt: skip
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(replies) == len(pairs)
    for (line, shown), reply in zip(pairs, replies, strict=True):
        assert_shown(shown, reply, line)


def assert_shown(shown, actual, where: str) -> None:
    """The documented reply is part of the real one: some keys of each object, the first few
    items of a list (the legal actions, the advisor's choices); every value shown is exact."""
    if isinstance(shown, dict):
        assert isinstance(actual, dict), where
        for key, value in shown.items():
            assert key in actual, f"{where}: no {key!r} in the reply"
            assert_shown(value, actual[key], f"{where}: {key}")
    elif isinstance(shown, list):
        assert isinstance(actual, list) and len(actual) >= len(shown), where
        for number, (item, real) in enumerate(zip(shown, actual, strict=False)):
            assert_shown(item, real, f"{where}[{number}]")
    else:
        assert shown == actual, where


def test_every_example_block_of_the_referee_page_is_run() -> None:
    """A reply written on the page outside a `$ tabletop referee` block would go unchecked."""
    text = DOC.read_text()
    replies = [line for line in text.splitlines() if line.startswith('{"ok"')]
    assert len(replies) == sum(len(pairs) for _, pairs in examples()) >= 10


def test_a_shown_list_is_a_prefix_and_a_wrong_value_fails() -> None:
    assert_shown({"legal": ["a"]}, {"legal": ["a", "b"], "ok": True}, "here")
    with pytest.raises(AssertionError):
        assert_shown({"legal": ["b"]}, {"legal": ["a", "b"]}, "here")
    with pytest.raises(AssertionError):
        assert_shown({"notes": [{"code": "x"}]}, {"notes": []}, "here")
