"""What reading trays of poker dice came to, for `tabletop bench poker` and its held-out part."""

from __future__ import annotations

import math
import statistics
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

WAYS = ("tray", "close-up")
PHOTOS_PER_FACE = 3
# The owner's ruling (#55): the table's camera shows a die's top face at least LEAST_SIDE px
# across, blurred by at most MOST_BLUR px; dice beyond that must be unreadable, never wrong.
LEAST_SIDE = 40.0
MOST_BLUR = 1.0


@dataclass
class Tally:
    """What reading trays of one design kind, taught one way, came to."""

    dice: int = 0
    right: int = 0
    unreadable: int = 0  # reported without a value, or not reported at all
    trays: int = 0
    trays_right: int = 0
    wall_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    self_checks: list[float] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)
    beyond_ruling: int = 0  # dice smaller or blurrier than the ruling's camera shows them
    beyond_ruling_wrong: int = 0
    beyond_ruling_right: int = 0

    def figures(self) -> dict[str, Any]:
        wrong = self.dice - self.right - self.unreadable
        return {
            "designs": len(self.self_checks),
            "self_check": _mean(self.self_checks),
            "dice": self.dice,
            "dice_right": _share(self.right, self.dice),
            "trays": self.trays,
            "trays_right": _share(self.trays_right, self.trays),
            "unreadable": _share(self.unreadable, self.dice),
            "wrong": _share(wrong, self.dice),
            "median_ms": quantile(self.wall_ms, 0.5),
            "p95_ms": quantile(self.wall_ms, 0.95),
            "cpu_median_ms": quantile(self.cpu_ms, 0.5),
            "cpu_p95_ms": quantile(self.cpu_ms, 0.95),
            "beyond_ruling": {
                "dice": self.beyond_ruling,
                "right": self.beyond_ruling_right,
                "wrong": self.beyond_ruling_wrong,
            },
        }

    def count(self, reading: Any, truths: list[Truth], cpu_ms: float) -> None:
        """Count one tray's reading (which took `cpu_ms` of CPU) against its dice: each die's
        value is that of the die read within half its side of its centre (None: unreadable or
        not found)."""
        self.trays += 1
        self.dice += len(truths)
        self.cpu_ms.append(cpu_ms)
        self.wall_ms.append(reading.ms)
        all_right = len(reading.dice) == len(truths)
        for truth in truths:
            near = [d for d in reading.dice if math.dist(d.center, truth.centre) < truth.side / 2]
            value = near[0].value if near else None
            self.right += value == truth.value
            self.unreadable += value is None
            wrong = value is not None and value != truth.value
            beyond = truth.side < LEAST_SIDE or truth.blur > MOST_BLUR
            self.beyond_ruling += beyond
            self.beyond_ruling_wrong += beyond and wrong
            self.beyond_ruling_right += beyond and value == truth.value
            all_right = all_right and value == truth.value
        self.trays_right += all_right

    def count_unread(self, truths: list[Truth]) -> None:
        """A tray no profile could read (none was learned): every die unreadable."""
        self.trays += 1
        self.dice += len(truths)
        self.unreadable += len(truths)


@dataclass(frozen=True)
class Truth:
    """One die of a tray as drawn: its face, its top face's centre and side (px), and the
    lens blur it was drawn with (px)."""

    value: Any
    centre: tuple[float, float]
    side: float
    blur: float


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else float("nan")


def _mean(values: list[float]) -> float:
    values = [v for v in values if v == v]
    return round(statistics.fmean(values), 3) if values else float("nan")


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def merge(into: Tally, other: Tally) -> None:
    for name in (
        "dice",
        "right",
        "unreadable",
        "trays",
        "trays_right",
        "beyond_ruling",
        "beyond_ruling_wrong",
        "beyond_ruling_right",
    ):
        setattr(into, name, getattr(into, name) + getattr(other, name))
    for name in ("wall_ms", "cpu_ms", "self_checks", "misses"):
        getattr(into, name).extend(getattr(other, name))


def taught_reader(write_photos: Callable[[Path], None], tally: Tally, what: str) -> Any:
    """A poker reader taught as `tabletop learn` teaches, from the photos `write_photos` puts in
    a folder's <face>/ folders; None where nothing could be learned (named in `tally.misses`,
    and every die of its trays counts as unreadable). The self-check goes to `tally`."""
    from vision.profiles.profile_learning import learn_from_dir
    from vision.reader import DiceReader

    with tempfile.TemporaryDirectory() as folder:
        write_photos(Path(folder))
        try:
            profile = learn_from_dir(folder, "poker")
        except ValueError as error:
            tally.misses.append(f"{what}: not learned: {error}")
            tally.self_checks.append(float("nan"))
            return None
    tally.self_checks.append(profile.self_check())
    return DiceReader("poker", profile=profile)
