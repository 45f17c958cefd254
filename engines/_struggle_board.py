"""Struggle material: the five pawns, the arrival boxes, the dice, the coloured track (read from
a description and checked) and the objective cards."""

from __future__ import annotations

from engines.messages import Message, msg

PAWNS: tuple[str, ...] = ("K", "Q", "J", "10", "9")  # Roi, Dame, Valet, Dix, Neuf
FIGURES = frozenset(PAWNS)
ACE = "A"
BOXES = "ABCDE"
MAX_THROWS = 3
DICE = 5
YELLOW, RED, BLACK = "Y", "R", "B"
# Default 32-square track (RULINGS Struggle 1: colours are our choice). Square 1 is yellow so the
# book's opening example holds; each red square has a black square two further on, as in the
# book's worked example.
DEFAULT_TRACK = "YYYYYRYBYYYYRYBYYYYRYBYYYYRYBYYY"
_COLOUR_WORDS = {
    "Y": YELLOW, "J": YELLOW, "YELLOW": YELLOW, "JAUNE": YELLOW,
    "R": RED, "RED": RED, "ROUGE": RED,
    "B": BLACK, "N": BLACK, "BLACK": BLACK, "NOIR": BLACK, "NOIRE": BLACK,
}  # fmt: skip


def parse_track(text: str) -> str:
    """Read a board description: one colour per square, as letters or words, `#` comments.

    Letters: Y/J yellow (jaune), R red (rouge), B/N black (noir). Words may be separated by
    spaces, commas or new lines; a run of letters like `YYRYB` also works.
    """
    squares: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].replace(",", " ")
        for word in line.split():
            squares.extend(_read_colours(word.upper(), number))
    return "".join(squares)


def _read_colours(word: str, line: int) -> list[str]:
    singular = word.removesuffix("S") if len(word) > 2 else word  # "rouges", "noires"
    for spelling in (word, singular):
        if len(spelling) > 1 and spelling in _COLOUR_WORDS:
            return [_COLOUR_WORDS[spelling]]
    colours = []
    for letter in word:
        if letter not in _COLOUR_WORDS:
            raise ValueError(msg("struggle.track.colour", line=line, letter=letter))
        colours.append(_COLOUR_WORDS[letter])
    return colours


def check_track(track: str) -> Message | None:
    if not 5 <= len(track) <= 200:
        return msg("struggle.track.length", n=len(track))
    if set(track) - {YELLOW, RED, BLACK}:
        return msg("struggle.track.colours")
    wall = track.find(BLACK * DICE)
    if wall >= 0:
        return msg("struggle.track.wall", first=wall + 1, last=wall + DICE)
    return None


def default_objective_deck() -> tuple[tuple[str, ...], ...]:
    """Twenty distinct arrival orders; every pawn stands four times in each arrival position.

    Four base orders and their five rotations each: a rotation class puts every pawn once in
    every position, and the four classes are disjoint (each has one member starting with K).
    """
    bases = [("K", "Q", "J", "10", "9"), ("K", "J", "9", "Q", "10"),
             ("K", "10", "Q", "9", "J"), ("K", "9", "10", "J", "Q")]  # fmt: skip
    return tuple(base[i:] + base[:i] for base in bases for i in range(5))


OBJECTIVE_DECK = default_objective_deck()
