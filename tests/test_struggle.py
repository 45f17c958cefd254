"""Struggle: every example of the rule book and every RULINGS (Struggle) point is a test."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from engines.core import CHANCE, IllegalActionError, NotationError, OptionError
from engines.struggle import (
    DEFAULT_TRACK,
    OBJECTIVE_DECK,
    PAWNS,
    Struggle,
    StruggleState,
    parse_track,
)


def table_game(players=("Ana", "Bob"), **options) -> StruggleState:
    """A table-mode game (objective cards are physical) with Ana to play."""
    state = Struggle(list(players), options, mode="table").new_state()
    state.apply("first 0")
    return state


def results(state: StruggleState) -> list[tuple[dict, dict]]:
    plays = [a for a in state.legal_actions() if not a.notation.startswith("rethrow")]
    return [(a.data[1].squares, a.data[1].boxes) for a in plays]


def test_default_track_has_32_squares_with_square_one_yellow() -> None:
    assert len(DEFAULT_TRACK) == 32
    assert DEFAULT_TRACK[0] == "Y"
    assert set(DEFAULT_TRACK) == {"Y", "R", "B"}


def test_default_objective_deck_is_twenty_balanced_orders() -> None:
    assert len(set(OBJECTIVE_DECK)) == 20
    for place in range(5):
        assert Counter(order[place] for order in OBJECTIVE_DECK) == {p: 4 for p in PAWNS}


def test_all_pawns_start_on_square_zero() -> None:
    state = table_game()
    assert state.squares == {p: 0 for p in PAWNS}
    assert state.actor == CHANCE and state.chance_hint().startswith("roll <5")


def test_book_three_jacks_two_tens_moves_jack_three_and_ten_two() -> None:
    state = table_game()
    state.apply("roll J J J 10 10")
    assert results(state) == [({"K": 0, "Q": 0, "J": 3, "10": 2, "9": 0}, {})]


def test_book_jack_ten_queen_two_pawns_cannot_share_a_square() -> None:
    state = table_game()
    state.apply("roll J J J 10 Q")
    outcomes = {tuple(sorted(sq.items())) for sq, _ in results(state)}
    assert outcomes == {
        tuple(sorted({"K": 0, "Q": 0, "J": 3, "10": 1, "9": 0}.items())),
        tuple(sorted({"K": 0, "Q": 1, "J": 3, "10": 0, "9": 0}.items())),
    }


def test_book_two_jacks_three_tens_must_be_played() -> None:
    state = table_game()
    state.apply("roll J J 10 10 10")
    plays = [a for a in state.legal_actions() if not a.notation.startswith("rethrow")]
    assert [p.data[1].squares for p in plays] == [{"K": 0, "Q": 0, "J": 2, "10": 3, "9": 0}]


def test_book_ace_can_stand_for_any_figure_of_the_hand_only() -> None:
    state = table_game()
    state.apply("roll 9 10 J J A")
    outcomes = [sq for sq, _ in results(state)]
    assert all(sq["K"] == 0 and sq["Q"] == 0 for sq in outcomes)  # never to K or Q
    assert any(sq["J"] == 3 for sq in outcomes)  # the ace as a Jack
    assert any(sq["10"] == 2 for sq in outcomes)  # as a Ten
    assert any(sq["9"] == 2 for sq in outcomes)  # as a Nine
    assert all(sq["J"] in (0, 2, 3) for sq in outcomes)


def test_book_five_aces_are_worth_nothing() -> None:
    state = table_game()
    state.apply("roll A A A A A")
    plays = [a.notation for a in state.legal_actions() if not a.notation.startswith("rethrow")]
    assert plays == ["pass"]


def test_up_to_three_throws_with_chosen_rethrows() -> None:
    state = table_game()
    state.apply("roll 9 9 10 J Q")
    state.apply("rethrow 9 9")
    assert state.kept == ("10", "J", "Q") and state.chance_hint().startswith("roll <2")
    with pytest.raises(NotationError, match="expected 2 dice"):
        state.apply("roll 9 9 9")
    state.apply("roll A K")
    assert state.hand == ("10", "J", "Q", "K", "A") and state.throws == 2
    state.apply("rethrow A")
    state.apply("roll 9")
    assert state.throws == 3
    assert not any(a.notation.startswith("rethrow") for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="three throws"):
        state.apply("rethrow 9")


def test_rethrow_faces_in_any_order_and_case_are_the_same_action() -> None:
    state = table_game()
    state.apply("roll q 9 J 10 a")
    assert state.hand == ("9", "10", "J", "Q", "A")
    assert state.apply("rethrow A 9").notation == "rethrow 9 A"


def test_red_square_take_sends_the_occupant_to_the_movers_start() -> None:
    # Book: a Jack moves 2 onto an occupied red square; the Queen goes back to the Jack's start.
    state = table_game()
    state.squares = {"K": 0, "Q": 6, "J": 4, "10": 0, "9": 0}
    state.apply("roll J J K K K")  # J +2 lands on red 6 held by Q; K +3 to square 3
    play = state.apply("J+2 K+3")
    assert state.squares["J"] == 6 and state.squares["Q"] == 4
    assert "prend la case rouge" in play.fr and "takes red square" in play.en


def test_black_square_and_occupied_yellow_square_are_impasses() -> None:
    state = table_game()
    state.squares = {"K": 0, "Q": 0, "J": 7, "10": 2, "9": 0}
    state.apply("roll J K K 10 10")  # J +1 onto black 8; K +2 onto 10's yellow 2; 10 +2 to 4
    outcomes = results(state)
    for squares, _ in outcomes:
        assert squares["J"] == 7  # black: never stops on square 8
    assert any(sq["K"] == 0 and sq["10"] == 4 for sq, _ in outcomes)  # K first: impasse
    assert any(sq["K"] == 2 and sq["10"] == 4 for sq, _ in outcomes)  # 10 first, then K


def test_rulings_worked_example_jack_impasse_then_queen_takes_red_square() -> None:
    # RULINGS Struggle 11: J on red s, s+2 black, Q on s-3; hand J Q A A A; one ace to J, two
    # to Q, J first: J is an impasse, Q moves 3 onto s, takes it, J goes back to s-3.
    s = DEFAULT_TRACK.index("R") + 1
    assert DEFAULT_TRACK[s + 1] == "B"
    state = table_game()
    state.squares = {"K": 0, "Q": s - 3, "J": s, "10": 0, "9": 0}
    state.apply("roll J Q A A A")
    play = state.apply("J+2 Q+3")
    assert state.squares["J"] == s - 3 and state.squares["Q"] == s
    assert play.fr.startswith("Valet +2 : impasse (case noire) ; Dame +3 prend la case rouge")


def test_equivalent_play_spellings_map_to_the_listed_play() -> None:
    state = table_game()
    state.apply("roll J J J 10 10")
    listed = state.legal_actions()[0]
    assert state.parse("10+2 J+3") == listed
    with pytest.raises(IllegalActionError, match="not a play of the hand"):
        state.apply("J+3 10+3")


def test_aces_attach_only_to_pawns_still_on_the_track() -> None:
    state = table_game()
    state.squares = {"Q": 0, "J": 0, "10": 0, "9": 0}
    state.boxes = {"K": "A"}
    state.apply("roll K K Q A A")
    outcomes = results(state)
    assert outcomes == [({"Q": 3, "J": 0, "10": 0, "9": 0}, {"K": "A"})]


def test_arrivals_fill_boxes_in_order_and_the_fourth_ends_the_race() -> None:
    state = table_game()
    state.squares = {"J": 30, "10": 5}
    state.boxes = {"K": "A", "Q": "B", "9": "C"}
    state.apply("roll J J J 10 A")
    plays = [a for a in state.legal_actions() if not a.notation.startswith("rethrow")]
    finals = {tuple(sorted(a.data[1].boxes.items())) for a in plays}
    assert (("10", "E"), ("9", "C"), ("J", "D"), ("K", "A"), ("Q", "B")) in finals
    state.apply("J+4 10+1")
    assert state.boxes == {"K": "A", "Q": "B", "9": "C", "J": "D", "10": "E"}
    assert state.phase == "reveal" and state.actor == 0


def test_scoring_ten_points_per_well_placed_pawn_full_mode() -> None:
    state = Struggle(["Ana", "Bob"], seed=1).new_state()
    state.apply("deal 1 2")
    state.apply("first 0")
    state.squares = {"J": 30, "10": 5}
    state.boxes = {"K": "A", "Q": "B", "9": "C"}
    state.apply("roll J J J 10 A")
    state.apply("J+4 10+1")
    assert state.is_over
    # card 1 is K Q J 10 9: K, Q, J, 10 well placed (A, B, D?, E?) -> K A, Q B right; 9 is C not E
    expected = [
        sum(10 for i, p in enumerate(OBJECTIVE_DECK[c - 1]) if state.boxes[p] == "ABCDE"[i])
        for c in (1, 2)
    ]
    assert state.scores() == expected and state.scores()[0] == 20


def test_table_mode_reveal_objectives_at_the_end() -> None:
    state = table_game()
    state.squares = {"J": 30, "10": 5}
    state.boxes = {"K": "A", "Q": "B", "9": "C"}
    state.apply("roll J J J 10 A")
    state.apply("J+4 10+1")
    state.apply("objective K Q 9 J 10")
    with pytest.raises(IllegalActionError):
        state.apply("objective K Q 9 J 10")  # the same card cannot be held twice
    state.apply("objective 9 10 J Q K")
    assert state.is_over and state.scores() == [50, 0] and state.winners() == [0]


def test_player_view_hides_other_objectives_until_the_end() -> None:
    state = Struggle(["Ana", "Bob", "Cy"], seed=4).new_state()
    state.apply("deal 3 7 11")
    view = state.view(1)
    assert view["objectives"][1] == list(OBJECTIVE_DECK[6])
    assert view["objectives"][0] is None and view["objectives"][2] is None
    assert state.view(None)["objectives"] == [None, None, None]


def test_turns_go_clockwise_from_the_drawn_first_player() -> None:
    state = Struggle(["A", "B", "C"], mode="table").new_state()
    state.apply("first 2")
    state.apply("roll 9 9 9 9 9")
    state.apply("9+5")
    assert state.actor == CHANCE and state.current == 0


def test_a_custom_board_from_a_description() -> None:
    text = "# my board\njaune jaune rouge\nN, Y, R\n"
    assert parse_track(text) == "YYRBYR"
    state = Struggle(["A", "B"], {"track": text}).new_state()
    assert state.track == "YYRBYR"
    with pytest.raises(OptionError, match="track"):
        Struggle(["A", "B"], {"track": "YYQ"})
    with pytest.raises(OptionError, match="5 to 200"):
        Struggle(["A", "B"], {"track": "YY"})


def test_deal_must_be_distinct_cards_one_per_player() -> None:
    state = Struggle(["A", "B"]).new_state()
    for bad in ("deal 1 1", "deal 1", "deal 0 21", "deal x y"):
        with pytest.raises(engines.EngineError):
            state.apply(bad)
    assert not state.history


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_every_listed_play_keeps_pawns_on_distinct_squares(seed: int) -> None:
    rng = random.Random(seed)
    state = Struggle(["A", "B"], seed=seed).new_state()
    for _ in range(rng.randrange(1, 300)):
        if state.is_over:
            break
        if state.is_chance:
            state.play_chance()
            continue
        for action in state.legal_actions():
            if action.notation.startswith("rethrow"):
                continue
            squares = [sq for sq in action.data[1].squares.values() if sq > 0]
            assert len(squares) == len(set(squares))
            assert all(state.track[sq - 1] != "B" for sq in squares)
        state.apply(rng.choice(state.legal_actions()))
