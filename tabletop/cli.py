"""The `tabletop` command line: one sub-command per module in tabletop.commands."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence

# Each name is a module in tabletop.commands exposing `add_parser(subparsers)` and `run(args)`.
# Heavy imports (cv2, pygame) stay inside each module's `run`, so `tabletop --help` stays fast.
COMMANDS = (
    "demo", "run", "referee", "read", "learn", "bench", "doctor", "scores",
    "club", "sync", "serve_web", "examples", "review",
)  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tabletop",
        description="Raspberry Pi companion for live table games: reads real dice, "
        "referees Struggle, Traverse, Stratégix, Sequence and Le Roudalon, keeps score.",
        epilog="Exit status: 0 done, 1 something failed, 2 configuration or usage error, "
        "3 state directory unusable, 70 internal error (see docs/errors.md).",
    )
    parser.add_argument(
        "--debug", action="store_true", help="show the traceback of an unexpected error"
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"tabletop.commands.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"tabletop.commands.{name}":
                raise
            continue
        module.add_parser(subparsers)
    describe_every_command(parser)
    return parser


def describe_every_command(parser: argparse.ArgumentParser) -> None:
    """A command's own --help opens with the line the command list shows for it, unless it says
    more already; the same for the commands under it (bench targets, club verbs)."""
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        helps = {choice.dest: choice.help for choice in action._choices_actions}
        for name, command in action.choices.items():
            if command.description is None and helps.get(name):
                command.description = helps[name][0].upper() + helps[name][1:] + "."
            describe_every_command(command)


def main(argv: Sequence[str] | None = None) -> int:
    from companion.errors import run_guarded

    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv or os.environ.get("TABLETOP_DEBUG", "") not in ("", "0")
    argv = [word for word in argv if word != "--debug"]  # accepted after the command too
    if debug:
        logging.basicConfig(level=logging.DEBUG, format="%(levelname)s %(name)s: %(message)s")
    elif not logging.getLogger().handlers:
        # Commands print what the user must know in their own lines; `run` logs for the journal.
        logging.getLogger().addHandler(logging.NullHandler())
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    return run_guarded(f"tabletop {args.command}", lambda: args.handler(args), debug)


if __name__ == "__main__":
    sys.exit(main())
