"""CPU time of Traverse's advice where the advisor's own next throw is searched too (at most
advisor.traverse.DEEP_PAWNS of its pawns out), against the two-ply search in the same positions.

    python -m research.traverse.end_time --games 30

The positions are the advisor's in the paired games of research.traverse.paired (six plays
searched, no time budget).
"""

from __future__ import annotations

import argparse
import statistics
import time

from advisor import traverse as advisor_traverse
from engines._traverse_plays import play_out
from research.traverse.paired import END, advised, game_start, greedy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    deep = advisor_traverse.DEEP_PAWNS
    timings: dict[int, list[float]] = {0: [], deep: []}
    for number in range(args.games):
        dice, ties, seat, current, positions = game_start(number)
        for _ in range(2000):
            d1, d2 = dice.randint(1, 6), dice.randint(1, 6)
            mine, theirs = positions[current], positions[1 - current]
            if current != seat:
                play = greedy(mine, theirs, d1, d2, ties)
            else:
                if advisor_traverse.pawns_out(mine, END) <= deep:
                    for depth in timings:
                        advisor_traverse.DEEP_PAWNS = depth
                        begin = time.process_time()
                        advised(mine, theirs, d1, d2, 6)
                        timings[depth].append(1000 * (time.process_time() - begin))
                advisor_traverse.DEEP_PAWNS = deep
                play = advised(mine, theirs, d1, d2, 6)
            positions[current], positions[1 - current], _ = play_out(mine, theirs, play, END)
            if not advisor_traverse.pawns_out(positions[current], END):
                break
            current = 1 - current
    for depth, spent in timings.items():
        spent.sort()
        what = "own throw searched" if depth else "two plies"
        print(f"{what}: {len(spent)} positions, CPU ms median {statistics.median(spent):.1f}, "
              f"p95 {spent[int(0.95 * len(spent))]:.1f}, max {spent[-1]:.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
