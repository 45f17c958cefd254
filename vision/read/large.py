"""Dice too close to the camera for the finder's usual look (a top face over about a ninth of
the frame's longer side): found by its coarse look, and put in place of their pips, which the
usual look takes for small dice.

Webcam photos zoomed until a die spans a quarter of the frame's width: 5 of 55 such dice read
right without this, 51 with it. Rendered close-ups of 90-150 px dice (`tabletop bench vision`,
"close-up" sets, 74 dice each): d6 22% -> 92%, poker 38% -> 97%.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

from vision.read.find import near
from vision.read.outline import fit_outline
from vision.read.types import Die, DieCandidate

# A die read at least this surely outside every large face, and under MUCH_SMALLER times its
# side, means the large faces are not dice: dice on one tray are about one size, and a grey dot
# on a tray's rim, seen by the coarse look as a large face, reads as a 1. (On the mixed-tray
# photos, eleven such dots were read as large 1s until this rule.)
SURE = 0.9
MUCH_SMALLER = 0.6
# Beside large dice read, a die read unsurely and under this many times their side is taken for
# a pip on a side face (pips read as dice were 0.14-0.28 of the face on the webcam photos zoomed
# in, while rendered dice of one tray differ by up to 0.6).
PIP_LIKE = 0.45
# Dice this many times a large face's square (about its centre) count as inside it for that rule:
# a pip or a corner of a large die can be read as a small die just past its edge.
ROOM = 1.2
# A die read inside a large face at under this share of its side is no pip of it (pips read as
# dice were 0.14-0.28 of the face): the large face is a game board or a tray seen whole.
FAR_SMALLER = 0.1
# ... and a large face read under UNSURE_OF_LARGE holding at least SMALL_PEAKS of the finder's
# peaks (from PEAKS_FROM) under that share of its side is one too: a Catan board's number tokens
# peak at 0.3-0.55 inside the board's square (3-10 of them in most, the board read at 0.52-0.76),
# while real dice zoomed to 20-60% of the frame and read under 0.8 held two such peaks at most
# (specks). At two, one such die, read right, was refused, and no further phantom.
UNSURE_OF_LARGE = 0.8
SMALL_PEAKS = 3
PEAKS_FROM = 0.3

# A die read surely within this share of a large face's side from its centre, and at least
# SAME_SIZE times its side, is that face read already by the usual look.
SAME_PLACE = 0.3
SAME_SIZE = 0.8

# A tray where at least three dice were read, every one at SURE or more and under this many of the
# finder's input pixels (large faces start at 28), holds no die close to the camera: the coarse
# look is not taken (on the speed frames, 18 of 40; never on the rendered close-ups).
ALL_SMALL_SHARE = 24.0 / 256.0  # of the finder input's longer side (24 px at 256)

ReadSquares = Callable[[list[DieCandidate]], list[Die | None]]


def may_hold_large_dice(dice: list[Die], scale: float, input_side: int) -> bool:
    """Whether the frame may hold dice too large for the finder's usual look, given the dice it
    read (`scale`: its input pixels per frame pixel; `input_side`: its input's longer side).
    Pips of a large die read as dice are mostly read unsurely."""
    readable = [die for die in dice if die.value is not None]
    return not (
        len(readable) >= 3
        and len(readable) == len(dice)
        and all(die.confidence >= SURE for die in readable)
        and all(side_of(die) * scale < ALL_SMALL_SHARE * input_side for die in readable)
    )


def with_large_dice(
    frame_bgr: np.ndarray,
    dice: list[Die],
    large: list[DieCandidate],
    read_squares: ReadSquares,
    fits_its_squares: bool = False,
    peaks: Sequence[DieCandidate] = (),
) -> list[Die]:
    """The dice read, with each large face (`find.find_large_faces`) that reads as a die more
    surely than the dice read inside it (its pips) in their place. `read_squares` reads
    candidate squares as dice (None for a square that is no die), as the reader reads its kind
    of dice; when it `fits_its_squares` to the die's edges itself where unsure (a profile's
    reading does), the squares are not fitted here first. `peaks` are the finder's usual
    candidates (`holds_small_peaks`)."""
    if not large or any(smaller_die_elsewhere(die, large) for die in dice):
        return dice
    large = [
        square
        for square in large
        if not read_already(square, dice)
        and not holds_far_smaller_die(square, dice)
        and not holds_a_certain_die(square, dice)
    ]
    if not large:
        return dice
    added: list[Die] = []
    read = read_squares(large) if fits_its_squares else read_fitted(frame_bgr, large, read_squares)
    pairs = zip(large, read, strict=True)
    found = [(sq, die) for sq, die in pairs if die is not None and die.value is not None]
    for square, die in without_surer_inside(found):
        if holds_small_peaks(die, peaks):
            continue
        parts = [d for d in dice if within(d.center, square)]
        if die.confidence > max((d.confidence for d in parts), default=0.0):
            dice = [d for d in dice if not any(d is part for part in parts)] + [die]
            added.append(die)
    return without_unsure_small_dice(dice, added)


def without_surer_inside(found: list[tuple[DieCandidate, Die]]) -> list[tuple[DieCandidate, Die]]:
    """The large squares read as dice, less those holding a smaller one read more surely: the
    coarse looks keep a face beside the smaller peaks at its place (`find.suppress_rivals`), and
    a square the size of the frame around two close dice read as a third, unsurely."""
    return [
        (square, die)
        for square, die in found
        if not any(
            other.confidence > die.confidence
            and inner.size < square.size
            and within(other.center, square)
            for inner, other in found
        )
    ]


def read_already(square: DieCandidate, dice: list[Die]) -> bool:
    """Whether a die about the square's size was read surely at its centre: the two looks'
    ranges overlap, and a die the usual look read whole needs no second reading."""
    return any(
        die.value is not None
        and die.confidence >= SURE
        and near(die.center, square.center, SAME_PLACE * square.size)
        and side_of(die) >= SAME_SIZE * square.size
        for die in dice
    )


def holds_a_certain_die(square: DieCandidate, dice: list[Die]) -> bool:
    """Whether a die read at full confidence lies inside the square: a large face read there
    would have to be surer than it to take its place, so the square is not read at all (a poker
    die close to the camera read at 1.0, the coarse look's square about it up to twice its side:
    a third of such a tray's reading time)."""
    return any(die.confidence >= 1.0 and within(die.center, square) for die in dice)


def holds_far_smaller_die(square: DieCandidate, dice: list[Die]) -> bool:
    """Whether a die lies inside the square at a small share of its side."""
    return far_smaller_inside(square, [(die.center, side_of(die)) for die in dice]) > 0


def holds_small_peaks(die: Die, peaks: Sequence[DieCandidate]) -> bool:
    """Whether a large die read under UNSURE_OF_LARGE holds SMALL_PEAKS peaks or more of the
    finder, each under FAR_SMALLER of its side."""
    if die.confidence >= UNSURE_OF_LARGE or die.quad is None:
        return False
    square = DieCandidate(die.center, die.quad, die.side, die.confidence)
    parts = [(peak.center, peak.size) for peak in peaks if peak.score >= PEAKS_FROM]
    return far_smaller_inside(square, parts) >= SMALL_PEAKS


def far_smaller_inside(square: DieCandidate, parts: list[tuple[tuple[float, float], float]]) -> int:
    """How many of the parts (centre, side) lie inside the square (grown ROOM times) at under
    FAR_SMALLER of its side: smaller than any pip of a die that large."""
    return sum(
        1
        for center, side in parts
        if side < FAR_SMALLER * square.size and within(center, square, ROOM)
    )


def read_fitted(
    frame_bgr: np.ndarray, squares: list[DieCandidate], read_squares: ReadSquares
) -> list[Die | None]:
    """Each square read as found and fitted to the edges around it, the surer kept: past
    about a quarter of the frame the coarse look guesses faces too small."""
    fitted = [fit_outline(frame_bgr, square) for square in squares]
    readings = read_squares(squares + fitted)
    return [
        max(pair, key=lambda die: -1.0 if die is None else die.confidence)
        for pair in zip(readings[: len(squares)], readings[len(squares) :], strict=True)
    ]


def without_unsure_small_dice(dice: list[Die], large: list[Die]) -> list[Die]:
    """Beside large dice read, far smaller dice read unsurely are pips on their side faces (no
    die read surely was much smaller, or the large faces would have been refused)."""
    if not large:
        return dice
    smallest = min(side_of(die) for die in large)
    return [
        die
        for die in dice
        if any(die is big for big in large)
        or (die.value is not None and die.confidence >= SURE)
        or side_of(die) >= PIP_LIKE * smallest
    ]


def smaller_die_elsewhere(die: Die, large: list[DieCandidate]) -> bool:
    """Whether a die read surely lies outside every large face and is much smaller than them."""
    if die.value is None or die.confidence < SURE or die.quad is None:
        return False
    smallest = min(square.size for square in large)
    outside = not any(within(die.center, square, ROOM) for square in large)
    return outside and side_of(die) < MUCH_SMALLER * smallest


def side_of(die: Die) -> float:
    """The side of the square a die was read on (infinite when it has none)."""
    return float("inf") if die.quad is None else die.side


def within(point: tuple[float, float], square: DieCandidate, grow: float = 1.0) -> bool:
    """Whether a point lies inside the square's quad, grown `grow` times about its centre."""
    center = np.asarray(square.center, np.float32)
    quad = (np.asarray(square.quad, np.float32) - center) * grow
    offset = (float(point[0] - center[0]), float(point[1] - center[1]))
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2), offset, False) >= 0
