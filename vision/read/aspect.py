"""Frames stretched out of shape: a photo squeezed into a fixed size (a dataset tool's 640x640, an
app's square preview) shows square dice as rectangles, which the face net reads less surely. A
frame's pip dice are read un-stretched where that makes the net surer of them.

    stretch = likeliest_stretch(frame, first_looks(frame, candidates))  # Stretch() if true
    view = stretch.view(frame)  # its short axis enlarged
    seen = [stretch.die_from_view(d) for d in read(view, stretch.candidates_in_view(candidates))]
    dice = in_place_of(read(frame, candidates), seen)  # no die of the view's own
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.read.find import candidate_angle, near, square_quad
from vision.read.pips import FirstLooks, first_looks, is_die
from vision.read.types import Die, DieCandidate

# How much wider than tall a square may look in a frame, besides 1: a portrait 3:4 photo squeezed
# into a square (the marbled trays' photos), or a landscape 4:3 one; a view at a slant
# foreshortens top faces alike. 16:9 and 9:16 too, tried on the development photos: 3 more dice
# right, 7 more valued where no label is.
ASPECTS = (4 / 3, 3 / 4)
# A stretch is taken when the first face net's chances of the likeliest value, summed over the
# candidates it takes for dice in the frame as it is (at least LEAST_DICE of them), beat the
# frame as it is by this much. Chosen on the development photos (the git history of
# docs/vision-reader.md has the run): at 0.5, 11 fewer dice of the boards and marbled trays
# right; at 0.2 one more right and 2 more valued where no label is.
MARGIN = 0.3
LEAST_DICE = 3

# A die the frame as it is leaves unreadable takes a value from the view only this surely: a
# maker's symbol, which no stretch makes readable, was given a value from 0.5 (the symbol bench's
# dice given a wrong value 7 -> 11).
SURE_IN_VIEW = 0.8

Pair = tuple[Die, float]  # a die read, and the face net's chance that it is no die


@dataclass(frozen=True)
class Stretch:
    """How much wider than tall a square looks in the frame (1.0: the frame's true shape)."""

    aspect: float = 1.0

    @property
    def scale(self) -> tuple[float, float]:
        """The factors by which the view enlarges the frame's x and y: its short axis only, so
        no pixel of the frame is lost."""
        return (1.0, self.aspect) if self.aspect >= 1.0 else (1.0 / self.aspect, 1.0)

    @property
    def is_true(self) -> bool:
        return self.aspect == 1.0

    def view(self, frame_bgr: np.ndarray) -> np.ndarray:
        """The frame with squares square again."""
        if self.is_true:
            return frame_bgr
        height, width = frame_bgr.shape[:2]
        sx, sy = self.scale
        size = (round(width * sx), round(height * sy))
        return cv2.resize(frame_bgr, size, interpolation=cv2.INTER_LINEAR)

    def candidates_in_view(self, candidates: list[DieCandidate]) -> list[DieCandidate]:
        """The candidates placed in the view: centres moved, sides grown with the enlarged axis
        (the finder's side for a stretched face lies between its width and height), turns kept."""
        if self.is_true:
            return candidates
        return [self._in_view(cand) for cand in candidates]

    def _in_view(self, cand: DieCandidate) -> DieCandidate:
        sx, sy = self.scale
        center = (cand.center[0] * sx, cand.center[1] * sy)
        side = cand.size * max(sx, sy)
        return replace(
            cand, center=center, quad=square_quad(center, side, candidate_angle(cand)), size=side
        )

    def die_from_view(self, die: Die) -> Die:
        """A die read in the view, placed back in the frame (its square stretched as the frame
        is)."""
        if self.is_true:
            return die
        sx, sy = self.scale
        center = (die.center[0] / sx, die.center[1] / sy)
        quad = None if die.quad is None else np.asarray(die.quad) / np.array([sx, sy])
        return replace(die, center=center, quad=quad)


def in_place_of(as_is: list[Pair], unstretched: list[Pair]) -> list[Pair]:
    """The dice read un-stretched that lie on dice read in the frame as it is (within half a
    side), in their place, but for a die unreadable as it is that the view reads less surely than
    SURE_IN_VIEW; the others as they are. Un-stretching a frame seen at a slant squares the side
    faces below the top faces too, which would read as dice of their own."""
    kept = [
        (die, no_die)
        for die, no_die in unstretched
        if any(_same_place(die, d) and _takes_place_of(die, d) for d, _ in as_is)
    ]
    kept += [pair for pair in as_is if not any(_same_place(d, pair[0]) for d, _ in kept)]
    return kept


def _takes_place_of(seen: Die, as_is: Die) -> bool:
    return as_is.value is not None or seen.value is None or seen.confidence >= SURE_IN_VIEW


def _same_place(die: Die, other: Die) -> bool:
    return near(die.center, other.center, 0.5 * max(die.side, other.side))


def likeliest_stretch(frame_bgr: np.ndarray, as_is: FirstLooks) -> Stretch:
    """The stretch under which the first face net reads the candidates it takes for dice in the
    frame as it is (`as_is`, their first looks) most surely, by MARGIN at least; no stretch for
    fewer than LEAST_DICE of them, nor where the frame as it is leaves too little doubt to
    be beaten (the other stretches are then not looked at)."""
    dice = [i for i, chances in enumerate(as_is.probs) if is_die(chances)]
    best, best_sum = Stretch(), surety(as_is.probs[dice]) + MARGIN
    if len(dice) < LEAST_DICE or best_sum >= len(dice):
        return best
    candidates = [as_is.candidates[i] for i in dice]
    for aspect in ASPECTS:
        stretch = Stretch(aspect)
        seen = stretch.candidates_in_view(candidates)
        summed = surety(first_looks(frame_bgr, seen, stretch.scale).probs)
        if summed > best_sum:
            best, best_sum = stretch, summed
    return best


def surety(probs: np.ndarray) -> float:
    """The face net's chances of the likeliest value, summed over crops."""
    return float(probs[:, 1:].max(axis=1).sum()) if len(probs) else 0.0
