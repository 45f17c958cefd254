"""Every engine gives the dice it waits for as data (`State.dice_wanted()`): a roll of that many
dice of that kind is legal then, and only then is a roll legal at all."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines.core import DiceWanted, State
from engines.roudalon import Roudalon
from engines.struggle import Struggle
from engines.traverse import Traverse
from tests.conformance import check_dice_wanted, play_out, random_game

GAMES = engines.available_games()
DICE_GAMES = ("roudalon", "struggle", "traverse")


def old_kiosk_reading(state: State) -> DiceWanted | None:
    """What the kiosk worked out from `chance_hint()` before the engines said it as data."""
    hint = state.chance_hint()
    match = re.match(r"roll <(\d+)", hint)
    if not match:
        return None
    kind = "poker" if re.search(r"\b(J|Q|K|A)\b", hint) else "d6"
    return DiceWanted(int(match.group(1)), kind)


def check_against_the_hint(state: State) -> None:
    check_dice_wanted(state)
    assert state.dice_wanted() == old_kiosk_reading(state), state.chance_hint()


# Random play of a table-mode card game stalls (its plays are typed, not listed): full mode there.
PLAYED = [(name, "full") for name in GAMES] + [(name, "table") for name in DICE_GAMES]


@pytest.mark.parametrize(("name", "mode"), PLAYED)
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_the_dice_wanted_are_a_legal_roll_and_what_the_hint_said(
    name: str, mode: str, seed: int
) -> None:
    rng = random.Random(seed)
    state = random_game(name, rng, mode=mode).new_state()
    check_against_the_hint(state)
    play_out(state, rng, on_step=check_against_the_hint)


@pytest.mark.parametrize("name", sorted(set(GAMES) - set(DICE_GAMES)))
def test_card_games_never_want_dice(name: str) -> None:
    rng = random.Random(5)
    wanted: list[DiceWanted | None] = []
    play_out(random_game(name, rng).new_state(), rng, lambda s: wanted.append(s.dice_wanted()))
    assert wanted and set(wanted) == {None}


def test_traverse_wants_two_dice_for_the_rolloff_and_each_turn() -> None:
    state = Traverse(["Ann", "Bob"]).new_state()
    assert state.dice_wanted() == DiceWanted(2, "d6")
    state.apply("roll 1 2")
    assert state.dice_wanted() == DiceWanted(2, "d6")  # white's roll-off dice
    state.apply("roll 5 6")
    assert state.dice_wanted() == DiceWanted(2, "d6")  # white's first turn
    state.apply("roll 3 4")
    assert state.dice_wanted() is None  # white plays


def test_struggle_wants_five_poker_dice_then_the_ones_thrown_again() -> None:
    state = Struggle(["Ann", "Bob"], seed=1).new_state()
    assert state.dice_wanted() is None  # the objective cards are dealt first
    state.apply("deal 1 2")
    assert state.dice_wanted() is None  # who starts is drawn, not thrown
    state.apply("first 0")
    assert state.dice_wanted() == DiceWanted(5, "poker")
    state.apply("roll 9 J Q K A")
    assert state.dice_wanted() is None
    state.apply("rethrow J Q")
    assert state.dice_wanted() == DiceWanted(2, "poker")


def test_roudalon_wants_the_dice_the_thrower_chose() -> None:
    state = Roudalon(["Ann", "Bob", "Cid", "Dee"]).new_state()
    assert state.dice_wanted() == DiceWanted(2, "d6")  # roll-off
    for roll in ("roll 6 6", "roll 1 1", "roll 1 1", "roll 1 1"):
        state.apply(roll)
    assert state.dice_wanted() is None  # Ann stakes
    state.apply("stake 4")
    state.apply("throw 1")  # Bob holds one die
    assert state.dice_wanted() == DiceWanted(1, "d6")


def test_a_game_over_wants_no_dice() -> None:
    rng = random.Random(3)
    state = play_out(Traverse(["Ann", "Bob"], {"axis_length": 3}).new_state(), rng)
    assert state.is_over and state.dice_wanted() is None
