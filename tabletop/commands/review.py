"""`tabletop review GAME_ID`: a finished game's decisions graded against the advisor (review/)."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "review", help="a finished game's decisions graded against the advisor, in text"
    )
    parser.add_argument("game_id", type=int, metavar="GAME_ID", help="the game's number")
    parser.add_argument("--state-dir", type=Path, help="where games and scores are kept")
    parser.add_argument("--config", type=Path, help="TOML config file (for its state_dir)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from companion.config import load_config
    from companion.persistence.recovery import open_store
    from companion.persistence.store_errors import StoreError
    from companion.review_screen import table_cards_note
    from review import review_game

    # A bad config file is said in one line with status 2 by the CLI's boundary (run_guarded).
    state_dir = args.state_dir or load_config(args.config).state_dir
    with open_store(state_dir) as store:
        try:
            record = store.game(args.game_id)
        except StoreError as error:
            print(f"tabletop review: {error}", file=sys.stderr)
            return 1
        if record.status != "over":  # the kiosk reviews every finished game, as here
            print(f"tabletop review: game {record.id} is {record.status}: only finished games "
                  "are reviewed", file=sys.stderr)  # fmt: skip
            return 1
        notations = [logged.notation for logged in store.actions(record.id)]
    review = review_game(record.game, record.players, notations, record.options, record.seed,
                         record.mode)  # fmt: skip
    note = table_cards_note(record.game, "en") if record.mode == "table" else ""
    print("\n".join(filter(None, [note, render(review)])))
    return 0


def render(review) -> str:
    lines = [f"{review.game}: {len(review.decisions)} decisions"]
    for seat, name in enumerate(review.players):
        accuracy = review.accuracy(seat)
        shown = "too few graded moves" if accuracy is None else f"{100 * accuracy:.0f} %"
        counts = ", ".join(f"{n} {grade}" for grade, n in review.counts(seat).items())
        lines.append(f"{name}: accuracy {shown} ({counts})")
    for decision in review.decisions:
        if decision.grade in ("inaccuracy", "mistake", "blunder"):
            lines.append(
                f"  #{decision.index} {review.players[decision.player]}: {decision.played} "
                f"({decision.grade}, {100 * decision.given_away:.0f} % given away; "
                f"best {decision.best})"
            )
    return "\n".join(lines)
