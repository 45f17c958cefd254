"""`tabletop scores [--csv FILE]`: the scorebook (running totals, per-player stats, CSV)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("scores", help="the scorebook: totals, player stats, CSV export")
    parser.add_argument("--state-dir", type=Path, help="where games and scores are kept")
    parser.add_argument("--config", type=Path, help="TOML config file (for its state_dir)")
    parser.add_argument("--csv", type=Path, metavar="FILE", help="export every result to FILE")
    parser.add_argument("--player", help="history and stats of one player")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from companion.config import load_config
    from companion.persistence.recovery import open_store
    from display.i18n import game_title

    state_dir = args.state_dir or load_config(args.config).state_dir  # ConfigError: run_guarded
    with open_store(state_dir) as store:  # read-only or full: the scores are still shown
        for note in store.notes:
            print(f"tabletop scores: note: {note}", file=sys.stderr)
        if store.damaged_games():
            listed = ", ".join(f"#{i} {game}" for i, game, _ in store.damaged_games())
            print(f"tabletop scores: damaged games set aside: {listed}", file=sys.stderr)
        if args.csv:
            rows = store.export_csv(args.csv)
            print(f"{rows} rows written to {args.csv}")
        if args.player:
            return show_player(store, args.player, args.json)
        totals = store.totals()
        if args.json:
            print(json.dumps([vars(row) for row in totals], ensure_ascii=False, indent=1))
            return 0
        if not totals:
            print(f"no finished game in {state_dir}")
        for row in totals:
            print(f"{game_title(row.game):12} {row.player:14} total {row.total:5}  "
                  f"games {row.games:3}  wins {row.wins:3}")  # fmt: skip
        show_games(store)
    return 0


def show_games(store) -> None:
    """Each finished game with its number (the GAME_ID `tabletop review` asks for)."""
    from display.i18n import game_title

    games: dict[int, tuple[str, list[str]]] = {}
    for player in store.scored_players():
        for row in store.history(player):
            games.setdefault(row.game_id, (row.game, [player, *row.opponents]))
    if games:
        print("finished games (GAME_ID for tabletop review):")
    for game_id, (game, players) in sorted(games.items()):
        print(f"  #{game_id} {game_title(game)}: {', '.join(players)}")


def show_player(store, player: str, as_json: bool) -> int:
    from display.i18n import game_title

    if player not in store.scored_players():
        print(f"no player named {player!r} (known: {', '.join(store.scored_players()) or 'none'})")
        return 1
    stats = store.stats(player)
    if as_json:
        history = [vars(row) for row in store.history(player)]
        print(json.dumps({"stats": stats, "history": history}, ensure_ascii=False, indent=1))
        return 0
    print(f"{player}: {stats['games']} games, {stats['wins']} wins")
    for game, entry in stats["by_game"].items():
        print(
            f"  {game_title(game)}: games {entry['games']}, wins {entry['wins']} "
            f"({entry['win_rate']:.0%}), best score {entry['best']}, average {entry['average']}"
        )
    for row in store.history(player):
        result = "won" if row.winner else "lost"
        print(
            f"  #{row.game_id} {game_title(row.game)}: {row.score} ({result}) "
            f"vs {', '.join(row.opponents)}"
        )
    return 0
