"""`tabletop bench engines`: random full games per second and legal-action time per game."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from dataclasses import asdict, dataclass

TARGET_P99_MS = 1.0


@dataclass
class EngineFigures:
    game: str
    games_played: int
    games_per_second: float
    actions_per_game: float
    positions_timed: int
    legal_p50_ms: float
    legal_p99_ms: float
    legal_max_ms: float

    @property
    def meets_target(self) -> bool:
        return self.legal_p99_ms <= TARGET_P99_MS


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "engines", help="random full games per second, legal-action p50/p99 per game"
    )
    parser.add_argument("--only", help="comma-separated games (default: every engine)")
    # The former name: every other bench takes names in --only and a count in --games.
    parser.add_argument("--games", dest="only", help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per game (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object per game")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import engines

    names = args.only.split(",") if args.only else engines.available_games()
    failed = False
    for name in names:
        try:
            figures = bench_game(name.strip(), args.seconds, args.seed)
        except ValueError as error:
            print(f"{name}: {error}")
            failed = True
            continue
        print(json.dumps(asdict(figures)) if args.json else _line(figures), flush=True)
    return 1 if failed else 0


def _line(f: EngineFigures) -> str:
    verdict = "ok" if f.meets_target else f"over the {TARGET_P99_MS} ms target"
    return (
        f"{f.game:10s} {f.games_per_second:8.1f} games/s ({f.games_played} games, "
        f"{f.actions_per_game:.0f} actions each)  legal actions over {f.positions_timed} "
        f"positions: p50 {f.legal_p50_ms:.3f} ms  p99 {f.legal_p99_ms:.3f} ms  "
        f"max {f.legal_max_ms:.3f} ms  [{verdict}]"
    )


def bench_game(name: str, seconds: float, seed: int) -> EngineFigures:
    import engines
    from engines.core import CHANCE

    cls = engines.game_class(name)
    rng = random.Random(seed)
    played, actions, positions = 0, 0, []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or played == 0:
        count = cls.player_counts()[played % len(cls.player_counts())]
        state = cls([f"P{i}" for i in range(count)], seed=rng.randrange(10**9)).new_state()
        while not state.is_over:
            if state.actor == CHANCE:
                state.apply(state.sample_chance(), validate=False)
            else:
                if rng.random() < 0.2:
                    positions.append(state.clone())
                state.apply(rng.choice(state.legal_actions()), validate=False)
            actions += 1
        played += 1
    elapsed = time.perf_counter() - start
    timings = [_time_legal(position) for position in positions[:5000]]
    return EngineFigures(
        game=name,
        games_played=played,
        games_per_second=played / elapsed,
        actions_per_game=actions / played,
        positions_timed=len(timings),
        legal_p50_ms=statistics.median(timings) if timings else 0.0,
        legal_p99_ms=_percentile(timings, 0.99),
        legal_max_ms=max(timings, default=0.0),
    )


def _time_legal(state, repeats: int = 3) -> float:
    """Best of a few runs: the machine's other load should not count against the engine."""
    best = float("inf")
    for _ in range(repeats):
        begin = time.perf_counter_ns()
        state._legal_actions()
        best = min(best, (time.perf_counter_ns() - begin) / 1e6)
    return best


def _percentile(values: list[float], fraction: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]
