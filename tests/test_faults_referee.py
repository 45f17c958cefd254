"""Faults at the referee (#22): every line gets one JSON reply, a refusal never moves the game."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from bench.referee_fuzz import KNOWN_BAD, fuzz
from companion.referee import Referee

GAMES = ("struggle", "traverse", "strategix", "sequence", "roudalon")


def referee_for(game: str, mode: str = "full") -> Referee:
    cls = engines.game_class(game)
    players = [f"P{i + 1}" for i in range(cls.player_counts()[0])]
    return Referee(cls(players, {}, seed=5, mode=mode).new_state(), auto_chance=mode == "full")


def run_cli(args: list[str], stdin: bytes, **env: str) -> subprocess.CompletedProcess:
    environ = {**os.environ, "LANG": "en_GB.UTF-8", "LC_ALL": "", "PYTHONUTF8": "0", **env}
    return subprocess.run(
        [sys.executable, "-m", "tabletop", *args],
        input=stdin,
        capture_output=True,
        env=environ,
        timeout=60,
    )


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("line", KNOWN_BAD)
def test_known_bad_lines_are_refused_in_one_line_and_change_nothing(game, line):
    referee = referee_for(game)
    before = referee.state.clone()
    reply = referee.answer(line)
    assert reply["ok"] is False and reply["error"]
    assert "\n" not in reply["error"]
    assert referee.state == before


def test_an_engine_bug_is_refused_and_the_game_goes_on(monkeypatch):
    referee = referee_for("traverse")
    before = referee.state.clone()

    def broken(text):
        raise TypeError("boom")

    monkeypatch.setattr(referee.state, "apply", broken)
    reply = referee.answer("anything")
    assert reply["ok"] is False and "TypeError: boom" in reply["error"]
    monkeypatch.undo()
    assert referee.state == before
    assert referee.answer("show")["ok"] is True


def test_partial_work_of_a_failing_line_is_undone(monkeypatch):
    referee = referee_for("struggle", "full")
    played = len(referee.state.history)
    legal = referee.state.legal_actions()[0].notation

    def chance_breaks():
        raise RuntimeError("chance broke")

    monkeypatch.setattr(referee, "_run_chance", chance_breaks)
    reply = referee.answer(legal)
    assert reply["ok"] is False and "chance broke" in reply["error"]
    assert len(referee.state.history) == played


def test_invalid_utf8_under_a_utf8_locale_loses_no_earlier_reply():
    stdin = b"show\n\xff\xfe\xc3 bad\nshow\n"
    result = run_cli(["referee", "traverse"], stdin)
    replies = [json.loads(line) for line in result.stdout.decode("utf-8").splitlines()]
    assert [r["ok"] for r in replies] == [True, False, True]
    assert "UTF-8" in replies[1]["error"]
    assert result.returncode == 0 and b"Traceback" not in result.stderr


def test_a_deeply_nested_saved_game_is_one_line_exit_2(tmp_path):
    saved = tmp_path / "deep.json"
    saved.write_text("[" * 100_000)
    result = run_cli(["referee", "struggle", "--state", str(saved)], b"")
    assert result.returncode == 2
    assert b"Traceback" not in result.stderr
    assert len(result.stderr.decode().strip().splitlines()) == 1


@pytest.mark.parametrize("value", [5, [1, 2], None, {"a": 1}, "x" * 5000])
def test_options_of_the_wrong_type_in_a_saved_game_are_one_line(tmp_path, value):
    state = engines.make_game("traverse", ["A", "B"], {}, 1, "full").new_state()
    data = engines.saves.to_dict(state)
    data["options"] = {"track": value}
    body = {k: v for k, v in data.items() if k != "digest"}
    data["digest"] = engines.saves._digest(body)
    saved = tmp_path / "odd.json"
    saved.write_text(json.dumps(data))
    result = run_cli(["referee", "traverse", "--state", str(saved)], b"show\n")
    assert b"Traceback" not in result.stderr
    assert result.returncode in (0, 2)
    if result.returncode == 2:
        assert len(result.stderr.decode().strip().splitlines()) == 1


@settings(max_examples=150, deadline=None)
@given(line=st.binary(max_size=80) | st.text(max_size=80), game=st.sampled_from(GAMES))
def test_arbitrary_bytes_and_text_never_escape_and_never_move_a_refused_game(line, game):
    referee = referee_for(game)
    before = referee.state.clone()
    reply = referee.answer(line)
    json.dumps(reply, ensure_ascii=False)
    if not reply["ok"]:
        assert referee.state == before


def test_fuzz_1000_lines_every_game_both_modes_is_clean():
    figures = fuzz(1000, seed=3)
    assert figures.escaped == 0
    assert figures.changed_on_refusal == 0
    assert set(figures.games) == {f"{g}/{m}" for g in GAMES for m in ("full", "table")}


@pytest.mark.parametrize("game", GAMES)
def test_hostile_stdin_through_the_command_one_reply_per_line(game):
    import random

    from bench.referee_fuzz import hostile_bytes, spoil

    rng = random.Random(game)
    lines = [b"show", *(line if isinstance(line, bytes) else line.encode() for line in KNOWN_BAD)]
    lines += [spoil("roll 1 2 3", rng).encode() for _ in range(40)]
    lines += [hostile_bytes(rng).replace(b"\n", b" ") for _ in range(60)]
    lines.append(b"show")
    result = run_cli(["referee", game, "--auto-chance"], b"\n".join(lines) + b"\n")
    replies = [json.loads(line) for line in result.stdout.decode("utf-8").splitlines()]
    assert len(replies) == len(lines)
    assert replies[0]["legal"] == replies[-1]["legal"] or any(r["ok"] for r in replies[1:-1])
    assert result.returncode == 0 and result.stderr == b""
