"""A fast model of one two-player Stratégix round, for the advisor's playouts.

The engine lists every step of every formula (hundreds at a lead) and a round through it costs
tens of milliseconds; a playout here costs a fraction of one. The model keeps what decides a
two-player round: formulas of one or more groups of the same shape, strength by the lowest
letter, a Z winning the trick at once, a pétard skipping the other player, a pass ending the
trick, going out clean (Dubolix) or on a star, Z or pétard (Padbolix). It leaves out the exact
copy's skip (in two-player play it only gives the copier the turn back). Both players play one
policy (`choose`): real cards before stars, low letters first, stars and Zs spent when the
other is near out or when only they are left, never the last card on a special.

Hands are lists of `SLOTS` counts: letters B..Z (0..24), then stars, then pétards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

LETTERS = 25
Z = LETTERS - 1
STAR = LETTERS
PETARD = LETTERS + 1
SLOTS = LETTERS + 2
SINGLE, PAIRS, RUNS = "single", "pairs", "runs"
NEAR_OUT = 4
MAX_TURNS = 400
LEAD_FROM = 3  # a playout's lead starts on one of its three lowest letters


@dataclass(frozen=True)
class Formula:
    """What a play lays: its shape, its strength, and the cards it takes from the hand."""

    kind: str
    groups: int
    length: int
    strength: int
    has_z: bool
    taken: tuple[tuple[int, int], ...]  # (slot, count) taken from the hand

    def shape(self) -> tuple[str, int, int]:
        return (self.kind, self.groups, self.length)

    def cards(self) -> int:
        return sum(count for _, count in self.taken)

    def special(self) -> bool:
        return self.has_z or any(slot >= STAR for slot, _ in self.taken)


PASS, PETARD_PLAY = "pass", "petard"
Move = Formula | str


Need = dict[int, int]  # slot -> cards a group takes


def group(kind: str, start: int, length: int, hand: list[int], stars: int) -> Need | None:
    """The cards a group takes from `hand` (stars, at most `stars`, for missing letters), or
    None when it cannot be laid."""
    need: Need = {}
    missing = 0
    if kind == RUNS:
        if start + length > LETTERS:
            return None
        for letter in range(start, start + length):
            if hand[letter]:
                need[letter] = 1
            else:
                missing += 1
    else:
        copies = min(hand[start], length)
        if copies:
            need[start] = copies
        missing = length - copies
    if missing > stars:
        return None
    if missing:
        need[STAR] = missing
    return need


def _formula(kind: str, length: int, parts: list[tuple[int, Need]]) -> Formula:
    taken: Need = {}
    for _, need in parts:
        for slot, count in need.items():
            taken[slot] = taken.get(slot, 0) + count
    strength = min(start for start, _ in parts)
    top = max(start for start, _ in parts) + (length - 1 if kind == RUNS else 0)
    return Formula(kind, len(parts), length, strength, top == Z, tuple(taken.items()))


def joined(first: Formula, more: Formula) -> Formula:
    """One formula of both formulas' groups (of the same shape)."""
    taken = dict(first.taken)
    for slot, count in more.taken:
        taken[slot] = taken.get(slot, 0) + count
    return Formula(first.kind, first.groups + more.groups, first.length,
                   min(first.strength, more.strength), first.has_z or more.has_z,
                   tuple(taken.items()))  # fmt: skip


def _take(hand: list[int], formula: Formula) -> None:
    for slot, count in formula.taken:
        hand[slot] -= count


def _lay(left: list[int], need: Need) -> None:
    for slot, count in need.items():
        left[slot] -= count


def follow_from(hand: list[int], top: Formula, low: int, stars: int) -> Formula | None:
    """`top`'s shape laid from `low` up, lowest groups first, with at most `stars` stars."""
    left = list(hand)
    parts: list[tuple[int, Need]] = []
    start = low
    while start < LETTERS and len(parts) < top.groups:
        need = group(top.kind, start, top.length, left, min(stars, left[STAR]))
        if need is None:
            start += 1
            continue
        _lay(left, need)
        stars -= need.get(STAR, 0)
        parts.append((start, need))
    if len(parts) < top.groups:
        return None
    return _formula(top.kind, top.length, parts)


def extended(hand: list[int], first: Formula) -> Formula | None:
    """A lead of `first` with more groups of its shape from real cards, or None if none fit."""
    if first.kind == SINGLE:
        return None
    left = list(hand)
    _take(left, first)
    parts = [(first.strength, dict(first.taken))]
    for start in range(first.strength, LETTERS - (first.length - 1 if first.kind == RUNS else 0)):
        need = group(first.kind, start, first.length, left, 0)
        while need is not None:
            _lay(left, need)
            parts.append((start, need))
            need = group(first.kind, start, first.length, left, 0)
    return _formula(first.kind, first.length, parts) if len(parts) > 1 else None


def leads(hand: list[int], lowest: int = LETTERS) -> list[Formula]:
    """Leads of real cards only, from the `lowest` held letters: each one's single, pair and
    longest run from it, and the pairs and runs with more groups of their shape."""
    found = []
    starts = [letter for letter in range(LETTERS) if hand[letter]][:lowest]
    for start in starts:
        found.append(_formula(SINGLE, 1, [(start, group(SINGLE, start, 1, hand, 0))]))
        shapes = [(PAIRS, 2)] if hand[start] >= 2 else []
        end = start
        while end + 1 < LETTERS and hand[end + 1]:
            end += 1
        shapes += [(RUNS, length) for length in {2, end - start + 1} if length <= end - start + 1]
        for kind, length in shapes:
            first = _formula(kind, length, [(start, group(kind, start, length, hand, 0))])
            found.append(first)
            more = extended(hand, first)
            if more is not None:
                found.append(more)
    return found


def follows(hand: list[int], top: Formula, stars: int, most: int = 4) -> list[Formula]:
    """Up to `most` follows of `top`'s shape, by lowest letter from its strength up."""
    found = []
    for low in range(top.strength, LETTERS):
        if top.groups == 1:
            need = group(top.kind, low, top.length, hand, min(stars, hand[STAR]))
            formula = None if need is None else _formula(top.kind, top.length, [(low, need)])
        else:
            formula = follow_from(hand, top, low, stars)
            if formula is not None and formula.strength != low:
                formula = None
        if formula is not None:
            found.append(formula)
            if len(found) >= most:
                break
    return found


def _specials(hand: list[int]) -> int:
    return hand[STAR] + hand[PETARD] + hand[Z]


def _clean_out(hand: list[int], formula: Formula) -> bool | None:
    """True: the formula lays the last card clean; False: on a special; None: cards remain."""
    if sum(hand) != formula.cards():
        return None
    return not formula.special()


def _value(hand: list[int], formula: Formula, leading: bool, urgent: bool) -> float:
    out = _clean_out(hand, formula)
    if out is not None:
        return 100.0 if out else -100.0
    stars = dict(formula.taken).get(STAR, 0)
    letters_left = sum(hand[:LETTERS]) - hand[Z] - sum(n for s, n in formula.taken if s < Z)
    specials = _specials(hand)
    shedding = specials >= letters_left
    value = formula.cards() - (-0.5 if shedding else (1.0 if urgent else 3.0)) * stars
    value += 3.0 - 0.15 * formula.strength if leading else 1.5 - 0.04 * formula.strength
    if formula.has_z:
        value += 4.0 if urgent or shedding else -6.0
    specials_after = specials - sum(n for slot, n in formula.taken if slot >= Z)
    if letters_left <= 0 < specials_after:
        value -= 8.0  # only specials left: no clean way out
    return value


def choose(hand: list[int], top: Formula | None, after_petard: bool, other_count: int,
           rng: random.Random, noise: float = 0.3) -> Move:  # fmt: skip
    """The playout policy for the player holding `hand` (`top` None: they lead)."""
    urgent = other_count <= NEAR_OUT
    if top is None:
        options = leads(hand, LEAD_FROM)
        if not options:
            if hand[STAR]:
                options = [_formula(SINGLE, 1, [(0, group(SINGLE, 0, 1, hand, 1))])]
            elif hand[Z]:
                options = [_formula(SINGLE, 1, [(Z, group(SINGLE, Z, 1, hand, 0))])]
            else:
                return PASS  # pétards only: a pétard never leads
        return max(options, key=lambda f: _value(hand, f, True, urgent) + noise * rng.random())
    stars = hand[STAR] if urgent or _specials(hand) >= sum(hand) - _specials(hand) else 0
    best: Move = PASS
    best_value = 0.0
    for formula in follows(hand, top, stars):
        value = _value(hand, formula, False, urgent) + noise * rng.random()
        if value > best_value:
            best, best_value = formula, value
    if hand[PETARD] and not after_petard and best == PASS and sum(hand) > 1:
        if urgent or _specials(hand) >= sum(hand) - _specials(hand):
            return PETARD_PLAY
    return best


def playout(hands: list[list[int]], mover: int, top: Formula | None, top_player: int,
            after_petard: bool, rng: random.Random, first: Move | None = None) -> int:  # fmt: skip
    """Play the round out from `mover` to act (making `first` if given, else the policy's
    choice); the seat that wins it (Dubolix)."""
    for _ in range(MAX_TURNS):
        other = 1 - mover
        move = first if first is not None else choose(
            hands[mover], top, after_petard, sum(hands[other]), rng)  # fmt: skip
        first = None
        if move == PASS:
            if top is None:  # pétards only: the other leads, or nobody can
                if not any(hands[other][:PETARD]):
                    return min((0, 1), key=lambda seat: sum(hands[seat]))
                mover = other
                continue
            mover, top, after_petard = top_player, None, False
            continue
        if move == PETARD_PLAY:
            hands[mover][PETARD] -= 1
            if not sum(hands[mover]):
                return other  # out on a pétard: Padbolix
            after_petard = True  # the other is skipped: the turn comes back
            continue
        out = _clean_out(hands[mover], move)
        _take(hands[mover], move)
        if out is not None:
            return mover if out else other
        after_petard = False
        if move.has_z:
            top = None  # the Z wins the trick: its player leads
            continue
        top, top_player, mover = move, mover, other
    return min((0, 1), key=lambda seat: sum(hands[seat]))
