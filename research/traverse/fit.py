"""Fit Traverse's position weighing by logistic regression: the chance that the side that has
just played wins, from features of the position (FEATURE_NAMES), learnt from the outcomes of
games between the advisor's weighing (advisor.traverse.worth) and the demo's greedy bot.

    python -m research.traverse.fit --games 4000 --cache /tmp/traverse_fit.npz --drop 1,3,4

Every position after a play is one sample (features of the mover, label 1 if the mover won),
with a few random plays (`--explore`) for positions the two would not reach. Newton's method
on the log-likelihood, numpy only; prints the held-out log loss and the weights. Tried as the
advisor's weighing and dropped (docs/games/traverse.md): fitted on outcomes across positions,
the weights rank the plays of one throw badly (a pawn home worth ~25 squares, the plain race
weight negative when not dropped).
"""

from __future__ import annotations

import argparse
import os
import random
import time

import numpy as np

from advisor.traverse import REACH, pawns_out, reply_plays, risk_and_threat, worth
from engines._traverse_plays import Positions, play_out
from research.traverse.paired import END, greedy

FEATURE_NAMES = (
    "bias",
    "race: the opponent's squares to go less one's own",
    "race over the square root of both sides' squares to go",
    "risk: squares one may expect to lose to the opponent's next throw",
    "threat: squares the opponent's exposed pawns stand to lose",
    "risk over the square root of squares to go",
    "threat over the square root of squares to go",
    "one's pawns not home",
    "the opponent's pawns not home",
    "one's pawns a throw may bring home (sum of chances)",
    "the opponent's pawns a throw may bring home",
)


def features(mine: Positions, theirs: Positions, end: int) -> list[float]:
    """What the fitted weighing looks at, for the side that just played (FEATURE_NAMES)."""
    risk, threat = risk_and_threat(mine, theirs, end)
    my_near = their_near = 0.0
    for pawn in range(len(mine)):
        if end - mine[pawn] <= 12:
            my_near += REACH[end - mine[pawn]]
        if end - theirs[pawn] <= 12:
            their_near += REACH[end - theirs[pawn]]
    pawns = len(mine)
    my_go, their_go = pawns * end - sum(mine), pawns * end - sum(theirs)
    scale = (my_go + their_go + 4) ** 0.5
    race = their_go - my_go
    my_left, their_left = pawns - mine.count(end), pawns - theirs.count(end)
    return [1.0, race, race / scale, risk, threat, risk / scale, threat / scale,
            my_left, their_left, my_near, their_near]  # fmt: skip


def chosen(mine: Positions, theirs: Positions, d1: int, d2: int, rng: random.Random,
           explore: float) -> tuple:  # fmt: skip
    plays = reply_plays(mine, theirs, d1, d2, END, True)
    if rng.random() < explore:
        return rng.choice(plays)
    return max(plays, key=lambda play: worth(*play_out(mine, theirs, play, END)[:2], END))


def one_game(seed: int, explore: float) -> tuple[list[list[float]], list[float]]:
    rng = random.Random(seed)
    positions = [bytes(END - 1), bytes(END - 1)]
    advised_seat, current = seed % 2, rng.randrange(2)
    rows: list[tuple[int, list[float]]] = []
    for _ in range(2000):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        mine, theirs = positions[current], positions[1 - current]
        if current == advised_seat:
            play = chosen(mine, theirs, d1, d2, rng, explore)
        else:
            play = greedy(mine, theirs, d1, d2, rng)
        mine, theirs, _ = play_out(mine, theirs, play, END)
        positions[current], positions[1 - current] = mine, theirs
        rows.append((current, features(mine, theirs, END)))
        if not pawns_out(mine, END):
            return [x for _, x in rows], [float(side == current) for side, _ in rows]
        current = 1 - current
    return [], []


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-2) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(30):
        p = 1 / (1 + np.exp(-(x @ w)))
        gradient = x.T @ (y - p) - ridge * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        w += np.linalg.solve(hessian, gradient)
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--explore", type=float, default=0.05)
    parser.add_argument("--drop", default="", help="feature numbers left out (weight 0)")
    parser.add_argument("--cache", help="an .npz of samples: read when it exists, else written")
    args = parser.parse_args()
    begin = time.perf_counter()
    xs, ys = [], []
    if args.cache and os.path.exists(args.cache):
        with np.load(args.cache) as saved:
            xs, ys = list(saved["x"]), list(saved["y"])
    for game in range(args.games if not xs else 0):
        x, y = one_game(args.seed * 1_000_003 + game, args.explore)
        xs += x
        ys += y
    x, y = np.array(xs), np.array(ys)
    if args.cache:
        np.savez(args.cache, x=x, y=y)
    dropped = [int(n) for n in args.drop.split(",") if n]
    x[:, dropped] = 0.0
    held = len(x) // 5
    w = fit(x[held:], y[held:])
    p = np.clip(1 / (1 + np.exp(-(x[:held] @ w))), 1e-9, 1 - 1e-9)
    loss = -np.mean(y[:held] * np.log(p) + (1 - y[:held]) * np.log(1 - p))
    print(f"{len(x)} positions from {args.games} games, {time.perf_counter() - begin:.0f} s; "
          f"held-out log loss {loss:.4f} (0.6931 for a coin)")  # fmt: skip
    w = fit(x, y)
    print("FEATURE_WEIGHTS = (")
    for name, weight in zip(FEATURE_NAMES, w, strict=True):
        print(f"    {weight:.5f},  # {name}")
    print(")")


if __name__ == "__main__":
    main()
