"""`tabletop demo`: a complete simulated game of each game (or one), resumable, headless."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.controller import GAMES


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="play a complete simulated game of each game (camera rendered, dice read, bots)",
        description="Plays each game (or the one named) with the simulated camera, the real dice "
        "reader and simple bots; writes a screenshot per turn and DIR/result.json. Killed at any "
        "moment, the same command resumes from the state directory with the same final scores.",
    )
    parser.add_argument("--game", choices=GAMES, help="play only this game")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--state-dir", type=Path, help="where the games are logged (DIR/state)")
    parser.add_argument("--out", type=Path, default=Path("demo-out"), help="output folder")
    parser.add_argument(
        "--bot",
        choices=("simple", "advisor-fast", "advisor"),
        default="simple",
        help="who plays the seats: the simple bots (default) or the advisor (150 ms, fast: 30 ms)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from companion.demo import available, run_demo

    wanted = [args.game] if args.game else list(GAMES)
    games = available(wanted)
    missing = [g for g in wanted if g not in games]
    if missing:
        print(f"not playable yet (engine missing): {', '.join(missing)}")
    if not games:
        return 1
    state_dir = args.state_dir or args.out / "state"
    result = run_demo(games, args.seed, state_dir, args.out, bot_level=args.bot)
    print(f"result: {args.out / 'result.json'} ({result['seconds']} s)")
    return 0 if not missing else 1
