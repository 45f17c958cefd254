"""`tabletop club …`: registers the club server's commands (the club package, imported lazily)."""

from __future__ import annotations

import argparse


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    from club.cli import add_parser as add_club_parser

    add_club_parser(subparsers)
