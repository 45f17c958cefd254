"""`tabletop bench TARGET`: speed and accuracy benchmarks (engines, vision, display)."""

from __future__ import annotations

import argparse
import importlib

TARGETS = {
    "engines": "companion.bench.engines",
    "vision": "companion.bench.vision",
    "poker": "companion.bench.poker",
    "display": "companion.bench.display",
    "referee-fuzz": "companion.bench.referee_fuzz",
    "club": "club.bench",
    "table": "companion.bench.table",
    "advisor": "companion.bench.advisor",
}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench", help="run a benchmark: " + ", ".join(TARGETS))
    bench_sub = parser.add_subparsers(dest="target", metavar="TARGET", required=True)
    for module_name in TARGETS.values():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            continue
        module.add_parser(bench_sub)
