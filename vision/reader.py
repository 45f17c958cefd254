"""The public dice-reading API: frames in, a Reading (dice with values and confidences) out."""

from __future__ import annotations

import functools
import importlib
import inspect
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.find import (
    PEAK_THRESHOLD,
    Roi,
    candidate_angle,
    check_frame,
    find_dice,
    rectify,
    square_quad,
)
from vision.outline import fit_outline
from vision.pips import PipReading, read_dice
from vision.types import Die, DieCandidate, Face, Reading

KINDS = ("d6", "poker")
RECTIFIED_SIZE = 64
DEFAULT_MIN_CONFIDENCE = 0.5
# A profile's confidence below which an unmatched candidate is taken for no die at all: on the
# dice-free crops of the real photos every phantom of the poker profile scored 0.20-0.35, on
# rendered empty trays under 0.15; of 413 rendered poker dice one was refused, at 0.22.
PROFILE_NO_FACE = 0.4
# The finder learned mostly pip dice and lights up less on poker faces; with a profile, which
# refuses what matches no face, its peaks are taken from this lower heat.
PROFILE_PEAK_THRESHOLD = 0.2
# A half-side move of a candidate the profile could not read (see read_halves) is a die when it
# reads this surely. On 360 rendered poker trays not in the bench: 99.2% -> 99.4% of dice, no
# phantom on 360 empty trays nor on the 169 dice-free real crops.
HALF_READ_AT = 0.6
# An unsure d6 candidate given at least this chance of being no die is not reported.
UNSURE_NO_DIE = 0.15
# ... when read less surely than this: a die read at 0.56 with 0.25 on "no die" was a white tag.
UNSURE_BELOW = 0.6


def load_default_profile(kind: str) -> Any:
    """The shipped face profile for a kind of dice that has no pips (poker dice)."""
    try:
        module = importlib.import_module("vision.profile")
    except ModuleNotFoundError as error:
        raise ValueError(f"reading {kind!r} dice needs vision.profile, which is missing") from error
    return module.FaceProfile.load_default(kind)


class DiceReader:
    """Reads every die in a frame: pips for d6, a learned face profile for poker dice."""

    def __init__(
        self,
        kind: str = "d6",
        profile: Any = None,
        roi: Roi | None = None,
        min_confidence: float = DEFAULT_MIN_CONFIDENCE,
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

    def read(self, frame_bgr: np.ndarray) -> Reading:
        """Every die found in the frame, unreadable ones with value None and a reason."""
        start = time.perf_counter()
        check_frame(frame_bgr)
        threshold = PROFILE_PEAK_THRESHOLD if self.profile is not None else PEAK_THRESHOLD
        candidates = find_dice(frame_bgr, self.roi, threshold)
        if self.profile is not None:
            read = (self.read_with_profile(frame_bgr, c) for c in candidates)
            dice = self.read_halves(frame_bgr, candidates, [d for d in read if d is not None])
        else:
            dice = self.read_pips(frame_bgr, candidates)
        return Reading(dice=tuple(dice), ms=(time.perf_counter() - start) * 1000.0)

    def read_pips(self, frame_bgr: np.ndarray, candidates: list[DieCandidate]) -> list[Die]:
        """d6 dice: the face net reads each candidate; what it calls no die is dropped."""
        return [
            self.judged(cand, reading.value, reading.confidence, reading.doubt)
            for cand, reading in read_dice(frame_bgr, candidates)
            if reading.is_die and not self.phantom_like(reading)
        ]

    def phantom_like(self, reading: PipReading) -> bool:
        """Unsure of its value and with a real chance of being no die: more likely a mark on the
        tray than a die (real dice the net can't read put under 0.15 on "no die")."""
        return reading.confidence < UNSURE_BELOW and reading.no_die >= UNSURE_NO_DIE

    def read_with_profile(self, frame_bgr: np.ndarray, cand: DieCandidate) -> Die | None:
        """The profile's face for the candidate; None (no die) when it resembles no face at all."""
        value, confidence = self.profile.classify(rectify(frame_bgr, cand, RECTIFIED_SIZE))
        if confidence < self.min_confidence or value is None:
            fitted = fit_outline(frame_bgr, cand)
            if fitted is not cand:
                tried = self.profile.classify(rectify(frame_bgr, fitted, RECTIFIED_SIZE))
                if tried[1] > confidence:
                    (value, confidence), cand = tried, fitted
        if value is None and confidence < PROFILE_NO_FACE:
            return None
        if value is None:
            return Die(None, cand.center, float(confidence), cand.quad, "profile: no face matches")
        return self.judged(cand, value, float(confidence), "")

    def read_halves(
        self, frame_bgr: np.ndarray, candidates: list[DieCandidate], dice: list[Die]
    ) -> list[Die]:
        """Dice found again around the candidates the profile could not read: a candidate on
        the line between two touching dice shows half of each, so die-sized squares half a side
        to each of its four sides are read too. One that reads at HALF_READ_AT (or the reader's
        min_confidence, if higher) or more, away from every die read, is a die; an unreadable
        die within half its side is dropped."""
        read = [d for d in dice if d.value is not None]
        classify = quick_classifier(self.profile)
        found: list[tuple[Die, float]] = []
        for cand in candidates:
            if any(near(cand.center, d.center, 0.3 * cand.size) for d in read):
                continue
            tries = []
            for square in halves(cand):
                crop = rectify(frame_bgr, square, RECTIFIED_SIZE)
                value, confidence = classify(crop)
                if value is not None and confidence >= max(HALF_READ_AT, self.min_confidence):
                    tries.append((confidence, square, value))
            for confidence, square, value in sorted(tries, key=lambda t: -t[0]):
                others = read + [die for die, _ in found]
                if not any(near(square.center, d.center, 0.7 * square.size) for d in others):
                    found.append((Die(value, square.center, confidence, square.quad), square.size))
        kept = [
            d
            for d in dice
            if d.value is not None
            or not any(near(d.center, f.center, 0.5 * side) for f, side in found)
        ]
        return kept + [die for die, _ in found]

    def judged(self, cand: DieCandidate, value: Face, confidence: float, doubt: str) -> Die:
        """The die with its value, or unreadable when the reader is not sure enough."""
        confidence = float(np.clip(confidence, 0.0, 1.0))
        if confidence < self.min_confidence:
            reason = f"unsure: {value} ({confidence:.2f}) or {doubt}"
            return Die(None, cand.center, confidence, cand.quad, reason)
        return Die(value, cand.center, confidence, cand.quad)


def quick_classifier(profile: Any) -> Callable[[np.ndarray], tuple[Face | None, float]]:
    """The profile's classify without its moved tries, where it offers that (a caller's own
    profile may not)."""
    if "moved" in inspect.signature(profile.classify).parameters:
        return functools.partial(profile.classify, moved=False)
    return profile.classify


def near(a: tuple[float, float], b: tuple[float, float], distance: float) -> bool:
    return float(np.hypot(a[0] - b[0], a[1] - b[1])) < distance


def halves(cand: DieCandidate) -> list[DieCandidate]:
    """Squares of the candidate's side and of 0.8 of it, moved half their side along each of the
    candidate's four directions."""
    angle = candidate_angle(cand)
    theta = np.deg2rad(angle)
    along = np.array([np.cos(theta), np.sin(theta)])
    across = np.array([-np.sin(theta), np.cos(theta)])
    squares = []
    for side in (cand.size, 0.8 * cand.size):
        for step in (along, -along, across, -across):
            center = tuple(float(v) for v in np.add(cand.center, 0.5 * side * step))
            squares.append(DieCandidate(center, square_quad(center, side, angle), side, cand.score))
    return squares


def load_image(path: str | Path) -> np.ndarray:
    """A BGR image from disk; ValueError naming the file when missing, not an image or cut short."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such image file")
    data = np.fromfile(path, dtype=np.uint8)
    if data.size == 0:
        raise ValueError(f"{path}: empty file, not an image")
    if looks_truncated(data):
        raise ValueError(f"{path}: image file is truncated")
    image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"{path}: not a readable image")
    return image


def looks_truncated(data: np.ndarray) -> bool:
    """A JPEG must end with its end-of-image marker, a PNG with its IEND chunk."""
    tail = data[-12:].tobytes()
    head = data[:8].tobytes()
    if head.startswith(b"\xff\xd8"):
        return b"\xff\xd9" not in tail
    if head.startswith(b"\x89PNG"):
        return b"IEND" not in tail
    return False


def read_image(path: str | Path, kind: str = "d6") -> Reading:
    """Read the dice in one image file."""
    return DiceReader(kind=kind).read(load_image(path))
