"""Pip dice on the finder's faint peaks: small dice on busy boards, read surely by the face net.

The finder's heat on small dice lying on a game board runs low (0.15-0.3 for dice of 20-25 px on
the Catan photos), under the peaks the reader takes candidates from, while the face net reads
many of them surely. A board's number tokens and specks peak there too, and read as 1s and
2s: a few dots. So a faint peak makes a die only when read surely and plainly a die, and as a 1
or a 2 only beside a die of its size read with more pips.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.read.find import near, of_a_size, resized, split_by_heat
from vision.read.pips import (
    PLAINLY_A_DIE,
    SURE_OF_WEAK,
    PipReading,
    best_after_second_looks,
    first_looks,
    read_dice,
)
from vision.read.types import Die, DieCandidate

# Peaks from this heat up to the reader's own (`vision.reader.WEAK_PEAK_THRESHOLD`) are looked
# at. 0.1 found no more dice on the development photos, and valued more where no label is.
FAINT_PEAK = 0.15
# ... read at `vision.read.pips.SURE_OF_WEAK` value chance or more, and under PLAINLY_A_DIE chance
# of no die (as a die on the usual look's weak peaks). On the boards' development photos, at 0.95 /
# 0.9 / 0.85 / 0.7: 14 / 16 / 21 / 24 dice more read right than without faint peaks (of 1244),
# one more wrong from 0.85; but from 0.9 a 16 px speck of a development photo's board is read as
# a 4 at 0.90 (phantoms 7 -> 8), and a phantom costs more than a lost die (the game knows the
# dice thrown).
# A faint die read with fewer pips than this needs a die of its size read with this many or
# more. Without the rule, all eight phantom dice this path made on the development photos'
# dice-free crops were 1s and 2s (board tokens' dots, specks); beside any die of its size, specks
# stood beside specks read as 1s: the real scale sweep's frames at 60% (a photo's salt-and-pepper
# noise zoomed five times) had 52 more dice valued where no label is.
MANY_PIPS = 3
# Each faint peak's square is read also at this share of its side, the surer reading kept: on the
# boards' small dice the finder's faint peaks gave squares a quarter to a half too large (22-27 px
# on dice of 15-20 px), mostly read 0.7-0.93 there and 0.95 or more at their own size. On the
# development photos 0.75 brought 4 more dice right, and valued 3 more where no label is: a
# yellow 6 the labels miss, a die cut by the photo's edge, and a Catan token read as a 1; 0.65
# and 0.8 together 6 more, and 5 more valued.
SHRUNK = 0.75

Judge = Callable[[DieCandidate, int, float, str], Die]


def faint_dice(
    frame_bgr: np.ndarray,
    peaks: list[DieCandidate],
    firm_peak: float,
    dice: list[Die],
    judge: Judge,
) -> list[Die]:
    """The dice read on the `peaks` (the finder's candidates from FAINT_PEAK) up to `firm_peak`,
    as found and SHRUNK, away from the `dice` read from the firmer ones and from each other, the
    surest first (see the module's docstring); `judge` makes a die of a value and its
    confidence."""
    _, faint = split_by_heat(peaks, firm_peak)
    standing = [
        (cand, reading)
        for squares in (faint, [resized(cand, SHRUNK) for cand in faint])
        for cand, reading in hopeful_readings(frame_bgr, squares)
        if stands(cand, reading, dice)
    ]
    found: list[Die] = []
    for cand, reading in sorted(standing, key=lambda pair: -pair[1].confidence):
        if not any(on_a_die(cand, die) for die in dice + found):
            found.append(judge(cand, reading.value, reading.confidence, reading.doubt))
    return found


def hopeful_readings(
    frame_bgr: np.ndarray, squares: list[DieCandidate]
) -> list[tuple[DieCandidate, PipReading]]:
    """The squares read in full, of those whose first look `may_read_surely` (apart from other
    sizes of them: `read_dice` joins close squares it is given together)."""
    if not squares:
        return []
    looks = first_looks(frame_bgr, squares)
    hopeful = looks.part([i for i, chances in enumerate(looks.probs) if may_read_surely(chances)])
    if not hopeful.candidates:
        return []
    return read_dice(frame_bgr, hopeful.candidates, hopeful)


def stands(cand: DieCandidate, reading: PipReading, dice: list[Die]) -> bool:
    """Whether a faint candidate read so is a die beside the `dice` read on firmer peaks: read
    surely and plainly a die, and as a 1 or a 2 only beside a die of its size read with more
    pips."""
    if reading.value is None or reading.no_die >= PLAINLY_A_DIE:
        return False
    if reading.confidence < SURE_OF_WEAK:
        return False
    return reading.value >= MANY_PIPS or any(
        die.value is not None and die.value >= MANY_PIPS and of_a_size(cand.size, die.side)
        for die in dice
        if die.side > 0
    )


def may_read_surely(chances: np.ndarray) -> bool:
    """Whether the first net's chances for a crop leave room for a value read at SURE_OF_WEAK
    after the second looks: the faint peaks of a busy board are many, and most are read far less
    surely (reading them all took a sixth more CPU time on the speed frames of the real photos)."""
    return best_after_second_looks(chances) >= SURE_OF_WEAK


def on_a_die(cand: DieCandidate, die: Die) -> bool:
    """A candidate within 0.7 of the larger side of a die read."""
    return near(cand.center, die.center, 0.7 * max(cand.size, die.side))
