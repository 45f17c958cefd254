"""Teaching the reader a set of poker dice from the settings screen.

The players put dice showing one face under the camera (in the tray, or one die held close to
it) and touch Capture, face after face; each capture cuts out every die found (as `tabletop
learn` cuts its photos: `vision.profiles.teaching`), and after the last face
the examples become a face profile (`vision.profiles.profile.FaceProfile`) saved in the state
directory, which the reader then uses for poker dice.
"""

from __future__ import annotations

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


def learn_profile(examples: dict[str, list[np.ndarray]], state_dir: Path) -> Path:
    """Build and save the profile; raises ValueError naming what is missing."""
    return learn_and_check(examples, state_dir)[0]


def learn_and_check(
    examples: dict[str, list[np.ndarray]], state_dir: Path
) -> tuple[Path, int | None]:
    """Build and save the profile, and say how well it tells the faces apart: the share (in
    percent) of the examples read right by all the others, None with one example per face."""
    from vision.profiles.profile import FaceProfile

    profile = FaceProfile.learn(examples, "poker")
    path = Path(state_dir) / PROFILE_NAME
    profile.save(path)
    share = profile.self_check()
    return path, None if share != share else round(100 * share)
