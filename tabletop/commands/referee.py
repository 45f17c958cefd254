"""`tabletop referee GAME`: play a game over stdin/stdout, one JSON reply per line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engines.registry import GAME_CLASSES


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "referee",
        help="referee a game over a line protocol (stdin actions, JSON replies)",
        description="Each stdin line is an action in the game's notation, `undo`, `show` or "
        "`save`; each gets one JSON reply with ok, error, actor, legal, over and scores. "
        "See docs/referee.md.",
    )
    parser.add_argument("game", choices=sorted(GAME_CLASSES), metavar="GAME",
                        help="one of: " + ", ".join(sorted(GAME_CLASSES)))  # fmt: skip
    parser.add_argument("--players", help="comma-separated names (default: P1,P2,… minimum)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the game's chance")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule option; KEY=@FILE reads the value from a file")  # fmt: skip
    parser.add_argument("--mode", choices=("full", "table"), default="full",
                        help="full: the engine deals; table: physical cards")  # fmt: skip
    parser.add_argument("--auto-chance", action="store_true",
                        help="the engine samples dice, deals and draws itself")  # fmt: skip
    parser.add_argument("--state", type=Path, help="start from a saved game (JSON)")
    parser.add_argument("--as", dest="viewer", metavar="PLAYER",
                        help="`show` reveals this player's hidden information")  # fmt: skip
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import engines
    from companion.referee import Referee, find_player, parse_options

    try:
        state = _initial_state(args, engines, parse_options)
        referee = Referee(state, auto_chance=args.auto_chance)
    except (ValueError, OSError) as error:
        print(f"tabletop referee: {error}", file=sys.stderr)
        return 2
    except RecursionError:
        print("tabletop referee: the saved game is nested too deeply", file=sys.stderr)
        return 2
    except Exception as error:  # options of the wrong type and the like: the set-up is unusable
        print(f"tabletop referee: cannot set up the game: {describe(error)}", file=sys.stderr)
        return 2
    # Bytes in, UTF-8 out: the protocol's encoding, whatever the locale says; a line that is
    # not UTF-8 is refused alone.
    sys.stdout.reconfigure(encoding="utf-8", errors="backslashreplace")
    viewer = None if args.viewer is None else find_player(state, args.viewer)
    if args.viewer is not None and viewer is None:
        print(f"tabletop referee: --as {args.viewer}: no such player", file=sys.stderr)
        return 2
    referee.viewer = viewer
    for reply in referee.run(sys.stdin.buffer):
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()
    return 0


def describe(error: Exception) -> str:
    detail = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {detail}" if detail else type(error).__name__


def _initial_state(args, engines, parse_options):
    if args.state:
        try:
            text = args.state.read_text(encoding="utf-8")
        except OSError as error:
            raise ValueError(f"cannot read {args.state}: {error.strerror}") from None
        state = engines.loads(text)
        if state.game.name != args.game:
            raise ValueError(f"{args.state} holds a {state.game.name} game, not {args.game}")
        return state
    cls = engines.game_class(args.game)
    if args.players:
        players = [name.strip() for name in args.players.split(",")]
    else:
        players = [f"P{i + 1}" for i in range(cls.player_counts()[0])]
    options = parse_options(args.option)
    return cls(players, options, seed=args.seed, mode=args.mode).new_state()
