"""Sequence: the rule book and RULINGS (Sequence) as scripted games, full and table mode."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from display.i18n import say
from engines._sequence_board import (
    BOARD,
    CARDS,
    DECK,
    JACKS,
    BoardFileError,
    load_standard_board,
    parse_board,
    parse_square,
)
from engines.core import CHANCE, IllegalActionError, NotationError, OptionError
from engines.sequence import HAND_SIZES, Sequence, SequenceState

FILLER = ["b9", "d10", "g10", "i8", "j4", "h9", "f10", "c10", "i6", "j6"]  # scattered squares


def table_game(players: int = 2, dealer: int | None = None, **options) -> SequenceState:
    """A table-mode game whose first player is P0 (the dealer sits on P0's right)."""
    game = Sequence([f"P{i}" for i in range(players)], options, mode="table")
    state = game.new_state()
    state.apply(f"dealer {players - 1 if dealer is None else dealer}")
    return state


def chip(state: SequenceState, square: str, card: str | None = None) -> None:
    """The player to act puts a chip on `square` with the card printed there (or `card`)."""
    state.apply(f"{card or BOARD[parse_square(square)]}@{square}")


def script(state: SequenceState, *turns: str) -> None:
    """Squares in turn order; `JCx…`-style moves and `card@square` are applied as written."""
    for turn in turns:
        if "@" in turn or "x" in turn or turn.startswith("dead"):
            state.apply(turn)
        else:
            chip(state, turn)


def build(state: SequenceState, mine: list[str], others: list[list[str]] | None = None) -> None:
    """P0's team plays `mine` in order; between them the other seats play their squares."""
    seats = state.player_count
    others = others or [FILLER[i :: seats - 1] for i in range(seats - 1)]
    for turn, square in enumerate(mine):
        chip(state, square)
        if turn == len(mine) - 1:
            break
        for seat in range(seats - 1):
            chip(state, others[seat][turn])


def sequences(state: SequenceState) -> list[tuple[int, list[str]]]:
    return [(s["team"], s["squares"]) for s in state.view()["sequences"]]


# ----- the board --------------------------------------------------------------------------------


def test_packaged_board_has_every_non_jack_card_exactly_twice() -> None:
    board = load_standard_board()
    counts = Counter(board)
    assert counts.pop("XX") == 4
    assert set(counts) == set(CARDS) - JACKS
    assert set(counts.values()) == {2}
    assert (board[0], board[9], board[90], board[99]) == ("XX",) * 4


def test_packaged_board_is_the_shared_standard_board(shared_dir: Path) -> None:
    board_file = shared_dir / "sequence_board.txt"  # ../shared or $TABLETOP_SHARED, as CI has it
    assert parse_board(board_file.read_text(encoding="utf-8")) == BOARD


def test_a_board_with_a_card_three_times_or_a_jack_is_refused() -> None:
    rows = [" ".join(BOARD[r * 10 : r * 10 + 10]) for r in range(10)]
    thrice = [rows[0].replace("2S", "3S", 1)] + rows[1:]
    with pytest.raises(BoardFileError, match="2S stands 1 times, not 2"):
        parse_board("\n".join(thrice))
    jack = [rows[0].replace("2S", "JS", 1)] + rows[1:]
    with pytest.raises(BoardFileError, match="jacks"):
        parse_board("\n".join(jack))


def test_squares_are_named_like_a_spreadsheet() -> None:
    assert parse_square("a1") == 0 and parse_square("j1") == 9 and parse_square("a10") == 90
    assert BOARD[parse_square("b1")] == "2S" and BOARD[parse_square("j2")] == "TS"
    with pytest.raises(NotationError):
        parse_square("k3")


# ----- set-up -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "teams"), [(2, 2), (3, 3), (4, 2), (6, 2), (8, 2), (9, 3),
                                                (10, 2), (12, 2)])  # fmt: skip
def test_player_counts_teams_and_hand_sizes(players: int, teams: int) -> None:
    game = Sequence([f"P{i}" for i in range(players)], seed=players)
    assert game.teams == teams and game.target == (2 if teams == 2 else 1)
    state = game.new_state()
    while state.actor == CHANCE:
        state.play_chance()
    assert [len(hand) for hand in state.hands] == [HAND_SIZES[players]] * players
    assert state.stock_count == 104 - players * HAND_SIZES[players]
    assert state.view()["team_of"] == [seat % teams for seat in range(players)]


def test_six_or_twelve_players_may_play_in_three_teams() -> None:
    game = Sequence([f"P{i}" for i in range(6)], {"teams": "3"})
    assert game.teams == 3 and game.target == 1 and game.team_of(4) == 1


@pytest.mark.parametrize(("players", "options", "message"), [
    (5, {}, "takes 2, 3, 4, 6, 8, 9, 10 or 12 players|takes .* players"),
    (4, {"teams": 3}, "cannot make 3 equal teams"),
    (3, {"teams": 2}, "cannot make 2 equal teams"),
    (2, {"teams": 4}, "teams is 0"),
    (2, {"niveau_superieur": "maybe"}, "niveau_superieur"),
])  # fmt: skip
def test_bad_set_ups_are_clear_errors(players: int, options: dict, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        Sequence([f"P{i}" for i in range(players)], options)


# ----- dealer and deal --------------------------------------------------------------------------


def test_lowest_card_deals_aces_high_and_the_left_neighbour_starts() -> None:
    state = Sequence(["A", "B", "C"], mode="full").new_state()
    state.apply("cut AS 2H KD")  # the ace is high: B's two is the lowest
    assert state.dealer == 1 and state.phase == "deal"
    state.play_chance()
    assert state.actor == 2  # on the dealer's left, clockwise


def test_a_tie_for_lowest_card_cuts_again_between_the_tied_players() -> None:
    state = Sequence(["A", "B", "C", "D"]).new_state()
    state.apply("cut 4S 9H 4D 4C")
    assert state.cutters == (0, 2, 3) and state.dealer is None
    with pytest.raises(IllegalActionError, match="3 cards"):
        state.apply("cut 2S 3S 4S 5S")
    state.apply("cut 10H 7C JD")
    assert state.dealer == 2 and state.view()["last_cut"] == ["TH", "7C", "JD"]


def test_a_cut_cannot_show_a_card_three_times() -> None:
    state = Sequence(["A", "B", "C"]).new_state()
    with pytest.raises(IllegalActionError, match="only 2 of 7D"):
        state.apply("cut 7D 7D 7D")


def deck_with(first_hands: list[list[str]], stock_top: list[str] = ()) -> list[str]:
    """A deck order that deals these hands (from the dealer's left) then has `stock_top` on top."""
    rest = Counter(DECK) - Counter(card for hand in first_hands for card in hand)
    rest -= Counter(stock_top)
    dealt = [hand[i] for i in range(len(first_hands[0])) for hand in first_hands]
    return dealt + list(stock_top) + sorted(rest.elements())


def full_game(hands: list[list[str]], stock_top: list[str] = (), **options) -> SequenceState:
    """Full mode, P1 deals to P0 first (cut), so hands[0] is P0's and P0 plays first."""
    state = Sequence(["P0", "P1"], options).new_state()
    state.apply("cut AS 2S")
    state.apply("deal " + " ".join(deck_with(hands, stock_top)))
    return state


HAND0 = ["JC", "7D", "2S", "3S", "4S", "5S", "JH"]
HAND1 = ["7D", "6C", "5C", "4C", "3C", "2C", "AH"]


def test_the_deal_goes_round_from_the_dealers_left_and_the_rest_is_the_stock() -> None:
    state = full_game([HAND0, HAND1], ["9C"])
    assert sorted(state.hands[0]) == sorted(HAND0) and sorted(state.hands[1]) == sorted(HAND1)
    assert state.stock[0] == "9C" and state.stock_count == 90 and state.actor == 0


def test_a_deal_must_be_the_whole_double_deck() -> None:
    state = Sequence(["P0", "P1"]).new_state()
    state.apply("cut AS 2S")
    deck = list(DECK)
    deck[0] = deck[2]  # three 3S... and one 2S missing
    with pytest.raises(IllegalActionError):
        state.apply("deal " + " ".join(deck))
    assert state.phase == "deal" and not state.history[1:]


# ----- a turn in full mode ----------------------------------------------------------------------


def test_a_turn_plays_a_card_puts_a_chip_and_draws_the_top_card() -> None:
    state = full_game([HAND0, HAND1], ["9C", "8C"])
    state.apply("2S@b1")
    assert state.view()["chips"][0][1] == 0 and state.discard == ("2S",)
    assert "9C" in state.hands[0] and "2S" not in state.hands[0] and len(state.hands[0]) == 7
    assert state.stock_count == 89 and state.actor == 1


def test_a_card_goes_only_on_a_free_square_showing_it() -> None:
    state = full_game([HAND0, HAND1])
    with pytest.raises(IllegalActionError, match="c1 shows 3S, not 2S"):
        state.apply("2S@c1")
    with pytest.raises(IllegalActionError, match="no 9C in hand"):
        state.apply("9C@a5")
    state.apply("2S@b1")
    state.apply("2C@e2")
    with pytest.raises(IllegalActionError, match="e2 already holds a chip"):
        state.apply("JC@e2")
    with pytest.raises(IllegalActionError, match="corner"):
        state.apply("JC@a1")


def test_two_eyed_jacks_go_anywhere_free_one_eyed_jacks_remove_an_opponent_chip() -> None:
    state = full_game([HAND0, HAND1])
    free = {a.notation for a in state.legal_actions() if a.notation.startswith("JC@")}
    assert len(free) == 96  # every square but the four corners
    assert not any(a.notation.startswith("JH") for a in state.legal_actions())  # nothing to take
    with pytest.raises(IllegalActionError, match="one-eyed jack"):
        state.apply("JH@e5")
    state.apply("JC@e5")
    state.apply("2C@e2")
    with pytest.raises(IllegalActionError, match="own team"):
        state.apply("JHxe5")
    with pytest.raises(IllegalActionError, match="only a one-eyed jack"):
        state.apply("2SxE2")
    state.apply("JHxe2")
    assert state.view()["chips"][1][4] is None and state.discard[-1] == "JH"


def test_a_dead_card_is_discarded_and_replaced_within_the_turn() -> None:
    state = full_game([HAND0, HAND1], ["9C", "8C", "KS"])
    with pytest.raises(IllegalActionError, match="7D is not dead"):
        state.apply("dead 7D")
    state.apply("JC@h3")  # one 7D square
    state.apply("7D@h10")  # P1 takes the other: P0's 7D is now dead
    assert state.view(0)["dead_cards"] == ["7D"]
    assert "dead 7D" in [a.notation for a in state.legal_actions()]
    assert "7D@h3" not in [a.notation for a in state.legal_actions()]
    state.apply("dead 7D")
    assert state.actor == 0 and "7D" not in state.hands[0] and "KS" in state.hands[0]
    assert len(state.hands[0]) == 7 and state.discard[-1] == "7D"
    state.apply("KS@b4")
    assert state.actor == 1


def test_a_one_eyed_jack_with_nothing_to_take_counts_as_dead() -> None:
    state = full_game([HAND0, HAND1])
    assert "dead JH" in [a.notation for a in state.legal_actions()]  # empty board
    assert "dead JC" not in [a.notation for a in state.legal_actions()]
    state.apply("dead JH")
    assert state.actor == 0 and "JH" not in state.hands[0] and len(state.hands[0]) == 7


# ----- sequences --------------------------------------------------------------------------------


def test_five_in_a_row_in_each_direction_and_corners_count_for_every_team() -> None:
    state = table_game()
    # The book's picture: one team builds along a row, the other down a column, both through a1.
    build(state, ["b1", "c1", "d1", "e1"], [["a2", "a3", "a4", "a5"]])
    chip(state, "a5")
    assert sequences(state) == [(0, ["a1", "b1", "c1", "d1", "e1"]),
                                (1, ["a1", "a2", "a3", "a4", "a5"])]  # fmt: skip
    assert state.scores() == [1, 1] and not state.is_over


@pytest.mark.parametrize("squares", [["c3", "d4", "e5", "f6", "g7"], ["f2", "e3", "d4", "c5",
                                     "b6"], ["c2", "c3", "c4", "c5", "c6"]])  # fmt: skip
def test_diagonals_and_columns_make_sequences(squares: list[str]) -> None:
    state = table_game(3)  # three teams: one sequence wins
    build(state, squares)
    assert state.is_over and state.winners() == [0] and state.view()["winner_team"] == 0
    assert sequences(state) == [(0, squares)]


def test_a_completed_sequence_is_locked_against_one_eyed_jacks() -> None:
    state = table_game()
    build(state, ["a2", "b2", "c2", "d2", "e2"], [["b9", "d10", "g10", "i8"]])
    assert state.view()["locked"][1][:6] == [True] * 5 + [False]
    with pytest.raises(IllegalActionError, match="completed sequence"):
        state.apply("JSxc2")
    chip(state, "f2", "JD")  # P0's own chip beside the sequence is not locked
    state.apply("JSxf2")
    assert state.board[parse_square("f2")] == "."


def test_niveau_superieur_lets_a_one_eyed_jack_break_a_sequence() -> None:
    state = table_game(niveau_superieur="on")
    build(state, ["a2", "b2", "c2", "d2", "e2"], [["b9", "d10", "g10", "i8"]])
    assert sequences(state) == [(0, ["a2", "b2", "c2", "d2", "e2"])]
    state.apply("JHxc2")  # breaks it
    assert sequences(state) == [] and state.scores() == [0, 0]
    assert not any(state.view()["locked"][1])
    state.apply("JC@c2")  # and it can be made again
    assert sequences(state) == [(0, ["a2", "b2", "c2", "d2", "e2"])]


def test_breaking_a_sequence_leaves_the_other_five_in_a_row_standing() -> None:
    state = table_game(niveau_superieur="on")
    build(state, ["b2", "c2", "d2", "e2", "f2", "a2"], [["b9", "d10", "g10", "i8", "j4"]])
    assert sequences(state) == [(0, ["b2", "c2", "d2", "e2", "f2"])]  # a2 makes no second one
    state.apply("JHxb2")  # breaks it: a2 and c2-f2 are left, too short
    assert sequences(state) == []
    state = table_game(niveau_superieur="on")
    build(state, ["a2", "b2", "c2", "d2", "e2", "f2"], [["b9", "d10", "g10", "i8", "j4"]])
    assert sequences(state) == [(0, ["a2", "b2", "c2", "d2", "e2"])]
    state.apply("JHxa2")  # b2-f2 are still five in a row: they make the sequence now
    assert sequences(state) == [(0, ["b2", "c2", "d2", "e2", "f2"])]


def test_a_run_of_six_made_at_once_locks_the_five_leaving_most_room_on_the_line() -> None:
    state = table_game()
    build(state, ["b2", "c2", "e2", "f2", "g2", "d2"], [["b9", "d10", "g10", "i8", "j4"]])
    assert sequences(state) == [(0, ["b2", "c2", "d2", "e2", "f2"])]  # f2-j2 stays possible


def test_a_second_sequence_may_share_one_square_with_the_first() -> None:
    state = table_game()
    build(state, ["a2", "b2", "c2", "d2", "e2", "e3", "e4", "e5"],
          [["b9", "d10", "g10", "i8", "j4", "h9", "f10"]])  # fmt: skip
    assert state.scores() == [1, 0]
    chip(state, "j6")  # P1
    chip(state, "e6")
    assert state.is_over and state.winners() == [0]
    assert sequences(state)[-1] == (0, ["e2", "e3", "e4", "e5", "e6"])


def test_a_line_of_six_or_eight_is_one_sequence_a_line_of_nine_is_two() -> None:
    state = table_game()
    build(state, ["a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"],
          [["b9", "d10", "g10", "i8", "j4", "h9", "f10"]])  # fmt: skip
    assert sequences(state) == [(0, ["a2", "b2", "c2", "d2", "e2"])] and not state.is_over
    chip(state, "c10")
    chip(state, "i2")
    assert state.is_over and sequences(state)[-1] == (0, ["e2", "f2", "g2", "h2", "i2"])


def test_one_chip_in_the_middle_of_a_line_of_nine_makes_two_sequences_and_wins() -> None:
    state = table_game(4)  # teams of two: P0 and P2 share the blue chips
    build(state, ["a2", "b2", "c2", "d2", "f2", "g2", "h2", "i2"],
          [["b9", "d10", "g10", "i8", "j4", "h9", "f10"], ["j3", "a7", "a8", "a9", "j7", "d9",
           "f9"], ["c7", "e7", "g7", "i7", "c5", "e8", "g8"]])  # fmt: skip
    chip(state, "h8")  # P1
    assert sequences(state) == [] and state.actor == 2
    chip(state, "e2")  # P2, P0's partner
    assert sequences(state) == [(0, ["a2", "b2", "c2", "d2", "e2"]),
                                (0, ["e2", "f2", "g2", "h2", "i2"])]  # fmt: skip
    assert state.is_over and state.winners() == [0, 2] and state.scores() == [2, 0, 2, 0]


def test_a_line_of_ten_makes_two_sequences() -> None:
    state = table_game()
    build(state, ["f2", "g2", "h2", "i2", "j2", "a2", "b2", "c2", "d2"],
          [["b9", "d10", "g10", "i8", "j4", "h9", "f10", "c10"]])  # fmt: skip
    assert sequences(state) == [(0, ["f2", "g2", "h2", "i2", "j2"])] and not state.is_over
    chip(state, "i6")
    chip(state, "e2")
    assert state.is_over and sequences(state)[-1] == (0, ["a2", "b2", "c2", "d2", "e2"])


def test_two_teams_need_two_sequences_three_teams_need_one() -> None:
    two = table_game(2)
    build(two, ["b3", "c3", "d3", "e3", "f3"], [["b9", "d10", "g10", "i8"]])
    assert not two.is_over and two.scores() == [1, 0]
    three = table_game(3)
    build(three, ["b3", "c3", "d3", "e3", "f3"])
    assert three.is_over and three.scores() == [1, 0, 0] and three.winners() == [0]


# ----- table mode -------------------------------------------------------------------------------


def test_table_mode_counts_cards_both_copies_played_means_no_third() -> None:
    state = table_game()
    script(state, "7D@h3", "JSxh3", "7D@h10")  # both 7D played, h3 free again
    with pytest.raises(IllegalActionError, match="both 7D have already been played"):
        state.apply("7D@h3")
    assert "7D" in state.view()["exhausted"]
    script(state, "JC@e5", "JC@e6")
    with pytest.raises(IllegalActionError, match="both JC"):
        state.apply("JC@e7")
    state.apply("JD@e7")


def test_table_mode_accepts_the_usual_spellings() -> None:
    state = table_game()
    assert state.apply("10d@H6").notation == "TD@h6"
    assert state.apply("JH-x h6").notation == "JHxh6"
    assert state.apply("7d @ h3").notation == "7D@h3"
    assert state.apply("JS x h3").notation == "JSxh3"
    assert state.apply("jc@e5").notation == "JC@e5"


@pytest.mark.parametrize("text", ["7D@k3", "7Z@c3", "@c3", "7D c3", "dead", "dead 7D 8D"])
def test_garbled_moves_are_notation_errors_and_change_nothing(text: str) -> None:
    state = table_game()
    before = state.clone()
    with pytest.raises(NotationError):
        state.apply(text)
    assert state == before


def test_table_mode_dealer_and_chance_hints() -> None:
    state = Sequence(["A", "B"], mode="table").new_state()
    assert [a.notation for a in state.legal_actions()] == ["dealer 0", "dealer 1"]
    assert "dealer" in state.chance_hint()
    state.apply("cut 3H 9S")  # a cut works at the table too
    assert state.dealer == 0 and state.actor == 1
    with pytest.raises(IllegalActionError, match="drawn"):
        Sequence(["A", "B"]).new_state().apply("dealer 1")


def test_a_scripted_table_game_to_a_win() -> None:
    state = table_game()
    script(state, "TS@j2", "QS@b5", "QS@j3", "JC@j4", "JSxj4", "8S@b8", "KS@j4", "JC@j5",
           "JHxj5", "6S@f1", "AS@j5")  # fmt: skip
    assert sequences(state) == [(0, ["j1", "j2", "j3", "j4", "j5"])]  # with the corner
    assert state.scores() == [1, 0]
    with pytest.raises(IllegalActionError, match="completed sequence"):
        state.apply("JHxj4")
    with pytest.raises(IllegalActionError, match="both QS"):
        state.apply("QS@b5")
    script(state, "3H@i9", "2S@b1", "JD@c1", "JSxc1", "5S@e1")
    with pytest.raises(IllegalActionError, match="no chip on a2"):
        state.apply("JHxa2")
    script(state, "JHxe1", "9H@i3", "3S@c1", "8H@i4", "4S@d1", "7H@i5")
    with pytest.raises(IllegalActionError, match="both JH"):
        state.apply("JHxi5")
    state.apply("5S@e1")  # a1 (corner) b1 c1 d1 e1: the second sequence
    assert state.is_over and state.winners() == [0] and state.scores() == [2, 0]
    assert sequences(state)[-1] == (0, ["a1", "b1", "c1", "d1", "e1"])
    with pytest.raises(engines.GameOverError):
        state.apply("7D@h3")
    assert engines.loads(engines.dumps(state)) == state


# ----- stock running out ------------------------------------------------------------------------


def play_random_until(mode: str, wanted) -> tuple[SequenceState, SequenceState]:
    """The first random two-player game (by seed) with a move that makes `wanted` true."""
    for seed in range(200):
        rng = random.Random(seed)
        state = Sequence(["A", "B"], seed=seed, mode=mode).new_state()
        while not state.is_over:
            if state.actor == CHANCE:
                state.apply(state.sample_chance(), validate=False)
                continue
            before = state.clone()
            state.apply(rng.choice(state.legal_actions()), validate=False)
            if wanted(before, state):
                return before, state
    raise AssertionError("no game among 200 seeds reached the position")


def test_full_mode_reshuffles_the_discard_pile_when_the_stock_runs_out() -> None:
    before, state = play_random_until("full", lambda b, s: s.phase == "shuffle")
    assert before.stock_count == 0 and state.actor == CHANCE
    player, pile = state.current, list(state.discard)
    with pytest.raises(IllegalActionError, match="discard pile"):
        state.apply("shuffle " + " ".join(pile[1:] + ["2S" if pile[0] != "2S" else "3S"]))
    state.apply("shuffle " + " ".join(reversed(pile)))
    assert state.discard == () and state.stock_count == len(pile) - 1
    assert state.hands[player][-1] == pile[-1] and len(state.hands[player]) == 7
    state.check_invariants()


def test_table_mode_reshuffle_brings_played_cards_back() -> None:
    before, state = play_random_until("table", lambda b, s: len(s.discard) < len(b.discard))
    assert before.stock_count == 0 and before.view()["exhausted"]
    assert state.discard == () and state.stock_count == len(before.discard)
    assert not state.view()["exhausted"]


# ----- views and detection ----------------------------------------------------------------------


def test_views_hide_other_hands_in_full_mode_and_all_hands_in_table_mode() -> None:
    state = full_game([HAND0, HAND1])
    spectator, own = state.view(None), state.view(0)
    assert spectator["hands"] == [None, None] and own["hands"][1] is None
    assert sorted(own["hands"][0]) == sorted(HAND0) and spectator["hand_counts"] == [7, 7]
    assert spectator["cards"][0][1] == "2S" and spectator["stock"] == 90
    json.dumps(spectator)
    table = table_game()
    assert table.view(0)["hands"] == [None, None] and table.view(0)["dead_cards"] == []


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.sampled_from([2, 3, 4, 6]),
       superieur=st.booleans())  # fmt: skip
def test_new_sequences_through_each_chip_are_all_claimed(
    seed: int, count: int, superieur: bool
) -> None:
    """After every chip, no five of a team in a row through it is left unclaimed when the
    shared-square rule would allow it (the incremental scan misses nothing it should see)."""
    from engines._sequence_board import LINES

    rng = random.Random(seed)
    options = {"niveau_superieur": superieur}
    state = Sequence([f"P{i}" for i in range(count)], options, seed=seed).new_state()
    while not state.is_over:
        if state.actor == CHANCE:
            state.play_chance()
            continue
        action = rng.choice(state.legal_actions())
        state.apply(action)
        state.check_invariants()
        if action.data[0] == "place":
            _assert_nothing_left_to_claim(state, action.data[2], LINES)


def _assert_nothing_left_to_claim(state: SequenceState, square: int, lines) -> None:
    team = state.board[square]
    if team == ".":
        return
    own = [set(cells) for t, cells in state.sequences if str(t) == team]
    for cells, position in lines[square]:
        for start in range(max(0, position - 4), min(position, len(cells) - 5) + 1):
            window = cells[start : start + 5]
            if all(state.board[sq] in (team, "*") for sq in window):
                assert any(len(set(window) & seen) > 1 for seen in own), window


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_table_mode_games_keep_the_kit_invariants(seed: int) -> None:
    from tests.conformance import (
        check_step,
        check_unchanged_on_bad_input,
        check_undo_and_json,
        play_out,
        random_game,
    )

    rng = random.Random(seed)
    state = random_game("sequence", rng, mode="table").new_state()

    def step(s: SequenceState) -> None:
        check_step(s)
        if len(s.history) % 25 == 0:
            check_undo_and_json(s, rng)
            check_unchanged_on_bad_input(s, rng)

    play_out(state, rng, on_step=step)
    assert state.is_over and state.winners()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2S@b11", "'b11' is not a square"),
        ("7D@k3", "'k3' is not a square"),
        ("7Z@c3", "'7Z' is not a card"),
        ("11H x c3", "'11H' is not a card"),
    ],
)
def test_a_garbled_card_or_square_is_named_in_the_error(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        table_game().apply(text)


def test_a_dealer_seat_that_does_not_exist_is_named() -> None:
    state = Sequence(["A", "B"], mode="table").new_state()
    with pytest.raises(NotationError, match="there is no player 5: the dealer is a seat 0-1"):
        state.apply("dealer 5")


def test_the_cut_is_described_with_card_names() -> None:
    state = Sequence(["Ann", "Bob"], mode="table").new_state()
    action = state.parse("cut 9C AD")
    said = "Tirage pour la donne (Ann\u00a0: 9 de trèfle, Bob\u00a0: as de carreau)"
    assert say("fr", action) == said
    assert say("en", action) == "Cut for the dealer (Ann: 9 of clubs, Bob: ace of diamonds)"
