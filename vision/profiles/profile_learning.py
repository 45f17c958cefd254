"""Learning a face profile from photos of each face, taken in the tray or close up.

The die in each photo is found and offered on several squares by `vision.profiles.teaching`; of a
photo's squares, the one learned is the one most like the squares of the other photos of its face
and least like those of the other faces' photos (a coin or a second die is in photos of other faces
too; the die's face is not).

    profile = learn_from_dir("my-dice/", "poker")      # my-dice/<face>/*.jpg
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.profiles.face_embedding import FaceEmbedder
from vision.profiles.face_templates import TURNS
from vision.profiles.ink_maps import CROP, features_many, square_crop
from vision.profiles.profile import FaceProfile, embedder_for
from vision.read.types import DieCandidate, Face, faces_of

Finder = Callable[[np.ndarray], list[DieCandidate]]
_Found = tuple[Face, Path, np.ndarray, list[DieCandidate]]  # a photo, as looked through, its dice

# How much a candidate's likeness to other faces' photos counts against it, beside its likeness
# to its own face's other photos (a real die's face is often fairly like another face: A and 9
# of spades/clubs scored 0.6-0.85 across faces, 0.7-0.97 within theirs).
OTHER_FACES_WEIGHT = 0.25
# An example whose likeness to every other example of its face is under this is named in the
# report (learned all the same): dice of one face scored 0.6-0.97 between photos, a blurred or
# half-cut die 0.2-0.45.
UNLIKE_BELOW = 0.5
# ... and with the embedding: an example whose embedding is this unlike every other of its face.
EMBEDDED_UNLIKE_BELOW = 0.3
# Of a photo's dice, those whose side is within this ratio of the usual side of the dice in
# photos of its camera (`_of_usual_sizes`) are offered, where it has any.
USUAL_SIZE = 1.5
ONE_CAMERA = 3  # photos of one pixel size, at least, that are taken as one camera's


_IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


def learn_from_dir(directory: str | Path, kind: str, finder: Finder | None = None) -> FaceProfile:
    """Learn from DIR/<face>/*.jpg: one folder per face, each photo showing one die with that face.

    The photos may be tray photos (dice small) or close-ups (one die filling much of the photo,
    any background, any size). The die in each is found with `finder`, or by default as
    `vision.profiles.teaching` does (the photo brought to the camera's size, the finder's usual and
    coarse looks, each die offered on several squares: as found, resized, fitted to its body and to
    its edges), and cut out with `vision.read.find.rectify`. Of the squares of a photo, the one used
    is the one that looks most like the squares of the other photos of its face and least like those
    of the other faces' photos (a coin or a second die is in photos of other faces too; the
    die's face is not; a square cut too small or too large is unlike the other photos).

    The player's labels are the truth: every photo with a die in it is learned under its folder's
    face. A photo whose die looks more like another face's photos than its own's, or unlike every
    other photo of its face, is learned and named in `profile.notes` and `profile.look_alikes`
    (check it); a photo with no die is left out and named. A missing or empty face folder, an
    unreadable photo or a face none of whose photos shows a die is a ValueError naming it.
    """
    from vision.profiles.teaching import photographed_large

    folders = _face_folders(Path(directory), kind)
    found, notes = _dice_of_photos(folders, finder)
    _every_face_found(folders, found)
    if finder is None:
        found = _of_usual_sizes(found)
    shots = [_shot(face, photo, frame, dice, finder) for face, photo, frame, dice in found]
    examples: dict[Face, list[np.ndarray]] = {}
    sources: dict[Face, list[int]] = {}
    owners = np.array([i for i, shot in enumerate(shots) for _ in shot.candidates])
    embedder = embedder_for(kind)
    likeness = _likeness([crop for shot in shots for crop in shot.crops], embedder)
    choices = _choose_examples(shots, owners, likeness)
    rows = [int(np.flatnonzero(owners == i)[k]) for i, k in enumerate(choices)]
    below = UNLIKE_BELOW if embedder is None else EMBEDDED_UNLIKE_BELOW
    look_alikes = _look_alikes(shots, likeness[np.ix_(rows, rows)], below)
    for index, (shot, chosen) in enumerate(zip(shots, choices, strict=True)):
        if shot.dice > 1:
            x, y = shot.candidates[chosen].center
            notes.append(
                f"{_named(shot.photo)}: {shot.dice} dice found, used the one most like the "
                f"other photos of face {shot.face} at ({x:.0f}, {y:.0f})"
            )
        # With one die in the photo, its best-fitted square (offered first) is learned too: the
        # square chosen to be like the other photos is sometimes cut as one of them was.
        kept = [chosen] if shot.dice > 1 or chosen == 0 else [chosen, 0]
        crops = [shot.crops[k] for k in kept]
        crops += [
            as_the_table_sees(shot.crops[k]) for k in kept if photographed_large(shot.candidates[k])
        ]
        examples.setdefault(shot.face, []).extend(crops)
        sources.setdefault(shot.face, []).extend([index] * len(crops))
    notes += [alike.said() for alike in look_alikes]
    profile = FaceProfile(kind, examples, sources=sources)
    profile.notes = notes
    profile.look_alikes = look_alikes
    return profile


def _dice_of_photos(
    folders: dict[Face, list[Path]], finder: Finder | None
) -> tuple[list[_Found], list[str]]:
    """Each photo's dice (face, photo, frame as looked through, dice), and a note for each photo
    left out because no die was found in it."""
    from vision.profiles.teaching import dice_in_photo, shrunk
    from vision.read.imagefile import load_image

    found = []
    notes = []
    for face, photos in folders.items():
        for photo in photos:
            frame = load_image(photo)
            # the finder's squares are rough; a caller's own finder is trusted
            frame = shrunk(frame) if finder is None else frame
            dice = dice_in_photo(frame) if finder is None else finder(frame)
            if dice:
                found.append((face, photo, frame, dice))
            else:
                notes.append(f"{_named(photo)}: left out, no die found in it")
    return found, notes


def _every_face_found(folders: dict[Face, list[Path]], found: list[_Found]) -> None:
    """A ValueError naming the faces none of whose photos shows a die."""
    seen = {face for face, *_ in found}
    for face, photos in folders.items():
        if face not in seen:
            names = ", ".join(photo.name for photo in photos)
            raise ValueError(
                f"{photos[0].parent}: no die found in any photo of face {face} ({names}); "
                "take photos of one die of the face, whole and in focus"
            )


def _shot(
    face: Face, photo: Path, frame: np.ndarray, dice: list[DieCandidate], finder: Finder | None
) -> _Shot:
    """A photo's candidates (every square offered of every die) with their crops."""
    from vision.profiles.teaching import offered_squares
    from vision.read.find import rectify

    candidates = (
        dice if finder is not None else [sq for d in dice for sq in offered_squares(frame, d)]
    )
    crops = [rectify(frame, c, CROP) for c in candidates]
    return _Shot(face, photo, candidates, crops, len(dice))


def _of_usual_sizes(found: list[_Found]) -> list[_Found]:
    """Each photo with only its dice within USUAL_SIZE of the usual side of the dice in the
    photos of its camera (ONE_CAMERA or more photos of its pixel size: one set, one camera,
    dice of about one size), where it shows any: a pencil's end or a coin beside the die is far
    smaller (two photos of a K with the same pencil beside the die taught the pencil), a second
    die of the set is not. No photo loses its every die, and photos of other sizes are left as
    they are, as are close-ups (brought to the camera's size, a 4:3 one is a tray photo's size):
    across cameras and zooms sizes say nothing."""
    from vision.profiles.teaching import photographed_large

    by_size: dict[tuple[int, ...], list[list[DieCandidate]]] = {}
    for *_, frame, dice in found:
        if not photographed_large(max(dice, key=lambda d: d.score)):  # a tray photo's dice
            by_size.setdefault(frame.shape, []).append(dice)
    usual = {
        shape: float(np.median([max(dice, key=lambda d: d.score).size for dice in photos]))
        for shape, photos in by_size.items()
        if len(photos) >= ONE_CAMERA
    }
    kept = []
    for face, photo, frame, dice in found:
        side = usual.get(frame.shape)
        near = [d for d in dice if side and 1 / USUAL_SIZE <= d.size / side <= USUAL_SIZE]
        kept.append((face, photo, frame, near or dice))
    return kept


def _named(photo: Path) -> str:
    """A photo as the player filed it: its face folder and its name ("J/2.png")."""
    return f"{photo.parent.name}/{photo.name}"


@dataclass(frozen=True)
class LookAlike:
    """A learned photo to check: its die looks more like the photos of another face (`like`,
    the likeliest of them `like_photo`) than its own face's, or (`like` None) unlike every other
    photo of its face. `likeness` is its best likeness to its own face's other photos."""

    photo: Path
    face: Face
    like: Face | None
    like_photo: Path | None
    likeness: float

    def said(self) -> str:
        if self.like is not None:
            return (
                f"{_named(self.photo)} looks much like your {self.like} photos "
                f"({_named(self.like_photo)}): check it (learned as {self.face})"
            )
        return (
            f"{_named(self.photo)} looks unlike your other {self.face} photos "
            f"(likeness {self.likeness:.2f}; blurred or cut?): check it (learned as {self.face})"
        )


def as_the_table_sees(crop: np.ndarray) -> np.ndarray:
    """A crop of a die photographed close, as blurred as the table's camera shows a die (its
    face TABLE_SIDE px across), at the crop's own size. Such a die is learned both ways: a tray
    die is too small to show a close-up's fine print, and taught from close-ups alone, a pip
    design's 9s were less like their templates than the threshold and never found (bench
    poker: 12 of design 0's 171 dice). Dice of tray photos learned twice too (those over 1.5
    times TABLE_SIDE) read rank letters worse."""
    from vision.profiles.teaching import TABLE_SIDE

    side = crop.shape[0]
    small = cv2.resize(crop, (TABLE_SIDE, TABLE_SIDE), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (side, side), interpolation=cv2.INTER_LINEAR)


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


def _look_alikes(shots: list[_Shot], likeness: np.ndarray, below: float) -> list[LookAlike]:
    """The photos to check: those whose chosen example is more like another face's photos than
    its own's, or (where two other photos of its face are alike) unlike every other of its
    face. `likeness` is the chosen examples' `_likeness`, one row per photo. On the teaching
    photos of 36 rendered designs (seeds 40-45, every kind, both ways) 10 of 1556 true examples
    were more like another face than their own: a look-alike is named, never left out."""
    likeness = likeness.copy()
    np.fill_diagonal(likeness, -1.0)
    faces = [shot.face for shot in shots]
    found = []
    for i, shot in enumerate(shots):
        group = [j for j, f in enumerate(faces) if f == shot.face and j != i]
        own = float(likeness[i, group].max()) if group else -1.0
        others = [j for j, f in enumerate(faces) if f != shot.face]
        likeliest = max(others, key=lambda j: likeness[i, j]) if others else None
        if group and likeliest is not None and likeness[i, likeliest] > own:
            other = shots[likeliest]
            found.append(LookAlike(shot.photo, shot.face, other.face, other.photo, own))
        elif own < below and _alike_others(likeness, group, below) >= 2:
            found.append(LookAlike(shot.photo, shot.face, None, None, own))
    return found


def look_alikes_of_examples(examples: dict[Face, list[np.ndarray]], kind: str) -> list[LookAlike]:
    """The examples to check among crops taught without photo files (the kiosk's captures, every
    die of a capture an example): as `learn_from_dir` names its photos, each example named
    `<face>/<its number from 1>`."""
    shots = [
        _Shot(face, Path(str(face)) / str(number), [], [crop], 1)
        for face, crops in examples.items()
        for number, crop in enumerate(crops, start=1)
    ]
    embedder = embedder_for(kind)
    below = UNLIKE_BELOW if embedder is None else EMBEDDED_UNLIKE_BELOW
    return _look_alikes(shots, _likeness([shot.crops[0] for shot in shots], embedder), below)


def _alike_others(likeness: np.ndarray, group: list[int], below: float) -> int:
    """How many of `group` are at least `below` like another of the group."""
    return (
        sum(1 for j in group if max(likeness[j, k] for k in group if k != j) >= below)
        if len(group) > 1
        else 0
    )


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
