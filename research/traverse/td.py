"""Learn what each pawn's square is worth in Traverse by temporal differences (TD(0)) from
self-play, then measure the learnt weighing on the paired games of research.traverse.paired.

    python -m research.traverse.td learn --games 20000 --rate 10 --out /tmp/td.json
    python -m research.traverse.td measure /tmp/td.json --games 2000            # one ply
    python -m research.traverse.td measure /tmp/td.json --games 600 --searched 6 --deep 3

The advisor's weighing counts a pawn's progress as its square (and HOME_BONUS more in its
arrival box). Here a pawn's progress is a learnt table, square by square and pawn by pawn (the
board is the same for both colours: red pawn c and white pawn c have the same axis), started
from the advisor's count; the risk and threat weights are learnt beside it. The chance that
the side that has just played wins is modelled as logistic(SCALE x worth + bias); both sides
play by the table's one-ply weighing and, after each play, the value of the position the other
side left is moved towards one minus the value of this one (1 or 0 when the game ends).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import research.traverse.paired as paired
from advisor import traverse as advisor_traverse
from engines._traverse_outcomes import throw_outcomes
from engines._traverse_plays import Positions

END = paired.END
PAWNS = END - 1
SCALE = 0.04  # a lead of about 10 squares: 60 % to win


class Weighing:
    """The advisor's worth with a learnt progress table and learnt risk and threat weights."""

    def __init__(self, table: list[list[float]], risk: float, threat: float, bias: float) -> None:
        self.table, self.risk, self.threat, self.bias = table, risk, threat, bias

    @classmethod
    def advisor_s(cls) -> Weighing:
        home = advisor_traverse.HOME_BONUS
        row = [float(square) + (home if square == END else 0.0) for square in range(END + 1)]
        return cls([list(row) for _ in range(PAWNS)], advisor_traverse.RISK_WEIGHT,
                   advisor_traverse.THREAT_WEIGHT, 0.0)  # fmt: skip

    def progress(self, pawns: Positions) -> float:
        return sum(row[square] for row, square in zip(self.table, pawns, strict=True))

    def worth(self, mine: Positions, theirs: Positions, end: int = END) -> float:
        return self._worth(*advisor_traverse.risk_and_threat(mine, theirs, end), mine, theirs)

    def _worth(self, risk: float, threat: float, mine: Positions, theirs: Positions) -> float:
        return (self.progress(mine) - self.progress(theirs) - self.risk * risk
                + self.threat * threat)  # fmt: skip

    def chance(self, mine: Positions, theirs: Positions) -> float:
        return self._logistic(*advisor_traverse.risk_and_threat(mine, theirs, END), mine, theirs)

    def _logistic(self, risk: float, threat: float, mine: Positions, theirs: Positions) -> float:
        worth = self._worth(risk, threat, mine, theirs)
        return 1.0 / (1.0 + math.exp(-(SCALE * worth + self.bias)))

    def learn(self, mine: Positions, theirs: Positions, target: float, rate: float) -> None:
        """One gradient step of the chance of (mine, theirs) towards `target`."""
        risk, threat = advisor_traverse.risk_and_threat(mine, theirs, END)
        value = self._logistic(risk, threat, mine, theirs)
        step = rate * (target - value) * value * (1.0 - value)
        for pawn in range(PAWNS):
            self.table[pawn][mine[pawn]] += step * SCALE
            self.table[pawn][theirs[pawn]] -= step * SCALE
        self.risk -= step * SCALE * risk * 0.01  # slower: one weight for every position
        self.threat += step * SCALE * threat * 0.01
        self.bias += step * 0.01

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(vars(self)))

    @classmethod
    def load(cls, path: Path) -> Weighing:
        try:
            return cls(**json.loads(path.read_text()))
        except (TypeError, ValueError):
            raise ValueError(f"{path}: not a table written by `learn`") from None


def self_play(weighing: Weighing, rng: random.Random, rate: float) -> None:
    """One game of the table against itself, learning after every play."""
    positions = [bytes(PAWNS), bytes(PAWNS)]
    current, left = rng.randrange(2), None  # the position the other side left, its view
    for _ in range(3000):
        mine, theirs = positions[current], positions[1 - current]
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        after = max(throw_outcomes(mine, theirs, d1, d2, END, True),
                    key=lambda outcome: weighing.worth(*outcome))  # fmt: skip
        won = not advisor_traverse.pawns_out(after[0], END)
        if left is not None:
            weighing.learn(*left, 0.0 if won else 1.0 - weighing.chance(*after), rate)
        if won:
            return
        positions[current], positions[1 - current] = after
        left, current = after, 1 - current


def learn(args: argparse.Namespace) -> None:
    weighing = Weighing.load(args.start) if args.start else Weighing.advisor_s()
    rng = random.Random(args.seed)
    begin = time.perf_counter()
    for number in range(1, args.games + 1):
        self_play(weighing, rng, args.rate)
        if number % 1000 == 0 or number == args.games:
            weighing.save(args.out)
            print(f"{number} games, {time.perf_counter() - begin:.0f} s: risk "
                  f"{weighing.risk:.3f}, threat {weighing.threat:.3f}, bias "
                  f"{weighing.bias:.3f}", flush=True)  # fmt: skip


def measure(args: argparse.Namespace) -> None:
    weighing = Weighing.load(args.table)
    advisor_traverse.DEEP_PAWNS = args.deep
    base = advisor_traverse.worth
    advisor_traverse.worth = paired.worth = weighing.worth
    try:
        numbers = range(args.first, args.first + args.games)
        won = sum(paired.play_game(number, args.searched) for number in numbers)
    finally:
        advisor_traverse.worth = paired.worth = base
    print(
        f"{args.table}: won {won:.1f} of {args.games} ({100 * won / args.games:.1f} %), "
        f"{args.searched} plays searched, own throw with <= {args.deep} pawns out"
    )


def verbs_parser(doc: str, learn: Callable, measure: Callable, rate: float,
                 learnt: str) -> tuple[argparse.ArgumentParser, Any, Any]:  # fmt: skip
    """The `learn` and `measure` verbs the self-play tools share (td, net);
    each tool adds its own options to the two sub-parsers returned with the parser."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    teach = verbs.add_parser("learn")
    teach.add_argument("--games", type=int, default=10000)
    teach.add_argument("--rate", type=float, default=rate)
    teach.add_argument("--seed", type=int, default=1)
    teach.add_argument("--start", type=Path, help=f"a {learnt} to go on from")
    teach.add_argument("--out", type=Path, required=True)
    teach.set_defaults(run=learn)
    check = verbs.add_parser("measure")
    check.add_argument(learnt, type=Path)
    check.add_argument("--games", type=int, default=2000)
    check.add_argument("--first", type=int, default=0)
    check.set_defaults(run=measure)
    return parser, teach, check


def run_verb(parser: argparse.ArgumentParser, name: str) -> None:
    args = parser.parse_args()
    try:
        args.run(args)
    except (OSError, ValueError) as problem:  # a file missing, unreadable or not one of ours
        parser.exit(2, f"{name}: {problem}\n")


def main() -> None:
    parser, _, check = verbs_parser(__doc__, learn, measure, 0.1, "table")
    check.add_argument("--searched", type=int, default=0)
    check.add_argument("--deep", type=int, default=0)
    run_verb(parser, "traverse_td")


if __name__ == "__main__":
    main()
