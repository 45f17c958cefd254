"""Stratégix cards and formulas: reading a play, its shape and strength, and listing plays by shape.

A play is a tuple of groups (`Group`), each one a single card, a pair or a run, kept in canonical
order (by lowest letter, then by which positions are stars). Letters are indexes 0..24 for B..Z.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import NamedTuple

from engines.core import IllegalActionError, NotationError
from engines.messages import Message, define, msg

LETTERS = "BCDEFGHIJKLMNOPQRSTUVWXYZ"
Z = len(LETTERS) - 1
STAR, PETARD = "*", "!"
CARD_CODES = PETARD + STAR + LETTERS
SINGLE, PAIRS, RUNS = "single", "pairs", "runs"
_TOKEN = re.compile(r"\*=([A-Z])|([A-Z])|(\*)|(\S)")


class Group(NamedTuple):
    """One group of a formula as laid down: which letters, which of them are stars."""

    kind: str  # single | pairs | runs
    start: int  # lowest letter
    size: int  # cards in the group
    mask: int  # bit i set: card i of the group is a star
    nstars: int
    uses: tuple[int, ...]  # real letters taken from the hand
    text: str  # notation, e.g. "D *=E F"
    letters: str  # the letters as declared, e.g. "DEF"
    has_z: bool

    def __deepcopy__(self, memo: dict) -> Group:
        return self  # immutable: undo snapshots share it


class Shape(NamedTuple):
    kind: str
    groups: int
    length: int

    def message(self) -> Message:
        if self.kind == SINGLE:
            return msg("strategix.shape.single")
        if self.kind == PAIRS:
            return msg("strategix.shape.pairs", n=self.groups)
        return msg("strategix.shape.runs", n=self.groups, length=self.length)


@lru_cache(maxsize=8192)  # bounded: table-mode input can name any star pattern
def make_group(kind: str, start: int, size: int, mask: int) -> Group:
    if kind == RUNS:
        declared = [start + i for i in range(size)]
    else:
        declared = [start] * size
    tokens, uses = [], []
    for position, letter in enumerate(declared):
        if mask >> position & 1:
            tokens.append(f"*={LETTERS[letter]}")
        else:
            tokens.append(LETTERS[letter])
            uses.append(letter)
    nstars = size - len(uses)
    letters = "".join(LETTERS[i] for i in declared)
    text = " ".join(tokens)
    return Group(kind, start, size, mask, nstars, tuple(uses), text, letters, declared[-1] == Z)


Play = tuple[Group, ...]


def shape_of(play: Play) -> Shape:
    return Shape(play[0].kind, len(play), play[0].size)


def strength(play: Play) -> int:
    return play[0].start


def has_z(play: Play) -> bool:
    return any(group.has_z for group in play)


def declared(play: Play) -> tuple[str, ...]:
    """The letters of a play as declared (stars as their letter), for the exact-copy rule."""
    return tuple(sorted(group.letters for group in play))


def play_text(play: Play) -> str:
    return " + ".join(group.text for group in play)


def star_count(play: Play) -> int:
    return sum(group.nstars for group in play)


def real_letters(play: Play) -> list[int]:
    return [letter for group in play for letter in group.uses]


# ----- reading a play -------------------------------------------------------------------------


def parse_play(body: str) -> Play:
    """Read `D E F + M N O`, `*=Z`, `G *=G + P P` (any order and case) into a canonical play.

    Raises NotationError for text that is not cards, IllegalActionError for cards that are not
    a formula (with the reason).
    """
    if not body.strip():
        raise NotationError("strategix.play_what")
    groups = [_parse_cards(part) for part in body.upper().split("+")]
    return canonical([_make_formula_group(cards, len(groups)) for cards in groups])


def _parse_cards(part: str) -> list[tuple[int, bool]]:
    cards = []
    for match in _TOKEN.finditer(part):
        star_letter, letter, bare_star, other = match.groups()
        if bare_star:
            raise NotationError("strategix.bare_star")
        if other or "A" in (letter, star_letter):
            bad = other or letter or f"*={star_letter}"
            raise NotationError("strategix.not_a_card", text=bad)
        cards.append((LETTERS.index(star_letter or letter), bool(star_letter)))
    if not cards:
        raise NotationError("strategix.empty_group")
    return cards


def _make_formula_group(cards: list[tuple[int, bool]], group_count: int) -> Group:
    shown = " ".join(_card_text(card) for card in cards)
    if len(cards) == 1:
        if group_count > 1:
            raise IllegalActionError("strategix.single_alone", group=shown)
        letter, star = cards[0]
        return make_group(SINGLE, letter, 1, int(star))
    letters = sorted(letter for letter, _ in cards)
    if len(cards) == 2 and letters[0] == letters[1]:
        stars = sum(star for _, star in cards)
        return make_group(PAIRS, letters[0], 2, (0, 2, 3)[stars])
    if letters != list(range(letters[0], letters[0] + len(letters))):
        raise IllegalActionError("strategix.not_a_group", group=shown)
    mask = sum(1 << (letter - letters[0]) for letter, star in cards if star)
    return make_group(RUNS, letters[0], len(cards), mask)


def _card_text(card: tuple[int, bool]) -> str:
    letter, star = card
    return f"*={LETTERS[letter]}" if star else LETTERS[letter]


def canonical(groups: Sequence[Group]) -> Play:
    """Groups in canonical order, checked to form one formula (all alike, runs of one length)."""
    play = tuple(sorted(groups, key=lambda g: (g.start, g.mask)))
    kinds = {group.kind for group in play}
    if len(kinds) > 1:
        raise IllegalActionError("strategix.mixed")
    if len({group.size for group in play}) > 1:
        raise IllegalActionError("strategix.run_lengths")
    return play


# ----- listing plays by shape -----------------------------------------------------------------
#
# Full mode spells each play one way: real cards go to the earliest occurrences of their letter
# (groups lowest letter first), stars to the rest (`respelled`). The listing reaches a play with
# stars only where the hand lacks the letter directly, and a star for a letter the hand holds
# through `star X` steps ("locks") taken before the group; once a group lays a star for a held
# letter, later groups of the formula lay stars for it too. So every (letters declared, real cards
# laid) is reached by exactly one path (docs/games/strategix.md, "Stars in full mode").


def group_candidates(
    kind: str,
    size: int,
    counts: Sequence[int],
    stars: int,
    min_start: int = 0,
    missing: int | None = None,
) -> list[Group]:
    """Every group of this kind and size the hand can lay, lowest letter first.

    `missing` (see `missing_letters`) may be passed when already known, to save its cost.
    """
    return list(_candidates(kind, size, counts, stars, min_start, missing))


def _candidates(
    kind: str,
    size: int,
    counts: Sequence[int],
    stars: int,
    min_start: int,
    missing: int | None = None,
) -> Iterator[Group]:
    if kind == PAIRS:
        for start in range(min_start, len(LETTERS)):
            mask = _PAIR_MASKS[min(counts[start], 2)]
            if mask.bit_count() <= stars:
                yield make_group(PAIRS, start, 2, mask)
        return
    if missing is None:
        missing = missing_letters(counts)
    width = (1 << size) - 1
    for start in range(min_start, len(LETTERS) - size + 1):
        mask = missing >> start & width  # stars exactly where the hand lacks the letter
        if mask.bit_count() <= stars:
            yield make_group(kind, start, size, mask)


def missing_letters(counts: Sequence[int]) -> int:
    """Bit i set when the hand holds no letter i."""
    return sum(1 << i for i, count in enumerate(counts) if not count)


_PAIR_MASKS = (3, 2, 0)  # pair masks for 0, 1, 2 real cards held


def take(counts: list[int], group: Group) -> None:
    for letter in group.uses:
        counts[letter] -= 1


def give_back(counts: list[int], group: Group) -> None:
    for letter in group.uses:
        counts[letter] += 1


def missing_after(missing: int, counts: Sequence[int], group: Group) -> int:
    """`missing` once `group` was taken from the hand `counts`."""
    return missing | sum(1 << letter for letter in group.uses if not counts[letter])


def can_extend(model: Group, counts: list[int], stars: int, needed: int, missing: int) -> bool:
    """Whether `needed` more groups like `model`, none lower than it, can still be laid.

    `counts`, `stars` and `missing` describe the hand after `model` was taken from it.
    """
    if needed == 0:
        return True
    for group in _candidates(model.kind, model.size, counts, stars, model.start, missing):
        take(counts, group)
        after = missing_after(missing, counts, group)
        found = can_extend(group, counts, stars - group.nstars, needed - 1, after)
        give_back(counts, group)
        if found:
            return True
    return False


def respelled(play: Play) -> Play:
    """The one spelling of a play's cards: real cards on the earliest occurrences of a letter."""
    real = [0] * len(LETTERS)
    for letter in real_letters(play):
        real[letter] += 1
    groups = []
    for model in sorted(play, key=lambda g: g.start):
        mask = 0
        for position, letter in enumerate(model.letters):
            index = LETTERS.index(letter)
            if real[index]:
                real[index] -= 1
            else:
                mask |= 1 << position
        groups.append(make_group(model.kind, model.start, model.size, mask))
    return canonical(groups)


def locked_candidates(
    kind: str, size: int, counts: Sequence[int], stars: int, min_start: int, locks: Sequence[int]
) -> list[Group]:
    """Groups of this kind and size holding a star for each locked letter (a letter held).

    `locks` is sorted; `counts` is the hand (frozen letters at 0). Other stars go where the hand
    lacks the letter, as in `group_candidates`.
    """
    low, high = locks[0], locks[-1]
    if kind == SINGLE:
        if len(locks) > 1 or low < min_start or stars < 1:
            return []
        return [make_group(SINGLE, low, 1, 1)]
    if kind == PAIRS:
        if high != low or low < min_start or len(locks) > min(counts[low], 2):
            return []
        mask = _PAIR_MASKS[min(counts[low], 2) - len(locks)]
        return [make_group(PAIRS, low, 2, mask)] if mask.bit_count() <= stars else []
    if len(set(locks)) < len(locks):
        return []
    lock_bits = sum(1 << letter for letter in locks)
    width = (1 << size) - 1
    missing = missing_letters(counts)
    found = []
    for start in range(max(min_start, high - size + 1, 0), min(low, len(LETTERS) - size) + 1):
        mask = (missing | lock_bits) >> start & width
        if mask.bit_count() <= stars:
            found.append(make_group(RUNS, start, size, mask))
    return found


define(
    {
        "strategix.shape.single": "a single card",
        "strategix.shape.pairs": "{n:plural.strategix.pairs}",
        "plural.strategix.pairs": ("a pair", "{n} pairs"),
        "strategix.shape.runs": "{n:plural.strategix.runs}",
        "plural.strategix.runs": ("a run of {length}", "{n} runs of {length}"),
        "strategix.play_what": "play what? e.g. 'play D E F + M N O', 'play *=Z', 'play G G'",
        "strategix.bare_star": "say which letter a star stands for: *=X (e.g. *=Z)",
        "strategix.not_a_card": "'{text}' is not a card (letters B to Z, a star as *=X)",
        "strategix.empty_group": "an empty group: groups are separated by '+'",
        "strategix.single_alone": "{group}: a single card is played alone, not in a group",
        "strategix.not_a_group": "{group} is neither a pair nor a run (a run's letters follow each "
        "other, no repeat)",
        "strategix.mixed": "a formula is pairs only, or runs only: do not mix them",
        "strategix.run_lengths": "every run of a formula has the same length",
    }
)
