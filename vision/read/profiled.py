"""Reading dice with a learned face profile (poker dice, unusual d6 sets): the candidates'
faces classified together, unsure ones refitted, and touching dice the finder merged or missed
found beside the candidates and dice."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from vision.read.body_fit import fit_body
from vision.read.find import PEAK_THRESHOLD, HeatMap, as_candidate, beside, near, rectify, resized
from vision.read.outline import fit_outline
from vision.read.types import Die, DieCandidate, Face

RECTIFIED_SIZE = 64
# A candidate is also read on its square this many times its side (the finder's side for poker
# dice was off by up to a fifth either way on rendered trays of new designs).
GROWN = (0.9, 1.12)
# ... and one still unsure, on the square fitted to its edges this many times its side too: those
# edges are often the die's whole outline, its sides showing in perspective. On the letter
# designs of `tabletop bench poker --seed 10/20 --designs 4 --trays 20`, 3.0 and 2.6% of the dice
# were misread or lost, and more than half of those read right when cut on their true top face.
FITTED_SHRUNK = (0.8, 0.9)
# A profile's confidence below which an unmatched candidate is taken for no die at all: on the
# dice-free crops of the real photos every phantom of the poker profile scored 0.20-0.35, on
# rendered empty trays under 0.15; of 413 rendered poker dice one was refused, at 0.22.
PROFILE_NO_FACE = 0.4
# A square beside a candidate or a die (see beside_unread, beside_read) is a die when it reads
# this surely. On 360 rendered poker trays not in the bench (1532 dice), squares beside unread
# candidates took dice read from 99.2% to 99.4%, squares beside read dice to 99.5%, with no
# phantom on their 360 empty trays nor on the 169 dice-free real crops, and no die read twice.
BESIDE_READ_AT = 0.6
# ... a square one side away from a read die is read only where the finder's heat reaches this,
# half a candidate's: on 360 rendered poker trays not in the bench, the two touching dice found so
# had 0.19 and 0.23 there, while 95% of the squares beside dice that held no die had under 0.08
# (a profile that matches anything cannot then surround each die with phantoms).
BESIDE_HEAT = 0.1
DISPUTED = 0.45  # the confidence of a die whose squares were read as two faces (unreadable)
# A die read surely enough on a square larger than the finder's (GROWN, or fitted to its body),
# but under this, is checked on the square fitted to its edges too: the larger square holds the
# die's sides, which a letter design read as another letter (an A as K at 0.82, the true face's
# own cut read A 0.91). Checking every such die cost 3.7 ms a tray; those under 0.8, 0.1 ms: on
# `tabletop bench poker --designs 4 --trays 20`, seeds 10 and 20, wrong 10 -> 7 and 10 -> 9
# dice, the dice read right unchanged.
CHECK_GROWN_BELOW = 0.8
# A candidate read at least this surely on its square as found or fitted to its body is not
# read on its grown and shrunk squares too (half the crops of a tray; see read_candidates).
SURE_AT_FIRST = 0.9
# A candidate under this share of the side of the dice read surely at first (SURE_AT_FIRST, at
# least TRAY_SIDE_NEEDS of them) is no die of the tray, whose dice are about one size (a pencil's
# pieces beside dice three times their side): its first reading stands, with no further squares
# cut about it. On `tabletop bench poker` at six seeds (2,520 trays) every die read the same,
# and one tray more was read exactly (a die too many gone).
UNDER_TRAY_SIDE = 0.5
TRAY_SIDE_NEEDS = 2
# A faint candidate (heat under the pip reader's PEAK_THRESHOLD) none of whose squares matches
# any face even faintly (confidence under this) is not cut again on its edges. Of 137 such refits
# on 180 trays of `tabletop bench poker --seed 10/20` (of 190 refits), none became a die; on 68
# more trays of other designs, one did: a Q whose candidate was a third too small, at heat 0.55
# (the others' median 0.31). Before this rule, edge fits took 30% of the slowest trays' time.
REFIT_FROM = 0.05
# A die smaller than this (pixels a side) stands only when read at SURE_AT_FIRST or more: its crop
# is enlarged four times and more to RECTIFIED_SIZE, a blur a profile can match to a face. On the
# dice-free crops of the real photos, all six phantoms of the shipped poker profile under it (a
# 13 px patch of a board's mountain hex read as a 9 at 0.56, four unreadable) scored under 0.9;
# of 38 rendered dice of its own design shrunk to 13 px, 35 read at 1.0, three under 0.8.
SMALL_SIDE = 16.0

Verdict = tuple[Face | None, float]
Classifier = Callable[[Sequence[np.ndarray]], list[Verdict]]
Judge = Callable[[DieCandidate, Face, float, str], Die]


def read_profiled(
    frame_bgr: np.ndarray,
    heat_map: HeatMap,
    candidates: list[DieCandidate],
    profile: Any,
    min_confidence: float,
    judge: Judge,
) -> list[Die]:
    """Every die among the candidates (and beside them) the profile reads; `judge` turns a value
    and its confidence into a die, unreadable when unsure."""
    accept_at = max(BESIDE_READ_AT, min_confidence)
    read, too_small = read_candidates_sized(frame_bgr, candidates, profile, min_confidence, judge)
    dice = [die for die in read if die is not None]
    quick = classifier(profile, moved=False)
    of_the_trays_size = [cand for i, cand in enumerate(candidates) if i not in too_small]
    dice = beside_unread(frame_bgr, of_the_trays_size, dice, quick, accept_at)
    dice = beside_read(frame_bgr, heat_map, dice, quick, accept_at)
    return [die for die in dice if not small_and_unsure(die)]


def small_and_unsure(die: Die) -> bool:
    """Whether the die is under SMALL_SIDE and not read surely (SURE_AT_FIRST)."""
    return 0.0 < die.side < SMALL_SIDE and (die.value is None or die.confidence < SURE_AT_FIRST)


def classifier(profile: Any, moved: bool) -> Classifier:
    """Crops -> verdicts through the profile: all at once where it offers `classify_many`, and
    without its moved tries when not `moved` and it offers that (a caller's own profile may
    offer only `classify(crop)`)."""
    many = getattr(profile, "classify_many", None)
    if many is not None:
        return without_moves(many, moved)
    one = without_moves(profile.classify, moved)
    return lambda crops: [one(crop) for crop in crops]


def without_moves(function: Callable[..., Any], moved: bool) -> Callable[..., Any]:
    """The function, told not to try moved crops when not `moved` and it takes that option."""
    if not moved and "moved" in inspect.signature(function).parameters:
        return functools.partial(function, moved=False)
    return function


def read_candidates(
    frame_bgr: np.ndarray,
    candidates: list[DieCandidate],
    profile: Any,
    min_confidence: float,
    judge: Judge,
) -> list[Die | None]:
    """Each candidate's face, read on its square as found and on the square fitted to the die's
    body; one not read surely so is read also on its square a little smaller and larger (the
    finder's side for poker dice is often a fifth off) and turned an eighth of a turn (a light die
    on a light table shows its print's edges more than its own), the surest answer kept; one
    still unsure is cut again on the square fitted to its edges, and on that square shrunk.
    None where a candidate resembles no face at all."""
    return read_candidates_sized(frame_bgr, candidates, profile, min_confidence, judge)[0]


def read_candidates_sized(
    frame_bgr: np.ndarray,
    candidates: list[DieCandidate],
    profile: Any,
    min_confidence: float,
    judge: Judge,
) -> tuple[list[Die | None], set[int]]:
    """`read_candidates`, with the candidates (by index) under UNDER_TRAY_SIDE of the side of the
    tray's dice read surely at first, which are not read again."""
    quick = classifier(profile, moved=False)
    tries = [first_tries(frame_bgr, cand) for cand in candidates]
    verdicts_of = read_squares(frame_bgr, tries, quick)
    too_small = under_tray_side(candidates, side_of_sure_dice(tries, verdicts_of))
    unsure = [
        i
        for i, verdicts in enumerate(verdicts_of)
        if max(c for _, c in verdicts) < SURE_AT_FIRST and i not in too_small
    ]
    more = [grown_tries(candidates[i]) + [half_turned(candidates[i])] for i in unsure]
    for i, squares, verdicts in zip(
        unsure, more, read_squares(frame_bgr, more, quick), strict=True
    ):
        tries[i] = tries[i] + squares
        verdicts_of[i] = verdicts_of[i] + verdicts
    squares: list[DieCandidate] = []
    verdicts: list[Verdict] = []
    for squares_of_one, verdicts_of_one in zip(tries, verdicts_of, strict=True):
        pairs = list(zip(squares_of_one, verdicts_of_one, strict=True))
        square, verdict = max(pairs, key=lambda pair: pair[1][1])
        if disputed(verdict, verdicts_of_one) or torn_elsewhere(verdict, verdicts_of_one):
            verdict = (None, min(verdict[1], DISPUTED))
        squares.append(square)
        verdicts.append(verdict)
    unsure = [
        i
        for i, (value, conf) in enumerate(verdicts)
        if (value is None or conf < min_confidence)
        and (conf >= REFIT_FROM or candidates[i].score >= PEAK_THRESHOLD)
        and i not in too_small
    ]
    larger = [
        i
        for i in not_sure_on_larger(candidates, squares, verdicts, min_confidence)
        if i not in too_small
    ]
    refit(frame_bgr, candidates, squares, verdicts, classifier(profile, moved=True), unsure, larger)
    dice = [
        judged_or_none(square, value, confidence, judge)
        for square, (value, confidence) in zip(squares, verdicts, strict=True)
    ]
    return without_doubles(dice, squares), too_small


def side_of_sure_dice(
    tries: list[list[DieCandidate]], verdicts_of: list[list[Verdict]]
) -> float | None:
    """The median side of the candidates read at SURE_AT_FIRST or more (each on its surest
    square), or None where fewer than TRAY_SIDE_NEEDS were."""
    sides = []
    for squares, verdicts in zip(tries, verdicts_of, strict=True):
        pairs = zip(squares, verdicts, strict=True)
        square, (_, confidence) = max(pairs, key=lambda pair: pair[1][1])
        if confidence >= SURE_AT_FIRST:
            sides.append(square.size)
    return float(np.median(sides)) if len(sides) >= TRAY_SIDE_NEEDS else None


def under_tray_side(candidates: list[DieCandidate], tray_side: float | None) -> set[int]:
    """The candidates (by index) under UNDER_TRAY_SIDE times the tray's side (none where it is
    unknown): too small to be a die of the tray."""
    if tray_side is None:
        return set()
    return {i for i, cand in enumerate(candidates) if cand.size < UNDER_TRAY_SIDE * tray_side}


def not_sure_on_larger(
    candidates: list[DieCandidate],
    squares: list[DieCandidate],
    verdicts: list[Verdict],
    min_confidence: float,
) -> list[int]:
    """The candidates read as a face from min_confidence to under CHECK_GROWN_BELOW on a square
    larger than the finder's (grown, or fitted to a body)."""
    return [
        i
        for i, (value, confidence) in enumerate(verdicts)
        if value is not None
        and min_confidence <= confidence < CHECK_GROWN_BELOW
        and squares[i].size > 1.05 * candidates[i].size
    ]


def refit(
    frame_bgr: np.ndarray,
    candidates: list[DieCandidate],
    squares: list[DieCandidate],
    verdicts: list[Verdict],
    classify: Classifier,
    unsure: list[int],
    checked: list[int],
) -> None:
    """Cut the `unsure` candidates and the `checked` ones again on the square fitted to their
    edges and on it shrunk (FITTED_SHRUNK), in place: each takes the surest of those answers where
    it is surer. A checked one those squares read as another face takes that face only if they
    read it more surely than it was read and do not dispute it among themselves (they are cut
    on the die's own outline); otherwise it is disputed: unreadable."""
    fitted = [(i, fit_outline(frame_bgr, candidates[i])) for i in unsure + checked]
    fitted = [(i, square) for i, square in fitted if square is not candidates[i]]
    fitted += [(i, smaller) for i, square in fitted for smaller in shrunk_tries(square)]
    tried = classify([rectify(frame_bgr, square, RECTIFIED_SIZE) for _, square in fitted])
    per_die: dict[int, list[tuple[DieCandidate, Verdict]]] = {}
    for (i, square), verdict in zip(fitted, tried, strict=True):
        per_die.setdefault(i, []).append((square, verdict))
    for i, own in per_die.items():
        square, best = max(own, key=lambda pair: pair[1][1])
        read = [verdict for _, verdict in own]
        if i in checked and disputed(verdicts[i], read):
            if best[1] > verdicts[i][1] and not disputed(best, read):
                verdicts[i], squares[i] = best, square
            else:
                verdicts[i] = (None, DISPUTED)
        elif best[1] > verdicts[i][1]:
            verdicts[i], squares[i] = best, square


def read_squares(
    frame_bgr: np.ndarray, tries: list[list[DieCandidate]], classify: Classifier
) -> list[list[Verdict]]:
    """The verdicts on each candidate's squares, all of them read at once."""
    crops = [rectify(frame_bgr, square, RECTIFIED_SIZE) for squares in tries for square in squares]
    flat = classify(crops)
    verdicts, at = [], 0
    for squares in tries:
        verdicts.append(list(flat[at : at + len(squares)]))
        at += len(squares)
    return verdicts


def without_doubles(dice: list[Die | None], squares: list[DieCandidate]) -> list[Die | None]:
    """Two candidates on parts of one large die can both be fitted to its whole body: of dice
    read at one place (centres within half a side), only the surest is kept (the others None)."""
    order = sorted(
        (i for i, die in enumerate(dice) if die is not None), key=lambda i: -dice[i].confidence
    )
    kept: list[int] = []
    for i in order:
        if any(near(squares[i].center, squares[k].center, 0.5 * squares[k].size) for k in kept):
            dice[i] = None
        else:
            kept.append(i)
    return dice


def torn_elsewhere(chosen: Verdict, verdicts: list[Verdict]) -> bool:
    """Whether the face read on one square of a die was found as like two faces on another of its
    squares (a die, unsure which face: the profile's check, #55): the die is then unreadable
    rather than the face of the square that happened to pass. On the home generator's designs
    printed light on black (410-412, pips and letters, taught from tray photos, 6 trays each: 136
    dice), 3 -> 1 wrong and 62 -> 46 right; on light designs (400-401 of each kind, both ways,
    12 trays each: 546 dice) the same 542 right and 1 wrong."""
    return chosen[0] is not None and any(
        value is None and confidence >= DISPUTED for value, confidence in verdicts
    )


def disputed(chosen: Verdict, verdicts: list[Verdict]) -> bool:
    """Whether another square of the same die was read as another face at least half surely:
    the die is then unreadable rather than the surer of two guesses."""
    return any(
        value is not None and value != chosen[0] and confidence >= 0.5
        for value, confidence in verdicts
    )


def candidate_tries(frame_bgr: np.ndarray, cand: DieCandidate) -> list[DieCandidate]:
    """Every square a candidate may be read on: `first_tries` then `grown_tries`."""
    return first_tries(frame_bgr, cand) + grown_tries(cand)


def first_tries(frame_bgr: np.ndarray, cand: DieCandidate) -> list[DieCandidate]:
    """The squares every candidate is read on: as found, and fitted to the die's body where
    one is found."""
    body = fit_body(frame_bgr, cand)
    return [cand] if body is None else [cand, body]


def grown_tries(cand: DieCandidate) -> list[DieCandidate]:
    """The candidate's square GROWN times its side (each way)."""
    return [resized(cand, k) for k in GROWN]


def shrunk_tries(square: DieCandidate) -> list[DieCandidate]:
    """The square FITTED_SHRUNK times its side."""
    return [resized(square, k) for k in FITTED_SHRUNK]


def half_turned(cand: DieCandidate) -> DieCandidate:
    """The candidate's square turned 45 degrees. Its turn is read from the strongest edges around
    it; on a light die on a light table those are its print's (a club beside a 10 on letters
    design 10 of `tabletop bench poker --seed 10` made it 47 degrees off a square die), and the
    die's face then fills only the middle of its crop."""
    return resized(cand, 1.0, turned=45.0)


def judged_or_none(
    cand: DieCandidate, value: Face | None, confidence: float, judge: Judge
) -> Die | None:
    """The candidate as a die (unreadable when no face matches), or None when it resembles no
    face at all."""
    if value is None and confidence < PROFILE_NO_FACE:
        return None
    if value is None:
        return Die(None, cand.center, float(confidence), cand.quad, "profile: no face matches")
    return judge(cand, value, float(confidence), "")


def beside_unread(
    frame_bgr: np.ndarray,
    candidates: list[DieCandidate],
    dice: list[Die],
    classify: Classifier,
    accept_at: float,
) -> list[Die]:
    """A candidate on the line between two touching dice shows half of each: around every
    candidate not read as a die, squares of its side moved half a side each way are read too."""
    read = [d for d in dice if d.value is not None]
    unread = [
        c for c in candidates if not any(near(c.center, d.center, 0.3 * c.size) for d in read)
    ]
    # Squares 0.8 of its side were read too until, on the 2,520 trays of `tabletop bench poker`
    # at seeds 0, 7, 10, 20, 30 and 100 and 150 rendered trays of
    # touching dice, each of the 23 + 1 dice found so lay on a square of the candidate's own
    # side: the smaller squares were half this step's crops, the step a seventh to a fifth of a
    # poker tray's time.
    squares = [square for cand in unread for square in beside(cand, 1.0, 0.5)]
    return with_found(frame_bgr, dice, squares, classify, accept_at)


def beside_read(
    frame_bgr: np.ndarray,
    heat_map: HeatMap,
    dice: list[Die],
    classify: Classifier,
    accept_at: float,
) -> list[Die]:
    """A die touching a read one can make no candidate of its own (the finder sees one long
    face): die-sized squares one side away from every read die, each way, are read too, where
    the finder's heat there is at least BESIDE_HEAT."""
    read = [d for d in dice if d.value is not None]
    squares = [square for die in read for square in beside(as_candidate(die), 1.0, 1.0)]
    squares = [square for square in squares if heat_map.at(square.center) >= BESIDE_HEAT]
    return with_found(frame_bgr, dice, squares, classify, accept_at)


def with_found(
    frame_bgr: np.ndarray,
    dice: list[Die],
    squares: list[DieCandidate],
    classify: Classifier,
    accept_at: float,
) -> list[Die]:
    """The dice plus every square read at accept_at or more that is away from each die read
    (surest first); an unreadable die within half a side of a found one is dropped."""
    read = [d for d in dice if d.value is not None]
    squares = [s for s in squares if not any(near(s.center, d.center, 0.7 * s.size) for d in read)]
    verdicts = classify([rectify(frame_bgr, square, RECTIFIED_SIZE) for square in squares])
    tries = [
        (confidence, square, value)
        for square, (value, confidence) in zip(squares, verdicts, strict=True)
        if value is not None and confidence >= accept_at
    ]
    found: list[tuple[Die, float]] = []
    for confidence, square, value in sorted(tries, key=lambda t: -t[0]):
        others = read + [die for die, _ in found]
        if not any(near(square.center, d.center, 0.7 * square.size) for d in others):
            found.append((Die(value, square.center, confidence, square.quad), square.size))
    kept = [
        d
        for d in dice
        if d.value is not None or not any(near(d.center, f.center, 0.5 * side) for f, side in found)
    ]
    return kept + [die for die, _ in found]
