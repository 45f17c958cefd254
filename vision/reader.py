"""The public dice-reading API: frames in, a Reading (dice with values and confidences) out."""

from __future__ import annotations

import importlib
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from vision.profiles.adapt import NearestExamples, Verdict, example_crop, vouched, with_doubt
from vision.read._nets import PIP_FINDER, PROFILE_FINDER
from vision.read.aspect import Stretch, in_place_of, likeliest_stretch
from vision.read.confidence import calibrated, sure_at_own_confidence
from vision.read.faint import FAINT_PEAK, faint_dice
from vision.read.find import (
    PEAK_THRESHOLD,
    HeatMap,
    Roi,
    candidates_in,
    check_frame,
    find_large_faces,
    look,
    near,
    of_a_size,
    split_by_heat,
)
from vision.read.imagefile import load_image
from vision.read.large import may_hold_large_dice, with_large_dice
from vision.read.pips import (
    PLAINLY_A_DIE,
    SURE_OF_WEAK,
    FirstLooks,
    PipReading,
    first_looks,
    read_dice,
    read_faces,
)
from vision.read.profiled import read_candidates, read_profiled
from vision.read.ruling import within_ruling
from vision.read.types import Die, DieCandidate, Face, Reading
from vision.read.unread import seen_but_unread

KINDS = ("d6", "poker")
DEFAULT_MIN_CONFIDENCE = 0.5
# The finder learned mostly pip dice and lights up less on poker faces; with a profile, which
# refuses what matches no face, its peaks are taken from this lower heat.
PROFILE_PEAK_THRESHOLD = 0.2
# A d6 peak under PEAK_THRESHOLD but over this is a die only when read surely: the finder's heat
# on board tokens and on some dice (a red die's lone engraved pip) runs 0.3-0.4, but the face net
# reads such dice at 0.99 and the tokens mostly under. The coarse looks take their peaks from this
# too (their heat runs lower: at 0.4 they lost a flat 4 of 80 px in 640x480, at 0.33).
WEAK_PEAK_THRESHOLD = 0.3
# Such a die stands when read at `vision.read.pips.SURE_OF_WEAK` or more, or when the face net gives
# it under `vision.read.pips.PLAINLY_A_DIE` chance of being no die, however unsure of its value
# (then reported unreadable rather than lost). Chosen on the development photos: 0.02 keeps 25 of
# their 316 lost dice (18 more read right, 3 more wrong), phantoms unchanged; 0.05 kept 33 but
# valued 15 more dice where no label is.
# A pip die's face is at least this many frame pixels (`vision.read.find.MIN_FACE_PX`, 12, for the
# rest): at 12, a board's speck of 12 px was read as a 2 at 0.96, one of the five phantom dice on
# the photos' dice-free crops. At 13 no other figure of `tabletop bench vision` moves (the smallest
# labelled face is 14 px; the scale sweep's faces at 3% of the frame, 14.4 px, read the same);
# poker dice of the shipped design shrunk to 13 px still read surely, and are kept.
SMALLEST_PIP_FACE = 13.0
# With a table's own examples (vision/profiles/adapt.py) the finder's peaks are taken from this
# fainter heat, and a peak under WEAK_PEAK_THRESHOLD is a die only where the net and the examples
# read the same value: the finder lights up faintly on some designs' faces (a red engraved die's 2
# at 0.18-0.26), which no example could ever be made of, so adapting alone never brought them back.
ADAPTED_PEAK_THRESHOLD = 0.15
# ... and it must be of the size of a die on a firmer peak (`of_a_size`).
# An unsure d6 candidate given at least this chance of being no die is not reported.
UNSURE_NO_DIE = 0.15
# ... when read less surely than this: a die read at 0.56 with 0.25 on "no die" was a white tag.
UNSURE_BELOW = 0.6
# ... or than this, for a large face (`vision.read.large`): on the photos' dice-free crops, a grey
# wall read as a large 1 at 0.76 (0.18 on "no die") and a board's speck at 0.62 (0.35). Chosen on
# the development photos: phantoms 7 -> 5; one translucent crop's 6, read at 0.62, is lost; the real
# scale sweep reads the same dice right.
UNSURE_LARGE_BELOW = 0.8


def load_default_profile(kind: str) -> Any:
    """The shipped face profile for a kind of dice that has no pips (poker dice)."""
    try:
        module = importlib.import_module("vision.profiles.profile")
    except ModuleNotFoundError as error:
        raise ValueError(
            f"reading {kind!r} dice needs vision.profiles, which is missing"
        ) from error
    return module.FaceProfile.load_default(kind)


def strong(die: Die, heat_map: HeatMap, no_die: float = 1.0) -> bool:
    """Whether a d6 die read stands: on a peak of PEAK_THRESHOLD or more, read surely, or plainly
    a die to the face net (`no_die`, its chance of no die, under PLAINLY_A_DIE) however unsure
    of its value."""
    if heat_map.at(die.center) >= PEAK_THRESHOLD:
        return True
    if no_die < PLAINLY_A_DIE:
        return True
    return die.value is not None and die.confidence >= SURE_OF_WEAK


def standing(pairs: list[tuple[Die, float]], heat_map: HeatMap) -> list[tuple[Die, float]]:
    """The dice (each with its chance of no die) that stand: `strong`."""
    return [(die, no_die) for die, no_die in pairs if strong(die, heat_map, no_die)]


class DiceReader:
    """Reads every die in a frame: pips for d6, a learned face profile for poker dice."""

    def __init__(
        self,
        kind: str = "d6",
        profile: Any = None,
        roi: Roi | None = None,
        min_confidence: float = DEFAULT_MIN_CONFIDENCE,
        adapter: NearestExamples | None = None,
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
        if not 0.0 <= min_confidence <= 1.0:
            raise ValueError(f"min_confidence must be within 0..1, got {min_confidence}")
        if roi is not None and (len(roi) != 4 or roi[2] <= 0 or roi[3] <= 0):
            raise ValueError(f"roi must be (x, y, w, h) with positive w and h, got {roi!r}")
        if profile is None and kind == "poker":
            profile = load_default_profile(kind)
        if profile is not None and not callable(getattr(profile, "classify", None)):
            raise ValueError("profile must have a classify(crop_bgr) -> (value, confidence) method")
        self.kind = kind
        self.profile = profile
        self.roi = roi
        self.min_confidence = min_confidence
        self.adapter = adapter  # the table's own examples (vision/profiles/adapt.py), for pip dice

    def read(self, frame_bgr: np.ndarray) -> Reading:
        """Every die found in the frame, unreadable ones with value None and a reason; each
        die's confidence is the chance its value is right, and `sure` marks those at the line
        (vision/read/confidence.py)."""
        start = time.perf_counter()
        dice = self.checked(frame_bgr, self.dice_in(frame_bgr))
        return Reading(dice=tuple(dice), ms=(time.perf_counter() - start) * 1000.0)

    def checked(self, frame_bgr: np.ndarray, dice: list[Die]) -> list[Die]:
        """The dice with their confidences fitted and `sure` set: pip dice by the fitted map,
        and never sure where the table's examples vouch for another value (they sharpen the
        line, never lower it); a profile's dice at their own confidence."""
        if self.profile is not None:
            return sure_at_own_confidence(dice)
        dice = calibrated(frame_bgr, dice)
        if self.adapter is None:
            return dice
        return [
            replace(die, sure=False) if die.sure and disputed else die
            for die, disputed in zip(dice, self.disputed(frame_bgr, dice), strict=True)
        ]

    def disputed(self, frame_bgr: np.ndarray, dice: list[Die]) -> list[bool]:
        """Per die: the table's examples vouch for another value than it was read as."""
        assert self.adapter is not None
        sure = [i for i, die in enumerate(dice) if die.sure and die.quad is not None]
        crops = [example_crop(frame_bgr, dice[i].center, dice[i].quad, False) for i in sure]
        disputed = [False] * len(dice)
        for i, verdict in zip(sure, self.adapter.verdicts(crops), strict=True):
            disputed[i] = vouched(verdict) and verdict[0] != dice[i].value  # type: ignore[index]
        return disputed

    def dice_in(self, frame_bgr: np.ndarray) -> list[Die]:
        """Every die found in the frame, with the reader's own confidences (before the check of
        `checked`)."""
        check_frame(frame_bgr)
        threshold = PROFILE_PEAK_THRESHOLD if self.profile is not None else WEAK_PEAK_THRESHOLD
        adapted = self.adapter is not None and self.profile is None
        finder = PROFILE_FINDER if self.profile is not None else PIP_FINDER
        heat_map = look(frame_bgr, self.roi, finder)
        peaks = self.peaks(frame_bgr, heat_map, adapted)
        candidates = peaks if adapted else split_by_heat(peaks, threshold)[0]
        if self.profile is not None:
            dice = read_profiled(
                frame_bgr, heat_map, candidates, self.profile, self.min_confidence, self.judged
            )
        else:
            dice = self.read_pips_unstretched(frame_bgr, candidates, heat_map)
            if adapted:
                dice = faint_only_beside_their_like(dice, heat_map)
        large = []
        if may_hold_large_dice(dice, heat_map.scale, finder.input_side):
            large = find_large_faces(frame_bgr, heat_map, threshold)
        dice = with_large_dice(
            frame_bgr,
            dice,
            large,
            lambda squares: self.read_squares(frame_bgr, squares),
            fits_its_squares=self.profile is not None,  # read_candidates fits unsure squares
            peaks=candidates,
        )
        if self.profile is not None and self.kind == "poker":
            dice = within_ruling(dice)
        if self.profile is None and not adapted:
            # After the large faces: small dice read on faint peaks inside a die close to the
            # camera (its pips, specks) would refuse it (the real scale sweep at 30% of the frame
            # lost 3 of 125 dice so).
            dice += faint_dice(frame_bgr, peaks, threshold, dice, self.judged)
        if self.profile is None:
            dice += seen_but_unread(frame_bgr, candidates, dice)
        return dice

    def peaks(self, frame_bgr: np.ndarray, heat_map: HeatMap, adapted: bool) -> list[DieCandidate]:
        """The finder's peaks this reader reads: from PROFILE_PEAK_THRESHOLD with a profile; for
        pip dice, faces of SMALLEST_PIP_FACE or more, from ADAPTED_PEAK_THRESHOLD with a table's
        examples and from FAINT_PEAK without (those under WEAK_PEAK_THRESHOLD are for
        `faint_dice`, after the rest)."""
        if self.profile is not None:
            return candidates_in(frame_bgr, heat_map, PROFILE_PEAK_THRESHOLD)
        faintest = ADAPTED_PEAK_THRESHOLD if adapted else FAINT_PEAK
        peaks = candidates_in(frame_bgr, heat_map, faintest)
        return [peak for peak in peaks if peak.size >= SMALLEST_PIP_FACE]

    def read_pips_unstretched(
        self, frame_bgr: np.ndarray, candidates: list[DieCandidate], heat_map: HeatMap
    ) -> list[Die]:
        """The d6 dice that stand (`strong`), read on the frame as it is and, where it looks
        stretched (vision/read/aspect.py), read again un-stretched: a die standing in both takes its
        reading in the view. A reader adapted to a table reads its frames as they are, as its
        examples were cut (un-stretched views of the adaptation bench's top-down trays cost
        tables 11 and 13 a die each after 10 or 30 rolls)."""
        looks = first_looks(frame_bgr, candidates)
        adapted = self.adapter is not None
        stretch = Stretch() if adapted else likeliest_stretch(frame_bgr, looks)
        as_is = standing(self.read_pips(frame_bgr, candidates, looks), heat_map)
        if not stretch.is_true:
            view = stretch.view(frame_bgr)
            seen = self.read_pips(view, stretch.candidates_in_view(candidates))
            placed = [(stretch.die_from_view(die), no_die) for die, no_die in seen]
            as_is = in_place_of(as_is, standing(placed, heat_map))
        return [die for die, _ in as_is]

    def read_pips(
        self,
        frame_bgr: np.ndarray,
        candidates: list[DieCandidate],
        looks: FirstLooks | None = None,
    ) -> list[tuple[Die, float]]:
        """d6 dice, each with the face net's chance that it is no die (1.0 where the table's
        examples read it): the net reads each candidate (their first `looks` where taken
        already); what it calls no die is dropped."""
        pairs = read_dice(frame_bgr, candidates, looks)
        if self.adapter is not None:
            return [(die, 1.0) for die in self.read_adapted(frame_bgr, candidates, pairs)]
        return [
            (self.judged(cand, reading.value, reading.confidence, reading.doubt), reading.no_die)
            for cand, reading in pairs
            if reading.is_die and not self.phantom_like(reading)
        ]

    def read_adapted(
        self,
        frame_bgr: np.ndarray,
        candidates: list[DieCandidate],
        pairs: list[tuple[DieCandidate, PipReading]],
    ) -> list[Die]:
        """The table's examples read each candidate they are close to (a candidate the net took
        for no die among them); the net's own answer stands for the rest. A square the net
        joined over two or more candidates that the examples each know as a die, and do not
        know as one, is those dice (touching dice of a design the net reads unsurely). A
        candidate the net called no die becomes a die only away from the dice read and beside
        one of its size, and one on a faint peak (under WEAK_PEAK_THRESHOLD) only where the net
        and the examples agree."""
        assert self.adapter is not None
        squares = [*candidates, *(cand for cand, _ in pairs)]
        crops = [example_crop(frame_bgr, sq.center, sq.quad, False) for sq in squares]
        verdicts = self.adapter.verdicts(crops)
        singles, joined = verdicts[: len(candidates)], verdicts[len(candidates) :]
        dice: list[tuple[DieCandidate, Die]] = []
        rescued: list[tuple[DieCandidate, Die]] = []
        for (cand, reading), verdict in zip(pairs, joined, strict=True):
            parts = [
                (i, part)
                for i, part in enumerate(candidates)
                if near(part.center, cand.center, 0.5 * cand.size) and vouched(singles[i])
            ]
            if len(parts) >= 2 and all_apart([part for _, part in parts]):
                dice += [(part, self.judged(part, *singles[i], "")) for i, part in parts]
                continue
            if (
                not vouched(verdict)
                and parts
                and near(parts[0][1].center, cand.center, 0.3 * cand.size)
            ):
                verdict = singles[parts[0][0]]  # the square the finder gave, before any refit
            if cand.score < WEAK_PEAK_THRESHOLD and not agreed(reading, verdict):
                continue
            if vouched(verdict):
                doubt = f"the net's {reading.value or 'no die'} ({reading.confidence:.2f})"
                die = self.judged(cand, verdict[0], verdict[1], doubt)
                (dice if reading.is_die else rescued).append((cand, die))
            elif reading.is_die and not self.phantom_like(reading):
                value, confidence = with_doubt(verdict, (reading.value, reading.confidence))
                doubt = (
                    reading.doubt if value is not None else f"the table's examples: {verdict[0]}"
                )
                die = self.judged(cand, reading.value, confidence, doubt)
                dice.append((cand, die))
        # A speck of a game board with a spot or two can look like a 1 or a 2 to the examples:
        # without this rule a reader adapted to table 12's first 30 rolls (by the pips counted)
        # saw 26 phantom dice on the photos' 530 dice-free crops, with it 11 (table 11's, by
        # the net's features: 14 and 10; the shipped reader 9), reading as many dice right.
        seen = [cand.size for cand, _ in dice]
        for cand, die in sorted(rescued, key=lambda pair: -pair[1].confidence):
            if not any(of_a_size(cand.size, side) for side in seen):
                continue
            if not any(near(cand.center, other.center, 0.7 * cand.size) for _, other in dice):
                dice.append((cand, die))
        return [die for _, die in dice]

    def read_squares(self, frame_bgr: np.ndarray, squares: list[DieCandidate]) -> list[Die | None]:
        """Each square (a large face's: `vision.read.large`) read as a die of the reader's kind, or
        None where it is no die."""
        if self.profile is not None:
            return read_candidates(
                frame_bgr, squares, self.profile, self.min_confidence, self.judged
            )
        return [
            self.judged(square, reading.value, reading.confidence, reading.doubt)
            if reading.is_die and not self.phantom_like(reading, UNSURE_LARGE_BELOW)
            else None
            for square, reading in zip(squares, read_faces(frame_bgr, squares), strict=True)
        ]

    def phantom_like(self, reading: PipReading, unsure_below: float = UNSURE_BELOW) -> bool:
        """Unsure of its value (under `unsure_below`) and with a real chance of being no die: more
        likely a mark on the tray than a die (real dice the net can't read put under 0.15 on "no
        die")."""
        return reading.confidence < unsure_below and reading.no_die >= UNSURE_NO_DIE

    def judged(self, cand: DieCandidate, value: Face, confidence: float, doubt: str) -> Die:
        """The die with its value, or unreadable when the reader is not sure enough."""
        confidence = float(np.clip(confidence, 0.0, 1.0))
        if confidence < self.min_confidence:
            reason = f"unsure: {value} ({confidence:.2f}) or {doubt}"
            return Die(None, cand.center, confidence, cand.quad, reason)
        return Die(value, cand.center, confidence, cand.quad)


def faint_only_beside_their_like(dice: list[Die], heat_map: HeatMap) -> list[Die]:
    """The dice, less those on a faint peak (under WEAK_PEAK_THRESHOLD) with no die of about
    their size on a firmer one: one table's dice are alike in a frame, the specks of a game
    board that a faint peak also finds are not (tiny ones, on frames with no die at all)."""
    firmly = [heat_map.at(die.center) >= WEAK_PEAK_THRESHOLD for die in dice]
    firm = [die.side for die, on_firm in zip(dice, firmly, strict=True) if on_firm]
    return [
        die
        for die, on_firm in zip(dice, firmly, strict=True)
        if on_firm or any(of_a_size(die.side, side) for side in firm)
    ]


def agreed(reading: PipReading, verdict: Verdict | None) -> bool:
    """The net and the table's examples both read the same die value there."""
    return vouched(verdict) and reading.is_die and reading.value == verdict[0]


def all_apart(squares: list[DieCandidate]) -> bool:
    """No two of the squares closer than 0.7 of a side: dice of their own, not one die seen
    twice."""
    return not any(
        near(a.center, b.center, 0.7 * min(a.size, b.size))
        for i, a in enumerate(squares)
        for b in squares[i + 1 :]
    )


def read_image(path: str | Path, kind: str = "d6") -> Reading:
    """Read the dice in one image file."""
    return DiceReader(kind=kind).read(load_image(path))
