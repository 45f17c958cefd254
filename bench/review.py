"""`tabletop bench review`: games between sparring partners reviewed whole (review/), with the
time a review takes and how well the advisor's chances at the decisions match the results.

Each decision graded on a chance gives a pair: the acting player's chance by the advisor's best
choice, and whether that player won the game (a shared first place counting 1/k). The
calibration of those pairs is reported as the Brier score and the expected calibration error
over ten equal bins. One JSON object a line, one per game.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

BINS = 10
PLAYERS = {"struggle": 2, "traverse": 2, "strategix": 2, "sequence": 2, "roudalon": 4}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "review", help="review time and calibration of the advisor's chances on bot games"
    )
    parser.add_argument("--games", help="comma-separated games (default: every engine)")
    parser.add_argument("--rounds", type=int, default=5, help="bot games reviewed per game")
    parser.add_argument("--iterations", type=int, default=10, help="advisor iterations")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object per game")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    names = [n.strip() for n in args.games.split(",")] if args.games else list(PLAYERS)
    unknown = [n for n in names if n not in PLAYERS]
    if unknown:
        print(f"--games: no such game {unknown[0]!r} (known: {', '.join(PLAYERS)})")
        return 2
    for name in names:
        figures = bench_game(name, args.rounds, args.iterations, args.seed)
        print(json.dumps(figures) if args.json else _line(figures), flush=True)
    return 0


def _line(f: dict) -> str:
    shown = {k: ("-" if v is None else v) for k, v in f.items()}
    return (f"{shown['game']:10s} {shown['games']} games: ECE {shown['ece']}  Brier "
            f"{shown['brier']}  review median {shown['review_s_median']} s  p95 "
            f"{shown['review_s_p95']} s ({shown['pairs']} chances)")  # fmt: skip


def bot_game(name: str, seed: int) -> tuple[list[str], list[float]]:
    """A game between copies of the game's first sparring partner: its log, each seat's share
    of the win."""
    import engines
    from advisor.sparring import PLAYERS as PARTNERS
    from engines.core import CHANCE

    count = PLAYERS[name]
    state = engines.make_game(name, [f"P{i}" for i in range(count)], seed=seed).new_state()
    policy = next(iter(PARTNERS[name].values()))
    rng, log = random.Random(seed), []
    while not state.is_over:
        action = state.sample_chance(rng) if state.actor == CHANCE else policy(state, rng)
        log.append(action.notation)
        state.apply(action)
    winners = state.winners()
    return log, [1 / len(winners) if seat in winners else 0.0 for seat in range(count)]


def calibration(pairs: list[tuple[float, float]]) -> tuple[float | None, float | None]:
    """Expected calibration error over BINS equal bins, and the Brier score."""
    if not pairs:
        return None, None
    brier = sum((p - o) ** 2 for p, o in pairs) / len(pairs)
    bins: list[list[tuple[float, float]]] = [[] for _ in range(BINS)]
    for p, o in pairs:
        bins[min(BINS - 1, int(p * BINS))].append((p, o))
    ece = sum(abs(sum(p for p, _ in b) - sum(o for _, o in b)) for b in bins if b) / len(pairs)
    return round(ece, 4), round(brier, 4)


def bench_game(name: str, rounds: int, iterations: int, seed: int) -> dict:
    from bench.engines import _percentile
    from review import review_game

    rng = random.Random(seed)
    pairs: list[tuple[float, float]] = []
    seconds = []
    for _ in range(rounds):
        game_seed = rng.randrange(10**9)
        log, shares = bot_game(name, game_seed)
        players = [f"P{i}" for i in range(PLAYERS[name])]
        begin = time.perf_counter()
        review = review_game(name, players, log, seed=game_seed, iterations=iterations)
        seconds.append(time.perf_counter() - begin)
        pairs += [(d.chance_best, shares[d.player]) for d in review.decisions
                  if d.chance_best is not None]  # fmt: skip
    ece, brier = calibration(pairs)
    return {
        "game": name,
        "games": rounds,
        "ece": ece,
        "brier": brier,
        "review_s_median": round(statistics.median(seconds), 3) if seconds else None,
        "review_s_p95": round(_percentile(seconds, 0.95), 3),
        "pairs": len(pairs),
    }
