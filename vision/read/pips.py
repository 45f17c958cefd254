"""Reading pips: the value 1..6 a d6's top face shows, or that a candidate is no die at all.

A small learned net (`vision/read/_nets.py`, trained by `vision/train/train_reader.py` on real
photos) reads a square crop around the top face with a margin of surface. It was trained on dark
pips on light dice and light pips on dark dice of every colour, marbled and translucent ones, at any
turn and scale, with side faces, half dice and gaps between dice as negatives, so it answers for the
top face only and tells a die from a shadow, a coin or a hand.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.read._nets import (
    CLASSIFIER_INPUT,
    CROP_CONTEXT,
    NOT_A_DIE,
    SECOND_OPINION_INPUT,
    classify_crops,
    crop_face,
)
from vision.read.find import candidate_angle, distance, near, square_quad
from vision.read.outline import fit_outline
from vision.read.types import DieCandidate

# Chance of "no die here" above which a candidate is not reported at all (nor when "no die" is
# likelier than any single value): a phantom die is worse than a missed unreadable one.
NOT_A_DIE_CUTOFF = 0.5
# A die on a peak too weak for a die by itself is one when the face net reads it at SURE_OF_WEAK
# or more, or (in the usual look, then unreadable if unsure) under PLAINLY_A_DIE chance of no
# die: `vision.reader.strong`; faint peaks (`vision.read.faint`) need both.
SURE_OF_WEAK = 0.95
PLAINLY_A_DIE = 0.02
# A crop read less surely than this is read again in a mirror.
MIRROR_BELOW = 0.95
# A face the first net reads less surely than this is also read by the second net, from a larger
# crop; their chances are averaged (two nets rarely err alike).
SECOND_OPINION_BELOW = 0.95
# A face read less surely than this (or read as no die) is read again on a refitted square...
REFIT_BELOW = 0.5
# ... unless it is no die with at least this chance: fitting a square costs about as much as
# reading the rest of the frame, and such candidates are marks, coins and the tray's corners. On
# the real photos none of 111 such refits made a die; on 100 rendered trays one of about 75 did,
# read unreadable (a 3 at 0.26). The dice that refits found were read as no die at 0.75 at most.
REFIT_NO_DIE_BELOW = 0.9
# A candidate whose side is outside this share of the tray's median die side is read again at
# the median, when at least ODD_SIZE_NEEDS dice were read.
ODD_SIZE = (0.8, 1.25)
ODD_SIZE_NEEDS = 3


@dataclass(frozen=True)
class PipReading:
    """What the face net makes of one crop."""

    value: int | None  # 1..6; None when it is no die's top face
    confidence: float  # the chance of that value (or of no die)
    doubt: str = ""  # the runner-up, for the unreadable reason
    no_die: float = 0.0  # the chance that it is no die at all

    @property
    def is_die(self) -> bool:
        return self.value is not None

    @property
    def value_confidence(self) -> float:
        """The chance of its value; 0 when it is read as no die."""
        return self.confidence if self.is_die else 0.0


def is_die(probs: np.ndarray) -> bool:
    """Whether the face net's seven chances (no die, 1..6) make a die."""
    return float(probs[NOT_A_DIE]) < NOT_A_DIE_CUTOFF and int(np.argmax(probs)) != NOT_A_DIE


def reading_from(probs: np.ndarray) -> PipReading:
    """The face net's verdict from its seven chances (no die, 1..6)."""
    no_die = float(probs[NOT_A_DIE])
    if not is_die(probs):
        return PipReading(None, no_die, no_die=no_die)
    value = int(np.argmax(probs[1:])) + 1
    others = [(float(p), v) for v, p in enumerate(probs) if v != value]
    chance, other = max(others)
    doubt = f"{'no die' if other == NOT_A_DIE else other} ({chance:.2f})"
    return PipReading(value, float(probs[value]), doubt, no_die)


def read_faces(frame_bgr: np.ndarray, candidates: list[DieCandidate]) -> list[PipReading]:
    """One reading per candidate, all crops through the net in one batch; the faces it is unsure
    of also through the second-opinion net, from a larger crop, the two nets' chances averaged."""
    looks = first_looks(frame_bgr, candidates)
    return [reading_from(chances) for chances in looked_again(frame_bgr, looks)]


@dataclass(frozen=True)
class FirstLooks:
    """Candidates' crops and the first net's chances for them, before any second look."""

    candidates: list[DieCandidate]
    angles: list[float]
    crops: list[np.ndarray]
    probs: np.ndarray

    def part(self, indices: list[int]) -> FirstLooks:
        return FirstLooks(
            [self.candidates[i] for i in indices],
            [self.angles[i] for i in indices],
            [self.crops[i] for i in indices],
            self.probs[indices],
        )

    def plus(self, other: FirstLooks) -> FirstLooks:
        return FirstLooks(
            self.candidates + other.candidates,
            self.angles + other.angles,
            self.crops + other.crops,
            np.concatenate([self.probs, other.probs]),
        )


def first_looks(
    frame_bgr: np.ndarray, candidates: list[DieCandidate], scale: tuple[float, float] = (1.0, 1.0)
) -> FirstLooks:
    """The first net's chances for every candidate's crop, in one batch (with a `scale`, of the
    frame enlarged that much along x and y, the candidates placed in it: `crop_face`)."""
    angles = [candidate_angle(c) for c in candidates]
    crops = [
        crop_face(frame_bgr, c.center, c.size, a, scale=scale)
        for c, a in zip(candidates, angles, strict=True)
    ]
    return FirstLooks(candidates, angles, crops, classify_crops(crops))


def looked_again(frame_bgr: np.ndarray, looks: FirstLooks) -> np.ndarray:
    """The chances after the second looks at the crops the first net is unsure of: the crop in a
    mirror, then the second-opinion net on a larger crop (and its mirror)."""
    probs = mirrored_where_unsure(looks.probs, looks.crops, CLASSIFIER_INPUT)
    unsure = [i for i, chances in enumerate(probs) if chances.max() < SECOND_OPINION_BELOW]
    if unsure:
        larger = [
            crop_face(frame_bgr, cand.center, cand.size, angle, size=SECOND_OPINION_INPUT)
            for cand, angle in ((looks.candidates[i], looks.angles[i]) for i in unsure)
        ]
        probs[unsure] = (probs[unsure] + classify_both_ways(larger, SECOND_OPINION_INPUT)) / 2.0
    return probs


def best_after_second_looks(first: np.ndarray) -> float:
    """The most a value's chance can end at, whatever the second looks say: a mirror and a
    second opinion are each averaged in only when the look before was unsure."""
    best = float(first[1:].max())
    if first.max() >= max(MIRROR_BELOW, SECOND_OPINION_BELOW):
        return best
    return best / 4.0 + 0.75  # each of the two looks averages in at most 1


def read_dice(
    frame_bgr: np.ndarray, candidates: list[DieCandidate], known: FirstLooks | None = None
) -> list[tuple[DieCandidate, PipReading]]:
    """Candidates with their readings, after joining any die the finder split in two.

    The candidates and every join worth trying go through the first net in one batch (a call has
    a fixed cost, and crowded trays have many close pairs), but for the candidates' own first
    looks where they are `known` already; a join is looked at again only when it could still
    read more surely than both its parts, most are two dice cut across."""
    wholes = join_trials(candidates)
    joins = [whole for whole, _, _ in wholes.values()]
    if known is None:
        looks = first_looks(frame_bgr, candidates + joins)
    else:
        looks = known.plus(first_looks(frame_bgr, joins))
    count = len(candidates)
    readings = [
        reading_from(chances) for chances in looked_again(frame_bgr, looks.part(list(range(count))))
    ]
    trials = read_trials(
        frame_bgr, wholes, looks.part(list(range(count, len(looks.crops)))), readings
    )
    pairs = list(zip(candidates, readings, strict=True))
    index = 0
    while index < len(pairs):
        joined = join_split_die(frame_bgr, pairs, index, trials)
        index += 0 if joined else 1
    return resize_odd_ones(frame_bgr, refit_unsure(frame_bgr, pairs))


def read_trials(
    frame_bgr: np.ndarray,
    wholes: dict[tuple, tuple[DieCandidate, int, int]],
    looks: FirstLooks,
    readings: list[PipReading],
) -> JoinTrials:
    """Each join's reading, looked at again only where it could beat both its parts' readings;
    None for the joins that cannot."""
    trials: JoinTrials = dict.fromkeys(wholes)
    entries = list(wholes.items())
    hopeful = [
        k
        for k, (_, (_, i, j)) in enumerate(entries)
        if best_after_second_looks(looks.probs[k])
        > max(readings[i].confidence, readings[j].confidence)
    ]
    if hopeful:
        for k, chances in zip(hopeful, looked_again(frame_bgr, looks.part(hopeful)), strict=True):
            key, (whole, _, _) = entries[k]
            trials[key] = (whole, reading_from(chances))
    return trials


def resize_odd_ones(
    frame_bgr: np.ndarray, pairs: list[tuple[DieCandidate, PipReading]]
) -> list[tuple[DieCandidate, PipReading]]:
    """Dice on one tray seen from above are about the same size: a candidate far smaller or
    larger than the others' median is read again at that median side (a crop of part of a die
    can read surely as fewer pips), and the new reading stands when it is surer."""
    sides = [cand.size for cand, reading in pairs if reading.is_die]
    if len(sides) < ODD_SIZE_NEEDS:
        return pairs
    usual = float(np.median(sides))
    odd = [
        i
        for i, (cand, _) in enumerate(pairs)
        if not ODD_SIZE[0] <= cand.size / usual <= ODD_SIZE[1]
    ]
    if not odd:
        return pairs
    resized = [
        DieCandidate(c.center, square_quad(c.center, usual, candidate_angle(c)), usual, c.score)
        for c in (pairs[i][0] for i in odd)
    ]
    for i, cand, again in zip(odd, resized, read_faces(frame_bgr, resized), strict=True):
        if again.is_die and again.confidence > pairs[i][1].value_confidence:
            if not overlaps_a_die(cand, pairs, i):
                pairs[i] = (cand, again)
    return pairs


def overlaps_a_die(
    cand: DieCandidate, pairs: list[tuple[DieCandidate, PipReading]], own: int
) -> bool:
    """Whether another die read in the frame has its centre within 0.7 face of the candidate's
    (a grown square over a neighbour would read that neighbour twice)."""
    return any(
        index != own and reading.is_die and near(cand.center, other.center, 0.7 * cand.size)
        for index, (other, reading) in enumerate(pairs)
    )


def refit_unsure(
    frame_bgr: np.ndarray, pairs: list[tuple[DieCandidate, PipReading]]
) -> list[tuple[DieCandidate, PipReading]]:
    """Candidates read as no die or unsurely, read again on their squares fitted to the edges
    around them (the finder's side can be a third off in a crowded tray); a refit stands only
    when it reads as a die more surely and less like no die, and has not moved onto a die read
    already (a side face below a die's top face can be fitted into a face of its own).
    Candidates surely no die are not refitted."""
    unsure = [i for i, (_, reading) in enumerate(pairs) if worth_refitting(reading)]
    fitted = [(i, fit_outline(frame_bgr, pairs[i][0])) for i in unsure]
    fitted = [(i, cand) for i, cand in fitted if cand is not pairs[i][0]]
    if not fitted:
        return pairs
    pairs = list(pairs)
    again = read_faces(frame_bgr, [cand for _, cand in fitted])
    for (i, cand), reading in zip(fitted, again, strict=True):
        before = pairs[i][1]
        if (
            reading.is_die
            and reading.confidence > before.value_confidence
            and reading.no_die < before.no_die
            and not overlaps_a_die(cand, pairs, i)
        ):
            pairs[i] = (cand, reading)
    return pairs


def worth_refitting(reading: PipReading) -> bool:
    """Read unsurely, or as no die but not surely so."""
    if reading.is_die:
        return reading.confidence < REFIT_BELOW
    return reading.no_die < REFIT_NO_DIE_BELOW


# A join trial's whole and its reading, by `trial_key`; None for a whole that cannot read more
# surely than both its parts.
JoinTrials = dict[tuple, tuple[DieCandidate, PipReading] | None]


def whole_of(cand: DieCandidate, other: DieCandidate) -> DieCandidate:
    """One square over two candidates, turned as the first: the die they may both be parts of."""
    apart = distance(cand.center, other.center)
    center = ((cand.center[0] + other.center[0]) / 2, (cand.center[1] + other.center[1]) / 2)
    side = max(apart * 1.35, cand.size, other.size)
    angle = candidate_angle(cand)
    return DieCandidate(
        center, square_quad(center, side, angle), side, max(cand.score, other.score)
    )


def close_enough_to_join(cand: DieCandidate, other: DieCandidate) -> bool:
    apart = distance(cand.center, other.center)
    return apart <= 1.3 * max(cand.size, other.size)


def trial_key(cand: DieCandidate, other: DieCandidate) -> tuple:
    return (cand.center, cand.size, candidate_angle(cand), other.center, other.size)


def join_trials(candidates: list[DieCandidate]) -> dict[tuple, tuple[DieCandidate, int, int]]:
    """Every ordered pair of close candidates (by `trial_key`): the whole square over them, and
    the two candidates' indices."""
    return {
        trial_key(cand, other): (whole_of(cand, other), i, j)
        for i, cand in enumerate(candidates)
        for j, other in enumerate(candidates)
        if i != j and close_enough_to_join(cand, other)
    }


def join_split_die(
    frame_bgr: np.ndarray,
    pairs: list[tuple[DieCandidate, PipReading]],
    index: int,
    trials: JoinTrials,
) -> bool:
    """Try candidate `index` with each close neighbour as one die (the finder can take a face's
    far-apart pips for two small faces): the face net judges, and the join stands only when the
    whole reads as a die more surely than either part. Two real dice side by side read as no die
    or unsure when cut across, so they stay two. `trials` holds wholes already read."""
    cand, reading = pairs[index]
    for other_index, (other, other_reading) in enumerate(pairs):
        if other_index == index or not close_enough_to_join(cand, other):
            continue
        key = trial_key(cand, other)
        if key not in trials:  # a pair made by an earlier join
            whole = whole_of(cand, other)
            (whole_reading,) = read_faces(frame_bgr, [whole])
        elif trials[key] is None:  # cannot read more surely than both parts
            continue
        else:
            whole, whole_reading = trials[key]
        if whole_reading.is_die and whole_reading.confidence > max(
            reading.confidence, other_reading.confidence
        ):
            pairs[index] = (whole, whole_reading)
            del pairs[other_index]
            return True
    return False


def classify_both_ways(crops: list[np.ndarray], size: int = CLASSIFIER_INPUT) -> np.ndarray:
    """The net's chances, averaged with its chances for the mirror image of each crop it is
    unsure of (a face's value does not change in a mirror, the net's small quirks do): steadier
    on marbled and worn dice, at no cost for the sure ones, most of them."""
    return mirrored_where_unsure(classify_crops(crops, size), crops, size)


def mirrored_where_unsure(probs: np.ndarray, crops: list[np.ndarray], size: int) -> np.ndarray:
    """Chances given for crops, averaged with the chances for the mirror image of each crop they
    are unsure of."""
    probs = probs.copy()
    unsure = [i for i, chances in enumerate(probs) if chances.max() < MIRROR_BELOW]
    if unsure:
        mirrored = classify_crops([cv2.flip(crops[i], 1) for i in unsure], size)
        probs[unsure] = (probs[unsure] + mirrored) / 2.0
    return probs


def count_pips(face_bgr: np.ndarray) -> PipReading:
    """Read a rectified top face (a square BGR crop of the face alone, as `find.rectify` gives).

    The net wants a margin around the face; the face's own border is repeated to make one.
    """
    if face_bgr.ndim != 3 or face_bgr.shape[0] != face_bgr.shape[1] or face_bgr.shape[0] < 16:
        raise ValueError(f"face must be a square BGR crop of at least 16 px, got {face_bgr.shape}")
    inner = int(round(CLASSIFIER_INPUT / CROP_CONTEXT))
    face = cv2.resize(face_bgr, (inner, inner), interpolation=cv2.INTER_AREA)
    before = (CLASSIFIER_INPUT - inner) // 2
    after = CLASSIFIER_INPUT - inner - before
    padded = cv2.copyMakeBorder(face, before, after, before, after, cv2.BORDER_REPLICATE)
    return reading_from(classify_crops([padded])[0])
