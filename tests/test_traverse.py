"""Traverse rules (RULINGS Traverse T1-T8): each rule and each rule-book example, scripted."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from display.i18n import say
from engines.core import CHANCE, IllegalActionError, NotationError, OptionError
from engines.traverse import RED, WHITE, Traverse, TraverseState


def position(
    red: dict[int, int] | None = None,
    white: dict[int, int] | None = None,
    dice: tuple[int, int] | None = None,
    to_move: int = RED,
    **options,
) -> TraverseState:
    """A game after the roll-off with pawns placed as in a book figure: {pawn: position}."""
    state = Traverse(["Rouge", "Blanc"], options).new_state()
    for roll in ("roll 6 6", "roll 1 1") if to_move == RED else ("roll 1 1", "roll 6 6"):
        state.apply(roll)
    pawns = state.end - 1
    state.positions = [
        bytes((red or {}).get(i, 0) for i in range(1, pawns + 1)),
        bytes((white or {}).get(i, 0) for i in range(1, pawns + 1)),
    ]
    state.check_invariants()
    if dice:
        state.apply(f"roll {dice[0]} {dice[1]}")
    return state


def legal(state: TraverseState) -> list[str]:
    return [a.notation for a in state.legal_actions()]


def red_of(state: TraverseState) -> tuple[int, ...]:
    return tuple(state.positions[RED])


def white_of(state: TraverseState) -> tuple[int, ...]:
    return tuple(state.positions[WHITE])


# ----- start: roll-off (T7) ---------------------------------------------------------------------


def test_rolloff_higher_total_starts_and_ties_roll_again() -> None:
    state = Traverse(["Ann", "Bob"]).new_state()
    assert state.actor == CHANCE and state.view()["phase"] == "rolloff"
    state.apply("roll 3 4")
    state.apply("roll 2 5")  # 7 = 7: both roll again
    assert state.view()["rolloff"] == [None, None] and state.actor == CHANCE
    state.apply("roll 1 2")
    state.apply("roll 6 4")
    assert state.view()["rolloff"] == [[1, 2], [4, 6]]
    assert state.current == WHITE and state.view()["phase"] == "roll"
    state.apply("roll 1 1")
    assert state.actor == WHITE


def test_roll_faces_in_any_order_are_the_canonical_roll() -> None:
    state = position()
    assert state.apply("roll 5 2").notation == "roll 2 5"
    assert tuple(state.dice) == (2, 5)
    with pytest.raises(NotationError):
        position().apply("roll 7 1")
    with pytest.raises(IllegalActionError, match="waiting for the dice"):
        position().apply("3+5")


# ----- the book's examples (T8) -----------------------------------------------------------------


def test_fig3_six_and_three_from_the_start() -> None:
    state = position(dice=(3, 6))
    plays = legal(state)
    assert "1+9" in plays  # one pawn still at the start by 6 + 3
    assert "1+3 2+6" in plays  # one pawn by 3, another by 6
    assert "1-3" not in plays and "1+3" not in plays  # below 0; one die only when both can play
    state.apply("1+6 2+3")
    assert red_of(state)[:2] == (6, 3)


def test_fig3_going_back_six_and_three() -> None:
    state = position(red={1: 8, 2: 9}, dice=(3, 6))
    state.apply("2-6 1-3")
    assert red_of(state)[:2] == (5, 3)


def test_five_and_six_take_a_pawn_at_the_start_straight_home() -> None:
    state = position(dice=(5, 6))
    action = state.parse("4+11")
    assert "entre dans sa case d'arrivée" in say("fr", action)
    assert "arrival box" in say("en", action)
    assert state.parse("4+5 4+6") == action  # the same result, listed once
    assert state.parse("4+6 4+5") == action
    state.apply(action)
    assert red_of(state)[3] == 11 and state.home() == [1, 0]


def test_straight_home_needs_a_clear_axis() -> None:
    state = position(white={7: 4}, dice=(5, 6))  # White 7 stands on column 4, row 7
    assert "4+11" not in legal(state)
    with pytest.raises(IllegalActionError, match="may not pass over White 7"):
        state.apply("4+11")


def test_fig4_attack_hits_send_pawns_back_to_start() -> None:
    # Red pawn 3 at 2 reaches row 6 (White 6 on column 3), then Red 5 hits White 4 on column 5.
    state = position(red={3: 2, 5: 1}, white={6: 3, 4: 5}, dice=(3, 4))
    action = state.parse("3+4 5+3")
    assert action.notation == "5+3 3+4"  # listed with the lower die first: the same result
    assert say("fr", action) == (
        "Rouge 5 avance de 3 et renvoie Blanc 4 au départ, "
        "puis Rouge 3 avance de 4 et renvoie Blanc 6 au départ"
    )
    assert say("en", action).startswith("Red 5 moves forward 3 and sends White 4 back to start")
    state.apply(action)
    assert red_of(state)[2] == 6 and red_of(state)[4] == 4
    assert white_of(state)[5] == 0 and white_of(state)[3] == 0


def test_fig4_white_hits_back_with_six_and_one() -> None:
    state = position(red={7: 6}, white={}, dice=(1, 6), to_move=WHITE)
    action = state.parse("6+7")
    assert say("fr", action) == "Blanc 6 avance de 7 et renvoie Rouge 7 au départ"
    state.apply(action)
    assert red_of(state)[6] == 0 and white_of(state)[5] == 7


def test_case1_pawns_in_the_arrival_box_come_back_out_to_hit() -> None:
    # Red 1 at 11 backs 6 onto row 5 (White 5 on column 1); Red 2 backs 2 onto row 9.
    state = position(red={1: 11, 2: 11}, white={5: 1, 9: 2}, dice=(2, 6))
    action = state.parse("1-6 2-2")
    assert action.notation == "2-2 1-6"
    assert say("fr", action) == (
        "Rouge 2 recule de 2 et renvoie Blanc 9 au départ, "
        "puis Rouge 1 recule de 6 et renvoie Blanc 5 au départ"
    )
    state.apply(action)
    assert red_of(state)[:2] == (5, 9) and white_of(state)[4] == 0 and white_of(state)[8] == 0


def test_case1_leaving_the_arrival_box_without_a_hit_is_refused() -> None:
    state = position(red={1: 11, 2: 3}, white={5: 1}, dice=(2, 6))
    assert "1-2 2+6" not in legal(state)
    with pytest.raises(IllegalActionError, match="arrival box only to hit"):
        state.apply("1-2 2+6")


def test_case2_no_jumping_over_an_opponent_nor_hitting_behind_it() -> None:
    # White 2 sits on column 1 at row 2, White 5 further on at row 5; Red 1 is at its start.
    state = position(red={1: 0}, white={2: 1, 5: 1}, dice=(3, 5))
    assert not [play for play in legal(state) if "1+" in play or "1-" in play]
    with pytest.raises(IllegalActionError, match="may not pass over White 2"):
        state.apply("1+3 2+5")
    with pytest.raises(IllegalActionError, match="may not pass over White 2"):
        state.apply("1+5 2+3")


def test_case2_no_jumping_backwards_either() -> None:
    state = position(red={1: 9}, white={6: 1}, dice=(4, 5))
    with pytest.raises(IllegalActionError, match="pass over White 6"):
        state.apply("1-4 2+5")
    assert "1-3" not in legal(state)


def test_case3_exact_count_to_enter_else_pass() -> None:
    # All red pawns home but Red 6 at 10; White 9 and White 5 stand on its column behind it.
    home = {pawn: 11 for pawn in range(1, 11)}
    state = position(red={**home, 6: 10}, white={9: 6, 5: 6}, dice=(2, 3))
    assert legal(state) == ["pass"]
    pass_action = state.apply("pass")
    assert say("fr", pass_action) == "Rouge passe son tour" and state.current == WHITE
    state = position(red={**home, 6: 10}, white={9: 6, 5: 6}, dice=(1, 6))
    assert legal(state) == ["6+1", "6-1"]  # no play uses both dice here
    with pytest.raises(IllegalActionError, match="needs exactly 1"):
        state.apply("6+6 6-1")
    state.apply("6+1")
    assert state.home() == [10, 0]


def test_case4_back_to_hit_then_forward_home() -> None:
    state = position(red={1: 10}, white={5: 1}, dice=(5, 6))
    action = state.parse("1-5 1+6")
    assert say("fr", action) == (
        "Rouge 1 recule de 5 et renvoie Blanc 5 au départ, "
        "puis Rouge 1 avance de 6 et entre dans sa case d'arrivée"
    )
    state.apply(action)
    assert red_of(state)[0] == 11 and white_of(state)[4] == 0


def test_case5_back_to_hit_then_on_back_to_hit_again() -> None:
    state = position(red={1: 10}, white={5: 1, 3: 1}, dice=(2, 5))
    assert "1-7" not in legal(state)  # one move of 7 would pass over White 5
    action = state.parse("1-5 1-2")
    assert say("en", action) == (
        "Red 1 moves back 5 and sends White 5 back to start, "
        "then Red 1 moves back 2 and sends White 3 back to start"
    )
    state.apply(action)
    assert red_of(state)[0] == 3 and white_of(state)[4] == 0 and white_of(state)[2] == 0


# ----- moves and compulsory use (T2-T4) ---------------------------------------------------------


def test_no_going_below_the_start() -> None:
    state = position(red={1: 2}, dice=(3, 4))
    with pytest.raises(IllegalActionError, match="cannot go back 3"):
        state.apply("1-3 2+4")


def test_start_and_arrival_squares_cannot_be_hit() -> None:
    # White 4 at its start (0) or home (11) is never on Red 4's path nor under its landing.
    state = position(red={4: 0}, white={4: 11}, dice=(2, 2))
    assert "4+4" in legal(state)


def test_play_must_fit_the_dice() -> None:
    state = position(dice=(2, 5))
    with pytest.raises(IllegalActionError, match="does not fit|not 3 and 4"):
        state.apply("1+3 2+4")
    with pytest.raises(IllegalActionError, match="no pawn 12"):
        state.apply("12+7")
    with pytest.raises(NotationError):
        state.apply("1+x")
    with pytest.raises(IllegalActionError, match=r"dice are rolled \(2 and 5\): Red plays"):
        state.apply("roll 1 1")


def test_both_dice_must_be_used_when_possible() -> None:
    state = position(dice=(2, 5))
    with pytest.raises(IllegalActionError, match="both dice must be used"):
        state.apply("1+2")
    with pytest.raises(IllegalActionError, match="both dice must be used"):
        state.apply("pass")


def test_one_die_must_be_used_when_only_one_can_be() -> None:
    # Red 6 at 9: forward 2 enters home, 5 would overshoot, back 5 passes over White 7, and
    # after hitting White 7 (back 2) going on back 5 passes over White 3.
    home = {pawn: 11 for pawn in range(1, 11)}
    state = position(red={**home, 6: 9}, white={7: 6, 3: 6}, dice=(2, 5))
    assert legal(state) == ["6+2", "6-2"]
    with pytest.raises(IllegalActionError, match="a die must be used"):
        state.apply("pass")


def test_without_compulsory_use_a_player_may_play_less_or_pass() -> None:
    state = position(dice=(2, 5), compulsory_dice=False)
    plays = legal(state)
    assert plays[0] == "pass" and "1+2" in plays and "1+5" in plays and "1+7" in plays
    state.apply("pass")
    assert state.current == WHITE


def test_doubles_have_no_special_effect() -> None:
    state = position(dice=(4, 4))
    plays = legal(state)
    assert "1+8" in plays and "1+4 2+4" in plays
    assert all(len(play.split()) <= 2 for play in plays)


def test_equivalent_spellings_give_the_listed_play() -> None:
    state = position(red={1: 3, 2: 4}, dice=(1, 2))
    assert state.parse("2+2 1+1").notation == "1+1 2+2"
    assert state.parse("1+1 1+2").notation == "1+3"


# ----- winning (T6), options, views -------------------------------------------------------------


def test_all_pawns_home_wins() -> None:
    home = {pawn: 11 for pawn in range(1, 11)}
    state = position(red={**home, 2: 5}, dice=(2, 4))
    state.apply("2+6")
    assert state.is_over and state.winners() == [RED] and state.winner == RED
    assert state.scores() == [10, 0] and state.view()["phase"] == "over"
    with pytest.raises(engines.GameOverError):
        state.apply("roll 1 1")


def test_axis_length_option_sets_the_board_size() -> None:
    state = position(dice=(1, 3), axis_length=5)
    assert state.view()["pawns"] == 4 and len(red_of(state)) == 4
    assert "1+4" in legal(state)
    with pytest.raises(OptionError, match="axis_length"):
        Traverse(["A", "B"], {"axis_length": 2})
    with pytest.raises(OptionError, match="compulsory_dice"):
        Traverse(["A", "B"], {"compulsory_dice": "maybe"})


def test_view_lists_pawns_on_the_crossing_squares() -> None:
    state = position(red={3: 6}, white={2: 11, 6: 1}, dice=(1, 2))
    view = state.view(None)
    assert view["red"][2] == 6 and view["white"][1] == 11
    assert {"colour": "red", "pawn": 3, "column": 3, "row": 6} in view["squares"]
    assert {"colour": "white", "pawn": 6, "column": 1, "row": 6} in view["squares"]
    assert len(view["squares"]) == 2 and view["dice"] == [1, 2] and view["current"] == RED
    assert view == state.view(0) == state.view(1)


def test_full_game_through_the_referee_with_auto_chance() -> None:
    from companion.referee import Referee

    state = Traverse(["Ann", "Bob"], seed=4).new_state()
    referee = Referee(state, auto_chance=True)
    for _ in range(5000):
        if state.is_over:
            break
        reply = referee.handle(reply_legal(referee)[0])
        assert reply["ok"], reply
    assert state.is_over and len(state.winners()) == 1


def test_full_game_through_the_referee_with_rolls_entered_at_the_table() -> None:
    from companion.referee import Referee

    state = Traverse(["Ann", "Bob"], seed=8, mode="table").new_state()
    referee, rng = Referee(state), random.Random(8)
    for _ in range(20000):
        if state.is_over:
            break
        line = (
            state.sample_chance().notation if state.is_chance else rng.choice(reply_legal(referee))
        )
        reply = referee.handle(line)
        assert reply["ok"], reply
    assert state.is_over and referee.handle("show")["winners"] == state.winners()


def reply_legal(referee) -> list[str]:
    return referee.reply()["legal"]


# ----- properties -------------------------------------------------------------------------------


@st.composite
def positions(draw) -> tuple[dict[int, int], dict[int, int], tuple[int, int]]:
    red = {c: draw(st.integers(0, 11)) for c in range(1, 11)}
    white = {}
    for r in range(1, 11):
        q = draw(st.integers(0, 11))
        if 1 <= q <= 10 and red[q] == r:
            q = 0  # that square is Red q's
        white[r] = q
    dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
    return red, white, tuple(sorted(dice))


def brute_force_results(state: TraverseState) -> set[tuple]:
    """Every position a play using both dice reaches, by trying every move sequence."""
    from engines._traverse_plays import step

    mine, theirs = state.positions[state.current], state.positions[1 - state.current]
    d1, d2 = state.dice
    results = set()
    for pawn in range(10):
        for delta in (d1 + d2, -d1 - d2):
            moved = step(mine, theirs, pawn, delta, 11)
            if moved:
                results.add(moved[:2])
        for a, b in ((d1, d2), (d2, d1)):
            for da in (a, -a):
                first = step(mine, theirs, pawn, da, 11)
                if not first:
                    continue
                for pawn2 in range(10):
                    for db in (b, -b):
                        second = step(first[0], first[1], pawn2, db, 11)
                        if second:
                            results.add(second[:2])
    return results


@settings(max_examples=60, deadline=None)
@given(positions())
def test_listed_plays_are_every_distinct_result_once(setup) -> None:
    red, white, dice = setup
    state = position(red, white, dice)
    from engines._traverse_plays import play_out

    results = [play_out(*state._sides(), a.data[0], 11)[:2] for a in state.legal_actions()]
    assert len(results) == len(set(results))
    expected = brute_force_results(state)
    if expected:
        assert set(results) == expected
    dice_used = {_dice_used(a.data[0], dice) for a in state.legal_actions()}
    assert len(dice_used) == 1, "compulsory use: every listed play uses as many dice (T4)"
    assert (dice_used == {2}) == bool(expected)
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action.notation)
        after.check_invariants()


@settings(max_examples=80, deadline=None)
@given(positions(), st.booleans())
def test_throw_outcomes_are_the_listed_plays_positions_in_their_order(setup, compulsory) -> None:
    """The search's short cut (positions without plays) reaches what the engine lists, in the
    same order, so a search keeping the first of equal positions chooses the same play."""
    from engines._traverse_outcomes import throw_outcomes
    from engines._traverse_plays import play_out

    red, white, dice = setup
    state = position(red, white, dice, compulsory_dice=compulsory)
    mine, theirs = state._sides()
    listed = [play_out(mine, theirs, a.data[0], 11)[:2] for a in state.legal_actions()]
    assert throw_outcomes(mine, theirs, *dice, 11, compulsory) == listed


def _dice_used(play, dice) -> int:
    if len(play) == 1 and abs(play[0][1]) == sum(dice):
        return 2
    return len(play)


@pytest.mark.parametrize(
    "options", [{"axis_length": 5}, {"axis_length": 8, "compulsory_dice": False}]
)
def test_whole_games_on_other_boards(options) -> None:
    rng = random.Random(2)
    state = Traverse(["Ann", "Bob"], options, seed=2).new_state()
    while not state.is_over:
        state.apply(state.sample_chance() if state.is_chance else rng.choice(state.legal_actions()))
        state.check_invariants()
    assert state.winners() == [state.winner] and state.home()[state.winner] == state.end - 1


# ----- audit: fair dice in full mode, errors in a player's words --------------------------------


def test_full_mode_rolls_two_fair_independent_dice() -> None:
    # Each of the 21 unordered outcomes is not equally likely: a double is 1 in 36, 3-4 is 2 in 36.
    rolls = [Traverse(["A", "B"], seed=seed).new_state().sample_chance() for seed in range(3600)]
    doubles = sum(1 for roll in rolls if roll.data[0] == roll.data[1])
    sevens = sum(1 for roll in rolls if sum(map(int, roll.data)) == 7)
    assert 450 <= doubles <= 750, f"{doubles} doubles in 3600 rolls, expected about 600"
    assert 450 <= sevens <= 750, f"{sevens} sevens in 3600 rolls, expected about 600"


def test_blocked_move_errors_name_the_square_and_the_start() -> None:
    state = position(white={1: 1}, dice=(3, 5))  # White 1 on column 1, row 1
    with pytest.raises(IllegalActionError, match=r"pass over White 1 \(column 1, row 1\)"):
        state.apply("1+3 2+5")
    with pytest.raises(IllegalActionError, match="Red 2 is at its start and cannot go back 3"):
        state.apply("2-3 3+5")
    state = position(red={2: 2}, dice=(3, 5))
    with pytest.raises(IllegalActionError, match="Red 2 is 2 squares from its start"):
        state.apply("2-3 3+5")


def test_compulsory_use_errors_speak_of_the_dice_not_of_rulings() -> None:
    state = position(dice=(2, 5))
    with pytest.raises(IllegalActionError) as error:
        state.apply("pass")
    assert "(T4)" not in str(error.value) and "both dice must be used" in str(error.value)


def test_out_of_the_box_in_two_steps_is_the_one_move_by_the_sum() -> None:
    # Red 1 home backs 2 (hitting nothing) then 3 onto White 6: the same as backing 5 at once.
    state = position(red={1: 11}, white={6: 1}, dice=(2, 3))
    assert state.parse("1-2 1-3").notation == "1-5"
    assert state.parse("1-3 1-2").notation == "1-5"
    state = position(red={1: 11, 2: 4}, white={8: 2}, dice=(2, 3))  # no pawn to hit on column 1
    with pytest.raises(IllegalActionError, match="Red 1 leaves its arrival box only to hit"):
        state.apply("1-2 1-3")


@settings(max_examples=40, deadline=None)
@given(positions())
def test_every_equivalent_notation_reaches_its_listed_play(setup) -> None:
    red, white, dice = setup
    state = position(red, white, dice)
    listed = set(legal(state))
    for notation, others in state.equivalent_notations().items():
        assert notation in listed and not listed & set(others)
        for other in others[:6]:
            assert state.parse(other) == state.parse(notation)


def test_a_pawn_brought_straight_back_is_one_listed_choice_with_a_note() -> None:
    state = position(red={1: 3, 2: 2}, dice=(1, 1))
    assert "1+1 1-1" in legal(state)  # both dice used: legal, and listed once
    assert not {"2+1 2-1", "2-1 2+1", "1-1 1+1"} & set(legal(state))
    same = state.equivalent_notations()["1+1 1-1"]
    assert {"1-1 1+1", "2+1 2-1", "2-1 2+1", "3+1 3-1"} <= set(same)
    [note] = state.legal_notes()
    assert note.code == "traverse.no_change" and note.params == {"play": "1+1 1-1"}
    assert state.parse("3+1 3-1") == state.parse("1+1 1-1")
