"""The check of a pushed game: anything a table could send is either a legal game replayed or
refused with one line saying why; never another error."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from club.replay import RefusedGame, check
from tests.club_support import payload, random_game

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)  # fmt: skip
GOOD = payload(random_game("sequence", ["Ann", "Bob"], seed=1), 1)
FIELDS = sorted(GOOD)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(FIELDS), JSON)
def test_any_field_of_any_shape_is_refused_or_accepted_never_a_crash(field, value):
    try:
        checked = check({**GOOD, field: value})
    except RefusedGame as error:
        assert str(error) and "\n" not in str(error)
        return
    assert checked.scores and checked.game == "sequence"


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=len(GOOD["history"]) - 1), st.text(max_size=30))
def test_a_changed_action_is_refused_unless_it_is_still_legal(index, text):
    history = list(GOOD["history"])
    history[index] = text
    try:
        check({**GOOD, "history": history})
    except RefusedGame as error:
        # the changed action, or a later one a legal change made illegal, or the end
        assert ("action " in str(error) or "over" in str(error)) and "\n" not in str(error)


def test_the_engine_decides_scores_winners_and_teams_not_the_table():
    state = random_game("sequence", ["Ann", "Bob", "Cy", "Dee"], seed=2)
    checked = check({**payload(state, 1), "scores": [99, 0, 0, 0]})
    assert list(checked.scores) == state.scores() and list(checked.winners) == state.winners()
    assert checked.teams == (0, 1, 0, 1)


def test_a_finished_log_said_to_be_playing_is_stored_as_over():
    state = random_game("sequence", ["Ann", "Bob"], seed=3)
    checked = check(payload(state, 1, status="playing"))
    assert checked.status == "over" and checked.ended is not None


@pytest.mark.parametrize("argv, words", [
    (["club", "serve", "--db", ""], "give the database"),
    (["club", "serve", "--db", "mysql://x"], "must be a postgresql:// URL"),
    (["club", "migrate", "--db", "postgresql://nobody@127.0.0.1:9/none"], "database postgresql"),
])  # fmt: skip
def test_the_club_command_says_what_is_wrong_in_one_line(argv, words, capsys):
    pytest.importorskip("psycopg", reason="the club extra is not installed")
    from tabletop.cli import main

    assert main(argv) == 2
    out = capsys.readouterr().out
    assert words in out and out.count("\n") == 1
