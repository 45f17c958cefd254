"""Every position a Traverse throw can lead to, without the plays that reach them: for searches.

A search weighs positions, not plays: listing the plays (with their change codes) and then
playing each out moves every pawn twice. Here each legal move builds its positions at once.
The outcomes come in the order in which `two_dice_plays` and `one_die_plays` first find their
plays, so a search that keeps the first of equal positions chooses as it would from the
engine's list (a test compares the two).
"""

from __future__ import annotations

from engines._traverse_plays import Positions

Outcome = tuple[Positions, Positions]  # the mover's positions, the other side's
_Move = tuple[int, int, int]  # pawn, target square, opponent hit or -1
_BYTE = tuple(bytes((value,)) for value in range(256))


def throw_outcomes(mine: Positions, theirs: Positions, d1: int, d2: int, end: int,
                   compulsory: bool) -> list[Outcome]:  # fmt: skip
    """The distinct positions after every play of the throw (d1, d2) by the side `mine` (T3,
    T4): with compulsory dice both dice if possible, else one, else none (a pass)."""
    found: dict[Outcome, None] = {}
    if compulsory:
        _two_dice(mine, theirs, d1, d2, end, found)
        if not found:
            _one_die(mine, theirs, d1, d2, end, found)
        return list(found) or [(mine, theirs)]
    found[(mine, theirs)] = None
    _one_die(mine, theirs, d1, d2, end, found)
    _two_dice(mine, theirs, d1, d2, end, found)
    return list(found)


def _moves(mine: Positions, theirs: Positions, die: int, end: int,
           pawns: range | tuple[int] | None = None) -> list[_Move]:  # fmt: skip
    """Every legal move of one pawn (of `pawns`, all by default) by `die` squares, forward then
    back, pawn by pawn (T2, T5): the same test as the engine's `reach`, written out for speed."""
    moves = []
    for pawn in range(len(mine)) if pawns is None else pawns:
        start, axis = mine[pawn], pawn + 1
        for target in (start + die, start - die):
            if target < 0 or target > end:
                continue
            passed = theirs[start : target - 1] if target > start else theirs[target : start - 1]
            if axis in passed:
                continue  # an opponent pawn in the way
            if 0 < target < end and theirs[target - 1] == axis:
                moves.append((pawn, target, target - 1))
            elif start != end:  # out of the arrival box only to hit
                moves.append((pawn, target, -1))
    return moves


def _after(mine: Positions, theirs: Positions, move: _Move) -> Outcome:
    pawn, target, victim = move
    mine = mine[:pawn] + _BYTE[target] + mine[pawn + 1 :]
    if victim >= 0:
        theirs = theirs[:victim] + b"\0" + theirs[victim + 1 :]
    return mine, theirs


def _one_die(mine: Positions, theirs: Positions, d1: int, d2: int, end: int,
             found: dict[Outcome, None]) -> None:  # fmt: skip
    for die in dict.fromkeys((d1, d2)):
        for move in _moves(mine, theirs, die, end):
            found.setdefault(_after(mine, theirs, move))


def _two_dice(mine: Positions, theirs: Positions, d1: int, d2: int, end: int,
              found: dict[Outcome, None]) -> None:  # fmt: skip
    """One pawn by the sum, or one move per die in either order. After a first move that hits
    nothing, another pawn's second move is the one it has from the start position."""
    for move in _moves(mine, theirs, d1 + d2, end):
        found.setdefault(_after(mine, theirs, move))
    firsts = {d1: _moves(mine, theirs, d1, end), d2: _moves(mine, theirs, d2, end)}
    orders = ((d1, d2),) if d1 == d2 else ((d1, d2), (d2, d1))
    for first, second in orders:
        for move in firsts[first]:
            moved, hit_theirs = _after(mine, theirs, move)
            if move[2] >= 0:
                followers = _moves(moved, hit_theirs, second, end)
            else:
                pawn = move[0]
                followers = [m for m in firsts[second] if m[0] != pawn]
                followers += _moves(moved, theirs, second, end, (pawn,))
            for follower in followers:
                found.setdefault(_after(moved, hit_theirs, follower))
