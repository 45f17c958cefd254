"""`tabletop sync [--once]`: push this table's games to its club ([club] in the config)."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("sync", help="push this table's games to its club")
    parser.add_argument("--config", type=Path, help="TOML config file (state_dir, [club])")
    parser.add_argument("--state-dir", type=Path, help="where games and scores are kept")
    parser.add_argument("--once", action="store_true", help="push what waits, then stop")
    parser.add_argument(
        "--retry-refused", action="store_true",
        help="send the games the club refused once more (after the club or the table was fixed)",
    )  # fmt: skip
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import threading

    from companion.config import load_config
    from companion.persistence import outbox

    config = load_config(args.config)  # a bad file is said by run_guarded, status 2
    if not config.club.url:
        print("tabletop sync: no [club] url and token in the config (docs/club.md)")
        return 2
    box = outbox.Outbox(args.state_dir or config.state_dir)
    pusher = outbox.Pusher(box, config.club.url, config.club.token)
    try:
        if args.retry_refused:
            print(f"tabletop sync: {box.retry_refused()} refused game(s) queued again")
        if not args.once:
            outbox.run(box, pusher, threading.Event())
            return 0
        box.collect()
        report = pusher.push_due()
        for refusal in report.refused:
            print(f"tabletop sync: club refused {refusal}")
        waiting = box.pending()
        print(f"tabletop sync: {report.acknowledged} acknowledged, {waiting} waiting"
              + (f" ({report.error})" if report.error else ""))  # fmt: skip
        return 1 if report.error else 0
    finally:
        box.close()
