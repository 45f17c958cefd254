"""Traverse's advisor: every play of the dice thrown, weighed by progress, hits and safety, the
most promising then looked at two plies deep: over the opponent's 21 throws and their best reply.

After each candidate play the opponent throws next: for each of the mover's pawns standing in
the crossing zone, the one opponent pawn whose axis it stands on may reach it with a die, the
other die or their sum. The exact chance of such a throw (out of 36) times the squares the pawn
would lose is the play's risk; the same look at the opponent's pawns, weighed less (they move
first), is its threat.

The plays that weigh best are then searched one throw further (expectimax): for each of the
opponent's 21 throws (a double 1 in 36, the others 2 in 36) the opponent's best reply by the same
weighing, the position after it weighed for the player, averaged. As many plays as the time
budget allows (at most SEARCHED, best weighed first: the pruning) are searched; the others
follow them in the order of their weighing. With DEEP_PAWNS or fewer of the player's pawns out
(the end, where the exact count to enter and the compulsory use of both dice make some
positions awkward to play from) the player's own next throw is searched too: its best play by
the weighing for each of its 21 throws, averaged. A play that wins comes first.

The search asks the engine for positions, not plays (`throw_outcomes`), and weighs each position
and searches each throw in a position once an advice (`Memo`): half the time of listing plays
and playing them out, the same choices.
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

from advisor.core import Choice, Deadline, Reason, ranked
from engines._traverse_outcomes import throw_outcomes
from engines._traverse_plays import (
    BLOCKED,
    Positions,
    one_die_plays,
    play_out,
    two_dice_plays,
)
from engines.traverse import TraverseState

HOME_BONUS = 2.0
RISK_WEIGHT = 0.9
THREAT_WEIGHT = 0.3
OTHER_WEIGHT = 1.0  # the opponent's progress against one's own
SEARCHED = 6  # plays looked at two plies deep, at most
WIN = 1e6  # a play that wins ends the game: no reply to weigh
# With at most this many of the mover's pawns out its own next throw is searched too; 0: never.
# 3 won more on each of the three bench seeds and on the paired games (+52 of 2 400, 1.6
# standard deviations); 5 did not (370 of 600 paired games against 375) for 2.5 times the time.
# The bench's advice p95 with 3: 96-110 ms, within the 200 ms budget (docs/games/traverse.md).
DEEP_PAWNS = 3
MEMO_LIMIT = 100_000  # positions one advice remembers, at most
Kept = TypeVar("Kept")
SEARCH_SHARE = 0.85  # of the time budget: no new search starts past it (one cut short is dropped)
THROWS = tuple((d1, d2, (1 if d1 == d2 else 2) / 36) for d1 in range(1, 7) for d2 in range(d1, 7))


@cache
def reach_chance(squares: int) -> float:
    """The chance that a throw of two dice lets one pawn move exactly `squares` (out of 36)."""
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if squares in (a, b, a + b))
    return ways / 36


REACH = tuple(reach_chance(squares) if squares else 0.0 for squares in range(13))


def exposure(mine: Positions, theirs: Positions, end: int) -> tuple[float, int]:
    """The squares `mine` may expect to lose to the opponent's next throw, and how many pawns
    can be hit at all."""
    risk, exposed = 0.0, 0
    for pawn in range(len(mine)):
        chance = _hit_chance(mine, theirs, pawn, end)
        if chance:
            risk += chance * mine[pawn]
            exposed += 1
    return risk, exposed


def _hit_chance(mine: Positions, theirs: Positions, pawn: int, end: int) -> float:
    """The chance that the opponent's next throw can hit `pawn`: only the opponent pawn whose
    axis it stands on can, by a die, the other die or their sum, its path free of our pawns
    (the same test as the engine's `reach`, written out: this runs for every reply searched)."""
    position = mine[pawn]
    if not 0 < position < end:
        return 0.0
    hunter_at = theirs[position - 1]
    delta = pawn + 1 - hunter_at
    if 0 < delta <= 12:
        return 0.0 if position in mine[hunter_at:pawn] else REACH[delta]
    if -12 <= delta < 0:
        return 0.0 if position in mine[pawn + 1 : hunter_at - 1] else REACH[-delta]
    return 0.0


def progress(pawns: Positions, end: int) -> float:
    return sum(pawns) + HOME_BONUS * pawns.count(end)


def risk_and_threat(mine: Positions, theirs: Positions, end: int) -> tuple[float, float]:
    """`exposure`'s squares at stake for both sides at once, in one pass (for `worth`)."""
    risk = threat = 0.0
    for pawn in range(len(mine)):
        if 0 < mine[pawn] < end:
            risk += _hit_chance(mine, theirs, pawn, end) * mine[pawn]
        if 0 < theirs[pawn] < end:
            threat += _hit_chance(theirs, mine, pawn, end) * theirs[pawn]
    return risk, threat


def worth(mine: Positions, theirs: Positions, end: int) -> float:
    """How good a position is for the side that just played (the opponent throws next)."""
    risk, threat = risk_and_threat(mine, theirs, end)
    return (progress(mine, end) - OTHER_WEIGHT * progress(theirs, end) - RISK_WEIGHT * risk
            + THREAT_WEIGHT * threat)  # fmt: skip


def advise(state: TraverseState, deadline: Deadline) -> list[Choice]:
    end = state.end
    compulsory = bool(state.game.option("compulsory_dice"))
    weighed = []
    for action in state.legal_actions():
        play, (mine, theirs), _, _ = action.data
        after_mine, after_theirs, hits = play_out(mine, theirs, play, end)
        _, exposed = exposure(after_mine, after_theirs, end)
        params = {
            "hits": sum(1 for victim in hits if victim >= 0),
            "exposed": exposed,
            "progress": sum(after_mine) - sum(mine),
        }
        value = worth(after_mine, after_theirs, end)
        weighed.append((value, action.notation, params, after_mine, after_theirs))
    weighed.sort(key=lambda item: -item[0])
    deep: list[Choice] = []
    memo = Memo()
    own_throw = pawns_out(state.positions[state.current], end) <= DEEP_PAWNS
    for _, notation, params, after_mine, after_theirs in weighed[:SEARCHED]:
        if len(weighed) == 1 or _late(deadline):
            break
        value = expectation(after_mine, after_theirs, end, compulsory, deadline, own_throw, memo)
        if value is None:
            break  # out of time halfway: this play keeps its place among the weighed
        deep.append(Choice(notation, value, "value", Reason("traverse.play", params)))
    deep = ranked(deep)
    floor = min((c.figure for c in deep), default=0.0)
    rest = [
        Choice(notation, floor - 1.0 - rank, "value", Reason("traverse.play", params))
        for rank, (_, notation, params, _, _) in enumerate(weighed[len(deep) :])
    ]  # not searched: after the searched plays, in the order of their weighing
    return deep + rest


def pawns_out(pawns: Positions, end: int) -> int:
    """The pawns not yet in their arrival box."""
    return len(pawns) - pawns.count(end)


class Memo:
    """What one advice has weighed already: a position that several throws or plays lead to is
    weighed once, a throw met again in the same position is searched once. Bounded: emptied
    when it holds MEMO_LIMIT positions (a few tens of megabytes), for a Pi's memory."""

    def __init__(self) -> None:
        self.worths: dict[tuple[Positions, Positions], float] = {}
        self.bests: dict[tuple, tuple[float, Positions, Positions]] = {}

    def worth(self, mine: Positions, theirs: Positions, end: int) -> float:
        key = (mine, theirs)
        value = self.worths.get(key)
        if value is None:
            value = _kept(self.worths, key, worth(mine, theirs, end))
        return value


def _kept(store: dict[Any, Kept], key: Any, value: Kept) -> Kept:
    """`value`, stored under `key` in a memo's `store` (emptied first when full)."""
    if len(store) >= MEMO_LIMIT:
        store.clear()
    store[key] = value
    return value


def expectation(mine: Positions, theirs: Positions, end: int, compulsory: bool,
                deadline: Deadline | None = None, own_throw: bool = False,
                memo: Memo | None = None) -> float | None:  # fmt: skip
    """The player's worth after the opponent's throw and best reply, averaged over the throws
    (the player then to throw: their own threats weigh as the opponent's risks did); with
    `own_throw`, the player's own next throw and best play by the weighing averaged in too.
    WIN when the player has just won; None when the time budget runs out before the last
    throw."""
    if not pawns_out(mine, end):
        return WIN  # the game is over: no reply
    memo = memo or Memo()
    total = 0.0
    for d1, d2, chance in THROWS:
        if deadline is not None and deadline.out_of_time():
            return None
        best, their_after, my_after = best_play(theirs, mine, d1, d2, end, compulsory, memo)
        if own_throw and pawns_out(their_after, end):
            total += chance * best_over_throws(my_after, their_after, end, compulsory, memo)
        else:
            total += chance * -best
    return total


def best_over_throws(mine: Positions, theirs: Positions, end: int, compulsory: bool,
                     memo: Memo | None = None) -> float:  # fmt: skip
    """The mover's worth after its best play by the weighing, averaged over its 21 throws."""
    memo = memo or Memo()
    return sum(
        chance * best_play(mine, theirs, d1, d2, end, compulsory, memo)[0]
        for d1, d2, chance in THROWS
    )


def best_play(mine: Positions, theirs: Positions, d1: int, d2: int, end: int, compulsory: bool,
              memo: Memo | None = None) -> tuple[float, Positions, Positions]:  # fmt: skip
    """The mover's best play of the throw by the weighing: its worth and the positions after it
    (the mover's, the other side's); the first of equal ones in the engine's order."""
    memo = memo or Memo()
    key = (mine, theirs, d1, d2)
    found = memo.bests.get(key)
    if found is not None:
        return found
    best: tuple[float, Positions, Positions] | None = None
    for after_mine, after_theirs in throw_outcomes(mine, theirs, d1, d2, end, compulsory):
        value = memo.worth(after_mine, after_theirs, end)
        if best is None or value > best[0]:
            best = (value, after_mine, after_theirs)
    assert best is not None  # a throw always has an outcome, if only a pass
    return _kept(memo.bests, key, best)


def reply_plays(mine: Positions, theirs: Positions, d1: int, d2: int, end: int,
                compulsory: bool) -> list:  # fmt: skip
    """Every play of a throw for the side `mine` (T3, T4), as the engine lists them."""
    found: dict = {}
    if compulsory:
        two_dice_plays(mine, theirs, d1, d2, end, found)
        if not found:
            one_die_plays(mine, theirs, (d1, d2), end, found)
        return list(found.values()) or [()]
    found[0] = ()
    one_die_plays(mine, theirs, (d1, d2), end, found)
    two_dice_plays(mine, theirs, d1, d2, end, found)
    return list(found.values())


def _late(deadline: Deadline) -> bool:
    """Time to start no other search: past SEARCH_SHARE of the budget (never for a fixed
    count of iterations: repeatable advice)."""
    return deadline.iterations_left is None and deadline.fraction_used() > SEARCH_SHARE


__all__ = ["BLOCKED", "advise", "expectation", "exposure", "reach_chance", "worth"]
