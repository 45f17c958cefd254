"""The `tabletop` command line: one sub-command per module in companion.commands."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Each name is a module in companion.commands exposing `add_parser(subparsers)` and `run(args)`.
# Heavy imports (cv2, pygame) stay inside each module's `run`, so `tabletop --help` stays fast.
COMMANDS = (
    "demo", "run", "referee", "read", "learn", "bench", "doctor", "scores",
    "club", "sync", "serve_web",
)  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tabletop",
        description="Raspberry Pi companion for live table games: reads real dice, "
        "referees Struggle, Traverse, Stratégix, Sequence and Le Roudalon, keeps score.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"companion.commands.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"companion.commands.{name}":
                raise
            continue
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
