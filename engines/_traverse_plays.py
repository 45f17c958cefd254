"""Traverse moves and plays: one pawn's move (T2, T5) and every play of a roll (T3, T4).

Positions are bytes (one small number per pawn, immutable and cheap to snapshot for undo):
`mine[i]` is the position of the mover's pawn i+1 on its own axis,
`theirs[j]` the opponent's pawn j+1. Pawns of one side never meet (they cross the other side's
axes, never their own), so a move only looks at the opponent: the pawn standing on axis
`i+1` at position `q` is the opponent pawn `q` when `theirs[q-1] == i+1`.

Listing every play of a roll (up to about 600 distinct resulting positions) must stay under a
millisecond, so plays are deduplicated by an integer code of the change they make instead of
by building both positions for each candidate.
"""

from __future__ import annotations

from collections.abc import Iterator

from engines.core import Action
from engines.messages import Message, chain, msg

Positions = bytes
Step = tuple[int, int]  # (pawn index, signed number of squares)
Play = tuple[Step, ...]
BLOCKED = -2  # `reach` result of a forbidden move; -1 is a move that hits nothing
_BITS = 5  # positions go up to 21 (the largest axis_length): five bits each in a change code


def reach(mine: Positions, theirs: Positions, pawn: int, delta: int, end: int) -> int:
    """Whether `pawn` may move `delta` squares: BLOCKED, -1 (no hit) or the opponent hit.

    No going below the start or past the arrival box `end` (exact count), no passing over an
    opponent pawn; a pawn in its arrival box comes back out only to hit (T2, T5).
    """
    start = mine[pawn]
    target = start + delta
    if target < 0 or target > end:
        return BLOCKED
    axis = pawn + 1
    if delta > 0:
        if axis in theirs[start : target - 1]:
            return BLOCKED
    elif axis in theirs[target : start - 1]:
        return BLOCKED
    if 0 < target < end and theirs[target - 1] == axis:
        return target - 1
    return BLOCKED if start == end else -1


def step(mine: Positions, theirs: Positions, pawn: int, delta: int, end: int):
    """The positions after one legal move: (mine, theirs, opponent hit or -1), or None."""
    victim = reach(mine, theirs, pawn, delta, end)
    if victim == BLOCKED:
        return None
    new_mine = mine[:pawn] + bytes((mine[pawn] + delta,)) + mine[pawn + 1 :]
    if victim >= 0:
        theirs = theirs[:victim] + b"\0" + theirs[victim + 1 :]
    return new_mine, theirs, victim


def play_out(mine: Positions, theirs: Positions, play: Play, end: int):
    """The positions after a play and what each move hit: (mine, theirs, [hit or -1, ...])."""
    hits = []
    for pawn, delta in play:
        mine, theirs, victim = step(mine, theirs, pawn, delta, end)
        hits.append(victim)
    return mine, theirs, hits


def step_problem(mine: Positions, theirs: Positions, pawn: int, delta: int, end: int,
                 colour: int) -> Message:  # fmt: skip
    """Why `reach` refuses a move, in words a player understands."""
    start, target = mine[pawn], mine[pawn] + delta
    name = pawn_message(colour, pawn + 1)
    if target < 0:
        if not start:
            return msg("traverse.at_start", pawn=name, n=-delta)
        return msg("traverse.back_too_far", pawn=name, squares=start, n=-delta)
    if target > end:
        return msg("traverse.overshoot", pawn=name, need=end - start, n=delta)
    low, high = sorted((start, target))
    for position in range(low + 1, high):
        if 0 < position < end and theirs[position - 1] == pawn + 1:
            other = pawn_message(1 - colour, position)
            column, row = (pawn + 1, position) if colour == 0 else (position, pawn + 1)
            return msg("traverse.no_jump", pawn=name, other=other, column=column, row=row)
    return msg("traverse.leave_box", pawn=name)


def pawn_message(colour: int, number: int) -> Message:
    return msg(("traverse.pawn.red", "traverse.pawn.white")[colour], n=number)


# ----- listing the plays of a roll --------------------------------------------------------------

# (pawn, delta, hit or -1, change code) for each legal single move
_Single = tuple[int, int, int, int]


def _singles(mine: Positions, theirs: Positions, die: int, end: int) -> list[_Single]:
    return [move for pawn in range(len(mine)) for move in _singles_of(mine, theirs, pawn, die, end)]


def two_dice_plays(mine: Positions, theirs: Positions, d1: int, d2: int, end: int,
                   found: dict[int, Play]) -> None:  # fmt: skip
    """Add to `found` (change code -> play) the plays using both dice (T3), first seen kept.

    One pawn by the sum, or one move per die in either order. After a first move that hits
    nothing, another pawn's second move is the same as from the start position, so it is reused.
    """
    for pawn, delta, _, code in _singles(mine, theirs, d1 + d2, end):
        found.setdefault(code, ((pawn, delta),))
    singles = {d1: _singles(mine, theirs, d1, end), d2: _singles(mine, theirs, d2, end)}
    orders = ((d1, d2),) if d1 == d2 else ((d1, d2), (d2, d1))
    for first, second in orders:
        for pawn, delta, victim, code in singles[first]:
            head = (pawn, delta)
            if victim >= 0:
                after = step(mine, theirs, pawn, delta, end)
                followers = _singles(after[0], after[1], second, end)
            else:
                followers = [m for m in singles[second] if m[0] != pawn]
                moved = mine[:pawn] + bytes((mine[pawn] + delta,)) + mine[pawn + 1 :]
                followers += _singles_of(moved, theirs, pawn, second, end)
            for pawn2, delta2, _, code2 in followers:
                found.setdefault(code + code2, (head, (pawn2, delta2)))


def _singles_of(mine: Positions, theirs: Positions, pawn: int, die: int,
                end: int) -> Iterator[_Single]:  # fmt: skip
    shift_theirs = _BITS * len(mine)
    for delta in (die, -die):
        victim = reach(mine, theirs, pawn, delta, end)
        if victim == BLOCKED:
            continue
        code = delta << (_BITS * pawn)
        if victim >= 0:
            code -= (pawn + 1) << (shift_theirs + _BITS * victim)
        yield pawn, delta, victim, code


def one_die_plays(mine: Positions, theirs: Positions, dice: tuple[int, int], end: int,
                  found: dict[int, Play]) -> None:  # fmt: skip
    for die in dict.fromkeys(dice):
        for pawn, delta, _, code in _singles(mine, theirs, die, end):
            found.setdefault(code, ((pawn, delta),))


class EveryPlay(dict):
    """A `found` for the listers above that keeps every play of a change code, first one first:
    the plays that reach the same position, for saying which notations are one choice."""

    def setdefault(self, code: int, play: Play) -> list[Play]:  # type: ignore[override]
        plays = super().setdefault(code, [])
        if play not in plays:
            plays.append(play)
        return plays


# ----- notation and descriptions ----------------------------------------------------------------

_TOKENS: dict[Step, str] = {}


def notation(play: Play) -> str:
    if not play:
        return "pass"
    words = []
    for move in play:
        token = _TOKENS.get(move)
        if token is None:
            pawn, delta = move
            token = _TOKENS[move] = f"{pawn + 1}{'+' if delta > 0 else '-'}{abs(delta)}"
        words.append(token)
    return " ".join(words)


class PlayAction(Action):
    """A listed play whose description is made only when asked for.

    A roll lists hundreds of plays and a player reads one or two of them: describing all of
    them up front would cost most of the listing time.
    """

    def __init__(self, text: str, play: Play, before: tuple[Positions, Positions], colour: int,
                 end: int) -> None:  # fmt: skip
        object.__setattr__(self, "notation", text)
        object.__setattr__(self, "data", (play, before, colour, end))

    def __deepcopy__(self, memo: dict) -> PlayAction:
        return self  # immutable, like its positions

    @property
    def message(self) -> Message:  # type: ignore[override]
        return describe(*self.data)


def describe(play: Play, before: tuple[Positions, Positions], colour: int, end: int) -> Message:
    """What a play does, move by move, as a message."""
    if not play:
        return msg("traverse.said.pass", side=msg(("traverse.red", "traverse.white")[colour]))
    mine, theirs = before
    parts = []
    for pawn, delta in play:
        target = mine[pawn] + delta
        mine, theirs, victim = step(mine, theirs, pawn, delta, end)
        parts.append(_describe_move(colour, pawn, delta, victim, target == end))
    return chain(parts, "traverse.said.then")


def _describe_move(colour: int, pawn: int, delta: int, victim: int, home: bool) -> Message:
    way = "forward" if delta > 0 else "back"
    said = msg(f"traverse.said.{way}", pawn=pawn_message(colour, pawn + 1), n=abs(delta))
    if victim >= 0:
        return msg("traverse.said.hit", move=said, other=pawn_message(1 - colour, victim + 1))
    return msg("traverse.said.home", move=said) if home else said
