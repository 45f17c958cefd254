"""Learning a face profile from photos of each face, taken in the tray or close up.

The die in each photo is found and offered on several squares by `vision.teaching`; of a photo's
squares, the one learned is the one most like the squares of the other photos of its face and
least like those of the other faces' photos (a coin or a second die is in photos of other faces
too; the die's face is not).

    profile = learn_from_dir("my-dice/", "poker")      # my-dice/<face>/*.jpg
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.face_embedding import FaceEmbedder
from vision.face_templates import TURNS
from vision.ink_maps import CROP, features_many, square_crop
from vision.profile import FaceProfile, embedder_for
from vision.types import DieCandidate, Face, faces_of

Finder = Callable[[np.ndarray], list[DieCandidate]]

# How much a candidate's likeness to other faces' photos counts against it, beside its likeness
# to its own face's other photos (a real die's face is often fairly like another face: A and 9
# of spades/clubs scored 0.6-0.85 across faces, 0.7-0.97 within theirs).
OTHER_FACES_WEIGHT = 0.25
# An example whose likeness to every other example of its face is under this is left out, when two
# others of the face are alike (dice of one face scored 0.6-0.97 between photos, a blurred or
# half-cut die 0.2-0.45).
OUTLIER_BELOW = 0.5
# ... and with the embedding: an example whose embedding is this unlike every other of its face.
EMBEDDED_OUTLIER_BELOW = 0.3
# Of a photo's dice, those whose side is within this ratio of the set's usual side
# (`_usual_size`) are offered, where it has any.
USUAL_SIZE = 1.5


_IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


def learn_from_dir(directory: str | Path, kind: str, finder: Finder | None = None) -> FaceProfile:
    """Learn from DIR/<face>/*.jpg: one folder per face, each photo showing one die with that face.

    The photos may be tray photos (dice small) or close-ups (one die filling much of the photo,
    any background). The die in each is found with `finder`, or by default as
    `vision.teaching` does (the photo shrunk to the camera's size, the finder's usual and coarse
    looks, each die offered on several squares: as found, resized, fitted to its body and to its
    edges), and cut out with `vision.find.rectify`. Of the squares of a photo, the one used is the
    one that looks most like the squares of the other photos of its face and least like those
    of the other faces' photos (a coin or a second die is in photos of other faces too; the
    die's face is not; a square cut too small or too large is unlike the other photos);
    `profile.notes` says which die was used where a photo showed several.
    A missing or empty face folder, an unreadable photo or a photo with no die is a ValueError
    naming it.
    """
    from vision.find import rectify
    from vision.reader import load_image
    from vision.teaching import dice_in_photo, offered_squares, photographed_large, shrunk

    found: list[tuple[Face, Path, np.ndarray, list[DieCandidate]]] = []
    for face, photos in _face_folders(Path(directory), kind).items():
        for photo in photos:
            frame = load_image(photo)
            # the finder's squares are rough; a caller's own finder is trusted
            frame = shrunk(frame) if finder is None else frame
            dice = dice_in_photo(frame) if finder is None else finder(frame)
            if not dice:
                raise ValueError(
                    f"{photo}: no die found in this photo (one die of the face, whole and in "
                    "focus, on a plain surface)"
                )
            found.append((face, photo, frame, dice))
    usual = _usual_size([dice for *_, dice in found])
    shots: list[_Shot] = []
    for face, photo, frame, dice in found:
        if finder is None:
            dice = _of_usual_size(dice, usual)
            candidates = [sq for die in dice for sq in offered_squares(frame, die)]
        else:
            candidates = dice
        crops = [rectify(frame, c, CROP) for c in candidates]
        shots.append(_Shot(face, photo, candidates, crops, len(dice)))
    examples: dict[Face, list[np.ndarray]] = {}
    sources: dict[Face, list[int]] = {}
    notes: list[str] = []
    owners = np.array([i for i, shot in enumerate(shots) for _ in shot.candidates])
    embedder = embedder_for(kind)
    likeness = _likeness([crop for shot in shots for crop in shot.crops], embedder)
    choices = _choose_examples(shots, owners, likeness)
    rows = [int(np.flatnonzero(owners == i)[k]) for i, k in enumerate(choices)]
    below = OUTLIER_BELOW if embedder is None else EMBEDDED_OUTLIER_BELOW
    outliers = _outliers(shots, likeness[np.ix_(rows, rows)], below)
    for index, (shot, chosen) in enumerate(zip(shots, choices, strict=True)):
        if shot.dice > 1:
            x, y = shot.candidates[chosen].center
            notes.append(
                f"{shot.photo}: {shot.dice} dice found, used the one most like the "
                f"other photos of face {shot.face} at ({x:.0f}, {y:.0f})"
            )
        if index in outliers:
            notes.append(_left_out_note(shot, *outliers[index]))
            continue
        # With one die in the photo, its best-fitted square (offered first) is learned too: the
        # square chosen to be like the other photos is sometimes cut as one of them was.
        kept = [chosen] if shot.dice > 1 or chosen == 0 else [chosen, 0]
        crops = [shot.crops[k] for k in kept]
        crops += [
            as_the_table_sees(shot.crops[k]) for k in kept if photographed_large(shot.candidates[k])
        ]
        examples.setdefault(shot.face, []).extend(crops)
        sources.setdefault(shot.face, []).extend([index] * len(crops))
    profile = FaceProfile(kind, examples, sources=sources)
    profile.notes = notes
    return profile


def _left_out_note(shot: _Shot, likeness: float, likelier: Face | None) -> str:
    if likelier is not None:
        return (
            f"{shot.photo}: left out, its die looks more like the photos of face {likelier} "
            f"than those of face {shot.face} (filed in the wrong folder?): take another photo "
            f"if it does show {shot.face}"
        )
    return (
        f"{shot.photo}: left out, its die looks unlike the other photos of face {shot.face} "
        f"(likeness {likeness:.2f}; blurred or cut?): take another photo if it does show "
        f"{shot.face}"
    )


def as_the_table_sees(crop: np.ndarray) -> np.ndarray:
    """A crop of a die photographed close, as blurred as the table's camera shows a die (its
    face TABLE_SIDE px across), at the crop's own size. Such a die is learned both ways: a tray
    die is too small to show a close-up's fine print, and taught from close-ups alone, a pip
    design's 9s were less like their templates than the threshold and never found (bench
    poker: 12 of design 0's 171 dice). Dice of tray photos learned twice too (those over 1.5
    times TABLE_SIDE) read rank letters worse."""
    from vision.teaching import TABLE_SIDE

    side = crop.shape[0]
    small = cv2.resize(crop, (TABLE_SIDE, TABLE_SIDE), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (side, side), interpolation=cv2.INTER_LINEAR)


def _usual_size(dice_per_photo: list[list[DieCandidate]]) -> float:
    """The side of the set's dice as the photos show them: the median of each photo's surest
    die (one set, one camera: tray photos show its dice about one size)."""
    return float(np.median([max(dice, key=lambda d: d.score).size for dice in dice_per_photo]))


def _of_usual_size(dice: list[DieCandidate], usual: float) -> list[DieCandidate]:
    """The dice of a photo within USUAL_SIZE of the usual side, where it shows any: a pencil's
    end or a coin beside the die is far smaller (two photos of a K with the same pencil beside
    the die taught the pencil), a second die of the set is not."""
    kept = [d for d in dice if 1 / USUAL_SIZE <= d.size / usual <= USUAL_SIZE]
    return kept or dice


@dataclass
class _Shot:
    """One learning photo: its face, and every candidate found in it with its crop."""

    face: Face
    photo: Path
    candidates: list[DieCandidate]  # every square tried, of every die found
    crops: list[np.ndarray]
    dice: int  # how many dice were found


def _choose_examples(shots: list[_Shot], owners: np.ndarray, likeness: np.ndarray) -> list[int]:
    """For each photo, the index of the candidate to learn: the one most like the other photos
    of its face (their closest candidate, averaged), less a quarter of its likeness to any
    candidate of another face's photos (a coin met in several photos); with no other photo of
    its face, the one least like the other faces' photos. Ties go to the finder's score.
    `owners` gives each candidate's photo, `likeness` the candidates' `_likeness`."""
    faces = np.array([str(shot.face) for shot in shots])[owners]
    chosen = []
    for index, shot in enumerate(shots):
        rows = np.flatnonzero(owners == index)
        if len(rows) == 1:
            chosen.append(0)
            continue
        mates = [np.flatnonzero(owners == other) for other in _same_face(shots, index)]
        same = [np.mean([likeness[row, m].max() for m in mates]) if mates else 0.0 for row in rows]
        others = faces != str(shot.face)
        unlike = [likeness[row, others].max() if others.any() else 0.0 for row in rows]
        weight = OTHER_FACES_WEIGHT if mates else 1.0
        scores = [
            (s - weight * u, c.score) for s, u, c in zip(same, unlike, shot.candidates, strict=True)
        ]
        chosen.append(max(range(len(rows)), key=lambda k: scores[k]))
    return chosen


def _outliers(
    shots: list[_Shot], likeness: np.ndarray, below: float = OUTLIER_BELOW
) -> dict[int, tuple[float, Face | None]]:
    """The photos (by index) whose chosen example is unlike every other of their face, or more
    like another face's photos than its own's, where at least two others of the face are alike:
    a blurred, badly cut or misfiled photo would teach its face wrong (and match other things),
    and the others suffice. Each with its best likeness to its own face's photos and the face
    it looks more like (None where it is only unlike its own). `likeness` is the chosen
    examples' `_likeness`, one row per photo."""
    likeness = likeness.copy()
    np.fill_diagonal(likeness, -1.0)
    faces = [shot.face for shot in shots]
    outliers: dict[int, tuple[float, Face | None]] = {}
    for face in set(faces):
        group = [i for i, f in enumerate(faces) if f == face]
        best = {i: float(likeness[i, group].max()) for i in group}
        for i in group:
            alike = sum(1 for j in group if j != i and best[j] >= below)
            if alike < 2:
                continue
            likelier = _likelier_face(likeness[i], faces, face, best[i])
            if best[i] < below or likelier is not None:
                outliers[i] = (best[i], likelier)
    return outliers


def _likelier_face(row: np.ndarray, faces: list[Face], own: Face, own_best: float) -> Face | None:
    """The face whose photos this photo's example is most like, where that beats `own_best`, its
    likeness to its own face's photos (a 10 filed as a J); None otherwise. On the teaching
    photos of 36 rendered designs (seeds 40-45, every kind, both ways) 10 of 1556 examples were
    more like another face than their own; a misfiled photo is, nearly always: its own face's
    photos are 0.96 alike at the median, the likeliest other face's 0.61."""
    others = [j for j, f in enumerate(faces) if f != own]
    if not others:
        return None
    j = max(others, key=lambda k: row[k])
    return faces[j] if row[j] > own_best else None


def _same_face(shots: list[_Shot], index: int) -> list[int]:
    return [i for i, shot in enumerate(shots) if i != index and shot.face == shots[index].face]


def _likeness(crops: list[np.ndarray], embedder: FaceEmbedder | None = None) -> np.ndarray:
    """N x N similarity of crops as faces, at the best of a full circle of turns (of their
    four quarter turns with the embedding), -1..1."""
    if embedder is not None:
        embedded = embedder.embed_turned([square_crop(crop) for crop in crops])
        scores = np.einsum("itd,jd->ijt", embedded, embedded[:, 0]).max(axis=2)
        return np.maximum(scores, scores.T)
    squares = [square_crop(crop) for crop in crops]
    warps = [(crop, angle, 1.0, 0.0, 0.0) for crop in squares for angle in TURNS]
    turned = features_many(warps).reshape(len(squares), len(TURNS), -1)
    upright = turned[:, TURNS.index(0)]
    scores = np.einsum("itd,jd->ijt", turned, upright).max(axis=2)
    return np.maximum(scores, scores.T)


def _face_folders(root: Path, kind: str) -> dict[Face, list[Path]]:
    """The photos of each face, checking every folder before any photo is read."""
    if not root.is_dir():
        raise ValueError(f"{root}: not a directory of face folders")
    missing = [str(face) for face in faces_of(kind) if not (root / str(face)).is_dir()]
    if missing:
        names = " ".join(str(f) for f in faces_of(kind))
        raise ValueError(
            f"{root}: missing face folder(s) {' '.join(missing)}; "
            f"{kind} dice need one folder per face: {names}"
        )
    folders: dict[Face, list[Path]] = {}
    for face in faces_of(kind):
        folder = root / str(face)
        photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in _IMAGE_SUFFIXES)
        if not photos:
            raise ValueError(f"{folder}: no photos (.png/.jpg) of face {face}")
        folders[face] = photos
    return folders
