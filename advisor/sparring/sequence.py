"""Sequence sparring partners, written from the rules: each scores every card and square it
could play by the lines of five through that square, in its own style.

- `liner`: the best line of five a chip builds or blocks; saves its jacks for a fifth chip or
  an opponent's fourth.
- `cluster`: grows a group of its own chips (neighbours, open lines through the square, the
  centre), spends jacks freely, blocks only an opponent's four.
- `blocker` (held out): blocking first, its own lines second, and a one-eyed jack on any
  opponent line of three.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engines._sequence_board import JACKS, SIZE
from engines.core import Action
from engines.sequence import CORNER_MARK, EMPTY, TEAM_MARKS, SequenceState

LENGTH = 5
BUILD = (0.0, 1.0, 3.0, 9.0, 27.0, 1000.0)  # by own chips in an open line, the new one counted
BLOCK = (0.0, 0.5, 2.0, 8.0, 200.0, 200.0)  # by opponent chips in a line free of ours
DEAD_CARD = 5000.0  # a dead card is a free new card: always worth taking
CENTRE = (SIZE - 1) / 2


def _windows() -> tuple[tuple[tuple[int, ...], ...], ...]:
    through: list[list[tuple[int, ...]]] = [[] for _ in range(SIZE * SIZE)]
    for row in range(SIZE):
        for col in range(SIZE):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_row, end_col = row + dr * (LENGTH - 1), col + dc * (LENGTH - 1)
                if 0 <= end_row < SIZE and 0 <= end_col < SIZE:
                    window = tuple((row + dr * i) * SIZE + col + dc * i for i in range(LENGTH))
                    for square in window:
                        through[square].append(window)
    return tuple(tuple(windows) for windows in through)


WINDOWS_THROUGH = _windows()


def open_counts(board: str, square: int, mark: str) -> list[int]:
    """For each line of five through `square` holding no chip but `mark`'s (and corners): how
    many of its squares `mark` holds, `square` counted as held."""
    counts = []
    for window in WINDOWS_THROUGH[square]:
        held = 0
        for cell in window:
            found = board[cell]
            if cell == square or found == mark or found == CORNER_MARK:
                held += 1
            elif found != EMPTY:
                break
        else:
            counts.append(held)
    return counts


def build_value(board: str, square: int, mark: str) -> float:
    counts = open_counts(board, square, mark)
    return max((BUILD[c] for c in counts), default=0.0) + 0.1 * sum(BUILD[c] for c in counts)


def block_value(board: str, square: int, team: int, teams: int, taken: bool = False) -> float:
    """The best opponent line a chip put on free `square` spoils (`taken`: the line that
    taking the opponent's chip on `square` away spoils)."""
    already = 0 if taken else 1  # a free square was counted as the opponent's
    best = 0.0
    for other in range(teams):
        if other != team:
            counts = open_counts(board, square, TEAM_MARKS[other])
            best = max(best, max((BLOCK[c - already] for c in counts), default=0.0))
    return best


def neighbours(board: str, square: int, mark: str) -> int:
    row, col = divmod(square, SIZE)
    found = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            r, c = row + dr, col + dc
            if (dr or dc) and 0 <= r < SIZE and 0 <= c < SIZE and board[r * SIZE + c] == mark:
                found += 1
    return found


Score = Callable[[SequenceState, Action, int], float]


def _player(score: Score) -> Callable[[SequenceState, random.Random], Action]:
    def play(state: SequenceState, rng: random.Random) -> Action:
        team = state.game.team_of(state.current)
        legal = state.legal_actions()
        return max(legal, key=lambda action: score(state, action, team) + 1e-6 * rng.random())

    return play


def _liner_score(state: SequenceState, action: Action, team: int) -> float:
    kind, card, square = action.data
    return liner_value(state.board, team, state.game.teams, kind, card, square)


def liner_value(board: str, team: int, teams: int, kind: str, card: str,
                square: int | None) -> float:  # fmt: skip
    """The liner's worth of a play, from the board alone."""
    if kind == "dead":
        return DEAD_CARD
    if kind == "remove":
        value = block_value(board, square, team, teams, taken=True) - 15.0
        return value if value > 0 else -50.0 + value
    value = build_value(board, square, TEAM_MARKS[team]) + block_value(board, square, team, teams)
    return value - 15.0 if card in JACKS else value


def _cluster_score(state: SequenceState, action: Action, team: int) -> float:
    kind, card, square = action.data
    if kind == "dead":
        return DEAD_CARD
    board, mark = state.board, TEAM_MARKS[team]
    block = block_value(board, square, team, state.game.teams, taken=kind == "remove")
    if kind == "remove":
        return block if block >= BLOCK[3] else -100.0 + block
    counts = open_counts(board, square, mark)
    row, col = divmod(square, SIZE)
    centre = -0.3 * (abs(row - CENTRE) + abs(col - CENTRE))
    own = 2.0 * neighbours(board, square, mark) + sum(counts) + centre
    if max(counts, default=0) >= LENGTH:
        own += 1000.0
    return own + (block if block >= BLOCK[3] else 0.0)


def _blocker_score(state: SequenceState, action: Action, team: int) -> float:
    kind, card, square = action.data
    if kind == "dead":
        return DEAD_CARD
    board, teams = state.board, state.game.teams
    block = block_value(board, square, team, teams, taken=kind == "remove")
    if kind == "remove":
        return 1.5 * block - 8.0 if block >= BLOCK[2] else -50.0 + block
    value = build_value(board, square, TEAM_MARKS[team]) + 1.5 * block
    return value - 6.0 if card in JACKS else value


liner = _player(_liner_score)
cluster = _player(_cluster_score)
blocker = _player(_blocker_score)
