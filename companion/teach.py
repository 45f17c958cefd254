"""Teaching the reader a set of poker dice from the settings screen.

The players put dice showing one face under the camera (in the tray, or one die held close to
it) and touch Capture, face after face; each capture cuts out every die found (as `tabletop
learn` cuts its photos: `vision.profiles.teaching`), and after the last face
the examples become a face profile (`vision.profiles.profile.FaceProfile`) saved in the state
directory, which the reader then uses for poker dice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

POKER_FACES = ("9", "10", "J", "Q", "K", "A")
PROFILE_NAME = "poker-profile.npz"


def crop_dice(image: np.ndarray, roi: tuple[int, int, int, int] | None = None) -> list[np.ndarray]:
    """The top face of every die found in the frame (within `roi`), squared up: dice small in
    the tray or one die held close to the camera, each cut on its best-agreed square
    (`vision.profiles.teaching`), as `tabletop learn` cuts its photos."""
    from vision.profiles.ink_maps import CROP
    from vision.profiles.teaching import best_square, dice_in_photo
    from vision.read.find import clip_roi, rectify

    x, y, w, h = clip_roi(image.shape, roi)
    view = image[y : y + h, x : x + w]
    return [rectify(view, best_square(view, die), CROP) for die in dice_in_photo(view)]


@dataclass(frozen=True)
class LookAlike:
    """A taught die to check (`vision.profiles.profile_learning.LookAlike`): the `number`th die
    captured for `face` looks much like a die captured for another face (`like`, its
    `like_number`th) or, with `like` None, unlike the other dice of its face. The crops are
    the two dice as learned."""

    face: str
    number: int
    crop: np.ndarray
    like: str | None
    like_number: int | None
    like_crop: np.ndarray | None


@dataclass(frozen=True)
class Taught:
    """What teaching came to: the profile's file, the self-check's share in percent (None with
    one example per face), and the dice to check."""

    path: Path
    percent: int | None
    look_alikes: list[LookAlike] = field(default_factory=list)


def learn_profile(examples: dict[str, list[np.ndarray]], state_dir: Path) -> Path:
    """Build and save the profile; raises ValueError naming what is missing."""
    return learn_and_check(examples, state_dir).path


def learn_and_check(examples: dict[str, list[np.ndarray]], state_dir: Path) -> Taught:
    """Build and save the profile, say how well it tells the faces apart (the share of the
    examples read right by all the others) and which dice look like another face's."""
    from vision.profiles.profile import FaceProfile

    profile = FaceProfile.learn(examples, "poker")
    path = Path(state_dir) / PROFILE_NAME
    profile.save(path)
    share = profile.self_check()
    percent = None if share != share else round(100 * share)
    return Taught(path, percent, look_alikes_of(examples))


def look_alikes_of(examples: dict[str, list[np.ndarray]]) -> list[LookAlike]:
    """The captured dice that look like another face's, or unlike their own face's others."""
    from vision.profiles.profile_learning import look_alikes_of_examples

    def crop_of(face: str, number: int) -> np.ndarray:
        return examples[face][number - 1]

    found = []
    for alike in look_alikes_of_examples(examples, "poker"):
        face, number = str(alike.face), int(alike.photo.name)
        like = None if alike.like is None else str(alike.like)
        like_number = None if alike.like_photo is None else int(alike.like_photo.name)
        like_crop = None if like is None or like_number is None else crop_of(like, like_number)
        found.append(LookAlike(face, number, crop_of(face, number), like, like_number, like_crop))
    return found
