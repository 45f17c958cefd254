"""Sequence chips and lines: putting and taking a chip, and finding and claiming the five-in-a-row
lines a team holds (RULINGS Sequence 5).

The board is a string with one mark a square; these functions take it and the sequences claimed
so far and give back the new board and sequences, for the state to keep.
"""

from __future__ import annotations

from engines._sequence_board import LINES, direction_of

SEQUENCE_LENGTH = 5
EMPTY, CORNER_MARK = ".", "*"
TEAM_MARKS = "012"

Line = tuple[int, ...]
Claimed = tuple[tuple[int, Line], ...]  # (team, five squares in line order), oldest first


def placed(board: str, sequences: Claimed, team: int, square: int) -> tuple[str, Claimed]:
    """The board with the team's chip on `square`, and the sequences with those it completes."""
    board = _marked(board, square, TEAM_MARKS[team])
    for cells, position in LINES[square]:
        low, high = _run(board, team, cells, position)
        starts = range(max(low, position - 4), min(position, high - 4) + 1)
        sequences = _claimed(sequences, team, cells, starts)
    return board, sequences


def removed(board: str, sequences: Claimed, square: int) -> tuple[str, Claimed]:
    """The board without the chip on `square`, and the sequences left once it is gone."""
    owner = int(board[square])
    board = _marked(board, square, EMPTY)
    broken = [seq for seq in sequences if square in seq[1]]
    if not broken:
        return board, sequences
    sequences = tuple(seq for seq in sequences if square not in seq[1])
    for _, cells in broken:  # other five-in-a-rows left on that line still count
        line, _ = LINES[cells[0]][direction_of(cells)]
        sequences = _claimed_along(board, sequences, owner, line)
    return board, sequences


def _marked(board: str, square: int, mark: str) -> str:
    return board[:square] + mark + board[square + 1 :]


def _run(board: str, team: int, cells: Line, position: int) -> tuple[int, int]:
    """The stretch of the line around `position` held by the team (corners count)."""
    mine = (TEAM_MARKS[team], CORNER_MARK)
    low = high = position
    while low > 0 and board[cells[low - 1]] in mine:
        low -= 1
    while high < len(cells) - 1 and board[cells[high + 1]] in mine:
        high += 1
    return low, high


def _claimed_along(board: str, sequences: Claimed, team: int, cells: Line) -> Claimed:
    """The sequences with every one the team holds along a whole line (after one was broken)."""
    position = 0
    while position < len(cells):
        if board[cells[position]] not in (TEAM_MARKS[team], CORNER_MARK):
            position += 1
            continue
        _, high = _run(board, team, cells, position)
        sequences = _claimed(sequences, team, cells, range(position, high - 3))
        position = high + 1
    return sequences


def _claimed(sequences: Claimed, team: int, cells: Line, starts: range) -> Claimed:
    """The sequences with the new ones among the five-square windows starting at `starts`.

    A team's sequences share at most one square (RULINGS Sequence 5). When the run allows
    two windows, both count; when it allows only one of several, the engine locks the one
    leaving the most room on the line for a second sequence (then the first in line order).
    """
    own = [set(seq) for t, seq in sequences if t == team]
    valid = [s for s in starts if all(len(seen.intersection(cells[s : s + 5])) <= 1
                                      for seen in own)]  # fmt: skip
    pairs = [(a, b) for a in valid for b in valid if b - a >= SEQUENCE_LENGTH - 1]
    if pairs:
        chosen = list(pairs[0])
    elif valid:
        chosen = [max(valid, key=lambda s: (max(s, len(cells) - s - 5), -s))]
    else:
        return sequences
    return sequences + tuple((team, cells[start : start + SEQUENCE_LENGTH]) for start in chosen)
