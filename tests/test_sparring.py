"""The sparring partners (advisor.sparring): every one plays whole games of legal steps, and
each style does what it is written to do in a position built for it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from advisor.sparring import HELD_OUT, PLAYERS, is_held_out
from engines.core import CHANCE

PARTNERS = [(game, name) for game, players in PLAYERS.items() for name in players]


@pytest.mark.parametrize(("game", "name"), PARTNERS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_partner_plays_a_whole_game_of_legal_steps(game: str, name: str, seed: int) -> None:
    count = 4 if game == "roudalon" else 2
    state = engines.make_game(game, [f"P{i}" for i in range(count)], seed=seed).new_state()
    policy, rng = PLAYERS[game][name], random.Random(seed)
    for _ in range(3000):
        if state.is_over:
            break
        if state.actor == CHANCE:
            state.play_chance()
            continue
        action = policy(state, rng)
        assert action.notation in {a.notation for a in state.legal_actions()}
        state.apply(action)
    assert state.is_over


def test_one_partner_per_game_is_held_out() -> None:
    assert set(HELD_OUT) == set(PLAYERS)
    for game, name in HELD_OUT.items():
        assert name in PLAYERS[game] and is_held_out(game, name)
    assert not is_held_out("strategix", "careful")


def _strategix_in_play(hands: str) -> engines.State:
    state = engines.make_game("strategix", ["A", "B"], seed=1).new_state()
    state.apply("first 0")
    state.apply(f"deal {hands}")
    return state


def test_the_careful_player_leads_real_cards_and_keeps_its_stars() -> None:
    state = _strategix_in_play(
        "!***BCDGHJLMNOPQRSUV / !!****CDEFGHIJKLMNZZ / out BEFIKOPQSTTUVWWXXYYR"
    )
    action = PLAYERS["strategix"]["careful"](state, random.Random(0))
    assert action.notation.startswith("play ") and "*" not in action.notation


def test_the_liner_blocks_an_opponent_four() -> None:
    state = engines.make_game("sequence", ["A", "B"], seed=3).new_state()
    while state.actor == CHANCE:
        state.play_chance()
    mover = state.current
    other_mark = "1" if state.game.team_of(mover) == 0 else "0"
    board = list(state.board)
    for square in (41, 42, 43, 44):
        board[square] = other_mark
    state.board = "".join(board)
    hand = list(state.hands[mover])
    hand[0] = "JD"  # a two-eyed jack: it may block anywhere
    state._set_hand(hand)
    action = PLAYERS["sequence"]["liner"](state, random.Random(0))
    assert action.data[2] in (40, 45)
