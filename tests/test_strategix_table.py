"""Stratégix in table mode: physical cards, plays entered as laid down, checked by card counting."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines._strategix_formulas import canonical, play_text
from engines.core import CHANCE, Action, IllegalActionError, NotationError
from engines.strategix import Strategix, StrategixState


def table(players: tuple[str, ...] = ("Ana", "Bob", "Cleo"), first: int = 1) -> StrategixState:
    state = Strategix(list(players), mode="table").new_state()
    assert state.actor == CHANCE and state.chance_hint().startswith("first")
    state.apply(f"first {first}")
    return state


def test_the_round_starts_without_a_deal_and_counts_cards() -> None:
    state = table()
    assert state.phase == "play" and state.current == 1 and state.hands is None
    assert state.counts == [20, 20, 20]
    assert table(("A", "B", "C", "D")).counts == [15] * 4
    assert state.legal_actions() == []  # the leader must lay cards: no pass, no pétard


def test_a_scripted_trick_with_wrong_plays_rejected_with_their_reason() -> None:
    state = table()
    state.apply("play D E F + M N O")
    state.apply("play d e f + m n o")  # the same letters: Ana misses her turn
    assert state.history[-1].notation == "play D E F + M N O" and state.current == 1
    with pytest.raises(IllegalActionError, match="2 runs of 3.*not a pair"):
        state.apply("play D D")
    with pytest.raises(IllegalActionError, match="too weak: its lowest letter C is below D"):
        state.apply("play C D E + M N O")
    before = state.clone()
    with pytest.raises(NotationError, match="say which letter"):
        state.apply("play * F G + N O P")
    assert state == before
    # Both D, E, F, M, N, O are down: a third E, F, N or O can only be a star (card counting).
    action = state.apply("play E F G + N O P")
    assert action.notation == "play *=E *=F G + *=N *=O P"
    assert state.counts == [20, 8, 14] and state.view(None)["seen"]["stars"] == 4
    state.apply("pass")  # Cleo is out of this trick
    state.apply("petard")  # Ana: Bob misses his turn, Cleo has passed: Ana again
    assert state.current == 0
    with pytest.raises(IllegalActionError, match="right after a pétard"):
        state.apply("petard")
    state.apply("pass")
    assert state.last_trick["winner"] == 1 and state.current == 1 and state.top is None


def test_stars_and_card_counts_are_limited_by_what_remains_unseen() -> None:
    state = table(first=0)
    state.apply("play *=Y *=Z")  # a Z (here a star) wins at once: Ana leads again
    assert state.last_trick["by_z"] and state.current == 0
    state.apply("play *=V *=W *=X *=Y *=Z")  # seven stars seen now
    with pytest.raises(IllegalActionError, match="needs 1 star.*0 remain unseen"):
        state.apply("play *=Z")
    with pytest.raises(IllegalActionError, match="holds only 13 card"):
        state.apply("play B C D E F G H I J K L M N O")
    state.apply("play B B")
    state.apply("pass")  # Bob
    state.apply("pass")  # Cleo: Ana wins the trick and leads
    with pytest.raises(IllegalActionError, match="needs 1 star"):
        state.apply("play B")  # both Bs are down and no star is left: no third B


def test_a_two_player_game_in_table_mode() -> None:
    state = table(("Ana", "Bob"), first=0)
    state.apply("play " + " ".join("BCDEFGHIJKLMNOPQRSTU"))  # Ana lays her 20 cards: out
    assert state.round_points == [[2, -2]] and state.round == 2
    assert state.counts == [20, 20] and state.current == 1  # Padbolix leads the next round
    assert state.view(None)["seen"]["letters"]["B"] == 0
    state.apply("play B")
    state.apply("pass")  # with two players a pass ends the trick: Bob wins it
    assert state.current == 1 and state.top is None
    state.apply("play " + " ".join("HIJKLMNOPQRSTUVWXYZ"))  # out on a Z: Padbolix
    assert state.round_points == [[2, -2], [2, -2]] and state.is_over
    assert state.scores() == [4, -4] and state.winners() == [0]
    json.dumps(state.view(None))


def test_a_leader_may_pass_only_when_they_can_hold_nothing_but_petards() -> None:
    state = table(("Ana", "Bob"), first=0)
    state.apply("play " + " ".join("BCDEFGHIJKLMNOPQRS"))  # Ana keeps two cards
    state.apply("pass")
    assert state.current == 0 and state.legal_actions() == [state.parse("pass")]
    state.apply("pass")  # two pétards, maybe: Bob leads instead
    assert state.current == 1 and state.passed == [True, False]


def test_a_play_of_more_cards_than_held_or_after_the_game_is_refused() -> None:
    state = table(("Ana", "Bob"), first=0)
    with pytest.raises(IllegalActionError, match="holds only 20"):
        state.apply("play " + " ".join("BCDEFGHIJKLMNOPQRSTUV"))
    with pytest.raises(IllegalActionError, match="whole formula at once"):
        state.apply("play D E +")
    with pytest.raises(NotationError, match="not a Stratégix action"):
        state.apply("jump")


def laid_notation(action: Action, building: tuple, after: StrategixState) -> str | None:
    """What a table enters for a full-mode action (None: nothing laid yet, or a deal)."""
    word = action.notation.split()[0]
    if word in ("deal", "star") or after.building:
        return None
    if word == "done":
        return "play " + play_text(action.data)
    if word == "+":
        return "play " + play_text(canonical((*building, action.data)))
    return action.notation


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), count=st.sampled_from([2, 3, 4]))
def test_table_mode_accepts_every_full_mode_game_and_agrees_on_it(seed: int, count: int) -> None:
    names = [f"P{i}" for i in range(count)]
    full = Strategix(names, seed=seed).new_state()
    mirror = Strategix(names, mode="table").new_state()
    rng = random.Random(seed)
    while not full.is_over:
        building = full.building
        if full.is_chance:
            action = full.play_chance()
        else:
            action = full.apply(rng.choice(full.legal_actions()))
        entered = laid_notation(action, building, full)
        if entered is not None:
            mirror.apply(entered)
            mirror.check_invariants()
        if full.phase == "play" and not full.building:
            assert (mirror.current, mirror.counts, mirror.scores()) == (
                full.current, full.counts, full.scores())  # fmt: skip
    assert mirror.is_over and mirror.round_points == full.round_points
