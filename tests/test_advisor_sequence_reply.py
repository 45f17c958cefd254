"""The two-team Sequence advisor's look two turns ahead (advisor.sequence.reply_advice)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from advisor import advise
from advisor.sequence import (
    DEAD_STREAK,
    Weigher,
    _Reply,
    _View,
    held_worth,
    placed_quickly,
)
from engines._sequence_board import BOARD, CORNER, DECK, JACKS, SIZE
from engines._sequence_lines import placed
from engines.core import CHANCE
from engines.sequence import CORNER_MARK, TEAM_MARKS


def _dealt(seed: int = 3) -> engines.State:
    state = engines.make_game("sequence", ["A", "B"], seed=seed).new_state()
    while state.actor == CHANCE:
        state.play_chance()
    return state


def _mark(state: engines.State, squares: dict[int, int]) -> None:
    board = list(state.board)
    for square, team in squares.items():
        board[square] = TEAM_MARKS[team]
    state.board = "".join(board)


def _square_of(state: engines.State, notation: str) -> int | None:
    legal = {action.notation: action for action in state.legal_actions()}
    return legal[notation].data[2]


def _one_chip_from_winning() -> engines.State:
    """A sequence held (row 8) and four of a second (row 4, b-e); a two-eyed jack in hand."""
    state = _dealt(5)
    me = state.current
    mine = state.game.team_of(me)
    _mark(state, {80 + col: mine for col in range(1, 6)} | {41: mine, 42: mine, 43: mine,
                                                              44: mine})  # fmt: skip
    state.sequences = ((mine, tuple(80 + col for col in range(1, 6))),)
    hand = list(state.hands[me])
    hand[0] = "JC"
    state._set_hand(hand)
    return state


def test_it_blocks_the_only_gap_of_a_winning_four() -> None:
    state = _dealt()
    me = state.current
    mine, theirs = state.game.team_of(me), 1 - state.game.team_of(me)
    # The other team holds a sequence already (row 8) and four of a second (row 4, b-e), closed
    # by our chip on f: its only gap, a4, wins them the game.
    _mark(state, {80 + col: theirs for col in range(1, 6)} | {41: theirs, 42: theirs, 43: theirs,
                                                                44: theirs, 45: mine})  # fmt: skip
    state.sequences = ((theirs, tuple(80 + col for col in range(1, 6))),)
    hand = list(state.hands[me])
    hand[0] = "JD"  # a two-eyed jack: it may block anywhere
    state._set_hand(hand)
    best = advise(state, iterations=1)[0]
    assert _square_of(state, best.notation) == 40


def test_it_takes_the_winning_play() -> None:
    state = _one_chip_from_winning()
    best = advise(state, iterations=1)[0]
    assert _square_of(state, best.notation) in (40, 45)
    assert best.figure == 1.0


def test_a_four_the_hand_can_finish_is_worth_more_than_one_it_cannot() -> None:
    state = _dealt()
    me = state.current
    mine = state.game.team_of(me)
    _mark(state, {41: mine, 42: mine, 43: mine, 44: mine})
    gap_card = BOARD[45]
    others = [card for card in DECK if card not in JACKS and card != gap_card][:6]
    unseen = Counter(DECK) - Counter(others)
    with_gap = held_worth(state.board, (), mine, [*others, gap_card], unseen)
    without = held_worth(state.board, (), mine, [*others, others[0]], unseen)
    assert with_gap > without


def test_a_one_eyed_jack_breaks_the_other_teams_winning_four() -> None:
    state = _dealt(7)
    me = state.current
    theirs = 1 - state.game.team_of(me)
    # They hold a sequence (row 8) and four of a second on row 4 (b-e) with both ends free:
    # no single chip blocks it, taking one of the four away does.
    _mark(state, {80 + col: theirs for col in range(1, 6)} | {41 + col: theirs
                                                              for col in range(4)})  # fmt: skip
    state.sequences = ((theirs, tuple(80 + col for col in range(1, 6))),)
    ends = {BOARD[40], BOARD[45]}
    hand = [card for card in DECK if card not in JACKS and card not in ends][:6] + ["JS"]
    state._set_hand(hand)
    best = advise(state, iterations=1)[0]
    assert _square_of(state, best.notation) in (41, 42, 43, 44)


def test_with_no_time_left_every_play_is_still_ranked_and_the_winning_one_first() -> None:
    state = _one_chip_from_winning()
    choices = advise(state, budget_ms=0.0)
    assert sorted(c.notation for c in choices) == sorted(a.notation for a in state.legal_actions())
    assert _square_of(state, choices[0].notation) in (40, 45)


def test_it_makes_a_four_open_at_both_ends_when_one_more_sequence_wins() -> None:
    state = _dealt(11)
    me = state.current
    mine = state.game.team_of(me)
    # A sequence held (row 8), and three on row 4 (c-e) with b, f and g free: a chip on f makes
    # a four with two gaps (b, g), one chip of the other team cannot close both.
    _mark(state, {80 + col: mine for col in range(1, 6)} | {42: mine, 43: mine, 44: mine})
    state.sequences = ((mine, tuple(80 + col for col in range(1, 6))),)
    gaps = [BOARD[41], BOARD[45], BOARD[46]]
    others = [c for c in DECK if c not in JACKS and c not in gaps and BOARD.count(c)][:4]
    state._set_hand([*gaps, *others])
    best = advise(state, iterations=1)[0]
    assert _square_of(state, best.notation) in (41, 45)


@settings(max_examples=60, deadline=None)
@given(
    marks=st.lists(st.sampled_from(".01"), min_size=SIZE * SIZE, max_size=SIZE * SIZE),
    square=st.integers(0, SIZE * SIZE - 1),
    mark=st.sampled_from(".01"),
    hand=st.lists(st.sampled_from(sorted(set(DECK))), min_size=1, max_size=7),
)
def test_a_change_of_one_square_is_weighed_as_the_whole_board_is(marks, square, mark,
                                                                  hand) -> None:  # fmt: skip
    board = "".join(CORNER_MARK if BOARD[sq] == CORNER else m for sq, m in enumerate(marks))
    if board[square] == CORNER_MARK:
        return
    changed = board[:square] + mark + board[square + 1 :]
    weigher = Weigher(0, hand, Counter(DECK) - Counter(hand))
    before = (board, (), weigher.total(board, ()))
    assert weigher.moved(before, square, changed, ()) == pytest.approx(weigher.total(changed, ()))


@settings(max_examples=80, deadline=None)
@given(
    marks=st.lists(st.sampled_from(".0011"), min_size=SIZE * SIZE, max_size=SIZE * SIZE),
    square=st.integers(0, SIZE * SIZE - 1),
    team=st.integers(0, 1),
)
def test_a_chip_placed_quickly_claims_what_the_engine_claims(marks, square, team) -> None:
    board = "".join(CORNER_MARK if BOARD[sq] == CORNER else m for sq, m in enumerate(marks))
    if board[square] == CORNER_MARK:
        return
    board = board[:square] + "." + board[square + 1 :]
    assert placed_quickly(board, (), team, square) == placed(board, (), team, square)


def test_after_the_answer_the_players_next_play_is_counted() -> None:
    state = _dealt(13)
    me = state.current
    mine, theirs = state.game.team_of(me), 1 - state.game.team_of(me)
    # Three of theirs on row 4 (b-d) closed by our chip on f: their answer on e makes a four
    # whose only gap, a4, the card kept in hand blocks on the next turn.
    _mark(state, {41: theirs, 42: theirs, 43: theirs, 45: mine})
    far = [c for c in DECK if c not in JACKS and BOARD.count(c) and c != BOARD[40]
           and all(sq // SIZE > 6 for sq in range(SIZE * SIZE) if BOARD[sq] == c)][:6]  # fmt: skip
    state._set_hand([BOARD[40], *far])
    view = _View(state)
    play = ("place", far[0], BOARD.index(far[0]))
    reply = _Reply(state, view, play)
    answer = ("place", BOARD[44], 44)
    board, sequences = placed(reply.board, reply.sequences, theirs, 44)
    standing = reply.weigher.moved(reply.after_play, 44, board, sequences)
    blocked_board, blocked_sequences = placed(board, sequences, mine, 40)
    blocked = reply.weigher.moved((board, sequences, standing), 40, blocked_board,
                                  blocked_sequences)  # fmt: skip
    assert reply._after(answer) == pytest.approx(blocked)
    assert blocked > standing


def _holding_a_dead_card() -> engines.State:
    state = _dealt(17)
    me = state.current
    theirs = 1 - state.game.team_of(me)
    card = next(c for c in DECK if c not in JACKS and BOARD.count(c) == 2)
    _mark(state, {sq: theirs for sq in range(SIZE * SIZE) if BOARD[sq] == card})
    hand = list(state.hands[me])
    hand[0] = card
    state._set_hand(hand)
    return state


def test_a_dead_card_is_exchanged_first_but_not_for_ever() -> None:
    state = _holding_a_dead_card()
    assert advise(state, iterations=1)[0].notation.startswith("dead ")
    dead = next(a for a in state.legal_actions() if a.notation.startswith("dead "))
    state._history.extend([dead] * DEAD_STREAK)
    assert not advise(state, iterations=1)[0].notation.startswith("dead ")
