"""Stratégix sparring partners, written from the rules. Each weighs every listed step (a whole
formula, a formula's next group, `done`, `star X`, a pétard, a pass) from the cards it lays and
the hand it leaves, in its own style; none lays its last card on a star, a Z or a pétard if it
can help it (that is Padbolix, R9).

- `careful`: real cards before stars, low letters first, one group at a time; keeps its Z,
  stars and pétards for when an opponent is near out (or for shedding them before the end).
- `shedder`: as many cards as it can each time, stars spent freely, formulas of several groups;
  plays whenever it can.
- `tempo` (held out): wins tricks to lead them, with a Z or a high follow, then leads its
  longest formula; passes a follow that would cost a star.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from engines._strategix_formulas import PETARD, STAR, Group, shape_of
from engines.core import Action
from engines.strategix import StrategixState

SPECIALS = (STAR, PETARD, "Z")  # going out on one of them is Padbolix
NEAR_OUT = 4  # an opponent with this many cards or fewer may go out soon
LETTER_COUNT = 25


@dataclass(frozen=True)
class Step:
    """What a listed step lays and leaves: `groups` laid by it (none for pass, star, pétard)."""

    word: str
    groups: tuple[Group, ...]
    completes: bool  # the formula is laid on the table by this step
    more: bool  # a lead's group with more to come
    rest: Counter  # the hand once the formula under way and this step are laid

    @property
    def cards(self) -> int:
        return sum(group.size for group in self.groups)

    @property
    def stars(self) -> int:
        return sum(group.nstars for group in self.groups)

    @property
    def real(self) -> int:
        return self.cards - self.stars

    @property
    def low(self) -> int:
        return min((group.start for group in self.groups), default=0)

    @property
    def z(self) -> bool:
        return any(group.has_z for group in self.groups)

    @property
    def rest_letters(self) -> int:
        return sum(n for card, n in self.rest.items() if card not in SPECIALS)

    @property
    def rest_specials(self) -> int:
        return sum(n for card, n in self.rest.items() if card in SPECIALS)

    def goes_out(self) -> bool:
        return self.completes and not +self.rest

    def padbolix(self, laid: tuple[Group, ...]) -> bool:
        """Laying its last card on a star, a Z or a pétard."""
        if not self.goes_out():
            return False
        return self.word == "petard" or any(g.nstars or g.has_z for g in laid)


def steps(state: StrategixState) -> list[tuple[Action, Step]]:
    hand = Counter(state.hands[state.current])
    for group in state.building:
        _take(hand, group)
    top = state.top_play()
    return [(action, _step(state, action, hand, top)) for action in state.legal_actions()]


def _take(hand: Counter, group: Group) -> None:
    for letter in _used(group):
        hand[letter] -= 1
    hand[STAR] -= group.nstars


def _used(group: Group) -> str:
    return "".join(letter for position, letter in enumerate(group.letters)
                   if not group.mask >> position & 1)  # fmt: skip


def _step(state: StrategixState, action: Action, hand: Counter, top) -> Step:
    word = action.notation.split()[0]
    rest = Counter(hand)
    if word in ("pass", "star"):
        return Step(word, (), False, False, rest)
    if word == "petard":
        rest[PETARD] -= 1
        return Step(word, (), True, False, rest)
    if word == "done":
        return Step(word, (), True, False, rest)
    more = action.notation.endswith(" +")
    groups = (action.data,) if isinstance(action.data, Group) else tuple(action.data)
    for group in groups:
        _take(rest, group)
    completes = not more
    if word == "+":
        completes = top is not None and len(state.building) + 1 == shape_of(top).groups
    return Step(word, groups, completes, more, rest)


def opponents_least(state: StrategixState) -> int:
    me = state.current
    counts = [n for p, n in enumerate(state.counts) if p != me and n > 0]
    return min(counts, default=0)


def _laid(state: StrategixState, step: Step) -> tuple[Group, ...]:
    return tuple(state.building) + step.groups if step.word in ("+", "done") else step.groups


def _end_terms(state: StrategixState, step: Step) -> float:
    """Going out clean wins the round; out on a special, or left with only specials, loses it."""
    if step.padbolix(_laid(state, step)):
        return -100.0
    if step.goes_out():
        return 100.0
    if step.completes and step.rest_letters == 0 and step.rest_specials:
        return -8.0
    return 0.0


Weigh = Callable[[StrategixState, Step, bool], float]


def _player(weigh: Weigh) -> Callable[[StrategixState, random.Random], Action]:
    def play(state: StrategixState, rng: random.Random) -> Action:
        listed = steps(state)
        if len(listed) == 1:
            return listed[0][0]
        urgent = opponents_least(state) <= NEAR_OUT
        return max(listed, key=lambda item: weigh(state, item[1], urgent)
                   + _end_terms(state, item[1]) + 1e-6 * rng.random())[0]  # fmt: skip

    return play


def _careful(state: StrategixState, step: Step, urgent: bool) -> float:
    if step.word == "pass":
        return 0.0
    if step.word == "star":
        return -5.0
    hand = Counter(state.hands[state.current])
    specials = sum(hand[card] for card in SPECIALS)
    shedding_specials = specials and specials >= sum(hand.values()) - specials
    if step.word == "petard":
        return 1.0 if urgent or shedding_specials or state.counts[state.current] <= 6 else -1.0
    if step.word == "done":
        return 0.5
    star_cost = -0.5 if shedding_specials else (1.0 if urgent else 3.0)
    value = step.real - star_cost * step.stars
    if state.top is None:
        value += 3.0 - 0.15 * step.low  # low letters first
    else:
        value += 1.5 - 0.04 * step.low
    if step.z:
        value += 4.0 if urgent else -6.0
    if step.more:
        value -= 4.0  # one group at a time
    return value


def _shedder(state: StrategixState, step: Step, urgent: bool) -> float:
    if step.word == "pass":
        return -1.0
    if step.word == "star":
        return -0.5
    if step.word == "petard":
        return 0.2
    if step.word == "done":
        return 0.5
    return step.cards - 0.3 * step.stars - 0.01 * step.low + (1.0 if step.more else 0.0)


def _tempo(state: StrategixState, step: Step, urgent: bool) -> float:
    if step.word == "pass":
        return 0.0
    if step.word == "star":
        return -3.0
    if step.word == "petard":
        return 0.5 if urgent else -0.5
    if step.word == "done":
        return 1.0
    leading = state.top is None
    if step.z:
        return 6.0 if not leading or urgent else -4.0  # a Z wins the trick, then it leads
    if leading:
        return 1.0 + 1.5 * step.real - 2.0 * step.stars + (2.0 if step.more else 0.0)
    if step.stars and step.cards < 3:
        return -1.0
    return 1.0 + step.real - 1.5 * step.stars + 0.1 * step.low  # a high follow keeps the lead


careful = _player(_careful)
shedder = _player(_shedder)
tempo = _player(_tempo)
