"""A profile's templates: its example crops as ink maps and, for poker dice, as learned
embeddings, and the best likeness of new crops to each face (vision/profiles/profile.py decides from
it).

    templates = FaceTemplates(examples, owners, faces=6, embedder=FaceEmbedder.shipped())
    best = templates.similarities(squares, exclude_owner=None, moved=True, matched_at=0.65)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import cv2
import numpy as np

from vision.profiles.face_embedding import FaceEmbedder
from vision.profiles.ink_maps import face_turn, features_many, turned

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
INK_WEIGHT = 0.5  # share of the ink maps' similarity in an embedded profile's likeness
INK_FROM = 0.4  # a crop whose embedding is under this for every face skips the ink maps
# ... and one under this for every face is not embedded turned square either: most squares tried
# beside dice (bare tray) score under it, and finding each one's turn cost a fifth more at p95.
TURN_FROM = 0.3


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


class Likeness(NamedTuple):
    """N x faces: a profile's likeness of crops to each face, and for an embedded profile the
    embedding's likeness alone (None for ink-map profiles)."""

    best: np.ndarray
    embedding: np.ndarray | None


class FaceTemplates:
    """Every example's templates, with its face (label) and photo (owner): ink maps of each
    example at every `_JITTER` turn and scale, and, with an embedder, its embedding at its four
    quarter turns (then the templates compared first, the ink maps weighing in)."""

    def __init__(
        self,
        examples: Sequence[tuple[int, np.ndarray]],
        owners: Sequence[int],
        faces: int,
        embedder: FaceEmbedder | None,
    ) -> None:
        self.embedder = embedder
        self.faces = faces
        self.ink: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        if embedder is None or INK_WEIGHT > 0:
            self.ink = self._ink_templates(examples, owners)
        self.margin_scale: np.ndarray | None = None  # faces x faces, or None
        if embedder is not None:
            self._build_embedded(examples, owners)
            self.margin_scale = margin_scales(self.templates, self.labels, faces)
        else:
            self.templates, self.labels, self.owners = self.ink

    @staticmethod
    def _ink_templates(
        examples: Sequence[tuple[int, np.ndarray]], owners: Sequence[int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Ink-map templates, their faces (label) and examples (owner)."""
        warps = [(ex, angle, scale, 0.0, 0.0) for _, ex in examples for angle, scale in _JITTER]
        templates = features_many(warps)
        labels = np.repeat([label for label, _ in examples], len(_JITTER))
        return templates, labels, np.repeat(owners, len(_JITTER))

    def _build_embedded(
        self, examples: Sequence[tuple[int, np.ndarray]], owners: Sequence[int]
    ) -> None:
        """Templates: each example's embedding at its four quarter turns."""
        assert self.embedder is not None
        turned = self.embedder.embed_turned([example for _, example in examples])
        turns = turned.shape[1]
        self.templates = np.ascontiguousarray(turned.reshape(-1, turned.shape[2]))
        self.labels = np.repeat([label for label, _ in examples], turns)
        self.owners = np.repeat(owners, turns)

    def similarities(
        self,
        squares: list[np.ndarray],
        exclude_owner: int | None,
        moved: bool,
        matched_at: float,
    ) -> np.ndarray:
        """N x faces best likeness of each square (CROP x CROP BGR) to each face, -1..1, leaving
        out the templates of `exclude_owner`; `moved=False` skips trying an unclear crop moved
        and rescaled (ink maps only); a square under `matched_at` for every face is embedded
        turned square too (see _embedded_similarities)."""
        return self.likeness(squares, exclude_owner, moved, matched_at).best

    def likeness(
        self,
        squares: list[np.ndarray],
        exclude_owner: int | None,
        moved: bool,
        matched_at: float,
    ) -> Likeness:
        """`similarities`, with the embedding's likeness kept apart where the profile has one."""
        if self.embedder is None:
            return Likeness(self._ink_likeness(squares, exclude_owner, moved), None)
        # The embedding learned cut-off squares: no moved tries.
        embedding = self._embedded_similarities(squares, exclude_owner, matched_at)
        best = embedding.copy()
        if self.ink is None:
            return Likeness(best, embedding)
        # Crops the embedding finds unlike every face stay so (no die: most squares tried beside
        # dice), sparing them the ink maps, which cost more than the net.
        like = np.flatnonzero(embedding.max(axis=1) >= INK_FROM)
        if len(like):
            # The ink maps weigh in on the embedding's two likeliest faces only (a third of the
            # templates); the other faces' ink counts as -1, far below those two.
            likeliest = np.argsort(-embedding[like], axis=1)[:, :2]
            ink = self._ink_similarities([squares[i] for i in like], exclude_owner, likeliest)
            best[like] = (1 - INK_WEIGHT) * embedding[like] + INK_WEIGHT * ink
        return Likeness(best, embedding)

    def _ink_likeness(
        self, squares: list[np.ndarray], exclude_owner: int | None, moved: bool
    ) -> np.ndarray:
        """N x faces: the ink templates' best likeness of each square as cut and turned square;
        with `moved`, an unclear one is also tried moved and rescaled."""
        features, of_square = _query_features(squares)
        scores = np.full((len(self.templates), len(squares)), -1.0, np.float32)
        for column, index in zip(_dot(self.templates, features).T, of_square, strict=True):
            scores[:, index] = np.maximum(scores[:, index], column)
        best = self._best_per_face(scores, exclude_owner)
        if not moved:
            return best.T
        for index in np.flatnonzero(~_clear(best.T)):  # the rest are well cut: no moved tries
            turn = max(_query_turns(squares[index]), key=abs)
            moved_tries = _dot(self.templates, _moved_features(squares[index], turn)).max(1)
            column = np.maximum(scores[:, index], moved_tries)[:, None]
            best[:, index] = self._best_per_face(column, exclude_owner)[:, 0]
        return best.T

    def _embedded_similarities(
        self, squares: list[np.ndarray], exclude_owner: int | None, matched_at: float
    ) -> np.ndarray:
        """N x faces best embedding similarities of the squares as cut; a square matching no
        face whose edges lie well off its sides (cut square to the frame) is embedded turned
        square to them too. The net learned faces cut along their square, give or take a few
        degrees: a J cut square to the frame at 37 degrees matched no face above 0.4, turned
        square its own. Only squares somewhat like a face are looked at so (TURN_FROM)."""
        best = self._embedded_best(squares, exclude_owner)
        likeness = best.max(axis=1)
        unmatched = np.flatnonzero((likeness < matched_at) & (likeness >= TURN_FROM))
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
        assert self.embedder is not None
        scores = _dot(self.templates, self.embedder.embed(crops))
        return self._best_per_face(scores, exclude_owner).T

    def _ink_similarities(
        self, squares: list[np.ndarray], exclude_owner: int | None, faces: np.ndarray
    ) -> np.ndarray:
        """N x faces best ink-template similarities of the squares, read as cut and turned
        square (no moved tries), against the templates of each square's `faces` (a row of
        face indices per square) only; -1 for the other faces."""
        assert self.ink is not None
        templates, labels, owners = self.ink
        starts = np.searchsorted(labels, np.arange(self.faces + 1))
        features, of_square = _query_features(squares)
        out = np.full((len(squares), self.faces), -1.0)
        # Face by face, every square that asks for it at once: a face's templates are read from
        # memory once per call, not once per square.
        for face in range(self.faces):
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
            scores = np.where((self.owners == exclude_owner)[:, None], -1.0, scores)
        # Templates are grouped by face (labels ascending), so each face's best is one reduction.
        starts = np.searchsorted(self.labels, np.arange(self.faces))
        return np.maximum.reduceat(scores, starts, axis=0).astype(np.float64)
