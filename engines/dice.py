"""Dice outcomes in the one notation every game shares: `roll` followed by the faces."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement

from engines.core import Action, DiceKind, LazyAction, NotationError
from engines.messages import Message, chain, define, msg

D6_FACES: tuple[str, ...] = ("1", "2", "3", "4", "5", "6")
POKER_FACES: tuple[str, ...] = ("9", "10", "J", "Q", "K", "A")
FACES_OF: dict[DiceKind, tuple[str, ...]] = {"d6": D6_FACES, "poker": POKER_FACES}
_POKER_NAMES_EN = {"9": "Nine", "10": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}


def parse_roll(text: str, faces: Sequence[str], count: int | None = None) -> tuple[str, ...]:
    """Read `roll f1 f2 ...` into faces in canonical order (the order of `faces`).

    Raises NotationError naming the problem: not a roll, a face that does not exist, or the
    wrong number of dice.
    """
    words = text.split()
    if not words or words[0].lower() != "roll":
        raise NotationError("roll.not_a_roll", text=text)
    lookup = {face.upper(): face for face in faces}
    rolled = []
    for word in words[1:]:
        face = lookup.get(word.upper())
        if face is None:
            raise NotationError("roll.not_a_face", face=word, faces=" ".join(faces))
        rolled.append(face)
    if not rolled:
        raise NotationError("roll.no_face")
    if count is not None and len(rolled) != count:
        raise NotationError("roll.count", want=count, got=len(rolled))
    return sort_faces(rolled, faces)


define(
    {
        "roll.not_a_roll": "'{text}' is not a roll (expected 'roll' and the faces)",
        "roll.not_a_face": "'{face}' is not a face of these dice ({faces})",
        "roll.no_face": "a roll needs at least one face",
        "roll.count": "expected {want} dice in the roll, got {got}",
        "roll.said": "Dice: {faces}",
        **{f"face.{face}": name for face, name in _POKER_NAMES_EN.items()},
        **{f"face.{face}.n": f"{{n:plural.face.{face}}}" for face in _POKER_NAMES_EN},
        **{f"plural.face.{f}": (f"{{n}} {n}", f"{{n}} {n}s") for f, n in _POKER_NAMES_EN.items()},
    }
)


def face_message(face: str) -> Message:
    """A poker face by its name (`face.J`: Jack, Valet), for messages in any language."""
    return msg(f"face.{face}")


def counted_faces(faces: Sequence[str]) -> list[Message]:
    """`2 Jacks and 1 Queen` as messages: one count per face, in the faces' order."""
    order = sort_faces(list(dict.fromkeys(faces)), POKER_FACES)
    return [msg(f"face.{face}.n", n=list(faces).count(face)) for face in order]


def sort_faces(rolled: Sequence[str], faces: Sequence[str]) -> tuple[str, ...]:
    order = {face: i for i, face in enumerate(faces)}
    return tuple(sorted(rolled, key=order.__getitem__))


def roll_notation(rolled: Sequence[str]) -> str:
    return "roll " + " ".join(rolled)


def roll_action(rolled: Sequence[str], faces: Sequence[str] = D6_FACES) -> Action:
    canonical = sort_faces(rolled, faces)
    return LazyAction(roll_notation(canonical), roll_message, (canonical, faces), canonical)


def roll_message(rolled: Sequence[str], faces: Sequence[str]) -> Message:
    """`Dice: 3 5`, or the poker faces by name: `Dice: Nine, Jack, Ace`."""
    if faces == POKER_FACES:
        return msg("roll.said", faces=chain([face_message(face) for face in rolled]))
    return msg("roll.said", faces=" ".join(rolled))


def random_roll(rng: random.Random, count: int, faces: Sequence[str] = D6_FACES) -> Action:
    """`count` fair, independent dice (not a uniform pick among the sorted outcomes, which
    would make doubles far too common)."""
    return roll_action([rng.choice(faces) for _ in range(count)], faces)


def all_rolls(count: int, faces: Sequence[str]) -> list[Action]:
    """Every distinct outcome of `count` dice (order does not matter), in a stable order."""
    return list(_all_rolls(count, tuple(faces)))


@cache
def _all_rolls(count: int, faces: tuple[str, ...]) -> tuple[Action, ...]:
    return tuple(roll_action(combo, faces) for combo in combinations_with_replacement(faces, count))
