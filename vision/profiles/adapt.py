"""Adapting the reader to one table's dice from the rolls its players confirmed.

Every confirmed roll is a labelled example of this table's dice under this table's light: a crop
of each die (`example_crop`) with the value the players confirmed. Nothing is retrained:

* pip dice read by the faces net: `pip_adapter` keeps the net's inner features (the layer before
  its last, 64 numbers a crop) of the table's examples and reads a die by its nearest examples
  there, where a die is close enough to them; elsewhere the net's own answer stands.
  `counted_pip_adapter` compares the pips counted on a crop as well (vision/read/pip_count.py), and
  `checked_pip_adaptation` keeps whichever of the two reads the newest examples better.
* dice read with a face profile (poker dice, unusual d6): `AdaptedProfile` reads a die by its
  nearest table examples in colour (`colour_description`) where they vouch for it, by the
  profile elsewhere.

`checked_adaptation` builds an adaptation from the older examples, reads the newest ones with it
and with the adaptation in use (or none), and refuses it when it reads them less well: the reader
then keeps what it had. Pure: numpy and the reader's own nets, no files.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from typing import Any

import cv2
import numpy as np

from vision.read._nets import (
    CLASSIFIER_INPUT,
    NOT_A_DIE,
    crop_face,
    face_model_name,
    load_net,
    to_blob,
)
from vision.read.find import candidate_angle, rectify
from vision.read.pip_count import PipCount
from vision.read.types import DieCandidate, Face

EXAMPLE_SIDE = 64  # examples are kept as this-square BGR crops
# Fewer examples than this (all faces together) adapt nothing yet.
MIN_EXAMPLES = 10
# The newest share of the examples that judges an adaptation built from the others.
HELD_OUT_SHARE = 0.3
# Nearest examples that vote on a die's value, and how sharply the nearest count more.
NEIGHBOURS = 7
VOTE_SHARPNESS = 0.03
# A die is read by its nearest examples only when it is at least this close (cosine) to one:
# a share of the examples' own nearest-same-face closeness (leave one out), less a margin.
TRUST_PERCENTILE = 2
TRUST_MARGIN = 0.03
# ... and for pip dice never less than this: examples far apart (dice of many looks, marbled
# ones) vouch for nothing but what is very like one of them (at 0.70, ten real marbled photos'
# examples read 13 dice of 8 held-out photos wrong, where the net alone read 1). Not for the
# colour descriptions of profile dice, whose same-face closeness runs lower (with 0.9 there the
# poker table read 99.6% after 30 rolls, without it 100%).
TRUST_FLOOR = 0.9
# ... and within this much closer than that, the examples only doubt: where their vote differs
# from the reader's own answer, the die is unreadable rather than maybe wrong.
DOUBT_BAND = 0.06
# Pip dice: the examples vouch only where the nearest example of the face they vote for is
# this much closer than the nearest of any other face (else they only doubt).
VOTE_MARGIN = 0.02
# An adaptation that reads more of the newest examples wrong than this share (and more than
# one) is refused, however the reader reads them now: unreadable rather than wrong.
MAX_WRONG_SHARE = 0.02
# A verdict's confidence in the doubt band is at most this (under the reader's 0.5).
DOUBT_CONFIDENCE = 0.3


@dataclass(frozen=True)
class Example:
    """One die of a confirmed roll: its crop, the value confirmed, and whether a player
    corrected the reader's value for it (the most valuable kind)."""

    crop: np.ndarray  # EXAMPLE_SIDE-square BGR uint8, see example_crop
    value: Face
    corrected: bool = False


def example_crop(
    frame_bgr: np.ndarray, center: tuple[float, float], quad: np.ndarray, profiled: bool
) -> np.ndarray:
    """The crop kept of a die read at `center` on `quad` (4x2 corners): for dice read with a
    profile the face alone, as the profile sees it; else the faces net's view (the face with a
    margin round it, turned as the reader turns it)."""
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    side = float(np.linalg.norm(quad[1] - quad[0]))
    cand = DieCandidate((float(center[0]), float(center[1])), quad, side)
    if profiled:
        return rectify(frame_bgr, cand, EXAMPLE_SIDE)
    return crop_face(frame_bgr, cand.center, side, candidate_angle(cand), size=EXAMPLE_SIDE)


# ------------------------------------------------------------------ the faces net's features


@lru_cache(maxsize=2)
def _feature_layer(model: str) -> str:
    """The layer whose output is the features: the last ReLU before the net's scores (found by
    type, not by name, so a retrained net of the same shape needs nothing changed)."""
    net = load_net(model, None, "features")
    names = list(net.getLayerNames())
    relus = [name for name in names if net.getLayer(name).type == "ReLU"]
    if not relus:
        raise ValueError(f"{model}: no ReLU layer to take features from")
    return relus[-1]


def net_features(crops: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(unit-length features N x F, chances N x 7) of example-style crops through the faces net,
    in one pass."""
    if not len(crops):
        return np.zeros((0, 1), np.float32), np.zeros((0, 7), np.float32)
    model = face_model_name(CLASSIFIER_INPUT)
    net = load_net(model, None, "features")
    small = [
        cv2.resize(crop, (CLASSIFIER_INPUT, CLASSIFIER_INPUT), interpolation=cv2.INTER_AREA)
        for crop in crops
    ]
    net.setInput(to_blob(small))
    features, logits = net.forward([_feature_layer(model), net.getUnconnectedOutLayersNames()[0]])
    features = features.reshape(len(crops), -1).astype(np.float32)
    features /= np.linalg.norm(features, axis=1, keepdims=True) + 1e-6
    logits = logits.reshape(len(crops), -1)
    exp = np.exp(logits - logits.max(axis=1, keepdims=True))
    return features, exp / exp.sum(axis=1, keepdims=True)


# ------------------------------------------------------------------ nearest examples

Verdict = tuple[Face | None, float]
Describe = Callable[[Sequence[np.ndarray]], np.ndarray]


@dataclass(frozen=True)
class NearestExamples:
    """The table's examples as unit-length descriptions (`describe`): a die close enough to them
    is read by its nearest examples' vote."""

    features: np.ndarray  # M x F, unit length (several rows an example where it is turned)
    values: np.ndarray  # M face values
    trust: float  # closeness (cosine) from which a die is read by its nearest examples
    describe: Describe
    turns: int = 1  # rows an example: the example turned by quarter turns
    margin: float = 0.0  # see VOTE_MARGIN

    @classmethod
    def build(
        cls,
        examples: Sequence[Example],
        describe: Describe,
        turns: int = 1,
        margin: float = 0.0,
        floor: float = -1.0,
        described: Describe | None = None,
    ) -> Any:
        """`floor`: the least closeness the examples vouch from (see TRUST_FLOOR); `described`:
        `describe` for the examples' crops where it is cheaper for them (remembered ones)."""
        crops = [np.rot90(e.crop, turn) for e in examples for turn in range(turns)]
        features = (described or describe)(crops)
        values = np.array([e.value for e in examples for _ in range(turns)], dtype=object)
        trust = max(_trust(features, values, turns), floor)
        return cls(features, values, trust, describe, turns, margin)

    def verdicts(self, crops: Sequence[np.ndarray]) -> list[Verdict | None]:
        """Per crop: (value, confidence) from the nearest examples, or None where the crop is not
        close enough to any (the reader's own answer then stands)."""
        if not len(crops):
            return []
        # One matrix product for all the crops: a product per crop cost 8 ms each (600 rows of
        # examples turned four ways) on the busy development machine, 80 ms a poker tray.
        closeness = self.describe(crops) @ self.features.T
        return [self.verdict(row) for row in closeness]

    def leave_one_out(self) -> Check:
        """Each example read by the others' vote (its own turns left out): right and wrong where
        they vouch for a value."""
        closeness = _closeness_to_others(self.features, self.turns)
        right = wrong = 0
        for row in range(0, len(self.features), self.turns):
            verdict = self.verdict(closeness[row])
            if verdict is None or not vouched(verdict):
                continue
            right += verdict[0] == self.values[row]
            wrong += verdict[0] != self.values[row]
        return Check(right, wrong, len(self.features) // self.turns)

    def verdict(self, closeness: np.ndarray) -> Verdict | None:
        """The nearest examples' vote, given a crop's closeness to each example; a doubt
        (confidence under DOUBT_CONFIDENCE) where the crop is only nearly close enough; None
        where it is far from them all."""
        nearest = np.argsort(-closeness)[:NEIGHBOURS]
        if closeness[nearest[0]] < self.trust - DOUBT_BAND:
            return None
        weights = np.exp((closeness[nearest] - closeness[nearest[0]]) / VOTE_SHARPNESS)
        votes: dict[Face, float] = {}
        for value, weight in zip(self.values[nearest], weights, strict=True):
            votes[value] = votes.get(value, 0.0) + float(weight)
        value = max(votes, key=lambda v: votes[v])
        confidence = votes[value] / sum(votes.values())
        same = self.values == value
        margin = closeness[same].max() - (closeness[~same].max() if (~same).any() else -1.0)
        if closeness[nearest[0]] < self.trust or margin < self.margin:
            return value, min(confidence, DOUBT_CONFIDENCE)
        return value, confidence


def vouched(verdict: Verdict | None) -> bool:
    """The examples read a die there (not merely doubt, nor say nothing)."""
    return verdict is not None and verdict[0] is not None and verdict[1] > DOUBT_CONFIDENCE


def with_doubt(verdict: Verdict | None, own: Verdict) -> Verdict:
    """The reader's own verdict `own`, told the examples' `verdict`: theirs where they vouch;
    unreadable where they doubt and vote otherwise; else its own."""
    if vouched(verdict):
        return verdict  # type: ignore[return-value]
    if verdict is not None and own[0] is not None and verdict[0] != own[0]:
        return None, min(own[1], DOUBT_CONFIDENCE)
    return own


def _trust(features: np.ndarray, values: np.ndarray, turns: int) -> float:
    """The closeness from which the examples vouch for a die: how close each example is to its
    nearest other example of the same face (not to itself turned), low end, less a margin."""
    closeness = _closeness_to_others(features, turns)
    same = values[:, None] == values[None, :]
    nearest_same = np.where(same, closeness, -1.0).max(axis=1)
    nearest_same = nearest_same[nearest_same > -1.0]
    if not len(nearest_same):
        return 1.01  # one example per face: nothing vouches yet
    return float(np.percentile(nearest_same, TRUST_PERCENTILE)) - TRUST_MARGIN


def _closeness_to_others(features: np.ndarray, turns: int) -> np.ndarray:
    """Each example row's closeness to every other example's rows, -1 to its own turns."""
    closeness = features @ features.T
    owners = np.arange(len(features)) // turns
    closeness[owners[:, None] == owners[None, :]] = -1.0
    return closeness


# ------------------------------------------------------------------------------- pip dice


class RememberedFeatures:
    """The faces net's features of example crops (`net_features`), each crop through the net
    once however often it is asked: choosing an adaptation builds two ways, each twice (from
    the older examples, then from all), on the same examples."""

    def __init__(self) -> None:
        self._known: dict[bytes, np.ndarray] = {}

    def __call__(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        if not len(crops):
            return net_features(crops)[0]
        keys = [_content_key(crop) for crop in crops]
        pairs = zip(keys, crops, strict=True)
        missing = {key: crop for key, crop in pairs if key not in self._known}
        if missing:
            features = net_features(list(missing.values()))[0]
            self._known.update(zip(missing, features, strict=True))
        return np.array([self._known[key] for key in keys], np.float32)


def _content_key(crop: np.ndarray) -> bytes:
    return hashlib.blake2b(np.ascontiguousarray(crop).tobytes(), digest_size=16).digest()


def _net_description(crops: Sequence[np.ndarray]) -> np.ndarray:
    return net_features(crops)[0]


def pip_adapter(
    examples: Sequence[Example], remembered: RememberedFeatures | None = None
) -> NearestExamples:
    """Nearest examples in the faces net's feature space (the crops as the net sees them)."""
    return NearestExamples.build(
        examples,
        _net_description,
        turns=4,
        margin=VOTE_MARGIN,
        floor=TRUST_FLOOR,
        described=remembered,
    )


# In a counted description, the share of closeness that is the pip count's (the rest the net's).
COUNT_SHARE = 0.5


def counted_pip_adapter(
    examples: Sequence[Example], remembered: RememberedFeatures | None = None
) -> NearestExamples:
    """Nearest examples by the faces net's features and the pips counted on the crop, with the
    count's threshold fitted to the examples (vision/read/pip_count.py): a face the net takes for
    another because of a highlight where a pip would be is near its own face's examples here."""
    count = PipCount.fit([e.crop for e in examples], [int(e.value) for e in examples])

    def counted(features_of: Describe) -> Describe:
        def describe(crops: Sequence[np.ndarray]) -> np.ndarray:
            return np.hstack(
                [
                    features_of(crops) * np.sqrt(1.0 - COUNT_SHARE),
                    count.described(crops) * np.sqrt(COUNT_SHARE),
                ]
            )

        return describe

    return NearestExamples.build(
        examples,
        counted(_net_description),
        turns=4,
        margin=VOTE_MARGIN,
        described=counted(remembered) if remembered is not None else None,
    )


# The ways pip dice adapt, by what they compare, tried in turn by `best_checked_adaptation`
# (the first wins a tie).
PIP_ADAPTERS = {
    "the net's features": pip_adapter,
    "the net's features and the pips counted": counted_pip_adapter,
}


def net_verdicts(crops: Sequence[np.ndarray]) -> list[Verdict]:
    """The faces net's own answer for example crops (its no-die verdict as None)."""
    _, chances = net_features(crops)
    verdicts: list[Verdict] = []
    for row in chances:
        best = int(np.argmax(row))
        verdicts.append((None if best == NOT_A_DIE else best, float(row[best])))
    return verdicts


def pip_reads(adapter: NearestExamples | None) -> Callable[[Sequence[np.ndarray]], list[Verdict]]:
    """Crops -> verdicts by the adapter where it vouches, by the net elsewhere."""

    def read(crops: Sequence[np.ndarray]) -> list[Verdict]:
        own = net_verdicts(crops)
        if adapter is None:
            return own
        return [
            with_doubt(adapted, mine)
            for adapted, mine in zip(adapter.verdicts(crops), own, strict=True)
        ]

    return read


# ------------------------------------------------------------------------- profile dice

_DESCRIPTION_SIDE = 20
_DESCRIPTION_DISC = 0.46  # share of the side: the face's middle, without the die's edges


def _disc_of(side: int) -> np.ndarray:
    centre = (side - 1) / 2
    ys, xs = np.mgrid[0:side, 0:side]
    return np.hypot(xs - centre, ys - centre) <= _DESCRIPTION_DISC * side


_DISC = _disc_of(_DESCRIPTION_SIDE)


def colour_description(crops: Sequence[np.ndarray]) -> np.ndarray:
    """Unit-length descriptions of face crops in colour: where and in which colour the face
    departs from its body (Lab, less the body's median), in the face's middle. The faces of a
    poker set can differ mostly by colour (blue, green and red figures), which a profile's ink
    map does not tell apart."""
    rows = []
    for crop in crops:
        side = (_DESCRIPTION_SIDE, _DESCRIPTION_SIDE)
        small = cv2.resize(crop, side, interpolation=cv2.INTER_AREA)
        lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
        ink = (lab - np.median(lab[_DISC], axis=0))[_DISC]
        ink[:, 1:] *= 2.0  # colour counts as much as lightness: a and b span less than L
        row = ink.ravel()
        rows.append(row / (np.linalg.norm(row) + 1e-6))
    return np.array(rows, np.float32)


def face_adapter(examples: Sequence[Example]) -> NearestExamples:
    """Nearest examples by colour description, each example in its four quarter turns (a face
    is cut along the finder's square, upright to within a quarter turn)."""
    return NearestExamples.build(examples, colour_description, turns=4)


class AdaptedProfile:
    """A face profile read through the table's nearest examples first: a crop they vouch for is
    read by them (and not compared with the profile's templates at all), the rest by the
    profile. Reads like a FaceProfile for the reader."""

    def __init__(self, profile: Any, adapter: NearestExamples) -> None:
        self.profile = profile
        self.adapter = adapter

    def __getattr__(self, name: str) -> Any:
        return getattr(self.profile, name)

    def classify(self, crop_bgr: np.ndarray, moved: bool = True) -> Verdict:
        return self.classify_many([crop_bgr], moved)[0]

    def classify_many(self, crops_bgr: Sequence[np.ndarray], moved: bool = True) -> list[Verdict]:
        squares = [_square_crop(crop) for crop in crops_bgr]
        theirs = self.adapter.verdicts(squares)
        verdicts: list[Verdict | None] = [v if vouched(v) else None for v in theirs]
        rest = [i for i, verdict in enumerate(verdicts) if verdict is None]
        if rest:
            own = self.profile.classify_many([crops_bgr[i] for i in rest], moved=moved)
            for i, verdict in zip(rest, own, strict=True):
                verdicts[i] = with_doubt(theirs[i], verdict)
        return [verdict for verdict in verdicts if verdict is not None]


def _square_crop(crop: np.ndarray) -> np.ndarray:
    if crop.shape[:2] == (EXAMPLE_SIDE, EXAMPLE_SIDE):
        return crop
    return cv2.resize(crop, (EXAMPLE_SIDE, EXAMPLE_SIDE), interpolation=cv2.INTER_AREA)


def adapted_profile(base: Any) -> Callable[[Sequence[Example]], AdaptedProfile]:
    """Builds `base` read through the nearest of the examples it is given."""
    return lambda examples: AdaptedProfile(base, face_adapter(examples))


def profile_reads(profile: Any) -> Callable[[Sequence[np.ndarray]], list[Verdict]]:
    return lambda crops: list(profile.classify_many(list(crops)))


# ------------------------------------------------------------------- the held-out check


@dataclass(frozen=True)
class Check:
    """How one reading of the held-out examples went."""

    right: int
    wrong: int
    examples: int

    @property
    def accuracy(self) -> float:
        return self.right / self.examples if self.examples else float("nan")


@dataclass(frozen=True)
class Outcome:
    """An adaptation tried: the one the reader should use now, and why."""

    adaptation: Any  # what to read with (None: no adaptation)
    accepted: bool
    reason: str
    before: Check | None = None  # the held-out examples read as the reader reads now
    after: Check | None = None  # ... and with the adaptation tried


def check(
    read: Callable[[Sequence[np.ndarray]], list[Verdict]],
    examples: Sequence[Example],
    min_confidence: float,
) -> Check:
    """Held-out examples read: a value under `min_confidence` counts as unreadable, neither
    right nor wrong."""
    verdicts = read([example.crop for example in examples])
    right = wrong = 0
    for example, (value, confidence) in zip(examples, verdicts, strict=True):
        if value is None or confidence < min_confidence:
            continue
        right += value == example.value
        wrong += value != example.value
    return Check(right, wrong, len(examples))


def checked_adaptation(
    examples: Sequence[Example],
    build: Callable[[Sequence[Example]], Any],
    reads: Callable[[Any], Callable[[Sequence[np.ndarray]], list[Verdict]]],
    current: Any,
    min_confidence: float = 0.5,
) -> Outcome:
    """A new adaptation from all `examples` (oldest first), kept only if the one built from the
    older ones reads the newest HELD_OUT_SHARE no worse than `current` (the adaptation in use,
    None for none): no fewer right and no more wrong. Otherwise `current` stays."""
    if len(examples) < MIN_EXAMPLES:
        return Outcome(current, False, f"{len(examples)} examples, {MIN_EXAMPLES} needed")
    held = max(1, int(round(len(examples) * HELD_OUT_SHARE)))
    older, newest = examples[:-held], examples[-held:]
    before = check(reads(current), newest, min_confidence)
    after = check(reads(build(older)), newest, min_confidence)
    too_many_wrong = after.wrong > max(1, MAX_WRONG_SHARE * held)
    if after.right < before.right or after.wrong > before.wrong or too_many_wrong:
        reason = (
            f"refused: on the {held} newest examples it reads {after.right} right, "
            f"{after.wrong} wrong; the reader now {before.right} right, {before.wrong} wrong"
        )
        return Outcome(current, False, reason, before, after)
    reason = (
        f"adapted to {len(examples)} examples: newest {held} read {after.right} right, "
        f"{after.wrong} wrong (before: {before.right} right, {before.wrong} wrong)"
    )
    return Outcome(build(examples), True, reason, before, after)


def best_checked_adaptation(
    examples: Sequence[Example],
    builds: Mapping[str, Callable[[Sequence[Example]], NearestExamples]],
    reads: Callable[[Any], Callable[[Sequence[np.ndarray]], list[Verdict]]],
    current: Any,
    min_confidence: float = 0.5,
) -> Outcome:
    """`checked_adaptation` of each way of building one (by name), the accepted one that reads
    the newest examples best kept (fewest wrong, then most right), on a tie the one whose
    examples read each other best (`leave_one_out`), then the earlier way; its reason names the
    way. The first way's refusal where none is accepted."""
    outcomes = {
        name: checked_adaptation(examples, build, reads, current, min_confidence)
        for name, build in builds.items()
    }
    accepted = [(name, o) for name, o in outcomes.items() if o.accepted and o.after is not None]
    if not accepted:
        return next(iter(outcomes.values()))

    def rank(pair: tuple[str, Outcome]) -> tuple[int, int, int, int]:
        after, among = pair[1].after, pair[1].adaptation.leave_one_out()
        assert after is not None
        return after.wrong, -after.right, among.wrong, -among.right

    name, best = min(accepted, key=rank)
    return replace(best, reason=f"{best.reason}; by {name}")


def checked_pip_adaptation(examples: Sequence[Example], current: Any) -> Outcome:
    """The pip dice's adaptation to `examples`, the best of PIP_ADAPTERS that passes the
    held-out check against `current` (the adapter in use, None for none)."""
    remembered = RememberedFeatures()
    builds = {name: partial(build, remembered=remembered) for name, build in PIP_ADAPTERS.items()}
    return best_checked_adaptation(examples, builds, pip_reads, current)
