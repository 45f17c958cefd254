"""Struggle: every example of the rule book and every RULINGS (Struggle) point is a test."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from display.i18n import say
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


def last_hand(state: StruggleState) -> None:
    """Three pawns arrived, J on square 30, 10 on 5; the hand J J J 10 A ends the race."""
    state.squares = {"J": 30, "10": 5}
    state.boxes = {"K": "A", "Q": "B", "9": "C"}
    state.apply("roll J J J 10 A")


def full_game(players=("Ana", "Bob")) -> StruggleState:
    """A full-mode game with cards 1, 2, … dealt and Ana to play."""
    state = Struggle(list(players), seed=1).new_state()
    state.apply("deal " + " ".join(str(i + 1) for i in range(len(players))))
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
    with pytest.raises(NotationError, match="2 dice were re-thrown: give their 2 new faces, got 3"):
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
    assert "sur la case rouge" in say("fr", play) and "onto red square" in say("en", play)


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
    assert say("fr", play).startswith(
        "le Valet ne peut pas avancer de 2\u00a0: case noire\u00a0; la Dame avance de 3 sur la "
        "case rouge"
    )


def test_equivalent_play_spellings_map_to_the_listed_play() -> None:
    state = table_game()
    state.apply("roll J J J 10 10")
    listed = state.legal_actions()[0]
    assert state.parse("10+2 J+3") == listed
    with pytest.raises(IllegalActionError, match="Ten has 2 dice and the hand no ace: 10"):
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
    last_hand(state)
    plays = [a for a in state.legal_actions() if not a.notation.startswith("rethrow")]
    finals = {tuple(sorted(a.data[1].boxes.items())) for a in plays}
    assert (("10", "E"), ("9", "C"), ("J", "D"), ("K", "A"), ("Q", "B")) in finals
    state.apply("J+4 10+1")
    assert state.boxes == {"K": "A", "Q": "B", "9": "C", "J": "D", "10": "E"}
    assert state.phase == "reveal" and state.actor == 0


def test_scoring_ten_points_per_well_placed_pawn_full_mode() -> None:
    state = full_game()
    last_hand(state)
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
    last_hand(state)
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


# ----- audit: RULINGS Struggle 1-11 point by point ----------------------------------------------


def play_notations(state: StruggleState) -> list[str]:
    return [a.notation for a in state.legal_actions() if not a.notation.startswith("rethrow")]


def test_void_aces_and_void_figures_once_their_pawn_has_arrived() -> None:
    # RULINGS 5: aces attach only to figures whose pawn is on the track; the rest are void.
    state = table_game()
    state.squares = {"Q": 0, "J": 0, "10": 0, "9": 0}
    state.boxes = {"K": "A"}
    state.apply("roll K K A A A")
    assert play_notations(state) == ["pass"]
    state.undo()
    state.apply("roll K Q A A A")
    assert play_notations(state) == ["Q+4"]
    with pytest.raises(IllegalActionError, match="King has already arrived"):
        state.apply("K+1 Q+3")


def test_red_square_take_from_the_start_sends_the_occupant_to_square_zero() -> None:
    # RULINGS 6: the occupant goes to the mover's square at the start of the move, even square 0.
    state = table_game(track="YRYYYYYY")
    state.squares = {"K": 0, "Q": 2, "J": 0, "10": 0, "9": 0}
    state.apply("roll J J 9 9 9")
    plays = [a for a in state.legal_actions() if not a.notation.startswith("rethrow")]
    assert [a.data[1].squares for a in plays] == [{"K": 0, "Q": 0, "J": 2, "10": 0, "9": 3}]
    assert "renvoie la Dame au départ" in say("fr", plays[0])
    assert "sends the Queen back to the start" in say("en", plays[0])


def test_the_red_square_take_is_compulsory() -> None:
    state = table_game()
    state.squares = {"K": 0, "Q": 6, "J": 4, "10": 0, "9": 0}
    state.apply("roll J J K K K")
    assert all(sq["J"] == 6 and sq["Q"] == 4 for sq, _ in results(state))


def test_arrival_boxes_fill_in_the_order_the_pawns_arrive() -> None:
    state = table_game()
    state.squares = {"K": 0, "Q": 30, "J": 31, "10": 0, "9": 0}
    state.apply("roll J J Q Q Q")
    finals = sorted(tuple(sorted(boxes.items())) for _, boxes in results(state))
    assert finals == [(("J", "A"), ("Q", "B")), (("J", "B"), ("Q", "A"))]


def test_fourth_arrival_ends_the_game_mid_hand_and_the_rest_is_void() -> None:
    state = table_game()
    last_hand(state)
    assert play_notations(state) == ["J+4"]  # J leaves first whichever figure takes the ace
    assert state.parse("J+3") == state.parse("J+4") == state.parse("10+2 J+3")
    assert state.parse("J+4 10+1") == state.parse("J+4")  # moves after the end are void
    with pytest.raises(IllegalActionError, match="Jack must move too"):
        state.apply("10+2")
    state.apply("J+3")
    assert state.boxes["J"] == "D" and state.boxes["10"] == "E" and state.phase == "reveal"


def test_plays_are_deduplicated_by_resulting_position() -> None:
    state = table_game()
    state.squares = {"K": 23, "Q": 16, "J": 9, "10": 3, "9": 0}
    state.apply("roll 9 10 J Q K")
    assert len(play_notations(state)) == 1  # 120 orders, one position
    state.undo()
    state.squares = {p: 0 for p in PAWNS}
    state.apply("roll 9 10 J Q K")
    assert len(play_notations(state)) == 5  # whichever moves first takes square 1
    state.undo()
    state.apply("roll J J J 10 Q")  # the 10 and Q both want square 1
    assert len(play_notations(state)) == 2


def test_rethrowing_all_five_dice_is_allowed() -> None:
    state = table_game()
    state.apply("roll 9 10 J Q A")
    state.apply("rethrow A Q J 10 9")
    assert state.chance_hint().startswith("roll <5") and state.kept == ()


def test_the_first_player_is_drawn_by_chance_among_all_players() -> None:
    state = Struggle(["A", "B", "C", "D"], seed=2).new_state()
    state.play_chance()  # the deal
    assert state.actor == CHANCE
    assert [a.notation for a in state.legal_actions()] == [f"first {i}" for i in range(4)]
    firsts = set()
    for seed in range(40):
        game = Struggle(["A", "B", "C", "D"], seed=seed).new_state()
        game.play_chance()
        firsts.add(game.play_chance().notation)
    assert firsts == {f"first {i}" for i in range(4)}


def test_table_mode_revealed_cards_are_public_and_scored_at_the_end() -> None:
    state = table_game(("Ana", "Bob", "Cy"))
    last_hand(state)
    state.apply("J+4")
    assert state.view(1)["objectives"] == [None, None, None]
    state.apply("objective K Q 9 J 10")
    assert state.view(2)["objectives"][0] == ["K", "Q", "9", "J", "10"]
    assert state.scores() == [0, 0, 0]  # not over yet
    state.apply("objective K Q 10 J 9")
    state.apply("objective 9 10 J Q K")
    assert state.scores() == [50, 30, 0] and state.winners() == [0]


def test_full_mode_views_hide_the_other_cards_until_the_end() -> None:
    state = full_game()
    last_hand(state)
    assert state.view(0)["objectives"] == [list(OBJECTIVE_DECK[0]), None]
    state.apply("J+4")
    assert state.view(None)["objectives"] == [list(OBJECTIVE_DECK[0]), list(OBJECTIVE_DECK[1])]


def test_a_board_file_through_the_option_at_syntax(tmp_path) -> None:
    from companion.referee import parse_options

    board = tmp_path / "board.txt"
    board.write_text("# my board\njaune rouge noir\nY Y R B Y Y Y\n", encoding="utf-8")
    state = Struggle(["A", "B"], parse_options([f"track=@{board}"])).new_state()
    assert state.track == "YRBYYRBYYY"


def test_a_board_that_cannot_be_crossed_is_refused() -> None:
    # Five black squares in a row: no pawn moves more than five squares, the race never ends.
    with pytest.raises(OptionError, match="five black squares in a row"):
        Struggle(["A", "B"], {"track": "YYBBBBBYY"})
    with pytest.raises(OptionError, match="line 2"):
        Struggle(["A", "B"], {"track": "YYY\nYYQ"})


@pytest.mark.parametrize(
    ("setup", "line", "message"),
    [
        ([], "roll 9 9 9 9 9", "who starts"),
        ([], "first 3", "no player 3"),
        (["first 0"], "J+3", "throw the 5 dice first"),
        (["first 0"], "rethrow J", "throw the 5 dice first"),
        (
            ["first 0", "roll J J J 10 Q", "rethrow Q"],
            "J+3 10+1",
            "1 die was re-thrown: give its new face first",
        ),
        (["first 0", "roll J J J 10 Q"], "pass", "cannot be declined"),
        (["first 0", "roll J J J 10 Q"], "J+3", "Ten must move too"),
        (["first 0", "roll J J J 10 Q"], "J+3 J+3 10+1 Q+1", "moves once"),
        (["first 0", "roll J J J 10 Q"], "J+2 10+1 Q+1", "Jack has 3 dice"),
        (["first 0", "roll J J J 10 A"], "J+3 10+1", "1 ace"),
        (["first 0", "roll J J J 10 A"], "J+5 10+1", "only 1 ace"),
        (["first 0", "roll J J 10 Q A"], "J+3 10+2 Q+1", "these moves use 2 aces, the hand"),
        (["first 0", "roll J J J 10 Q"], "K+1 J+3 10+1 Q+1", "King is not in the hand"),
        (["first 0", "roll J J J 10 Q"], "J +3", "'J' is not a move: a play lists each pawn"),
        (["first 0", "roll J J J 10 Q"], "hello", "'hello' is not a move"),
        (["first 0", "roll J J J 10 Q"], "first 1", "not now: Ana plays the hand 10 J J J Q"),
        (["first 0"], "deal 1 2", "throw the 5 dice first"),
        (["first 0"], "roll 9 9 9 9", "throw the 5 dice, got 4 faces"),
        (["first 0"], "roll 9 9 9 9 X", "'X' is not a face"),
        (["first 0", "roll J J J 10 Q"], "rethrow 9", "no Nine in the hand"),
        (["first 0", "roll J J J 10 Q"], "rethrow J J J J", "only 3 Jack"),
        (["first 0", "roll J J J 10 Q"], "rethrow", "name the dice"),
        (["first 0", "roll J J J 10 Q"], "roll 9 9 9 9 9", "plays the hand"),
    ],
)
def test_bad_lines_say_what_is_wrong(setup: list[str], line: str, message: str) -> None:
    state = Struggle(["Ana", "Bob"], mode="table").new_state()
    for action in setup:
        state.apply(action)
    before = state.history
    with pytest.raises(engines.EngineError, match=message):
        state.apply(line)
    assert state.history == before


def test_reveal_errors_name_the_problem() -> None:
    state = table_game()
    last_hand(state)
    state.apply("J+4")
    with pytest.raises(IllegalActionError, match="each of the five pawns once"):
        state.apply("objective K K Q J 10")
    with pytest.raises(IllegalActionError, match="Ana reveals"):
        state.apply("J+4")
    state.apply("objective K Q J 10 9")
    with pytest.raises(IllegalActionError, match="Ana already revealed"):
        state.apply("objective K Q J 10 9")


def test_descriptions_read_naturally() -> None:
    state = table_game()
    state.apply("roll J J Q A A")
    rethrow = state.parse("rethrow J J Q")
    assert say("fr", rethrow) == "Relancer 2 Valets et 1 Dame"
    assert say("en", rethrow) == "Re-throw 2 Jacks and 1 Queen"
    assert say("fr", state.parse("rethrow J J Q A A")) == "Relancer les 5 dés"
    assert say("en", state.parse("rethrow J J Q A A")) == "Re-throw all 5 dice"
    play = state.parse("J+3 Q+2")
    said = sorted(say("fr", play).split("\u00a0; "))
    assert said == ["la Dame avance de 2 en case 2", "le Valet avance de 3 en case 3"]
    assert sorted(say("en", play).split("; ")) == [
        "the Jack moves 3 to square 3",
        "the Queen moves 2 to square 2",
    ]


def test_random_games_keep_the_invariants() -> None:
    for seed in range(6):
        state = Struggle(["A", "B", "C"], seed=seed).new_state()
        rng = random.Random(seed)
        while not state.is_over:
            if state.is_chance:
                state.play_chance()
            else:
                state.apply(rng.choice(state.legal_actions()))
            state.check_invariants()
        assert sorted(state.boxes.values()) == list("ABCDE")


def test_invariants_catch_a_broken_position() -> None:
    state = table_game()
    state.squares["K"] = 8  # black square
    with pytest.raises(AssertionError):
        state.check_invariants()


def test_listed_plays_are_exactly_the_positions_of_every_attachment_and_order() -> None:
    # RULINGS 7 by brute force: simulate every (ace attachment, move order) pair separately.
    checked = 0
    for seed in range(8):
        state = Struggle(["A", "B"], seed=seed).new_state()
        rng = random.Random(seed)
        while not state.is_over:
            if state.is_chance:
                state.play_chance()
                continue
            brute = set()
            for moves in state._move_lists():
                done = state._simulate(moves)
                brute.add((tuple(sorted(done.squares.items())), tuple(sorted(done.boxes.items()))))
            listed = [
                (tuple(sorted(sq.items())), tuple(sorted(bx.items()))) for sq, bx in results(state)
            ]
            assert len(listed) == len(set(listed)) and set(listed) == brute
            typed = rng.choice(list(state._move_lists()))  # any spelling names a listed play
            line = " ".join(f"{p}+{k}" for p, k in typed) or "pass"
            assert state.parse(line) in state.legal_actions()
            checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 100


def test_squares_passed_over_do_not_matter_and_a_free_red_square_is_a_plain_move() -> None:
    state = table_game()
    state.squares = {"K": 0, "Q": 4, "J": 7, "10": 3, "9": 0}
    state.apply("roll J J 9 9 9")  # J 7 -> 9 over black 8; 9 +3 hits the yellow 3 held by 10
    assert results(state) == [({"K": 0, "Q": 4, "J": 9, "10": 3, "9": 0}, {})]
    state.undo()
    state.apply("roll 10 10 10 K K")  # 10 3 -> 6, a free red square, over the Queen on 4
    assert {sq["10"] for sq, _ in results(state)} == {6}


def test_equal_scores_make_several_winners() -> None:
    state = table_game()
    last_hand(state)
    state.apply("J+4")  # boxes: K A, Q B, 9 C, J D, 10 E
    state.apply("objective K Q 9 10 J")  # K, Q and 9 well placed
    state.apply("objective Q K 9 J 10")  # 9, J and 10 well placed
    assert state.scores() == [30, 30] and state.winners() == [0, 1]


def test_a_play_may_stop_at_the_move_that_ends_the_race() -> None:
    state = table_game()
    state.squares = {"J": 32, "9": 31, "10": 5}
    state.boxes = {"K": "A", "Q": "B"}
    state.apply("roll 9 10 J A A")
    ended = state.parse("J+1 9+2")  # the Ten's move (and the last ace) never happen
    assert ended == state.parse("J+1 9+2 10+2") == state.parse("J+2 9+2")
    assert ended.data[1].boxes == {"K": "A", "Q": "B", "J": "C", "9": "D", "10": "E"}
    with pytest.raises(IllegalActionError, match="Ten must move too"):
        state.apply("9+1 J+1")  # the Nine is an impasse, only J arrives: the race goes on
