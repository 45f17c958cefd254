"""`tabletop bench TARGET`: the speed, accuracy and strength benchmarks, one per target."""

from __future__ import annotations

import argparse
import importlib

TARGETS = {
    "engines": "bench.engines",
    "vision": "bench.vision",
    "poker": "bench.poker",
    "display": "bench.display",
    "referee-fuzz": "bench.referee_fuzz",
    "club": "bench.club",
    "table": "bench.table",
    "advisor": "bench.advisor",
    "review": "bench.review",
}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench", help=f"run a benchmark: {', '.join(TARGETS)}")
    bench_sub = parser.add_subparsers(dest="target", metavar="TARGET", required=True)
    for module_name in TARGETS.values():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            continue
        module.add_parser(bench_sub)
