"""Dice the finder sees but the face nets do not read (a maker's symbol, an unusual face): counted
as unreadable, for the player to set with a touch, rather than lost from the count."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.read._nets import NOT_A_DIE, SYMBOL_NET, classify_crops, crop_face
from vision.read.body_fit import body_colour
from vision.read.find import as_candidate, candidate_angle, of_a_size
from vision.read.large import within
from vision.read.types import Die, DieCandidate

# A candidate the face net takes for no die (or for a mark) is still an unreadable die where the
# finder's heat reaches this, outside every die read (AROUND_A_DIE times its square): symbol dice
# reach 0.5-0.9, while on the 530 dice-free crops of the photos no dropped candidate reached 0.7
# (8 reached 0.6).
SEEN_SURELY = 0.7
AROUND_A_DIE = 1.2
# ... and from SEEN_BESIDE_ITS_LIKE where LIKE_DICE dice read in the frame are of its size
# (`of_a_size`) and its body's colour (SAME_BODY apart in Lab at most), outside every die read by
# AROUND_A_LIKE times its square: a symbol die beside the other dice of its set (the symbol
# bench's lost ones lay on peaks of 0.38-0.78). Beside any one die of its size, Catan boats by
# the board photos' dice were counted too (unreadable dice where none is 27 -> 131); beside one
# like it, a second number token by a token read as a die (phantoms on the boards' bare crops
# 6 -> 10); and 1.2 times the square let a die read off its centre be counted twice.
SEEN_BESIDE_ITS_LIKE = 0.45
LIKE_DICE = 2
SAME_BODY = 12.0
AROUND_A_LIKE = 1.6
# ... or from SEEN_BESIDE_ITS_LIKE where the symbol net (`vision.read._nets.SYMBOL_NET`) gives it
# under this chance of no die, outside every die read by AROUND_A_LIKE times its square: a
# symbol die alone, or among dice of other colours. On the symbol bench's dropped candidates
# from 0.45 the symbol dice had 0.00-0.07, on the photos' 530 dice-free crops the least was
# 0.15, the next 0.67.
SYMBOL_NET_SEES_A_DIE = 0.1


def seen_but_unread(
    frame_bgr: np.ndarray, candidates: list[DieCandidate], dice: list[Die]
) -> list[Die]:
    """Unreadable dice where the finder sees a die that the face net took for none: surely
    (SEEN_SURELY) away from every die read, or less surely (SEEN_BESIDE_ITS_LIKE) like two dice
    read or plainly a die to the symbol net, and further from every die read."""
    weaker = [
        cand
        for cand in candidates
        if SEEN_BESIDE_ITS_LIKE <= cand.score < SEEN_SURELY
        and not any(within(cand.center, as_candidate(die), AROUND_A_LIKE) for die in dice)
    ]
    plainly = {id(cand) for cand in plainly_dice(frame_bgr, weaker)}
    like_those_read = like_dice_read(frame_bgr, dice if weaker else [])
    # The other candidates of the weaker band lie within AROUND_A_LIKE of a die read: never dice.
    weaker_ids = {id(cand) for cand in weaker}
    unread: list[Die] = []
    for cand in candidates:
        if cand.score >= SEEN_SURELY:
            around = AROUND_A_DIE
        elif id(cand) in weaker_ids and (id(cand) in plainly or like_those_read(cand)):
            around = AROUND_A_LIKE
        else:
            continue
        if any(within(cand.center, as_candidate(die), around) for die in dice + unread):
            continue
        reason = "the finder sees a die here but its face is not read (a symbol, or unusual dice)"
        unread.append(Die(None, cand.center, 0.0, cand.quad, reason))
    return unread


def plainly_dice(frame_bgr: np.ndarray, candidates: list[DieCandidate]) -> list[DieCandidate]:
    """The candidates the symbol net, which learned symbol dice as dice of no readable value,
    gives under SYMBOL_NET_SEES_A_DIE chance of no die."""
    crops = [crop_face(frame_bgr, c.center, c.size, candidate_angle(c)) for c in candidates]
    chances = classify_crops(crops, model=SYMBOL_NET)
    return [
        cand
        for cand, no_die in zip(candidates, chances[:, NOT_A_DIE], strict=True)
        if no_die < SYMBOL_NET_SEES_A_DIE
    ]


def like_dice_read(frame_bgr: np.ndarray, dice: list[Die]) -> Callable[[DieCandidate], bool]:
    """A test of a candidate: whether LIKE_DICE of the dice read are of its size and its body's
    colour."""
    read = [
        (die.side, body_colour(frame_bgr, die.center, die.side))
        for die in dice
        if die.value is not None
    ]

    def like_those_read(cand: DieCandidate) -> bool:
        if len(read) < LIKE_DICE:
            return False
        colour = body_colour(frame_bgr, cand.center, cand.size)
        alike = sum(
            of_a_size(cand.size, side) and float(np.linalg.norm(colour - body)) <= SAME_BODY
            for side, body in read
        )
        return alike >= LIKE_DICE

    return like_those_read
