"""One-ply variants of Traverse's weighing, each against the demo's greedy bot on the paired
games of research.traverse.paired (same dice, seats swapped). Tried for #27 and dropped: see the
"Advisor" section of docs/games/traverse.md.

    python -m research.traverse.variants waste 1,0,4 2,2,4
    python -m research.traverse.variants race 160,0,3
    python -m research.traverse.variants lead 0.5,20,0.5

`waste MINE,THEIRS,K`: less MINE x the squares of the mover's next throw that no play can turn
into progress (the exact count to enter, both dice compulsory; the opponent left aside), plus
THEIRS x the opponent's, counted for a side with at most K pawns out.
`race K,BOTH,PAWNS`: with at most PAWNS pawns out, a side's progress is K - 7 x the turns it
needs to bring them home (research.traverse.endgame), K chosen so that entering a pawn stays worth
about what it is worth above PAWNS; BOTH 1: for the opponent too.
`lead A,SCALE,B`: the risk weighed (1 + A t) and the threat (1 - B t) times as much, t =
tanh(lead in squares / SCALE): safer when ahead, bolder when behind.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from functools import cache

import research.traverse.paired as paired
from advisor import traverse as advisor_traverse
from engines._traverse_plays import Positions, play_out
from research.traverse.endgame import finish_turns

END = paired.END
NOBODY = bytes(END - 1)  # an opponent all at its start: in no one's way
Worth = Callable[[Positions, Positions, int], float]
BASE: Worth = advisor_traverse.worth


@cache
def waste(out: tuple[int, ...]) -> float:
    """The squares of the next throw no play turns into progress, averaged over the throws,
    for a side whose pawns out stand at `out` (sorted), the opponent left aside."""
    if not out:
        return 0.0
    mine = bytes(list(out) + [END] * (END - 1 - len(out)))
    total = 0.0
    for d1, d2, chance in advisor_traverse.THROWS:
        plays = advisor_traverse.reply_plays(mine, NOBODY, d1, d2, END, True)
        best = max(sum(play_out(mine, NOBODY, play, END)[0]) for play in plays)
        total += chance * (d1 + d2 - (best - sum(mine)))
    return total


def pawns_out(pawns: Positions, most: int) -> tuple[int, ...] | None:
    out = tuple(sorted(p for p in pawns if p != END))
    return out if len(out) <= most else None


def with_waste(mine_weight: float, theirs_weight: float, most: float) -> Worth:
    def worth(mine: Positions, theirs: Positions, end: int) -> float:
        value = BASE(mine, theirs, end)
        own, other = pawns_out(mine, int(most)), pawns_out(theirs, int(most))
        value -= mine_weight * waste(own) if own is not None else 0.0
        return value + (theirs_weight * waste(other) if other is not None else 0.0)

    return worth


def with_race(constant: float, both: float, most: float) -> Worth:
    turns = finish_turns(END)

    def race(pawns: Positions, end: int) -> float:
        out = pawns_out(pawns, int(most))
        if not out:
            return 0.0
        return constant - 7 * turns[out] - advisor_traverse.progress(pawns, end)

    def worth(mine: Positions, theirs: Positions, end: int) -> float:
        value = BASE(mine, theirs, end) + race(mine, end)
        return value - race(theirs, end) if both else value

    return worth


def with_lead(risk_change: float, scale: float, threat_change: float) -> Worth:
    def worth(mine: Positions, theirs: Positions, end: int) -> float:
        risk, threat = advisor_traverse.risk_and_threat(mine, theirs, end)
        lead = advisor_traverse.progress(mine, end) - advisor_traverse.progress(theirs, end)
        t = math.tanh(lead / scale)
        return (lead - advisor_traverse.RISK_WEIGHT * (1 + risk_change * t) * risk
                + advisor_traverse.THREAT_WEIGHT * (1 - threat_change * t) * threat)  # fmt: skip

    return worth


VARIANTS = {"waste": with_waste, "race": with_race, "lead": with_lead}


def won_with(worth: Worth, games: int, first: int, searched: int) -> float:
    """Games won by the advisor with `worth` as its weighing (in its search too)."""
    advisor_traverse.worth = paired.worth = worth
    try:
        return sum(paired.play_game(n, searched) for n in range(first, first + games))
    finally:
        advisor_traverse.worth = paired.worth = BASE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", choices=sorted(VARIANTS))
    parser.add_argument("settings", nargs="+", help="comma-separated numbers, one run each")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--searched", type=int, default=0)
    args = parser.parse_args()
    advisor_traverse.DEEP_PAWNS = 0
    for setting in args.settings:
        begin = time.perf_counter()
        numbers = [float(x) for x in setting.split(",")]
        won = won_with(VARIANTS[args.variant](*numbers), args.games, args.first, args.searched)
        print(f"{args.variant} {setting}: won {won:.1f} of {args.games} "
              f"({100 * won / args.games:.1f} %), {time.perf_counter() - begin:.0f} s",
              flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
