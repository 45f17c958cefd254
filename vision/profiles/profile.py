"""Learned face profiles: read a dice set (poker dice, or unusual d6) from a few example pictures.

A profile keeps a few square top-face crops per face (one small .npz file). Each crop becomes an
"ink map" reduced to strokes (vision/profiles/ink_maps.py). Crops are read as cut along the face's
square (and, when their edges lie well off the crop's sides, turned square to them), so at load time
every example is turned only through the four quarter turns, each slightly turned and rescaled,
giving the templates; reading a crop is nearest-template matching by correlation. A crop that
does not match clearly is tried again slightly moved and rescaled (a finder's outline is rarely
exact). A crop that matches no face well (a d6 shown to a poker profile, a coin, the tray) is
refused: (None, confidence below 0.5).

Poker profiles (where vision/models/poker_embed.onnx is shipped) also keep each example's
learned embedding (vision/profiles/face_embedding.py) at its four quarter turns: a crop's likeness
to a face is half its best embedding similarity to that face's examples and half its ink maps' (for
the embedding's two likeliest faces only), without moved tries (the net learned moved and
rescaled faces). `profile.method` says which ("embedding" or "ink").

    profile = FaceProfile.learn({"9": [crop, ...], "10": [...], ...}, kind="poker")
    value, confidence = profile.classify(crop_bgr)     # (None, c) when nothing matches well
    profile.save("my-dice.npz"); FaceProfile.load("my-dice.npz")

The templates and the likeness of crops to them are `vision.profiles.face_templates`; this module
decides from that likeness. Learning one from photos is `vision.profiles.profile_learning`; from
rendered dice, `vision.train.profile_check`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.profiles import profile_file
from vision.profiles.face_embedding import FaceEmbedder
from vision.profiles.face_templates import FaceTemplates, Likeness
from vision.profiles.ink_maps import square_crop
from vision.read.types import Face, face_key, faces_of

__all__ = ["DEFAULT_PROFILES", "FaceProfile"]

DEFAULT_MIN_SIMILARITY = 0.8  # below this best match, a crop is refused
DEFAULT_MIN_MARGIN = 0.03  # best face must beat the runner-up face by this much
# Confidence is 1 this far past both thresholds (0.9 at four fifths of it: the reader's "sure"):
# on rendered dice of new designs, right answers scored medians of 0.9 and margins of 0.2.
SURE_BEYOND = 0.1
# Poker profiles compare the faces' embeddings (vision/profiles/face_embedding.py) where the model
# is shipped, half and half with the ink maps (face_templates.INK_WEIGHT), with thresholds of their
# own. On 12 designs of `tabletop bench poker --seed 20 --designs 2 --trays 20`: the embedding alone
# read 87.9% of dice right, 3.9% wrong; with the ink maps 84.6% and 1.7% (and on the bench's own
# seeds 0 and 7, 91.7/5.1 and 90.5/4.2 against 90.1/2.1 and 88.0/1.5): wrong answers cost more than
# unreadable ones. Thresholds 0.6/0.05 read 2.1% more right and 1.9% more wrong.
EMBEDDED = "embedding"
INKED = profile_file.INKED
EMBEDDED_THRESHOLDS = {"min_similarity": 0.65, "min_margin": 0.065, "sure_beyond": 0.12}
INK_THRESHOLDS = {
    "min_similarity": DEFAULT_MIN_SIMILARITY,
    "min_margin": DEFAULT_MIN_MARGIN,
    "sure_beyond": SURE_BEYOND,
}
# The confidence of a crop as like one face as another: the lowest that still counts as a die
# (vision.read.profiled.PROFILE_NO_FACE is 0.4), unreadable. Without it such a die was dropped as no
# die at all (a K as like a taught A of its suit as its own K examples: 0.84 each).
TORN = 0.45
DEFAULT_PROFILES = Path(__file__).resolve().parent
# An embedded profile's reading checks itself (`doubted`, #55): the learned embedding alone must
# tell the face read from the next by EMBEDDING_MARGIN, however sure the likeness (the embedding
# averaged with the ink maps). Where it does not, the ink maps alone chose the face, and they
# confuse faces a set prints alike (a J and a K told apart by colour, light print on a dark die):
# the die is unreadable, and the table asks for a touch. Chosen on the home generator only
# (`vision.synth.poker_designs`, designs 400 of each kind, printed as drawn on light bodies and
# light on black ones, taught from tray photos and from close-ups of 60-1500 px filling 30-90 %
# of the photo, 12 trays each: 564 dice): the least margin at which no die was wrong. Of the
# 282 light dice, 3 of the 281 read right become unreadable; of the 282 dark ones, 57 wrong and
# 164 right become unreadable (45 right stay). Requiring the ink maps to agree with the
# embedding removed no wrong die more there and cost 1-10 right ones: not done.
EMBEDDING_MARGIN = 0.035


@dataclass
class FaceProfile:
    """Example crops of each face of one dice set, and the templates built from them."""

    kind: str
    examples: dict[Face, list[np.ndarray]]
    min_similarity: float | None = None  # None: the method's own (see thresholds_of)
    min_margin: float | None = None
    notes: list[str] = field(default_factory=list)  # what learning had to decide (e.g. which die)
    # The photos learning names for the player to check
    # (`vision.profiles.profile_learning.LookAlike`).
    look_alikes: list = field(default_factory=list)
    # The photo each example was cut from, per face (examples of one photo share a number, so
    # the self-check leaves them out together); None: each example a photo of its own.
    sources: dict[Face, list[int]] | None = None
    _embedder: FaceEmbedder | None = field(init=False, repr=False)
    _sure_beyond: float = field(init=False, repr=False)
    _templates: FaceTemplates = field(init=False, repr=False)

    def __post_init__(self) -> None:
        faces = faces_of(self.kind)
        missing = [f for f in faces if not self.examples.get(f)]
        if missing:
            raise ValueError(
                f"a {self.kind} profile needs examples of every face; missing {missing}"
            )
        extra = [f for f in self.examples if f not in faces]
        if extra:
            raise ValueError(f"{extra} are not {self.kind} faces ({faces})")
        self.examples = {f: [square_crop(c) for c in self.examples[f]] for f in faces}
        if self.sources is not None and any(
            len(self.sources.get(f, ())) != len(self.examples[f]) for f in faces
        ):
            raise ValueError("a profile's sources name one photo for each example")
        self._embedder = embedder_for(self.kind)
        defaults = thresholds_of(self.method)
        if self.min_similarity is None:
            self.min_similarity = defaults["min_similarity"]
        if self.min_margin is None:
            self.min_margin = defaults["min_margin"]
        self._sure_beyond = defaults["sure_beyond"]
        self._build_templates()

    @property
    def method(self) -> str:
        """How crops are compared: EMBEDDED (the learned embedding) or INKED (ink maps)."""
        return EMBEDDED if self._embedder is not None else INKED

    def _build_templates(self) -> None:
        examples = self._labelled_examples()
        self._templates = FaceTemplates(examples, self._sources(), len(self.faces), self._embedder)

    def _labelled_examples(self) -> list[tuple[int, np.ndarray]]:
        """(face index, example crop) for every example, face by face."""
        return [(label, ex) for label, f in enumerate(self.faces) for ex in self.examples[f]]

    def _sources(self) -> list[int]:
        """A number for the source (photo) of each example, in the order of the faces then their
        examples: one number per face and photo."""
        if self.sources is None:
            return list(range(sum(len(self.examples[f]) for f in self.faces)))
        numbers: dict[tuple[Face, int], int] = {}
        return [
            numbers.setdefault((f, source), len(numbers))
            for f in self.faces
            for source in self.sources[f]
        ]

    @classmethod
    def learn(cls, examples: Mapping[Face | str, Sequence[np.ndarray]], kind: str) -> FaceProfile:
        """A profile from example crops: {face: [square top-face crops, BGR]} for every face."""
        keyed: dict[Face, list[np.ndarray]] = {}
        for face, crops in examples.items():
            keyed.setdefault(face_key(kind, face), []).extend(crops)
        return cls(kind, keyed)

    @property
    def faces(self) -> tuple[Face, ...]:
        return faces_of(self.kind)

    def similarities(
        self, crop_bgr: np.ndarray, exclude_owner: int | None = None, moved: bool = True
    ) -> np.ndarray:
        """Best template similarity for each face (in `faces` order), -1..1; `moved=False` skips
        trying an unclear crop moved and rescaled (several times the cost)."""
        return self.similarities_many([crop_bgr], exclude_owner, moved)[0]

    def similarities_many(
        self,
        crops_bgr: Sequence[np.ndarray],
        exclude_owner: int | None = None,
        moved: bool = True,
    ) -> np.ndarray:
        """`similarities` of several crops (N x faces). Compared together: the templates are read
        from memory once, not once per crop (five crops 4 times faster than one by one)."""
        if not len(crops_bgr):
            return np.zeros((0, len(self.faces)))
        squares = [square_crop(crop) for crop in crops_bgr]
        return self._templates.similarities(squares, exclude_owner, moved, self.min_similarity)

    def classify(self, crop_bgr: np.ndarray, moved: bool = True) -> tuple[Face | None, float]:
        """(face, confidence 0..1), or (None, confidence) when no face matches well enough."""
        return self._decide(self.similarities(crop_bgr, moved=moved))

    def classify_many(
        self, crops_bgr: Sequence[np.ndarray], moved: bool = True
    ) -> list[tuple[Face | None, float]]:
        """`classify` of several crops, compared together (faster than one by one)."""
        likeness = self.likeness_many(crops_bgr, moved=moved)
        return [self._checked(likeness, row) for row in range(len(likeness.best))]

    def likeness_many(
        self,
        crops_bgr: Sequence[np.ndarray],
        exclude_owner: int | None = None,
        moved: bool = True,
    ) -> Likeness:
        """`similarities_many`, with the cues it is made of (`FaceTemplates.likeness`)."""
        faces = len(self.faces)
        if not len(crops_bgr):
            return Likeness(np.zeros((0, faces)), None)
        squares = [square_crop(crop) for crop in crops_bgr]
        return self._templates.likeness(squares, exclude_owner, moved, self.min_similarity)

    def _checked(self, likeness: Likeness, row: int) -> tuple[Face | None, float]:
        """The verdict on one crop (`_decide`), unreadable where the embedding does not tell
        the face read from another (`doubted`): a die still, as like one face as another."""
        value, confidence = self._decide(likeness.best[row])
        if value is None or likeness.embedding is None:
            return value, confidence
        if doubted(likeness.embedding[row]):
            return None, max(min(confidence, 0.49), TORN)
        return value, confidence

    def _decide(self, best: np.ndarray) -> tuple[Face | None, float]:
        order = np.argsort(best)[::-1]
        top, runner_up = float(best[order[0]]), float(best[order[1]])
        margin = top - runner_up
        needed = self.min_margin
        margin_scale = self._templates.margin_scale
        if margin_scale is not None:
            needed *= float(margin_scale[order[0], order[1]])
        # Confidence reaches 0.5 exactly at the acceptance thresholds and 1 for a clear match.
        by_match = 0.5 + 0.5 * (top - self.min_similarity) / self._sure_beyond
        by_margin = 0.5 + 0.5 * (margin - needed) / self._sure_beyond
        confidence = float(np.clip(min(by_match, by_margin), 0.0, 1.0))
        if top < self.min_similarity or margin < needed:
            if top >= self.min_similarity:  # like a face, but as like another: still a die
                confidence = max(confidence, TORN)
            return None, min(confidence, 0.49)
        return self.faces[int(order[0])], max(confidence, 0.5)

    def self_check(self) -> float:
        """Leave-one-out accuracy: each example read by the templates of all the others."""
        return self.share_read_right(self.self_check_misreads())

    def share_read_right(self, misread: list[tuple[Face, Face | None]] | None) -> float:
        """The self-check's accuracy from its misreads (`self_check_misreads`)."""
        if misread is None:
            return float("nan")  # one photo per face leaves nothing to compare against
        return 1.0 - len(misread) / sum(self.counts().values())

    def self_check_misreads(self) -> list[tuple[Face, Face | None]] | None:
        """The examples the self-check misreads, as (face, what it was read as; None for
        unreadable); None with one photo per face."""
        examples = self._labelled_examples()
        if all(photos <= 1 for photos in self.photos().values()):
            return None
        misread = []
        for owner, (label, example) in zip(self._sources(), examples, strict=True):
            value, _ = self._checked(self.likeness_many([example], exclude_owner=owner), 0)
            if value != self.faces[label]:
                misread.append((self.faces[label], value))
        return misread

    def counts(self) -> dict[Face, int]:
        return {f: len(self.examples[f]) for f in self.faces}

    def photos(self) -> dict[Face, int]:
        """How many photos (sources) each face's examples were cut from."""
        if self.sources is None:
            return self.counts()
        return {f: len(set(self.sources[f])) for f in self.faces}

    # --- one small file (vision/profiles/profile_file.py)
    # ------------------------------------------

    def save(self, path: str | Path) -> Path:
        """Write the profile as one .npz file (the example crops and thresholds)."""
        return profile_file.write(
            Path(path),
            profile_file.Stored(
                kind=self.kind,
                examples=self.examples,
                sources=dict(zip(self.faces, self._sources_per_face(), strict=True)),
                thresholds=(float(self.min_similarity), float(self.min_margin)),
                method=self.method,
            ),
        )

    def _sources_per_face(self) -> list[list[int]]:
        numbers = iter(self._sources())
        return [[next(numbers) for _ in self.examples[f]] for f in self.faces]

    @classmethod
    def load(cls, path: str | Path) -> FaceProfile:
        """Read a profile written by `save`; ValueError naming the file when it is not one."""
        path = Path(path)
        stored = profile_file.read(path)
        try:
            if stored.method != _method_of(stored.kind):  # another method's thresholds: defaults
                return cls(stored.kind, stored.examples, sources=stored.sources)
            similarity, margin = stored.thresholds
            return cls(stored.kind, stored.examples, similarity, margin, sources=stored.sources)
        except ValueError as error:
            raise ValueError(f"{path}: damaged profile: {error}") from error

    @classmethod
    def load_default(cls, kind: str) -> FaceProfile:
        """The shipped profile for `kind` (learned from the project's rendered dice). Loaded once
        per process: building its templates takes a moment and it never changes."""
        path = DEFAULT_PROFILES / f"{kind}-default.npz"
        if not path.is_file():
            raise ValueError(f"no shipped profile for {kind!r} dice ({path} is missing)")
        return _load_shipped(path, path.stat().st_mtime_ns)


def doubted(embedding: np.ndarray) -> bool:
    """Whether a crop read by an embedded profile fails its own check: its embedding likeness
    tells the best face from the next by under EMBEDDING_MARGIN."""
    ranked = np.sort(embedding)[::-1]
    return float(ranked[0] - ranked[1]) < EMBEDDING_MARGIN


def embedder_for(kind: str) -> FaceEmbedder | None:
    """The embedding poker profiles compare faces by, where its model is shipped; None for d6
    sets (the embedding learned poker faces only) and without the model (ink maps instead)."""
    return FaceEmbedder.shipped() if kind == "poker" else None


def _method_of(kind: str) -> str:
    return EMBEDDED if embedder_for(kind) is not None else INKED


def thresholds_of(method: str) -> dict[str, float]:
    return EMBEDDED_THRESHOLDS if method == EMBEDDED else INK_THRESHOLDS


@functools.lru_cache(maxsize=4)
def _load_shipped(path: Path, mtime_ns: int) -> FaceProfile:
    """`mtime_ns` is part of the cache key only: a file replaced on disk is loaded again."""
    return FaceProfile.load(path)
