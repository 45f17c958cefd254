"""Struggle's advisor: which dice to keep and which play to make, by the expected score against
the player's own objective card, computed exactly over the throws left. At the table the card
may never have been entered: the advice then needs no card, ranking by the best chance of any
pawn to arrive before the others still racing.

A position's worth is the expected score of its arrival order: pawns already in a box are
placed; for the pawns still on the track each pair's order is estimated from how far each has
to go, and each pawn's place follows from those pairwise chances. Keeping and re-throwing is
then an exact expectimax over every outcome of the dice re-thrown (at most 252 hands, each
played at its best).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product

from advisor.core import Choice, Deadline, Reason
from engines.dice import POKER_FACES, sort_faces
from engines.struggle import BOXES, MAX_THROWS, PAWNS, StruggleState

Hand = tuple[str, ...]
Chances = tuple[float, ...]  # one per pawn of the objective card in its order (else of PAWNS)
POINTS_PER_PAWN = 10


# ----- the chance of the dice --------------------------------------------------------------------


@cache
def outcomes(dice: int) -> tuple[tuple[Hand, float], ...]:
    """Every distinct result of `dice` poker dice (canonical order) and its exact chance."""
    found = []
    for combo in combinations_with_replacement(POKER_FACES, dice):
        ways = math.factorial(dice)
        for count in Counter(combo).values():
            ways //= math.factorial(count)
        found.append((combo, ways / len(POKER_FACES) ** dice))
    return tuple(found)


def keep_chance(hand: Sequence[str], target: Sequence[str], rethrows: int) -> Fraction:
    """The exact chance of holding every face of `target` after up to `rethrows` re-throws,
    keeping at each throw the dice that count towards the target and re-throwing the others."""
    need = Counter(target) - Counter(hand)
    return _need_chance(tuple(sorted(need.elements())), len(hand) - _kept_count(hand, target),
                        rethrows)  # fmt: skip


def _kept_count(hand: Sequence[str], target: Sequence[str]) -> int:
    return sum((Counter(hand) & Counter(target)).values())


@cache
def _need_chance(need: Hand, free: int, rethrows: int) -> Fraction:
    if not need:
        return Fraction(1)
    if rethrows == 0:
        return Fraction(0)
    total = Fraction(0)
    for faces in product(POKER_FACES, repeat=free):
        got = Counter(need) & Counter(faces)
        left = tuple(sorted((Counter(need) - got).elements()))
        total += _need_chance(left, free - sum(got.values()), rethrows - 1)
    return total / len(POKER_FACES) ** free


# ----- the worth of a position -------------------------------------------------------------------


def expected_points(squares: dict[str, int], boxes: dict[str, str], track_length: int,
                    objective: Sequence[str]) -> float:  # fmt: skip
    """The expected score of `objective` once the race ends, from where the pawns stand."""
    return points(placed_chances(squares, boxes, track_length, objective))


def placed_chances(squares: dict[str, int], boxes: dict[str, str], track_length: int,
                   objective: Sequence[str]) -> Chances:  # fmt: skip
    """For each pawn of `objective` in its order, the chance that it ends in the box the card
    gives it (10 points each)."""
    key = (tuple(sorted(squares.items())), tuple(sorted(boxes.items())), track_length)
    places = _place_chances(*key)
    return tuple(places[pawn][rank] for rank, pawn in enumerate(objective))


@cache
def _place_chances(squares: tuple, boxes: tuple, track_length: int) -> dict[str, list[float]]:
    chances = {pawn: [0.0] * len(PAWNS) for pawn in PAWNS}
    for pawn, box in boxes:
        chances[pawn][BOXES.index(box)] = 1.0
    first_free = len(boxes)
    left = {pawn: track_length + 1 - square for pawn, square in squares}
    for pawn, distance in left.items():
        ahead = [_before(left[other], distance) for other in left if other != pawn]
        for rank, chance in enumerate(_count_distribution(ahead)):
            chances[pawn][first_free + rank] += chance
    return chances


def first_chances(squares: dict[str, int], boxes: dict[str, str], track_length: int) -> Chances:
    """For each pawn (PAWNS' order), the chance that it is the next to reach a box: a figure
    that needs no objective card. A pawn already in a box has none."""
    key = (tuple(sorted(squares.items())), tuple(sorted(boxes.items())), track_length)
    places = _place_chances(*key)
    racing = len(boxes)
    return tuple(0.0 if pawn in boxes else places[pawn][racing] for pawn in PAWNS)


def _before(distance: int, other: int) -> float:
    """The chance that a pawn `distance` squares from the boxes arrives before one `other` away."""
    spread = 1.0 + math.sqrt(0.8 * (distance + other))
    return 1.0 / (1.0 + math.exp(-1.7 * (other - distance) / spread))


def _count_distribution(chances: list[float]) -> list[float]:
    """How many of independent events with these chances happen: 0, 1, 2, ..."""
    counts = [1.0]
    for p in chances:
        counts = [a * (1 - p) + b * p for a, b in zip(counts + [0.0], [0.0] + counts, strict=True)]
    return counts


# ----- the advice --------------------------------------------------------------------------------


class _Planner:
    """The best expected score of every hand, with 0, 1 or 2 re-throws left, for one position.

    A hand's worth is kept as the chance of each pawn of the card ending in its box (the
    expected score is ten times their sum): the best play is the one with the best score, and
    its chances are those a player is told. Without a card (None) a hand's worth is each pawn's
    chance to arrive next, and the best play the one giving some pawn the best such chance."""

    def __init__(self, state: StruggleState, objective: Sequence[str] | None,
                 deadline: Deadline | None = None) -> None:  # fmt: skip
        self.scratch = state.clone()
        self.deadline = deadline
        self.objective = tuple(objective) if objective else None
        self.track_length = len(state.track)
        self._play_values: dict[Hand, Chances] = {}
        self._kept_values: dict[tuple[Hand, int], Chances] = {}
        self._hand_values: dict[tuple[Hand, int], Chances] = {}

    def plays(self, hand: Hand) -> list[tuple[str, float]]:
        """Each play of `hand` and its expected score."""
        return [(notation, points(chances)) for notation, chances in self.play_chances(hand)]

    def play_chances(self, hand: Hand) -> list[tuple[str, Chances]]:
        self.scratch.hand = hand
        return [(action.notation, self.chances(action.data[1]))
                for action in self.scratch._plays()]  # fmt: skip

    def chances(self, result) -> Chances:
        if self.objective is None:
            return first_chances(result.squares, result.boxes, self.track_length)
        return placed_chances(result.squares, result.boxes, self.track_length, self.objective)

    def score(self, chances: Chances) -> float:
        """What ranks the choices: the expected points of the card, else the best chance of
        a pawn to arrive next."""
        return points(chances) if self.objective is not None else max(chances)

    def best(self, options) -> Chances:
        """The chances with the best score (the first of equals)."""
        return max(options, key=self.score)

    def play_value(self, hand: Hand) -> Chances:
        if hand not in self._play_values:
            self._play_values[hand] = self.best(c for _, c in self.play_chances(hand))
        return self._play_values[hand]

    def hand_value(self, hand: Hand, rethrows: int) -> Chances:
        key = (hand, rethrows)
        if key not in self._hand_values:
            found = self.play_value(hand)
            if rethrows and not self._late():
                kept = (self.kept_value(kept, rethrows) for kept in _keeps(hand))
                found = self.best([found, self.best(kept)])
            self._hand_values[key] = found
        return self._hand_values[key]

    def _late(self) -> bool:
        """Out of time: further hands are valued as played at once (a shorter look-ahead)."""
        return self.deadline is not None and self.deadline.out_of_time()

    def kept_value(self, kept: Hand, rethrows: int) -> Chances:
        """The expected chances after keeping `kept` and re-throwing the other dice, each
        hand thrown then played (or kept from) at its best score."""
        key = (kept, rethrows)
        if key not in self._kept_values:
            total = [0.0] * len(self.objective or PAWNS)
            for thrown, chance in outcomes(len(PAWNS) - len(kept)):
                for i, value in enumerate(self.hand_value(_merge(kept, thrown), rethrows - 1)):
                    total[i] += chance * value
            self._kept_values[key] = tuple(total)
        return self._kept_values[key]


def points(chances: Chances) -> float:
    return POINTS_PER_PAWN * sum(chances)


@cache
def _merge(kept: Hand, thrown: Hand) -> Hand:
    return sort_faces(kept + thrown, POKER_FACES)


@cache
def _keeps(hand: Hand) -> tuple[Hand, ...]:
    """Every proper sub-multiset of the hand that can be kept (at least one die re-thrown)."""
    counts = Counter(hand)
    faces = sorted(counts, key=POKER_FACES.index)
    kept = set()
    for taken in product(*(range(counts[face] + 1) for face in faces)):
        chosen = tuple(face for face, n in zip(faces, taken, strict=True) for _ in range(n))
        if len(chosen) < len(hand):
            kept.add(chosen)
    return tuple(sorted(kept))


def objective_of(state: StruggleState, player: int) -> tuple[str, ...] | None:
    order = state.view(player)["objectives"][player]
    return tuple(order) if order else None


def advise(state: StruggleState, deadline: Deadline) -> list[Choice]:
    """Every play and re-throw, best first. With the player's card: by expected score, each
    said with that score and the pawn it does most for (against the position before the turn).
    Without it (table mode): by the best chance to arrive next of a pawn the choice moves, said
    with that pawn."""
    player = state.actor
    assert isinstance(player, int)
    if state.phase != "choose":  # table mode's reveal: the card is the player's to tell
        return [Choice(a.notation, 0.0, "points", Reason("only")) for a in state.legal_actions()]
    planner = _Planner(state, objective_of(state, player), deadline)
    if planner.objective is None:
        return _advise_first(state, planner)
    racing = [pawn for pawn in PAWNS if pawn not in state.boxes]
    weighed = [(notation, chances, "play", {}, moved)
               for notation, chances, moved in _hand_plays(state, planner, racing)]  # fmt: skip
    for notation, kept, chances in _kept_chances(state, planner):
        params = {"kept": " ".join(kept) or "-"}
        weighed.append((notation, chances, "keep", params, [p for p in racing if p in kept]))
    weighed.sort(key=lambda item: -planner.score(item[1]))  # stable: ties keep the engine's order
    before = placed_chances(state.squares, state.boxes, len(state.track), planner.objective)
    return [_said(notation, chances, before, planner.objective, how, params, moved)
            for notation, chances, how, params, moved in weighed]  # fmt: skip


def _hand_plays(state: StruggleState, planner: _Planner, racing: list[str]):
    """Each play of the hand: its notation, the chances it leaves and the pawns it moves (those
    it names whose square or box it changes)."""
    planner.scratch.hand = state.hand
    for action in planner.scratch._plays():
        result = action.data[1]
        named = {token.split("+")[0] for token in action.notation.split() if "+" in token}
        moved = [p for p in racing if p in named and (
            result.squares.get(p) != state.squares.get(p) or p in result.boxes)]  # fmt: skip
        yield action.notation, planner.chances(result), moved


def _kept_chances(state: StruggleState, planner: _Planner):
    """Each re-throw of the turn: its notation, the dice it keeps and the chances it leaves."""
    if state.throws >= MAX_THROWS:
        return
    rethrows_after = MAX_THROWS - state.throws - 1
    for action in state._rethrows():
        kept = tuple((Counter(state.hand) - Counter(action.data)).elements())
        kept = sort_faces(kept, POKER_FACES)
        yield action.notation, kept, planner.kept_value(kept, rethrows_after + 1)


def _advise_first(state: StruggleState, planner: _Planner) -> list[Choice]:
    """Without a card: each choice said by the pawn it moves whose chance to arrive next it
    raises most, and ranked by that pawn's chance. A play moves the pawns whose place it
    changes; a re-throw the pawns of the figures it keeps. A re-throw keeping no pawn names none
    and is ranked by the best chance it leaves a pawn; a play moving no pawn names none and comes
    last. (Said by the leader's chance, a choice read "Queen: 95 %", a pawn the hand did not
    move.)"""
    racing = [pawn for pawn in PAWNS if pawn not in state.boxes]
    before = first_chances(state.squares, state.boxes, len(state.track))
    said = [_said_first(notation, chances, before, moved, "play", {})
            for notation, chances, moved in _hand_plays(state, planner, racing)]  # fmt: skip
    for notation, kept, chances in _kept_chances(state, planner):
        moved = [p for p in racing if p in kept]
        params = {"kept": " ".join(kept) or "-"}
        said.append(_said_first(notation, chances, before, moved, "keep", params))
    return sorted(said, key=lambda choice: -choice.figure)  # stable: ties keep the engine's order


def _said(notation: str, chances: Chances, before: Chances, objective: Sequence[str], how: str,
          params: dict, moved: list[str]) -> Choice:  # fmt: skip
    """A choice told by its expected score, and by its pawn: of the pawns it moves, the one
    whose chance it raises most (the first of equals); moving none, by the score alone."""
    expected = round(points(chances), 1)
    if not moved:
        params = {**params, "expected": expected}
        return Choice(notation, points(chances), "points", Reason(f"struggle.{how}_points", params))
    rank = max((objective.index(p) for p in moved), key=lambda i: (chances[i] - before[i], -i))
    params = {**params, "pawn": objective[rank], "box": BOXES[rank],
              "chance": round(chances[rank], 4), "expected": expected}  # fmt: skip
    return Choice(notation, points(chances), "points", Reason(f"struggle.{how}", params))


def _said_first(notation: str, chances: Chances, before: Chances, moved: list[str], how: str,
                params: dict) -> Choice:  # fmt: skip
    """A choice told without a card: of the pawns it moves, the one whose chance to arrive next
    it raises most, with that chance. A play moving none is told so, with no figure; a re-throw
    keeping none by the best chance it leaves a pawn, naming none (the new dice will say which)."""
    if not moved and how == "keep":
        params = {**params, "chance": round(max(chances), 4)}
        return Choice(notation, max(chances), "chance", Reason("struggle.keep_any", params))
    if not moved:
        return Choice(notation, 0.0, "chance", Reason("struggle.play_none", params))

    def raised(pawn: str) -> tuple[float, float, int]:
        i = PAWNS.index(pawn)
        return (round(chances[i] - before[i], 4), chances[i], -i)

    leading = max(moved, key=raised)
    chance = chances[PAWNS.index(leading)]
    params = {**params, "pawn": leading, "chance": round(chance, 4)}
    return Choice(notation, chance, "chance", Reason(f"struggle.{how}_first", params))
