"""`tabletop serve-web`: the table's read-only page for phones on the LAN, and, when the config
has a [club], the outbox pushing this table's games to the club. Apart from the kiosk's loop."""

from __future__ import annotations

import argparse
from pathlib import Path

DEFAULT_PORT = 8080


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve-web", help="the table's read-only page for phones (and its club outbox)"
    )
    parser.add_argument("--config", type=Path, help="TOML config file (state_dir, [club])")
    parser.add_argument("--state-dir", type=Path, help="where games and scores are kept")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (LAN: 0.0.0.0)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="TCP port")
    parser.add_argument("--name", default="Table", help="the table's name on its page")
    parser.add_argument("--no-club", action="store_true", help="do not push to the club")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import threading

    import uvicorn

    from companion.config import ConfigError, load_config
    from companion.persistence.store import Store, StoreError
    from companion.webpage import create_app

    try:
        config = load_config(args.config)
        state_dir = args.state_dir or config.state_dir
        Store(state_dir).close()  # creates it, or says why it cannot
    except (ConfigError, StoreError) as error:
        print(f"tabletop serve-web: {error}")
        return 2
    stop = threading.Event()
    if config.club.url and not args.no_club:
        threading.Thread(
            target=_push, args=(state_dir, config.club, stop), name="outbox", daemon=True
        ).start()
    print(f"tabletop serve-web: http://{args.host}:{args.port}/ (read-only)", flush=True)
    try:
        uvicorn.run(create_app(state_dir, args.name), host=args.host, port=args.port,
                    log_level="warning")  # fmt: skip
    finally:
        stop.set()
    return 0


def _push(state_dir: Path, club, stop) -> None:
    from companion.persistence import outbox

    box = outbox.Outbox(state_dir)
    try:
        outbox.run(box, outbox.Pusher(box, club.url, club.token), stop,
                   say=lambda line: print(f"tabletop serve-web: {line}", flush=True))  # fmt: skip
    finally:
        box.close()
