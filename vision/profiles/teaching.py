"""Finding the die in a teaching photo, whichever way it was taken.

A player teaches a dice set either with the table's camera (dice small in the tray) or close up
with a phone (one die filling much of the photo, any background). Either way the photo is shrunk
to the table camera's size; a close-up's die is the patch standing out from the photo's border
(`vision.profiles.close_up`), its top face found by the finder in the photo shrunk further until the
die is a tray die's size, a tray photo's dice are the finder's usual look's (its coarse looks',
`vision.read.find.find_large_faces`, where that sees none), and each die is offered on several
squares: as found, a little smaller and larger, fitted to its body's colour and to its edges. Which
of them is learned is left to the photos themselves
(`vision.profiles.profile_learning.learn_from_dir` keeps the one most like the other photos of its
face), so nothing here knows any dice set's print.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.profiles.close_up import die_standing_out
from vision.read import find
from vision.read._nets import PROFILE_FINDER
from vision.read.body_fit import fit_body
from vision.read.find import candidate_angle, find_large_faces, look, near, resized, square_quad
from vision.read.outline import fit_outline
from vision.read.types import DieCandidate

PHOTO_SIDE = 640  # px: a teaching photo's longer side is shrunk to this (the table camera's)
PEAK_THRESHOLD = 0.2  # the reader's own for profiles (`vision.reader.PROFILE_PEAK_THRESHOLD`)
GROWN = (0.9, 1.12)  # the finder's side of a face is often a tenth or a fifth off
# The usual look sees a close-up's pips and print as small dice: a square under SMALLER times a
# close-up die's side with its centre within INSIDE of that side from the die's is its print.
INSIDE = 0.6
SMALLER = 0.8
AGREE = 0.08
SAME_SIZE = 1.2  # learning is offered squares within this ratio of the best square's side
# A die's face is about TABLE_SIDE to 50 px across in the table camera's 640 x 480 frame; a die
# over LARGE times that was photographed close.
TABLE_SIDE = 36
LARGE = 2.0
# On a die photographed close, a fit under this share of its side as found is its print, not
# its face: a 9's edges were fitted to its clubs, and the three photos' prints, being alike,
# were learned. (On tray photos the finder's square is rougher: letter dice read worse.)
PRINT_SIZED = 0.75
# A photo shows one die: a square the finder is far less sure of than its surest one is a coin,
# a pencil or a mark (on rendered teaching photos the die scored 0.6-0.7, props 0.2-0.45).
SURE_SHARE = 0.75
MOST_DICE = 4  # a teaching photo shows one die; beside it a coin or a second die, rarely more
# A close-up is shrunk until its die's patch is TRAY_PATCH px (its top face with side faces and
# shadow, about a tray die's size in the camera's FRAME), where the finder is at home; the
# finder's side of such a die is about 0.89 of its top face's (71 rendered close-ups), hence
# ZOOMED_SIZE.
TRAY_PATCH = 55.0
FRAME = (640, 480)
ZOOMED_SIZE = 1.12


def shrunk(photo_bgr: np.ndarray) -> np.ndarray:
    """The photo with its longer side at PHOTO_SIDE: a phone's 4000 px photo takes long to look
    through and shows nothing more of a die; a close-up of 60-100 px, its die already a tray
    die's size, is grown to it, where the close-up's die is looked for as in a phone's."""
    height, width = photo_bgr.shape[:2]
    factor = PHOTO_SIDE / max(height, width)
    if factor == 1.0:
        return photo_bgr
    size = (max(16, round(width * factor)), max(16, round(height * factor)))
    grow = cv2.INTER_CUBIC if factor > 1.0 else cv2.INTER_AREA
    return cv2.resize(photo_bgr, size, interpolation=grow)


def dice_in_photo(photo_bgr: np.ndarray) -> list[DieCandidate]:
    """The dice in a teaching photo brought to the camera's size (`shrunk`). A close-up's die is
    the patch shaped like one die that stands out from the photo's border
    (`vision.profiles.close_up`) with what the finder saw in it (its print: a 9's loop, a crown), as
    its top face (`die_zoomed_out`) where the finder sees one there, else the patch itself where the
    finder saw a die as large as it. Otherwise (a tray photo, whose patch standing out is the tray
    or a light spot, if any) the finder's usual look gives the dice (a die's own print seen inside
    it as a second, smaller die is dropped), and its coarse looks when the usual look sees none:
    at most MOST_DICE, surest first."""
    # The usual look through find_dice (looked up when called, so a test may stand in for it).
    small = find.find_dice(photo_bgr, threshold=PEAK_THRESHOLD, finder=PROFILE_FINDER)
    large = find_large_faces(photo_bgr, look(photo_bgr, finder=PROFILE_FINDER), PEAK_THRESHOLD)
    standing_out = die_standing_out(photo_bgr)
    if standing_out is not None and any(
        _inside(c, standing_out) or _agree(standing_out, c) for c in small + large
    ):
        zoomed = die_zoomed_out(photo_bgr, standing_out)
        if zoomed is not None:
            return [zoomed]
        if any(_agree(standing_out, c) for c in small + large):
            return [standing_out]
        # no top face where the patch is, nor a die as large as it: the patch is a tray or a
        # light spot around the dice the finder saw (a tray photo), not a die seen close
    found = small or large
    found = [c for c in found if c.score >= SURE_SHARE * max(c.score for c in found)]
    # a die's own print seen as a smaller die inside it (a rank letter filling a grown close-up)
    found = [c for c in found if not any(_inside(c, other) for other in found)]
    return sorted(found, key=lambda c: -c.score)[:MOST_DICE]


def die_zoomed_out(photo_bgr: np.ndarray, patch: DieCandidate) -> DieCandidate | None:
    """The top face of a close-up's die as the finder sees it with the photo shrunk until the
    die is the size of a tray's (TRAY_PATCH), in a frame of the table camera's size: the patch
    standing out holds the die's side faces and shadow too, the finder knows top faces. The
    square is turned as the patch is."""
    factor = TRAY_PATCH / patch.size
    small = cv2.resize(photo_bgr, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    height, width = small.shape[:2]
    top, left = max(0, (FRAME[1] - height) // 2), max(0, (FRAME[0] - width) // 2)
    canvas = cv2.copyMakeBorder(
        small,
        top,
        max(0, FRAME[1] - height - top),
        left,
        max(0, FRAME[0] - width - left),
        cv2.BORDER_REPLICATE,
    )
    centre = (patch.center[0] * factor + left, patch.center[1] * factor + top)
    found = [
        c
        for c in find.find_dice(canvas, threshold=PEAK_THRESHOLD, finder=PROFILE_FINDER)
        if near(c.center, centre, TRAY_PATCH / 2) and c.size > TRAY_PATCH / 2
    ]
    if not found:
        return None
    best = max(found, key=lambda c: c.score)
    shift = np.array([left, top], np.float32)
    center = (np.array(best.center) - shift) / factor
    side = best.size / factor * ZOOMED_SIZE
    # The patch's outline gives the die's turn surely (0.06 degrees off at the median on 234
    # rendered close-ups); the finder's, from a face's print (a 9's clubs), was over 10 degrees
    # off for one in eight.
    quad = square_quad((float(center[0]), float(center[1])), side, candidate_angle(patch))
    return DieCandidate((float(center[0]), float(center[1])), quad, side, best.score)


def squares_to_try(photo_bgr: np.ndarray, die: DieCandidate) -> list[DieCandidate]:
    """The squares one die is offered on: as found, GROWN times its side, fitted to its body and
    fitted to its edges (distinct ones only; on a die photographed large, none PRINT_SIZED)."""
    squares = [die] + [resized(die, k) for k in GROWN]
    body = fit_body(photo_bgr, die)
    if body is not None:
        squares.append(body)
    edges = fit_outline(photo_bgr, die)
    if edges is not die:
        squares.append(edges)
    if not photographed_large(die):
        return squares
    return [square for square in squares if square.size >= PRINT_SIZED * die.size]


def photographed_large(die: DieCandidate) -> bool:
    """The die shows over LARGE times a tray die's side (a phone's close-up, not a tray photo)."""
    return die.size > LARGE * TABLE_SIDE


def best_square(photo_bgr: np.ndarray, die: DieCandidate) -> DieCandidate:
    """Of the squares a die is offered on, the one most others agree with (centre and side
    within AGREE of its side), ties going to the later of `squares_to_try` (edges, then body):
    on rendered teaching photos the edge fit was within 8% of the truth on 80% of tray photos
    and 58% of close-ups, the body fit on 58% and 65%, the finder's square on 30% and 3%."""
    return _most_agreed(squares_to_try(photo_bgr, die))


def _most_agreed(squares: list[DieCandidate]) -> DieCandidate:
    agreeing = [sum(_agree(one, other) for other in squares) for one in squares]
    return squares[max(range(len(squares)), key=lambda i: (agreeing[i], i))]


def offered_squares(photo_bgr: np.ndarray, die: DieCandidate) -> list[DieCandidate]:
    """The squares a die is offered to learning on: `best_square` first, then every other square
    of `squares_to_try` about its size (within SAME_SIZE of it either way), of which learning
    keeps the one most like the other photos of its face. Offering every square let a small
    die's far larger squares win (they showed alike trays); offering only the best one learned
    dice cut a third off (rendered letter dice' A, of 3 photos all 3)."""
    squares = squares_to_try(photo_bgr, die)
    best = _most_agreed(squares)
    return [best] + [
        square
        for square in squares
        if square is not best and 1 / SAME_SIZE < square.size / best.size < SAME_SIZE
    ]


def _agree(one: DieCandidate, other: DieCandidate) -> bool:
    moved = float(np.hypot(*np.subtract(one.center, other.center)))
    return abs(other.size / one.size - 1) < AGREE and moved < AGREE * one.size


def _inside(small: DieCandidate, large: DieCandidate) -> bool:
    offset = np.subtract(small.center, large.center)
    return bool(np.hypot(*offset) < INSIDE * large.size and small.size < SMALLER * large.size)
