"""`tabletop bench poker`'s held-out figures: poker sets of a generator nobody tuned on.

`vision.synth.heldout_poker` was written from a description of real poker dice only, by someone who
had not read the reader or the project's own poker renderer; no threshold of the reader was
chosen on its images. For each of its design families and each way of teaching, a few designs
are taught from 3 photos per face as a player takes them (tray: the table camera's 640x480
photo of one die; close-up: one die filling 30-90% of a photo 60 to 4000 px on its longer side,
on a board, a table, a cloth or a hand), then trays of 1-7 dice of the design are read by the
whole reader. Reported apart from the home generator's figures: dice right and wrong per family
and way, and for them all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from bench.poker_tally import (
    PHOTOS_PER_FACE,
    WAYS,
    Tally,
    Truth,
    merge,
    taught_reader,
)

CLOSE_UP_PX = (60, 4000)  # a close-up's longer side, drawn log-uniformly
CLOSE_UP_FILL = (0.3, 0.9)  # its die's top face, a share of the photo's shorter side
# Seeds of held-out designs start here, apart from the home generator's (0-100s in benches)
# and its training designs: nothing was ever tuned on them.
FIRST_SEED = 5_500


def heldout_figures(
    ways: list[str], designs: int, trays: int, seed: int, quiet: bool = True
) -> dict[str, Any]:
    """Teach `designs` held-out designs of every family each way, read `trays` trays of each:
    {"right", "wrong", "dice", "ways": {way: {"right", "wrong"}},
    "by_family": {family: {"right", "wrong", way: figures}}}."""
    from vision.synth.heldout_poker import FAMILIES

    overall = Tally()
    per_way = {way: Tally() for way in ways}
    by_family: dict[str, Any] = {}
    for family in FAMILIES:
        family_tally = Tally()
        by_family[family] = {}
        for way in ways:
            tally = Tally()
            for number in range(designs):
                bench_heldout_design(family, way, FIRST_SEED + seed + number, trays, tally)
            by_family[family][way] = tally.figures()
            merge(family_tally, tally)
            merge(per_way[way], tally)
            if not quiet:
                _say(f"held-out {family} taught {way}", tally)
        by_family[family].update(_right_wrong(family_tally))
        merge(overall, family_tally)
    return {
        **_right_wrong(overall),
        "dice": overall.dice,
        "ways": {way: _right_wrong(tally) for way, tally in per_way.items()},
        "by_family": by_family,
    }


def _right_wrong(tally: Tally) -> dict[str, float]:
    figures = tally.figures()
    return {"right": figures["dice_right"], "wrong": figures["wrong"]}


def _say(title: str, tally: Tally) -> None:
    figures = tally.figures()
    print(
        f"{title}: dice right {figures['dice_right']:.1%} of {figures['dice']}, "
        f"wrong {figures['wrong']:.1%}, self-check {figures['self_check']:.0%}"
    )


def bench_heldout_design(family: str, way: str, seed: int, trays: int, tally: Tally) -> None:
    """Teach held-out design `seed` of `family` from photos taken `way`, read `trays` trays."""
    from vision.synth import heldout_poker

    design = heldout_poker.design(family, seed)
    reader = taught_reader(
        lambda folder: write_heldout_photos(folder, design, way, seed),
        tally,
        f"held-out {family} {way} design {seed}",
    )
    for number in range(trays):
        read_heldout_tray(reader, design, np.random.default_rng([seed, 3, number]), tally)


def write_heldout_photos(
    folder: Path,
    design: Any,
    way: str,
    seed: int,
    sizes: tuple[int, int] = CLOSE_UP_PX,
    fills: tuple[float, float] = CLOSE_UP_FILL,
) -> None:
    """folder/<face>/ with PHOTOS_PER_FACE photos of one die of the design showing that face:
    taken in the tray, or close up (the longer side drawn log-uniformly in `sizes`, the top
    face `fills` of the shorter side)."""
    import cv2

    from vision.synth.heldout_poker import FACES, close_up, tray

    if way not in WAYS:
        raise ValueError(f"way is one of {WAYS}, not {way!r}")
    rng = np.random.default_rng([seed, 2, WAYS.index(way)])
    for face in FACES:
        (folder / face).mkdir()
        for index in range(PHOTOS_PER_FACE):
            if way == "tray":
                photo, _ = tray(design, [face], rng)
            else:
                size = round(float(np.exp(rng.uniform(*np.log(sizes)))))
                photo = close_up(design, face, rng, size, float(rng.uniform(*fills)))
            cv2.imwrite(str(folder / face / f"{index}.png"), photo)


def read_heldout_tray(reader: Any, design: Any, rng: np.random.Generator, tally: Tally) -> None:
    """One held-out tray of 1-7 dice of the design, read and counted as `read_tray` counts
    (its dice drawn 40-90 px across and blurred under 1 px: within the ruling)."""
    import time

    from vision.synth.heldout_poker import FACES, tray

    faces = [FACES[i] for i in rng.integers(0, 6, int(rng.integers(1, 8)))]
    frame, drawn = tray(design, faces, rng)
    truths = [
        Truth(value, (x + width / 2, y + height / 2), float(max(width, height)), 0.0)
        for value, (x, y, width, height) in drawn
    ]
    if reader is None:
        tally.count_unread(truths)
        return
    started = time.process_time()
    reading = reader.read(frame)
    tally.count(reading, truths, (time.process_time() - started) * 1000)
