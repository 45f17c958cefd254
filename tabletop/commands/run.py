"""`tabletop run`: the kiosk (full screen under KMSDRM on a Pi, a window on a desktop)."""

from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import replace
from pathlib import Path

from companion.config import LANGUAGES, SIZES, Config
from companion.controller import GAMES


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run",
        help="the kiosk: camera, dice reader, touch display, GPIO buttons",
        description="Runs the companion. Starts even without camera, display or GPIO and says "
        "what is missing. Restarts into the game in progress after a power cut.",
    )
    parser.add_argument("--config", type=Path, help="TOML config file (see docs/companion.md)")
    parser.add_argument("--camera", help="camera spec: auto, picamera2[:N], webcam[:N], sim, ...")
    parser.add_argument("--game", choices=GAMES, help="open this game's set-up screen")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--windowed", action="store_true", help="a window, not full screen")
    shown.add_argument(
        "--fullscreen", action="store_true", help="full screen, on a desktop too (kiosk try-out)"
    )
    parser.add_argument("--state-dir", type=Path, help="where games and scores are kept")
    parser.add_argument(
        "--language", choices=LANGUAGES, help="the words on screen (config: language)"
    )
    parser.add_argument("--size", choices=[f"{w}x{h}" for w, h in SIZES],
                        help="the panel: 800x480 (7\") or 720x1280 (Touch Display 2)")  # fmt: skip
    parser.add_argument("--frames", type=int, help="stop after this many frames (tests)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    root = logging.getLogger()
    handler = logging.StreamHandler(sys.stderr)  # the journal under systemd
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if level == logging.DEBUG else logging.INFO)
    try:
        return run_kiosk(args)
    finally:  # a caller running commands in-process keeps its own logging
        root.removeHandler(handler)
        root.setLevel(level)


def run_kiosk(args: argparse.Namespace) -> int:
    from companion.app import App
    from companion.config import ConfigError, run_config

    try:
        config, warnings = run_config(args.config, args.state_dir)
    except ConfigError as error:
        print(f"tabletop run: {error}", file=sys.stderr)
        return 2
    for warning in warnings:
        logging.getLogger("tabletop").warning(warning)
    if args.camera:
        from hardware.factory import parse_spec

        try:
            parse_spec(args.camera)
        except ValueError as error:
            print(f"tabletop run: --camera: {error}", file=sys.stderr)
            return 2
    config = with_command_line(config, args)
    app = App(config, camera_spec=args.camera, game=args.game, kiosk=not args.windowed,
              fullscreen=args.fullscreen)  # fmt: skip
    return app.run(max_frames=args.frames)


def with_command_line(config: Config, args: argparse.Namespace) -> Config:
    """The config file's language and panel size, unless the command line names them."""
    if args.language:
        config = replace(config, language=args.language)
    if args.size:
        width, height = (int(n) for n in args.size.split("x"))
        config = replace(config, display=replace(config.display, size=(width, height)))
    return config
