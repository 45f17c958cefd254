"""Each game's helper modules read its state through a Protocol naming what they read, instead of
importing the state's module back (tests/test_layers.py holds that): the state has all of it."""

from __future__ import annotations

import random

import pytest

from engines import _roudalon_notation, _sequence_notation, _strategix_notation
from engines._struggle_notation import StruggleView
from engines.core import State
from tests.conformance import play_out, random_game

VIEWS: dict[str, type] = {
    "roudalon": _roudalon_notation.ReadingView,  # and TurnView, which it extends
    "strategix": _strategix_notation.ReadingView,  # and StepsView
    "struggle": StruggleView,
    "sequence": _sequence_notation.SequenceView,
}


@pytest.mark.parametrize("name", VIEWS)
def test_a_state_has_all_its_helpers_read_from_start_to_end(name: str) -> None:
    rng = random.Random(7)
    state = random_game(name, rng).new_state()
    checked: list[State] = [state.clone()]
    play_out(state, rng)
    checked.append(state)
    assert all(isinstance(seen, VIEWS[name]) for seen in checked)


def test_a_sequence_game_has_the_rules_its_notation_reads() -> None:
    state = random_game("sequence", random.Random(7)).new_state()
    assert isinstance(state.game, _sequence_notation.RulesView)


def test_a_state_without_a_member_is_not_a_view() -> None:
    state = random_game("struggle", random.Random(7)).new_state()
    del state.awaiting_roll
    assert not isinstance(state, StruggleView)
