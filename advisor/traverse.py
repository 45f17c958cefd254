"""Traverse's advisor: every play of the dice thrown, weighed by progress, hits and safety.

After each candidate play the opponent throws next: for each of the mover's pawns standing in
the crossing zone, the one opponent pawn whose axis it stands on may reach it with a die, the
other die or their sum. The exact chance of such a throw (out of 36) times the squares the pawn
would lose is the play's risk; the same look at the opponent's pawns, weighed less (they move
first), is its threat.
"""

from __future__ import annotations

from functools import cache

from advisor.core import Choice, Deadline, Reason, ranked
from engines._traverse_plays import BLOCKED, Positions, play_out, reach
from engines.traverse import TraverseState

HOME_BONUS = 2.0
RISK_WEIGHT = 0.9
THREAT_WEIGHT = 0.3
OTHER_WEIGHT = 1.0  # the opponent's progress against one's own


@cache
def reach_chance(squares: int) -> float:
    """The chance that a throw of two dice lets one pawn move exactly `squares` (out of 36)."""
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if squares in (a, b, a + b))
    return ways / 36


def exposure(mine: Positions, theirs: Positions, end: int) -> tuple[float, int]:
    """The squares `mine` may expect to lose to the opponent's next throw, and how many pawns
    can be hit at all."""
    risk, exposed = 0.0, 0
    for pawn, position in enumerate(mine):
        if not 0 < position < end:
            continue
        hunter = position - 1  # the opponent pawn whose axis this pawn stands on
        delta = pawn + 1 - theirs[hunter]
        if delta == 0 or abs(delta) > 12:
            continue
        if reach(theirs, mine, hunter, delta, end) != pawn:
            continue
        chance = reach_chance(abs(delta))
        risk += chance * position
        exposed += 1
    return risk, exposed


def progress(pawns: Positions, end: int) -> float:
    return sum(pawns) + HOME_BONUS * sum(1 for p in pawns if p == end)


def worth(mine: Positions, theirs: Positions, end: int) -> float:
    """How good a position is for the side that just played (the opponent throws next)."""
    risk, _ = exposure(mine, theirs, end)
    threat, _ = exposure(theirs, mine, end)
    return (progress(mine, end) - OTHER_WEIGHT * progress(theirs, end) - RISK_WEIGHT * risk
            + THREAT_WEIGHT * threat)  # fmt: skip


def advise(state: TraverseState, deadline: Deadline) -> list[Choice]:
    end = state.end
    choices = []
    for action in state.legal_actions():
        play, (mine, theirs), _, _ = action.data
        after_mine, after_theirs, hits = play_out(mine, theirs, play, end)
        value = worth(after_mine, after_theirs, end)
        _, exposed = exposure(after_mine, after_theirs, end)
        params = {
            "hits": sum(1 for victim in hits if victim >= 0),
            "exposed": exposed,
            "progress": sum(after_mine) - sum(mine),
        }
        choices.append(Choice(action.notation, value, "value", Reason("traverse.play", params)))
    return ranked(choices)


__all__ = ["BLOCKED", "advise", "exposure", "reach_chance", "worth"]
