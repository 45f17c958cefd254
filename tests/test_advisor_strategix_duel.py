"""The two-player Stratégix advisor (advisor._strategix_duel's round model, searched): it goes
out clean when it can, never lays its last card on a star, and its playouts end every round."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import advisor
import engines
from advisor import _strategix_duel as duel
from advisor.strategix import model_hand


def _position(mine: str, theirs_count: int = 12) -> engines.State:
    state = engines.make_game("strategix", ["A", "B"], seed=1).new_state()
    state.apply("first 0")
    state.apply("deal !***BCDGHJLMNOPQRSUV / !!****CDEFGHIJKLMNZZ / out BEFIKOPQSTTUVWWXXYYR")
    state.hands[0] = mine
    state.counts = [len(mine), theirs_count]
    return state


def test_it_goes_out_clean_when_it_can() -> None:
    state = _position("BCD")
    assert advisor.best_action(state, iterations=20) == "play B C D"


def test_it_does_not_go_out_on_a_star() -> None:
    state = _position("*BCDE")
    best = advisor.best_action(state, iterations=40)
    laid = [token for token in best.split()[1:] if token != "+"]
    assert len(laid) < 5  # all five at once lays the last card on the star: Padbolix


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_playout_ends_the_round_with_a_winner(seed: int) -> None:
    rng = random.Random(seed)
    deck = list(engines.strategix.FULL_DECK.replace("Z", ""))
    rng.shuffle(deck)
    hands = [model_hand("".join(deck[:14])), model_hand("".join(deck[14:28]))]
    assert duel.playout(hands, seed % 2, None, 0, False, rng) in (0, 1)
