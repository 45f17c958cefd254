"""Learn a value of Traverse positions by temporal differences from self-play: a small network
(one hidden layer) beside the advisor's weighing, then measure it on the paired games of
research.traverse.paired, at one ply or (a net without hidden units) in the advisor's search.

    python -m research.traverse.net learn --games 10000 --hidden 0 --rate 0.002 \
        --weighing-rate 1e-3 --out /tmp/net.npz
    python -m research.traverse.net measure /tmp/net.npz --games 2000             # one ply
    python -m research.traverse.net measure /tmp/net.npz --games 600 --searched 6 --deep 3

The chance that the side that has just played wins is logistic(a . (progress, the other's
progress, risk, threat) + u . x + v . tanh(W x + c) + b): the weighing's terms (a starts as
the advisor's weights, so an untaught net plays as the weighing), x every pawn's square for both
sides (one-hot) and the chance each pawn in the crossing zone can be hit by the next throw.
Both sides play the net's best outcome of each throw; after each play, the chance of the
position the other side left is moved towards one minus the chance of this one (0 when this
play wins): TD(0) on the log loss. Positions are weighed many at a time (numpy): every outcome of
a throw at once. Not shipped (docs/games/traverse.md says why).
"""

from __future__ import annotations

import os

# numpy's BLAS threads on these small products cost 13 times the work on a busy two-core machine.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

import research.traverse.paired as paired  # noqa: E402
from advisor import traverse as advisor_traverse  # noqa: E402
from advisor.traverse import pawns_out  # noqa: E402
from engines._traverse_outcomes import throw_outcomes  # noqa: E402
from research.traverse.td import run_verb, verbs_parser  # noqa: E402

END = paired.END
PAWNS = END - 1
SQUARES = END + 1  # 0 (start) .. END (arrival box)
HOME_BONUS = advisor_traverse.HOME_BONUS
REACH = np.array(advisor_traverse.REACH)  # the chance a throw moves a pawn 0..12 squares
INPUTS = 2 * PAWNS * SQUARES + 2 * PAWNS
_COLUMNS = np.arange(PAWNS)


def as_arrays(outcomes: list[tuple[bytes, bytes]]) -> tuple[np.ndarray, np.ndarray]:
    """The positions of many outcomes as two (n, PAWNS) integer arrays: the mover's, the other's."""
    mine = np.frombuffer(b"".join(m for m, _ in outcomes), dtype=np.uint8).reshape(-1, PAWNS)
    theirs = np.frombuffer(b"".join(t for _, t in outcomes), dtype=np.uint8).reshape(-1, PAWNS)
    return mine.astype(np.intp), theirs.astype(np.intp)


def hit_chances(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """(n, PAWNS): the chance that the other side's next throw can hit each of `mine`'s pawns
    (the one opponent pawn whose axis it stands on, by a die, the other or their sum, its path
    free of our pawns), 0 outside the crossing zone: `advisor.traverse._hit_chance` for many."""
    rows = np.arange(len(mine))[:, None]
    in_zone = (mine > 0) & (mine < END)
    hunter = theirs[rows, np.clip(mine - 1, 0, PAWNS - 1)]  # the column the hunter stands on
    delta = _COLUMNS + 1 - hunter
    # The hunter's path runs over the columns strictly between it and our pawn.
    low = np.where(delta > 0, hunter, _COLUMNS + 1)  # pawn indices low..high-1 in the way
    high = np.where(delta > 0, _COLUMNS, hunter - 1)
    between = (_COLUMNS[None, None, :] >= low[:, :, None]) & (
        _COLUMNS[None, None, :] < high[:, :, None]
    )
    same_row = mine[:, None, :] == mine[:, :, None]
    blocked = (between & same_row).any(axis=2)
    reachable = in_zone & (np.abs(delta) <= 12) & (delta != 0) & ~blocked
    return np.where(reachable, REACH[np.clip(np.abs(delta), 0, 12)], 0.0)


def features(mine: np.ndarray, theirs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The network's inputs x (n, INPUTS) and the weighing's terms (n, 4): progress, the other's
    progress, risk and threat (squares at stake for each side)."""
    n = len(mine)
    eye = np.eye(SQUARES, dtype=np.float32)
    risk_chance, threat_chance = hit_chances(mine, theirs), hit_chances(theirs, mine)
    x = np.concatenate(
        [eye[mine].reshape(n, -1), eye[theirs].reshape(n, -1), risk_chance, threat_chance],
        axis=1,
    ).astype(np.float32)
    terms = np.stack(
        [
            mine.sum(1) + HOME_BONUS * (mine == END).sum(1),
            theirs.sum(1) + HOME_BONUS * (theirs == END).sum(1),
            (risk_chance * mine).sum(1),
            (threat_chance * theirs).sum(1),
        ],
        axis=1,
    ).astype(np.float32)
    return x, terms


@dataclass
class ValueNet:
    """The weights: hidden layer (w, c), its output weights v, the inputs' own weights u, the
    weighing's weights a, bias b."""

    w: np.ndarray
    c: np.ndarray
    v: np.ndarray
    u: np.ndarray
    a: np.ndarray
    b: float

    @classmethod
    def fresh(cls, hidden: int, rng: np.random.Generator, scale: float = 0.04) -> ValueNet:
        """A net that starts as the advisor's weighing (its hidden layer silent)."""
        return cls(
            w=(rng.standard_normal((INPUTS, hidden)) * 0.1).astype(np.float32),
            c=np.zeros(hidden, np.float32),
            v=np.zeros(hidden, np.float32),
            u=np.zeros(INPUTS, np.float32),
            a=np.array([1.0, -1.0, -0.9, 0.3], np.float32) * scale,
            b=0.0,
        )

    def logits(self, mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
        return self.forward(*features(mine, theirs))[1]

    def forward(self, x: np.ndarray, terms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The hidden units and the logit of the chance to win, for inputs (x, terms)."""
        hidden = np.tanh(x @ self.w + self.c)
        return hidden, hidden @ self.v + x @ self.u + terms @ self.a + self.b

    def save(self, path: Path) -> None:
        np.savez(path, w=self.w, c=self.c, v=self.v, u=self.u, a=self.a, b=np.float32(self.b))

    @classmethod
    def load(cls, path: Path) -> ValueNet:
        if not Path(path).is_file():
            raise ValueError(f"{path}: no such file")
        try:
            with np.load(path) as saved:
                names = ("w", "c", "v", "u", "a")
                return cls(*(saved[name] for name in names), float(saved["b"]))
        except (KeyError, ValueError, OSError, AttributeError):
            raise ValueError(f"{path}: not a net written by `learn`") from None


LINEAR_RATE = 1.0
WEIGHING_RATE = 1e-5  # the weighing's terms are squares (tens), the hidden units at most 1


def best_outcome(net: ValueNet, outcomes: list) -> tuple[int, np.ndarray, np.ndarray]:
    """The index of the outcome the net values most, with its inputs (x, terms)."""
    x, terms = features(*as_arrays(outcomes))
    best = int(np.argmax(net.forward(x, terms)[1]))
    return best, x[best], terms[best]


def learn_step(net: ValueNet, x: np.ndarray, terms: np.ndarray, target: float,
               rate: float) -> None:  # fmt: skip
    """One gradient step of the log loss of the chance of inputs (x, terms) against `target`."""
    hidden, logit = net.forward(x, terms)
    error = target - _logistic(logit)
    back = error * net.v * (1.0 - hidden**2)
    net.v += rate * error * hidden
    net.u += rate * LINEAR_RATE * error * x
    net.a += rate * WEIGHING_RATE * error * terms
    net.b += rate * error * 0.1
    net.w += rate * np.outer(x, back)
    net.c += rate * back


def chance_of(net: ValueNet, x: np.ndarray, terms: np.ndarray) -> float:
    return float(_logistic(net.forward(x, terms)[1]))


def _logistic(logit: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-logit))


def self_play(net: ValueNet, rng: random.Random, rate: float) -> int:
    """One game of the net against itself, learning after every play; its number of plays."""
    positions = [bytes(PAWNS), bytes(PAWNS)]
    current, left = rng.randrange(2), None  # the inputs of the position the other side left
    for turn in range(3000):
        mine, theirs = positions[current], positions[1 - current]
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        outcomes = throw_outcomes(mine, theirs, d1, d2, END, True)
        best, x, terms = best_outcome(net, outcomes)
        after = outcomes[best]
        won = not pawns_out(after[0], END)
        if left is not None:
            learn_step(net, *left, 0.0 if won else 1.0 - chance_of(net, x, terms), rate)
        if won:
            learn_step(net, x, terms, 1.0, rate)
            return turn
        positions[current], positions[1 - current] = after
        left, current = (x, terms), 1 - current
    return 3000


def learn(args: argparse.Namespace) -> None:
    global WEIGHING_RATE, LINEAR_RATE
    WEIGHING_RATE, LINEAR_RATE = args.weighing_rate, args.linear_rate
    net = ValueNet.load(args.start) if args.start else ValueNet.fresh(
        args.hidden, np.random.default_rng(args.seed))  # fmt: skip
    rng = random.Random(args.seed)
    begin = time.perf_counter()
    turns = 0
    for number in range(1, args.games + 1):
        turns += self_play(net, rng, args.rate)
        if number % 500 == 0 or number == args.games:
            net.save(args.out)
            print(f"{number} games, {time.perf_counter() - begin:.0f} s, {turns / number:.0f} "
                  f"plays a game; weighing {np.round(net.a / 0.04, 3)}, |v| "
                  f"{np.abs(net.v).sum():.2f}", flush=True)  # fmt: skip


def play_game(net: ValueNet, number: int) -> float:
    """research.traverse.paired's game `number` with the net's one-ply choice as the advisor."""
    dice, ties, seat, current, positions = paired.game_start(number)
    for _ in range(2000):
        d1, d2 = dice.randint(1, 6), dice.randint(1, 6)
        mine, theirs = positions[current], positions[1 - current]
        if current == seat:
            outcomes = throw_outcomes(mine, theirs, d1, d2, END, True)
            after = outcomes[best_outcome(net, outcomes)[0]]
        else:
            play = paired.greedy(mine, theirs, d1, d2, ties)
            after = paired.play_out(mine, theirs, play, END)[:2]
        positions[current], positions[1 - current] = after
        if not pawns_out(positions[current], END):
            return float(current == seat)
        current = 1 - current
    return 0.5


def linear_worth(net: ValueNet, scale: float = 0.04):
    """The net's value as the advisor's `worth` (in squares, pure Python: the search weighs
    positions one at a time), for a net without hidden units."""
    if net.w.shape[1] and np.abs(net.v).sum():
        raise ValueError("only a net learnt with --hidden 0 can weigh the search's positions")
    u, a = (net.u / scale).tolist(), (net.a / scale).tolist()
    mine_rows = [u[p * SQUARES : (p + 1) * SQUARES] for p in range(PAWNS)]
    start = PAWNS * SQUARES
    their_rows = [u[start + p * SQUARES : start + (p + 1) * SQUARES] for p in range(PAWNS)]
    risk_of, threat_of = u[2 * start : 2 * start + PAWNS], u[2 * start + PAWNS :]
    hit = advisor_traverse._hit_chance

    def worth(mine: bytes, theirs: bytes, end: int = END) -> float:
        total = risk = threat = 0.0
        for pawn in range(PAWNS):
            total += mine_rows[pawn][mine[pawn]] + their_rows[pawn][theirs[pawn]]
            if 0 < mine[pawn] < end:
                chance = hit(mine, theirs, pawn, end)
                total, risk = total + risk_of[pawn] * chance, risk + chance * mine[pawn]
            if 0 < theirs[pawn] < end:
                chance = hit(theirs, mine, pawn, end)
                total, threat = total + threat_of[pawn] * chance, threat + chance * theirs[pawn]
        progress = advisor_traverse.progress
        return (total + a[0] * progress(mine, end) + a[1] * progress(theirs, end) + a[2] * risk
                + a[3] * threat)  # fmt: skip

    return worth


def measure(args: argparse.Namespace) -> None:
    net = ValueNet.load(args.net)
    numbers = range(args.first, args.first + args.games)
    if not args.searched:
        won = sum(play_game(net, number) for number in numbers)
        print(f"{args.net}: won {won:.1f} of {args.games} ({100 * won / args.games:.1f} %), "
              "one ply")  # fmt: skip
        return
    advisor_traverse.DEEP_PAWNS = args.deep
    base = advisor_traverse.worth
    advisor_traverse.worth = paired.worth = linear_worth(net)
    try:
        won = sum(paired.play_game(number, args.searched) for number in numbers)
    finally:
        advisor_traverse.worth = paired.worth = base
    print(f"{args.net}: won {won:.1f} of {args.games} ({100 * won / args.games:.1f} %), "
          f"{args.searched} plays searched, own throw with <= {args.deep} pawns out")  # fmt: skip


def main() -> None:
    parser, teach, check = verbs_parser(__doc__, learn, measure, 0.01, "net")
    teach.add_argument("--hidden", type=int, default=32, help="hidden units (0: none)")
    teach.add_argument("--weighing-rate", type=float, default=WEIGHING_RATE,
                       help="the weighing's weights learn at this share of --rate")  # fmt: skip
    teach.add_argument("--linear-rate", type=float, default=LINEAR_RATE,
                       help="the inputs' own weights learn at this share of --rate")  # fmt: skip
    searched = "plays searched as the advisor does (a --hidden 0 net only)"
    check.add_argument("--searched", type=int, default=0, help=searched)
    check.add_argument("--deep", type=int, default=0)
    run_verb(parser, "traverse_net")


if __name__ == "__main__":
    main()
