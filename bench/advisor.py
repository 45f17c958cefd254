"""`tabletop bench advisor`: the advisor's win rate against the simple bots, against the
sparring partners written from the rules (`--opponent heuristic`, advisor/sparring: one line
per partner, the held-out one marked), or against itself at a smaller budget, with a 95 %
Wilson interval, and its advice time (median, p95).

The advisor takes one seat, in turn every seat; the others are played by the opponent.
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
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engines.core import State

TARGET_P95_MS = 200.0
TWO_PLAYER_TARGET = 0.6
PLAYERS = {"struggle": 2, "traverse": 2, "strategix": 2, "sequence": 2, "roudalon": 4}
OPPONENTS = ("simple", "heuristic", "self")
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
    advice_cpu_ms_median: float = 0.0
    sparring: str | None = None  # --opponent heuristic: which partner
    held_out: bool = False  # that partner was never tuned against
    unended: int = 0  # games left out: no end within MAX_ACTIONS (a partner's endless turn)

    @property
    def verdict(self) -> str:
        strong = (
            self.win_rate >= TWO_PLAYER_TARGET and self.win_rate_ci95[0] > self.fair_share
            if self.players == 2
            else self.win_rate_ci95[0] > self.fair_share
        )
        quick = self.advice_ms_p95 <= TARGET_P95_MS and self.advice_cpu_ms_p95 <= TARGET_P95_MS
        problems = [] if strong else ["win rate under the target"]
        problems += [] if quick else [f"p95 (wall or CPU) over {TARGET_P95_MS:.0f} ms"]
        return "ok" if not problems else "; ".join(problems)


def games_count(value: str) -> int:
    """--games is a count, as in every bench (names go in --only)."""
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a count of games (at least 1); name the games with --only"
        )
    return int(value)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "advisor", help="the advisor's win rate against the simple bots, and its advice time"
    )
    parser.add_argument("--only", help="comma-separated games (default: every engine)")
    count = "games played per game (default: 40; traverse 200, roudalon 20000)"
    parser.add_argument("--games", dest="rounds", type=games_count, help=count)
    parser.add_argument("--rounds", type=games_count, help=argparse.SUPPRESS)  # the former name
    parser.add_argument("--budget", type=float, default=150.0, help="advice budget in ms")
    parser.add_argument(
        "--opponent",
        default="simple",
        help="simple (the demo's bots), heuristic (each sparring partner of advisor/sparring) "
        "or self (the advisor at a quarter of the budget)",
    )
    parser.add_argument(
        "--sparring", help="with --opponent heuristic: only these partners (comma-separated)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object per game")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import engines

    if args.opponent not in OPPONENTS:
        print(f"--opponent: expected {', '.join(OPPONENTS)}, got {args.opponent!r}")
        return 2
    names = args.only.split(",") if args.only else engines.available_games()
    failed = False
    for name in (n.strip() for n in names):
        if name not in PLAYERS:
            print(f"{name}: no such game (known: {', '.join(PLAYERS)})")
            failed = True
            continue
        rounds = args.rounds or GAMES[name]
        for sparring in _partners(name, args):
            figures = bench_game(name, rounds, args.budget, args.opponent, args.seed, sparring)
            if args.json:
                print(json.dumps(asdict(figures)), flush=True)
            else:
                print(_line(figures), flush=True)
    return 1 if failed else 0


def _partners(name: str, args: argparse.Namespace) -> list[str | None]:
    if args.opponent != "heuristic":
        return [None]
    from advisor.sparring import PLAYERS

    known = list(PLAYERS[name])
    wanted = [n.strip() for n in args.sparring.split(",")] if args.sparring else known
    return [n for n in wanted if n in known]


def _line(f: AdvisorFigures) -> str:
    low, high = f.win_rate_ci95
    opponent = f.opponent if f.sparring is None else f"{f.sparring}{'*' if f.held_out else ''}"
    return (
        f"{f.game:10s} {f.players} players vs {opponent:10s} {f.games:4d} games: "
        f"win rate {100 * f.win_rate:5.1f} % (95 % CI {100 * low:.1f}-{100 * high:.1f}, fair "
        f"share {100 * f.fair_share:.0f} %)  advice median {f.advice_ms_median:.1f} ms  "
        f"p95 {f.advice_ms_p95:.1f} ms (CPU {f.advice_cpu_ms_p95:.1f} ms)  [{f.verdict}]"
    )


def opponent_player(opponent: str, sparring: str | None, name: str, budget: float,
                    game_seed: int) -> Callable[[State], str]:  # fmt: skip
    """How the seats the advisor does not hold choose, as a function of the state."""
    import advisor
    from companion.bot_choice import simple_choice

    if opponent == "self":
        return lambda state: advisor.best_action(state, budget / 4)
    if opponent == "heuristic":
        from advisor.sparring import PLAYERS

        policy = PLAYERS[name][sparring]
        rng = random.Random(f"sparring:{game_seed}")
        return lambda state: policy(state, rng).notation
    return lambda state: simple_choice(state, game_seed)


def bench_game(name: str, rounds: int, budget: float, opponent: str, seed: int,
               sparring: str | None = None) -> AdvisorFigures:  # fmt: skip
    import advisor
    import engines
    from advisor.core import wilson_interval
    from advisor.sparring import is_held_out
    from bench.engines import _percentile
    from bench.review_games import MAX_ACTIONS
    from engines.core import CHANCE

    players = PLAYERS[name]
    rng = random.Random(seed)
    wins, timings, cpu, unended = 0.0, [], [], 0
    for round_number in range(rounds):
        seat = round_number % players
        game_seed = rng.randrange(10**9)
        game = engines.make_game(name, [f"P{i}" for i in range(players)], seed=game_seed)
        others = opponent_player(opponent, sparring, name, budget, game_seed)
        state = game.new_state()
        while not state.is_over and len(state.history) < MAX_ACTIONS:
            if state.actor == CHANCE:
                state.apply(state.sample_chance(), validate=False)
            elif state.actor == seat:
                begin, begin_cpu = time.perf_counter(), time.process_time()
                notation = advisor.best_action(state, budget)
                timings.append((time.perf_counter() - begin) * 1000)
                cpu.append((time.process_time() - begin_cpu) * 1000)
                state.apply(notation)
            else:
                state.apply(others(state))
        if not state.is_over:  # a Sequence partner exchanging dead cards without end (RULINGS 4)
            unended += 1
            continue
        winners = state.winners()
        if seat in winners:
            wins += 1 / len(winners)
    ended = max(1, rounds - unended)
    low, high = wilson_interval(wins, ended)
    return AdvisorFigures(
        game=name,
        players=players,
        opponent=opponent,
        budget_ms=budget,
        games=rounds - unended,
        win_rate=round(wins / ended, 4),
        win_rate_ci95=[round(low, 4), round(high, 4)],
        fair_share=round(1 / players, 4),
        advice_ms_median=round(statistics.median(timings), 2) if timings else 0.0,
        advice_ms_p95=round(_percentile(timings, 0.95), 2),
        advice_cpu_ms_p95=round(_percentile(cpu, 0.95), 2),
        advice_cpu_ms_median=round(statistics.median(cpu), 2) if cpu else 0.0,
        sparring=sparring,
        held_out=sparring is not None and is_held_out(name, sparring),
        unended=unended,
    )
