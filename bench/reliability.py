"""Is a die's confidence worth what it says? Reliability tables (per confidence bin, the share
of dice read right) and the expected calibration error, for every vision bench's `Score`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

# Reliability bins of confidence: the top one is the sure line's.
BIN_EDGES = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0)
# (confidence, right) of one die read with a value.
Outcome = tuple[float, bool]


def reliability(outcomes: Sequence[Outcome]) -> list[dict[str, Any]]:
    """Per confidence bin: its dice, their mean confidence and the share read right."""
    rows = []
    for low, high in zip(BIN_EDGES, BIN_EDGES[1:], strict=False):
        top = high == BIN_EDGES[-1]
        inside = [(c, r) for c, r in outcomes if low <= c < high or (top and c == high)]
        if inside:
            rows.append(
                {
                    "from": low,
                    "to": high,
                    "dice": len(inside),
                    "confidence": round(float(np.mean([c for c, _ in inside])), 4),
                    "right": round(float(np.mean([r for _, r in inside])), 4),
                }
            )
    return rows


def expected_calibration_error(outcomes: Sequence[Outcome]) -> float:
    """The bins' gaps between mean confidence and share right, weighted by their dice."""
    if not outcomes:
        return 0.0
    rows = reliability(outcomes)
    gap = sum(row["dice"] * abs(row["confidence"] - row["right"]) for row in rows)
    return round(gap / len(outcomes), 4)


def print_reliability(outcomes: Sequence[Outcome]) -> None:
    for row in reliability(outcomes):
        print(
            f"    confidence {row['from']:.2f}-{row['to']:.2f}: {row['dice']:5d} dice, "
            f"mean {row['confidence']:.3f}, right {row['right']:.3f}"
        )
