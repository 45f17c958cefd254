"""`tabletop examples show|reset|export FILE|import FILE`: the table's examples, from which the
dice reader adapts to this table's dice (companion/examples.py, docs/vision.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "examples", help="the dice examples the reader adapts to: show, reset, export, import"
    )
    parser.add_argument("action", choices=("show", "reset", "export", "import"))
    parser.add_argument("file", nargs="?", type=Path, help="the file to export to / import from")
    parser.add_argument("--kind", choices=("d6", "poker"), help="reset: only this kind of dice")
    parser.add_argument("--state-dir", type=Path, help="where the table keeps its state")
    parser.add_argument("--config", type=Path, help="TOML config file (for its state_dir)")
    parser.add_argument("--json", action="store_true", help="show: print JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from companion.config import load_config
    from companion.examples import ExamplesError, ExampleStore

    if args.action in ("export", "import") and args.file is None:
        print(f"tabletop examples {args.action}: give the FILE", file=sys.stderr)
        return 2
    state_dir = args.state_dir or load_config(args.config).state_dir  # ConfigError: run_guarded
    store = ExampleStore(state_dir)
    try:
        status = act(store, args)
    except ExamplesError as error:
        print(f"tabletop examples {args.action}: {error}", file=sys.stderr)
        status = 1
    except OSError as error:
        print(f"tabletop examples {args.action}: {state_dir}: {error.strerror or error}",
              file=sys.stderr)  # fmt: skip
        status = 3
    for problem in store.problems:
        print(f"tabletop examples: {problem}", file=sys.stderr)
    return status


def act(store, args: argparse.Namespace) -> int:
    if args.action == "reset":
        print(f"{store.reset(args.kind)} examples forgotten")
    elif args.action == "export":
        print(f"{store.export(args.file)} examples written to {args.file}")
    elif args.action == "import":
        print(f"{store.import_file(args.file)} examples added from {args.file}")
    else:
        show(store, args.json)
    return 0


def show(store, as_json: bool) -> None:
    counts = store.counts()
    if as_json:
        print(json.dumps({kind: {face: {"examples": n, "corrected": c}
                                 for face, (n, c) in faces.items()}
                          for kind, faces in counts.items()}, indent=1))  # fmt: skip
        return
    print(f"examples kept in {store.root} ({store.size_bytes() / 1e6:.1f} MB)")
    for kind, faces in counts.items():
        listed = "  ".join(f"{face}: {n}" + (f" ({c} corrected)" if c else "")
                           for face, (n, c) in faces.items())  # fmt: skip
        print(f"  {kind:5} {listed}")
