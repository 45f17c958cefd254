"""`tabletop bench review`: how honest the review's win chances are, and how long a review takes.

N games between sparring partners (`advisor/sparring/`, each seat's drawn at random) with seeds
below FIT_SEED_BASE, which the fit (`--fit`, bench/review_fit.py) never plays. At every
position where a player acts, every seat's chance (review.chances, from that seat's view) is
paired with that seat's share of the win (1/k for k tied winners): the expected calibration
error over ten equal bins, the Brier score and the reliability table come from those pairs.
The first `--timed` games are also reviewed whole (review.review_game: chances and grades) and
timed. One JSON object a line, one per game.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from bench.review_games import FIT_SEED_BASE, PLAYERS, Unended, bot_game

BINS = 10


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "review", help="calibration of the review's win chances and the time of a review"
    )
    parser.add_argument("--games", type=int, default=200, help="bot games per game (default 200)")
    parser.add_argument("--only", help="comma-separated games (default: every engine)")
    parser.add_argument("--timed", type=int, default=20, help="of those, reviewed whole and timed")
    parser.add_argument("--iterations", type=int, help="advisor iterations a decision (review's)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object per game")
    parser.add_argument(
        "--fit", action="store_true", help="fit review/chances.json on bot games of other seeds"
    )
    parser.add_argument(
        "--given-away", action="store_true", help="chance given away by careful and random players"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    names = [n.strip() for n in args.only.split(",")] if args.only else list(PLAYERS)
    unknown = [n for n in names if n not in PLAYERS]
    if unknown:
        print(f"--only: no such game {unknown[0]!r} (known: {', '.join(PLAYERS)})")
        return 2
    if args.games < 1 or args.timed < 0:
        print("--games must be at least 1 and --timed at least 0")
        return 2
    if args.fit:
        from bench.review_fit import fit

        fit(names, args.games, args.seed)
        return 0
    if args.given_away:
        from bench.review_grades import run as given_away

        given_away(names, args.games, args.seed)
        return 0
    for name in names:
        figures, table = bench_game(name, args.games, args.timed, args.seed, args.iterations)
        print(json.dumps(figures) if args.json else _text(figures, table), flush=True)
    return 0


def _text(f: dict, table: list[tuple[str, int, float, float]]) -> str:
    lines = [f"{f['game']}: {f['games']} games, ECE {f['ece']}, Brier {f['brier']}, review "
             f"median {f['review_s_median']} s, p95 {f['review_s_p95']} s"]  # fmt: skip
    lines += [f"  chance {span}: {n:6d} seat positions, said {said:.3f}, won {won:.3f}"
              for span, n, said, won in table]  # fmt: skip
    return "\n".join(lines)


def calibration(pairs: list[tuple[float, float]]) -> tuple[float | None, float | None]:
    """Expected calibration error over BINS equal bins, and the Brier score."""
    if not pairs:
        return None, None
    brier = sum((p - o) ** 2 for p, o in pairs) / len(pairs)
    ece = sum(abs(said - won) * n for _, n, said, won in reliability(pairs)) / len(pairs)
    return round(ece, 4), round(brier, 4)


def reliability(pairs: list[tuple[float, float]]) -> list[tuple[str, int, float, float]]:
    """Per bin of the chance said: its span, how many pairs, the mean chance said, the mean won."""
    bins: list[list[tuple[float, float]]] = [[] for _ in range(BINS)]
    for p, o in pairs:
        bins[min(BINS - 1, int(p * BINS))].append((p, o))
    return [(f"{i / BINS:.1f}-{(i + 1) / BINS:.1f}", len(b), sum(p for p, _ in b) / len(b),
             sum(o for _, o in b) / len(b)) for i, b in enumerate(bins) if b]  # fmt: skip


def bench_game(name: str, games: int, timed: int, seed: int,
               iterations: int | None = None) -> tuple[dict, list]:  # fmt: skip
    from bench.engines import _percentile
    from review import REVIEW_ITERATIONS, review_game
    from review.chances import chance_of_features

    rng = random.Random(seed)
    pairs: list[tuple[float, float]] = []
    seconds = []
    unended = 0
    for index in range(games):
        game_seed = rng.randrange(FIT_SEED_BASE)
        try:
            log, positions = bot_game(name, game_seed)
        except Unended:  # no result to pair the chances with: left out, and counted
            unended += 1
            continue
        for _, rows, shares in positions:
            pairs += [(chance_of_features(name, row, len(rows)), shares[s])
                      for s, row in enumerate(rows)]  # fmt: skip
        if index < timed:
            players = [f"P{i}" for i in range(PLAYERS[name])]
            begin = time.perf_counter()
            review_game(name, players, log, seed=game_seed,
                        iterations=iterations or REVIEW_ITERATIONS)  # fmt: skip
            seconds.append(time.perf_counter() - begin)
    ece, brier = calibration(pairs)
    figures = {
        "game": name,
        "games": games - unended,
        "unended": unended,
        "ece": ece,
        "brier": brier,
        "review_s_median": round(statistics.median(seconds), 3) if seconds else None,
        "review_s_p95": round(_percentile(seconds, 0.95), 3) if seconds else None,
    }
    return figures, reliability(pairs)
