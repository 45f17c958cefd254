"""`tabletop bench table`: how many touches a move takes at the kiosk, played as a person would.

N games of each game go through `tabletop run`'s own loop (headless, the simulated camera
throwing, the real reader reading); a simulated person touches the piece, then the move, and
pages only when the move is still not shown (companion/person.py). Per game:

    taps_per_move_median / _max   touches for one player move (dice throws and checks apart)
    pages_max                     most pages turned to reach one move
Targets: median <= 2 and max <= 6 in every game.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
from pathlib import Path
from typing import Any

GAMES = {"struggle": 3, "traverse": 2, "strategix": 3, "sequence": 2, "roudalon": 4}
TARGETS = {"taps_per_move_median": 2, "taps_per_move_max": 6}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("table", help="touches per move at the kiosk, per game")
    parser.add_argument("--games", type=int, default=2, help="games of each game (default 2)")
    parser.add_argument("--only", help="comma-separated games (default: all five)")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    names = args.only.split(",") if args.only else list(GAMES)
    unknown = sorted(set(names) - set(GAMES))
    if unknown or args.games < 1:
        problem = f"unknown game {unknown[0]!r}" if unknown else "--games must be 1 or more"
        print(f"tabletop bench table: {problem}")
        return 2
    results = {name: figures(name, args.games) for name in names}
    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    for name, found in results.items():
        meets = all(found[key] <= limit for key, limit in TARGETS.items())
        print(f"{name:10} " + "  ".join(f"{k} {v}" for k, v in found.items())
              + ("" if meets else "  (over target)"))  # fmt: skip
    return 0


def figures(game: str, games: int) -> dict[str, Any]:
    taps: list[int] = []
    pages = 0
    for seed in range(games):
        tally = play_one(game, seed)
        taps += tally.move_taps
        pages = max(pages, tally.pages_max)
    return {
        "games": games,
        "taps_per_move_median": statistics.median(taps),
        "taps_per_move_max": max(taps),
        "pages_max": pages,
    }


def play_one(game: str, seed: int) -> Any:
    """One game from the home screen to its end, through the app loop."""
    from companion.app import App
    from companion.config import Config
    from companion.person import Person
    from hardware.simcam import SimulatedCamera

    with tempfile.TemporaryDirectory() as scratch:
        app = App(Config(state_dir=Path(scratch)), kiosk=False)
        app.frame_seconds = 0
        camera = SimulatedCamera(seed=seed, stepped=True, moving_frames=1, settled_frames=3,
                                 size=(480, 360))  # fmt: skip
        app.open(camera=camera)
        try:
            app.step()
            person = Person(app, seed=seed)
            person.start(game, GAMES[game])
            return person.play_out()
        finally:
            app.close()
