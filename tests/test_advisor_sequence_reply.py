"""The two-team Sequence advisor's look two turns ahead (advisor.sequence.reply_advice)."""

from __future__ import annotations

from collections import Counter

import engines
from advisor import advise
from advisor.sequence import held_worth
from engines._sequence_board import BOARD, DECK, JACKS
from engines.core import CHANCE
from engines.sequence import TEAM_MARKS


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
    state = _dealt(5)
    me = state.current
    mine = state.game.team_of(me)
    _mark(state, {80 + col: mine for col in range(1, 6)} | {41: mine, 42: mine, 43: mine,
                                                              44: mine})  # fmt: skip
    state.sequences = ((mine, tuple(80 + col for col in range(1, 6))),)
    hand = list(state.hands[me])
    hand[0] = "JC"
    state._set_hand(hand)
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
