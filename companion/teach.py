"""Teaching the reader a set of poker dice from the settings screen.

The players put dice showing one face under the camera and touch Capture, face after face; each
capture cuts out every die found (the reader's own finder and rectifier), and after the last face
the examples become a face profile (`vision.profile.FaceProfile`) saved in the state directory,
which the reader then uses for poker dice.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

POKER_FACES = ("9", "10", "J", "Q", "K", "A")
PROFILE_NAME = "poker-profile.npz"


def crop_dice(image: np.ndarray, roi: tuple[int, int, int, int] | None = None) -> list[np.ndarray]:
    """The top face of every die found in the frame, squared up, as the reader sees it."""
    from vision.find import find_dice, rectify
    from vision.profile import CROP

    return [rectify(image, candidate, CROP) for candidate in find_dice(image, roi)]


def learn_profile(examples: dict[str, list[np.ndarray]], state_dir: Path) -> Path:
    """Build and save the profile; raises ValueError naming what is missing."""
    from vision.profile import FaceProfile

    profile = FaceProfile.learn(examples, "poker")
    path = Path(state_dir) / PROFILE_NAME
    profile.save(path)
    return path
