"""The referee line protocol, in-process and through the real `tabletop referee` command."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import engines
from companion.referee import Referee


def struggle(mode: str = "table") -> Referee:
    return Referee(engines.make_game("struggle", ["Ana", "Bob"], seed=3, mode=mode).new_state())


def test_every_line_gets_one_reply_with_the_required_keys() -> None:
    referee = struggle()
    for line in ["show", "first 0", "roll 9 9 J Q A", "", "garbage", "x" * 2000, "undo"]:
        reply = referee.handle(line)
        assert {"ok", "actor", "legal", "over", "scores"} <= set(reply)
        assert ("error" in reply) == (not reply["ok"])


def test_bad_lines_change_nothing() -> None:
    referee = struggle()
    referee.handle("first 1")
    before = referee.state.clone()
    for line in ["", "   ", "roll 1 2 3", "roll 9 9", "first 0", "x" * 1001, "undo undo"]:
        reply = referee.handle(line)
        assert reply["ok"] is False and reply["error"]
    assert referee.state == before


def test_undo_takes_back_the_line_and_its_sampled_chance() -> None:
    referee = Referee(engines.make_game("struggle", ["A", "B"], seed=1).new_state(), True)
    start = referee.state.clone()
    assert referee.handle("undo")["ok"] is False  # the opening deal and draw are no line's
    first_choice = referee.handle("show")["legal"][0]
    reply = referee.handle(first_choice)
    assert reply["ok"] and len(reply["applied"]) >= 2  # the play, then the next roll
    assert referee.handle("undo")["undone"]
    assert referee.state == start


def test_save_reply_loads_back_to_the_same_game() -> None:
    referee = struggle()
    referee.handle("first 0")
    referee.handle("roll J J J 10 10")
    saved = referee.handle("save")["save"]
    assert engines.loads(json.dumps(saved)) == referee.state


def run_referee(args: list[str], lines: list[str]) -> list[dict]:
    result = subprocess.run(
        [sys.executable, "-m", "tabletop", "referee", *args],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(replies) == len(lines)
    return replies


def test_a_full_struggle_game_from_a_script_with_auto_chance() -> None:
    # Drive the real command one line at a time, choosing from each reply's legal list.
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "referee", "struggle", "--players", "A,B,C",
         "--seed", "7", "--auto-chance"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    rng = random.Random(2)
    reply = _ask(proc, "show")
    for _ in range(5000):
        if reply["over"]:
            break
        assert reply["actor"] != "chance"
        reply = _ask(proc, rng.choice(reply["legal"]))
        assert reply["ok"]
    proc.stdin.close()
    proc.wait(timeout=30)
    assert reply["over"] and sum(reply["scores"]) > 0 and reply["winners"]


def test_a_full_struggle_game_with_every_roll_typed_in() -> None:
    # No --auto-chance: the script supplies each roll, as the camera would.
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "referee", "struggle", "--players", "A,B",
         "--mode", "table"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    rng = random.Random(4)
    reply = _ask(proc, "first 1")
    for _ in range(5000):
        if reply["over"]:
            break
        if reply["actor"] == "chance":
            count = int(reply["expects"].split("<")[1].split()[0])
            line = "roll " + " ".join(rng.choice("9 10 J Q K A".split()) for _ in range(count))
        else:
            line = rng.choice(reply["legal"])
        reply = _ask(proc, line)
        assert reply["ok"], reply
    proc.stdin.close()
    proc.wait(timeout=30)
    assert reply["over"] and reply["winners"]


def _ask(proc: subprocess.Popen, line: str) -> dict:
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def test_bad_option_and_unknown_state_file_are_clear_errors(tmp_path) -> None:
    for args, message in [
        (["struggle", "--option", "track=QQQQQ"], "track"),
        (["struggle", "--option", "nope=1"], "unknown option"),
        (["struggle", "--state", str(tmp_path / "missing.json")], "cannot read"),
        (["struggle", "--players", "A"], "players"),
    ]:
        result = subprocess.run(
            [sys.executable, "-m", "tabletop", "referee", *args],
            input="", capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert result.returncode == 2 and message in result.stderr


def strategix_table() -> Referee:
    game = engines.make_game("strategix", ["Ana", "Bob", "Cy"], mode="table")
    return Referee(game.new_state())


def test_a_strategix_leader_is_told_to_lead_any_formula() -> None:
    referee = strategix_table()
    reply = referee.handle("first 0")
    assert reply["legal"] == []  # too many formulas to list
    assert [note["code"] for note in reply["notes"]] == ["strategix.may.lead"]
    assert reply["notes"][0]["text"].startswith("lead with any formula")
    assert referee.handle("show")["notes"] == reply["notes"]


def test_a_strategix_follower_is_told_the_shape_and_strength_to_beat() -> None:
    referee = strategix_table()
    referee.handle("first 0")
    reply = referee.handle("play D E F")
    codes = [note["code"] for note in reply["notes"]]
    assert codes == ["strategix.may.follow", "strategix.may.pass", "strategix.may.petard"]
    follow = reply["notes"][0]
    assert follow["params"]["top"] == "D E F" and follow["params"]["low"] == "D"
    assert follow["params"]["shape"] == {
        "code": "strategix.shape.runs",
        "params": {"n": 1, "length": 3},
    }
    assert reply["legal"] == ["pass", "petard"]
    assert "notes" not in Referee(engines.make_game("traverse", ["A", "B"]).new_state()).handle(
        "show"
    )


def test_the_second_struggle_player_is_told_why_the_revealed_order_is_missing() -> None:
    from tests.test_struggle import last_hand

    referee = struggle()
    referee.handle("first 0")
    last_hand(referee.state)
    referee.handle("J+4 10+1")
    first = referee.handle("objective K Q 9 J 10")  # not a default card: any order is accepted
    assert first["ok"] and "objective K Q 9 J 10" not in first["legal"]
    assert len(first["legal"]) == 119
    [note] = first["notes"]
    assert note["code"] == "struggle.left_out"
    assert note["params"] == {"name": "Ana", "order": "K Q 9 J 10"}
    assert "Ana already revealed it" in note["text"]


def test_traverse_plays_reaching_one_position_are_one_choice_with_their_notations() -> None:
    referee = Referee(engines.make_game("traverse", ["Ann", "Bob"], mode="table").new_state())
    for line in ("roll 1 2", "roll 3 4"):
        referee.handle(line)
    reply = referee.handle("roll 1 1")
    assert "1+1 1-1" in reply["legal"] and "2+1 2-1" not in reply["legal"]
    assert "2+1 2-1" in reply["equivalent"]["1+1 1-1"]
    assert set(reply["equivalent"]) <= set(reply["legal"])
    assert [note["code"] for note in reply["notes"]] == ["traverse.no_change"]
    assert referee.handle("2+1 2-1")["applied"] == ["1+1 1-1"]  # accepted as the listed play
