"""Learned face profiles: read a dice set (poker dice, or unusual d6) from a few example pictures.

A profile keeps a few square top-face crops per face (one small .npz file). Each crop becomes an
"ink map" reduced to strokes (vision/ink_maps.py). Crops are read as cut along the face's square
(and, when their edges lie well off the crop's sides, turned square to them), so at load time
every example is turned only through the four quarter turns, each slightly turned and rescaled,
giving the templates; reading a crop is nearest-template matching by correlation. A crop that
does not match clearly is tried again slightly moved and rescaled (a finder's outline is rarely
exact). A crop that matches no face well (a d6 shown to a poker profile, a coin, the tray) is
refused: (None, confidence below 0.5).

Poker profiles (where vision/models/poker_embed.onnx is shipped) also keep each example's
learned embedding (vision/face_embedding.py) at its four quarter turns: a crop's likeness to a
face is half its best embedding similarity to that face's examples and half its ink maps' (for
the embedding's two likeliest faces only), without moved tries (the net learned moved and
rescaled faces). `profile.method` says which ("embedding" or "ink").

    profile = FaceProfile.learn({"9": [crop, ...], "10": [...], ...}, kind="poker")
    value, confidence = profile.classify(crop_bgr)     # (None, c) when nothing matches well
    profile.save("my-dice.npz"); FaceProfile.load("my-dice.npz")

Learning one from photos is `vision.profile_learning`; from rendered dice, `vision.profile_check`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision import profile_file
from vision.face_embedding import FaceEmbedder
from vision.ink_maps import face_turn, features_many, square_crop, turned
from vision.types import Face, face_key, faces_of

__all__ = ["DEFAULT_PROFILES", "FaceProfile"]

# Every crop is first turned square to its face (the strongest edge direction, modulo 90 degrees:
# the die's outline and the print's strokes), so templates need only the four quarter turns,
# each slightly turned and rescaled for what that estimate and the finder's square leave over.
_QUARTERS = (0, 90, 180, 270)
_FINE_TURNS = (-6, 0, 6)  # degrees
_SCALES = (0.9, 1.0, 1.11)
OFF_SQUARE = 10.0  # degrees: a crop's edges this far off its sides are read turned square too
TURNS = tuple(q + f for q in _QUARTERS for f in _FINE_TURNS)
# Each example is learned at every turn and scale of these: (turn, scale), the plain one first.
_JITTER = tuple(
    sorted(
        ((t, s) for t in TURNS for s in _SCALES), key=lambda ts: (ts[0] % 90 != 0, ts != (0, 1.0))
    )
)
# A crop that matches no face clearly is also tried moved and rescaled: (scale, dx, dy) in crop
# pixels, as a finder's quad is rarely exact.
_QUERY_WARPS = tuple(
    (scale, dx, dy)
    for scale in (0.8, 0.9, 1.0, 1.12, 1.25)
    for dx, dy in ((0, 0), (4, 0), (-4, 0), (0, 4), (0, -4))
    if (scale, dx, dy) != (1.0, 0, 0)
)
_CLEAR_MATCH = (0.9, 0.15)  # best similarity and margin that need no trying of moved crops
DEFAULT_MIN_SIMILARITY = 0.8  # below this best match, a crop is refused
DEFAULT_MIN_MARGIN = 0.03  # best face must beat the runner-up face by this much
# Confidence is 1 this far past both thresholds (0.9 at four fifths of it: the reader's "sure"):
# on rendered dice of new designs, right answers scored medians of 0.9 and margins of 0.2.
SURE_BEYOND = 0.1
# Poker profiles compare the faces' embeddings (vision/face_embedding.py) where the model is
# shipped, half and half with the ink maps (INK_WEIGHT), with thresholds of their own. On 12
# designs of `tabletop bench poker --seed 20 --designs 2 --trays 20`: the embedding alone read
# 87.9% of dice right, 3.9% wrong; with the ink maps 84.6% and 1.7% (and on the bench's own seeds
# 0 and 7, 91.7/5.1 and 90.5/4.2 against 90.1/2.1 and 88.0/1.5): wrong answers cost more than
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
# (vision.profiled.PROFILE_NO_FACE is 0.4), unreadable. Without it such a die was dropped as no
# die at all (a K as like a taught A of its suit as its own K examples: 0.84 each).
TORN = 0.45
INK_WEIGHT = 0.5  # share of the ink maps' similarity in an embedded profile's likeness
INK_FROM = 0.4  # a crop whose embedding is under this for every face skips the ink maps
# ... and one under this for every face is not embedded turned square either: most squares tried
# beside dice (bare tray) score under it, and finding each one's turn cost a fifth more at p95.
TURN_FROM = 0.3
DEFAULT_PROFILES = Path(__file__).resolve().parent / "profiles"


def _query_turns(crop: np.ndarray) -> tuple[float, ...]:
    """The turns a crop is read at: as cut (the reader cuts along the face's square, whose turn
    came from the die's outline), and turned square to its strongest edges when those lie well
    off the crop's (a crop cut square to the frame). Squaring every crop up misread tight crops,
    where the print's slanted strokes outweigh the face's outline (85.8% of the project's own
    rendered dice right, against 98.5%)."""
    turn = face_turn(crop)
    return (0.0,) if abs(turn) < OFF_SQUARE else (0.0, turn)


def _query_features(squares: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The features of the squares at each of their `_query_turns`, and the square (index)
    each row is of."""
    tries = [(index, turn) for index, crop in enumerate(squares) for turn in _query_turns(crop)]
    features = features_many([(squares[index], turn, 1.0, 0.0, 0.0) for index, turn in tries])
    return features, np.array([index for index, _ in tries], dtype=np.intp)


def _dot(templates: np.ndarray, features: np.ndarray) -> np.ndarray:
    """templates @ features.T, by OpenCV: numpy's BLAS runs so small a product on several threads,
    which on a busy machine made a poker tray 4 times slower (99 -> 25 ms a tray, 20 trays)."""
    return cv2.gemm(templates, features, 1.0, None, 0.0, flags=cv2.GEMM_2_T)


def _clear(best: np.ndarray) -> np.ndarray:
    """Per row of best similarities per face: whether the match is clear enough that the crop
    needs no moved tries."""
    ranked = -np.sort(-best, axis=1)
    return (ranked[:, 0] >= _CLEAR_MATCH[0]) & (ranked[:, 0] - ranked[:, 1] >= _CLEAR_MATCH[1])


def _moved_features(crop: np.ndarray, turn: float) -> np.ndarray:
    """Features of a crop turned by `turn`, slightly moved and rescaled (a finder's quad is
    rarely exact)."""
    return features_many([(crop, turn, scale, dx, dy) for scale, dx, dy in _QUERY_WARPS])


# A pair of faces a set prints alike (a K and an A of one suit) needs less margin than this
# scale at least, one it prints unlike at most this much more (see margin_scales).
MARGIN_SCALE_RANGE = (0.5, 1.5)


def margin_scales(templates: np.ndarray, labels: np.ndarray, faces: int) -> np.ndarray:
    """faces x faces: how much of the profile's margin the best face must have over each other.

    Where a set prints two faces alike, most of a crop's likeness to either is the print they
    share, and comes and goes with the light and blur for both: the small difference left is
    the evidence, and is steadier than the likeness itself. For unit vectors a and b, the
    margin q.a - q.b of a crop q is at most |a - b| = sqrt(2 (1 - a.b)); so each pair's margin is
    scaled by sqrt(1 - alike) against the set's median pair, `alike` being the mean best
    likeness of one face's templates to the other's. On `tabletop bench poker --designs 4
    --trays 20`: --seed 10 96.4 -> 96.8% of dice right (8 more, 1 more wrong), --seed 20 98.3 ->
    98.7% (7 more, 1 more wrong), the default bench unchanged; the gains are letter designs."""
    likeness = templates @ templates.T
    alike = np.zeros((faces, faces))
    for a in range(faces):
        for b in range(faces):
            if a != b:
                alike[a, b] = likeness[np.ix_(labels == a, labels == b)].max(axis=1).mean()
    alike = (alike + alike.T) / 2
    usual = float(np.median(alike[~np.eye(faces, dtype=bool)]))
    scale = np.sqrt(np.maximum(1 - alike, 1e-3) / max(1 - usual, 1e-3))
    return np.clip(scale, *MARGIN_SCALE_RANGE)


@dataclass
class FaceProfile:
    """Example crops of each face of one dice set, and the templates built from them."""

    kind: str
    examples: dict[Face, list[np.ndarray]]
    min_similarity: float | None = None  # None: the method's own (see thresholds_of)
    min_margin: float | None = None
    notes: list[str] = field(default_factory=list)  # what learning had to decide (e.g. which die)
    # The photo each example was cut from, per face (examples of one photo share a number, so
    # the self-check leaves them out together); None: each example a photo of its own.
    sources: dict[Face, list[int]] | None = None
    _embedder: FaceEmbedder | None = field(init=False, repr=False)
    _sure_beyond: float = field(init=False, repr=False)
    _ink: tuple[np.ndarray, np.ndarray, np.ndarray] | None = field(init=False, repr=False)
    _templates: np.ndarray = field(init=False, repr=False)
    _labels: np.ndarray = field(init=False, repr=False)
    _owners: np.ndarray = field(init=False, repr=False)
    _margin_scale: np.ndarray | None = field(init=False, repr=False)  # faces x faces, or None

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
        self._ink = None
        if self._embedder is None or INK_WEIGHT > 0:
            self._ink = self._ink_templates()
        self._margin_scale = None
        if self._embedder is not None:
            self._build_embedded()
            self._margin_scale = margin_scales(self._templates, self._labels, len(self.faces))
        else:
            self._templates, self._labels, self._owners = self._ink

    def _ink_templates(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Ink-map templates, their faces (label) and examples (owner)."""
        examples = [(label, ex) for label, f in enumerate(self.faces) for ex in self.examples[f]]
        warps = [(ex, angle, scale, 0.0, 0.0) for _, ex in examples for angle, scale in _JITTER]
        templates = features_many(warps)
        labels = np.repeat([label for label, _ in examples], len(_JITTER))
        owners = np.repeat(self._sources(), len(_JITTER))
        return templates, labels, owners

    def _build_embedded(self) -> None:
        """Templates: each example's embedding at its four quarter turns."""
        assert self._embedder is not None
        examples = [(label, ex) for label, f in enumerate(self.faces) for ex in self.examples[f]]
        turned = self._embedder.embed_turned([example for _, example in examples])
        turns = turned.shape[1]
        self._templates = np.ascontiguousarray(turned.reshape(-1, turned.shape[2]))
        self._labels = np.repeat([label for label, _ in examples], turns)
        self._owners = np.repeat(self._sources(), turns)

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
        if self._embedder is not None:  # the embedding learned cut-off squares: no moved tries
            best = self._embedded_similarities(squares, exclude_owner)
            if self._ink is None:
                return best
            # Crops the embedding finds unlike every face stay so (no die: most squares tried
            # beside dice), sparing them the ink maps, which cost more than the net.
            like = np.flatnonzero(best.max(axis=1) >= INK_FROM)
            if len(like):
                # The ink maps weigh in on the embedding's two likeliest faces only (a third of
                # the templates); the other faces' ink counts as -1, far below those two.
                likeliest = np.argsort(-best[like], axis=1)[:, :2]
                ink = self._ink_similarities([squares[i] for i in like], exclude_owner, likeliest)
                best[like] = (1 - INK_WEIGHT) * best[like] + INK_WEIGHT * ink
            return best
        features, of_square = _query_features(squares)
        scores = np.full((len(self._templates), len(squares)), -1.0, np.float32)
        for column, index in zip(_dot(self._templates, features).T, of_square, strict=True):
            scores[:, index] = np.maximum(scores[:, index], column)
        best = self._best_per_face(scores, exclude_owner)
        if not moved:
            return best.T
        for index in np.flatnonzero(~_clear(best.T)):  # the rest are well cut: no moved tries
            turn = max(_query_turns(squares[index]), key=abs)
            moved_tries = _dot(self._templates, _moved_features(squares[index], turn)).max(1)
            column = np.maximum(scores[:, index], moved_tries)[:, None]
            best[:, index] = self._best_per_face(column, exclude_owner)[:, 0]
        return best.T

    def _embedded_similarities(
        self, squares: list[np.ndarray], exclude_owner: int | None
    ) -> np.ndarray:
        """N x faces best embedding similarities of the squares as cut; a square matching no
        face whose edges lie well off its sides (cut square to the frame) is embedded turned
        square to them too. The net learned faces cut along their square, give or take a few
        degrees: a J cut square to the frame at 37 degrees matched no face above 0.4, turned
        square its own. Only squares somewhat like a face are looked at so (TURN_FROM)."""
        best = self._embedded_best(squares, exclude_owner)
        likeness = best.max(axis=1)
        unmatched = np.flatnonzero((likeness < self.min_similarity) & (likeness >= TURN_FROM))
        turns = {int(i): face_turn(squares[i]) for i in unmatched}
        off_square = [i for i, turn in turns.items() if abs(turn) >= OFF_SQUARE]
        if off_square:
            crops = [turned(squares[i], turns[i]) for i in off_square]
            best[off_square] = np.maximum(
                best[off_square], self._embedded_best(crops, exclude_owner)
            )
        return best

    def _embedded_best(self, crops: list[np.ndarray], exclude_owner: int | None) -> np.ndarray:
        """N x faces best embedding similarity of each crop as it is."""
        assert self._embedder is not None
        scores = _dot(self._templates, self._embedder.embed(crops))
        return self._best_per_face(scores, exclude_owner).T

    def _ink_similarities(
        self, squares: list[np.ndarray], exclude_owner: int | None, faces: np.ndarray
    ) -> np.ndarray:
        """N x faces best ink-template similarities of the squares, read as cut and turned
        square (no moved tries), against the templates of each square's `faces` (a row of
        face indices per square) only; -1 for the other faces."""
        assert self._ink is not None
        templates, labels, owners = self._ink
        starts = np.searchsorted(labels, np.arange(len(self.faces) + 1))
        features, of_square = _query_features(squares)
        out = np.full((len(squares), len(self.faces)), -1.0)
        # Face by face, every square that asks for it at once: a face's templates are read from
        # memory once per call, not once per square.
        for face in range(len(self.faces)):
            asking = np.flatnonzero((faces == face).any(axis=1))
            if not len(asking):
                continue
            rows = np.flatnonzero(np.isin(of_square, asking))
            block = slice(starts[face], starts[face + 1])
            scores = _dot(templates[block], features[rows])
            if exclude_owner is not None:
                scores[owners[block] == exclude_owner] = -1.0
            best = np.full(len(squares), -np.inf)
            np.maximum.at(best, of_square[rows], scores.max(axis=0))
            out[asking, face] = best[asking]
        return out

    def _best_per_face(self, scores: np.ndarray, exclude_owner: int | None) -> np.ndarray:
        """Templates x crops scores -> faces x crops best scores."""
        if exclude_owner is not None:
            scores = np.where((self._owners == exclude_owner)[:, None], -1.0, scores)
        # Templates are grouped by face (labels ascending), so each face's best is one reduction.
        starts = np.searchsorted(self._labels, np.arange(len(self.faces)))
        return np.maximum.reduceat(scores, starts, axis=0).astype(np.float64)

    def classify(self, crop_bgr: np.ndarray, moved: bool = True) -> tuple[Face | None, float]:
        """(face, confidence 0..1), or (None, confidence) when no face matches well enough."""
        return self._decide(self.similarities(crop_bgr, moved=moved))

    def classify_many(
        self, crops_bgr: Sequence[np.ndarray], moved: bool = True
    ) -> list[tuple[Face | None, float]]:
        """`classify` of several crops, compared together (faster than one by one)."""
        return [self._decide(best) for best in self.similarities_many(crops_bgr, moved=moved)]

    def _decide(self, best: np.ndarray) -> tuple[Face | None, float]:
        order = np.argsort(best)[::-1]
        top, runner_up = float(best[order[0]]), float(best[order[1]])
        margin = top - runner_up
        needed = self.min_margin
        if self._margin_scale is not None:
            needed *= float(self._margin_scale[order[0], order[1]])
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
        examples = [(label, ex) for label, f in enumerate(self.faces) for ex in self.examples[f]]
        if all(photos <= 1 for photos in self.photos().values()):
            return None
        misread = []
        for owner, (label, example) in zip(self._sources(), examples, strict=True):
            value, _ = self._decide(self.similarities(example, exclude_owner=owner))
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

    # --- one small file (vision/profile_file.py) ------------------------------------------

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
