"""`tabletop bench advisor`: the advisor's win rate against the simple bots (or against itself
at a smaller budget), with a 95 % Wilson interval, and its advice time (median, p95).

The advisor takes one seat, in turn every seat; the others are played by the opponent level.
A shared first place counts as a fraction of a win (1/k among k tied winners), so the fair
share of a seat is exactly 1/players. Advice time is wall-clock (what a player waits), with the
process's CPU time beside it: on a loaded machine the two part ways.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from dataclasses import asdict, dataclass

TARGET_P95_MS = 200.0
TWO_PLAYER_TARGET = 0.6
PLAYERS = {"struggle": 2, "traverse": 2, "strategix": 2, "sequence": 2, "roudalon": 4}
GAMES = {"struggle": 40, "traverse": 200, "strategix": 40, "sequence": 40, "roudalon": 20000}


@dataclass
class AdvisorFigures:
    game: str
    players: int
    opponent: str
    budget_ms: float
    games: int
    win_rate: float
    win_rate_ci95: list[float]
    fair_share: float
    advice_ms_median: float
    advice_ms_p95: float
    advice_cpu_ms_p95: float  # the process's CPU time: what the advice costs on a free machine

    @property
    def verdict(self) -> str:
        strong = (
            self.win_rate >= TWO_PLAYER_TARGET and self.win_rate_ci95[0] > self.fair_share
            if self.players == 2
            else self.win_rate_ci95[0] > self.fair_share
        )
        quick = self.advice_ms_p95 <= TARGET_P95_MS
        problems = [] if strong else ["win rate under the target"]
        problems += [] if quick else [f"p95 over {TARGET_P95_MS:.0f} ms"]
        return "ok" if not problems else "; ".join(problems)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "advisor", help="the advisor's win rate against the simple bots, and its advice time"
    )
    parser.add_argument("--games", help="comma-separated games (default: every engine)")
    parser.add_argument(
        "--rounds",
        type=int,
        help="games played per game (default: 40; traverse 200, roudalon 20000)",
    )
    parser.add_argument("--budget", type=float, default=150.0, help="advice budget in ms")
    parser.add_argument(
        "--opponent",
        default="simple",
        help="simple (the demo's bots) or self (the advisor at a quarter of the budget)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object per game")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import engines

    if args.opponent not in ("simple", "self"):
        print(f"--opponent: expected simple or self, got {args.opponent!r}")
        return 2
    names = args.games.split(",") if args.games else engines.available_games()
    failed = False
    for name in (n.strip() for n in names):
        if name not in PLAYERS:
            print(f"{name}: no such game (known: {', '.join(PLAYERS)})")
            failed = True
            continue
        rounds = args.rounds or GAMES[name]
        figures = bench_game(name, rounds, args.budget, args.opponent, args.seed)
        if args.json:
            print(json.dumps(asdict(figures)), flush=True)
        else:
            print(_line(figures), flush=True)
    return 1 if failed else 0


def _line(f: AdvisorFigures) -> str:
    low, high = f.win_rate_ci95
    return (
        f"{f.game:10s} {f.players} players vs {f.opponent:6s} {f.games:4d} games: "
        f"win rate {100 * f.win_rate:5.1f} % (95 % CI {100 * low:.1f}-{100 * high:.1f}, fair "
        f"share {100 * f.fair_share:.0f} %)  advice median {f.advice_ms_median:.1f} ms  "
        f"p95 {f.advice_ms_p95:.1f} ms (CPU {f.advice_cpu_ms_p95:.1f} ms)  [{f.verdict}]"
    )


def bench_game(name: str, rounds: int, budget: float, opponent: str, seed: int) -> AdvisorFigures:
    import advisor
    import engines
    from advisor.core import wilson_interval
    from companion.bench.engines import _percentile
    from companion.bot_choice import simple_choice
    from engines.core import CHANCE

    players = PLAYERS[name]
    rng = random.Random(seed)
    wins, timings, cpu = 0.0, [], []
    for round_number in range(rounds):
        seat = round_number % players
        game_seed = rng.randrange(10**9)
        game = engines.make_game(name, [f"P{i}" for i in range(players)], seed=game_seed)
        state = game.new_state()
        while not state.is_over:
            if state.actor == CHANCE:
                state.apply(state.sample_chance(), validate=False)
            elif state.actor == seat:
                begin, begin_cpu = time.perf_counter(), time.process_time()
                notation = advisor.best_action(state, budget)
                timings.append((time.perf_counter() - begin) * 1000)
                cpu.append((time.process_time() - begin_cpu) * 1000)
                state.apply(notation)
            elif opponent == "self":
                state.apply(advisor.best_action(state, budget / 4))
            else:
                state.apply(simple_choice(state, game_seed))
        winners = state.winners()
        if seat in winners:
            wins += 1 / len(winners)
    low, high = wilson_interval(wins, rounds)
    return AdvisorFigures(
        game=name,
        players=players,
        opponent=opponent,
        budget_ms=budget,
        games=rounds,
        win_rate=round(wins / rounds, 4),
        win_rate_ci95=[round(low, 4), round(high, 4)],
        fair_share=round(1 / players, 4),
        advice_ms_median=round(statistics.median(timings), 2) if timings else 0.0,
        advice_ms_p95=round(_percentile(timings, 0.95), 2),
        advice_cpu_ms_p95=round(_percentile(cpu, 0.95), 2),
    )
