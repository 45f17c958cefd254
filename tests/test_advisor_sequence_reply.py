"""The two-team Sequence advisor's look two turns ahead (advisor.sequence.reply_advice)."""

from __future__ import annotations

import engines
from advisor import advise
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
