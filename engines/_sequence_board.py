"""Sequence material: the cards, the standard board (package data), square names and the lines.

Everything here is fixed for every game, so it is built once at import: the board is loaded and
checked, and every card-on-square action the game can ever list is made once and shared.
"""

from __future__ import annotations

import re
from importlib import resources

from engines.core import Action, NotationError
from engines.messages import Message, define, msg

RANKS = "23456789TJQKA"  # aces high (the cut for the dealer)
SUITS = "SHDC"  # spades, hearts, diamonds, clubs
CARDS: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
CARD_ORDER = {card: i for i, card in enumerate(CARDS)}
DECK: tuple[str, ...] = tuple(card for card in CARDS for _ in range(2))  # two 52-card decks
COPIES = 2
TWO_EYED = ("JD", "JC")  # put a chip on any free square
ONE_EYED = ("JS", "JH")  # take an opponent's chip away
JACKS = frozenset(TWO_EYED + ONE_EYED)
CORNER = "XX"
SIZE = 10
COLUMNS = "abcdefghij"
BOARD_RESOURCE = "sequence_board.txt"

_RANK_EN = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}
_SUIT_EN = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


class BoardFileError(ValueError):
    """The board description is not a standard Sequence board (its argument is a Message)."""

    def __init__(self, code: str, /, **params: object) -> None:
        super().__init__(Message(code, params))


def parse_board(text: str) -> tuple[str, ...]:
    """Read 10 rows of 10 card tokens (`#` comments); check it is a standard board layout."""
    tokens: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split("#", 1)[0].split()
        if words and len(words) != SIZE:
            raise BoardFileError("sequence.board.row", line=number, n=SIZE, got=len(words))
        tokens.extend(word.upper() for word in words)
    if len(tokens) != SIZE * SIZE:
        raise BoardFileError("sequence.board.rows", n=SIZE, got=len(tokens) // SIZE)
    _check_layout(tokens)
    return tuple(tokens)


def _check_layout(tokens: list[str]) -> None:
    corners = {0, SIZE - 1, SIZE * (SIZE - 1), SIZE * SIZE - 1}
    for index, token in enumerate(tokens):
        if (token == CORNER) != (index in corners):
            raise BoardFileError("sequence.board.corners", square=square_name(index), corner=CORNER)
        if token != CORNER and token not in CARD_ORDER:
            raise BoardFileError("sequence.board.card", square=square_name(index), token=token)
        if token in JACKS:
            raise BoardFileError("sequence.board.jacks", square=square_name(index))
    for card in CARDS:
        if card not in JACKS and tokens.count(card) != COPIES:
            raise BoardFileError(
                "sequence.board.copies", card=card, got=tokens.count(card), n=COPIES
            )


def load_standard_board() -> tuple[str, ...]:
    text = resources.files("engines").joinpath(BOARD_RESOURCE).read_text(encoding="utf-8")
    return parse_board(text)


def square_name(index: int) -> str:
    """Spreadsheet style: column a-j from the left, row 1-10 from the top (a1 = top-left)."""
    return f"{COLUMNS[index % SIZE]}{index // SIZE + 1}"


_SQUARE = re.compile(r"([a-j])(10|[1-9])")


def parse_square(text: str) -> int:
    found = _SQUARE.fullmatch(text.strip().lower())
    if not found:
        raise NotationError("sequence.not_a_square", text=text)
    return (int(found.group(2)) - 1) * SIZE + COLUMNS.index(found.group(1))


def parse_card(text: str) -> str:
    """A card as rank + suit: 2-9, T (or 10), J, Q, K, A and S, H, D, C (any case)."""
    upper = text.strip().upper()
    if upper.startswith("10"):
        upper = "T" + upper[2:]
    if upper not in CARD_ORDER:
        raise NotationError("sequence.not_a_card", text=text)
    return upper


def card_message(card: str, capital: bool = False) -> Message:
    """A card by its name (`9 of clubs`, `Jack of spades` when `capital`), in any language."""
    rank, suit = card[0], card[1]
    said_rank: str | Message = "10" if rank == "T" else rank
    if rank in _RANK_EN:
        said_rank = msg(f"sequence.rank{'_cap' if capital else ''}.{rank}")
    return msg("sequence.card", rank=said_rank, suit=msg(f"sequence.suit.{suit}"))


def rank_value(card: str) -> int:
    return RANKS.index(card[0])


BOARD: tuple[str, ...] = load_standard_board()
CORNERS: tuple[int, ...] = tuple(i for i, card in enumerate(BOARD) if card == CORNER)
PLAYABLE: tuple[int, ...] = tuple(i for i, card in enumerate(BOARD) if card != CORNER)
SQUARES_OF: dict[str, tuple[int, ...]] = {
    card: tuple(i for i, c in enumerate(BOARD) if c == card) for card in CARDS if card not in JACKS
}
SQUARE_NAMES: tuple[str, ...] = tuple(square_name(i) for i in range(SIZE * SIZE))

# The four directions of a line: along a row, down a column, and the two diagonals.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, 1), (1, -1))


def _line(index: int, step: tuple[int, int]) -> tuple[tuple[int, ...], int]:
    """Every square of the board line through `index` along `step`, and where `index` is in it."""
    row, col = divmod(index, SIZE)
    while 0 <= row - step[0] < SIZE and 0 <= col - step[1] < SIZE:
        row, col = row - step[0], col - step[1]
    cells = []
    while 0 <= row < SIZE and 0 <= col < SIZE:
        cells.append(row * SIZE + col)
        row, col = row + step[0], col + step[1]
    return tuple(cells), cells.index(index)


LINES: tuple[tuple[tuple[tuple[int, ...], int], ...], ...] = tuple(
    tuple(_line(index, step) for step in DIRECTIONS) for index in range(SIZE * SIZE)
)


def direction_of(cells: tuple[int, ...]) -> int:
    """Which of DIRECTIONS a run of squares (in line order) follows."""
    step = cells[1] - cells[0]
    return {1: 0, SIZE: 1, SIZE + 1: 2, SIZE - 1: 3}[step]


# ----- the actions every game shares ------------------------------------------------------------


def _place_action(card: str, square: int) -> Action:
    where = SQUARE_NAMES[square]
    code = "sequence.said.place_any" if card in TWO_EYED else "sequence.said.place"
    said = msg(code, card=card_message(card, capital=True), square=where)
    return Action(f"{card}@{where}", said, ("place", card, square))


def _remove_action(card: str, square: int) -> Action:
    where = SQUARE_NAMES[square]
    said = msg("sequence.said.remove", card=card_message(card, capital=True), square=where)
    return Action(f"{card}x{where}", said, ("remove", card, square))


def _dead_action(card: str) -> Action:
    said = msg("sequence.said.dead", card=card_message(card, capital=True))
    return Action(f"dead {card}", said, ("dead", card, None))


PLACE: dict[tuple[str, int], Action] = {
    **{(card, sq): _place_action(card, sq) for card, squares in SQUARES_OF.items()
       for sq in squares},
    **{(card, sq): _place_action(card, sq) for card in TWO_EYED for sq in PLAYABLE},
}  # fmt: skip
REMOVE: dict[tuple[str, int], Action] = {
    (card, sq): _remove_action(card, sq) for card in ONE_EYED for sq in PLAYABLE
}
DEAD: dict[str, Action] = {card: _dead_action(card) for card in CARDS}


define(
    {
        "sequence.board.row": "line {line}: a row has {n} squares, got {got}",
        "sequence.board.rows": "a board has {n} rows, got {got}",
        "sequence.board.corners": "{square}: corners, and only corners, are {corner}",
        "sequence.board.card": "{square}: '{token}' is not a card",
        "sequence.board.jacks": "{square}: jacks are not on the board",
        "sequence.board.copies": "{card} stands {got} times, not {n}",
        "sequence.card": "{rank} of {suit}",
        **{f"sequence.rank.{rank}": name for rank, name in _RANK_EN.items()},
        **{f"sequence.rank_cap.{rank}": name.capitalize() for rank, name in _RANK_EN.items()},
        **{f"sequence.suit.{suit}": name for suit, name in _SUIT_EN.items()},
        "sequence.said.place": "{card}: chip on {square}",
        "sequence.said.place_any": "{card} (two-eyed): chip on {square}",
        "sequence.said.remove": "{card} (one-eyed): removes the opponent's chip on {square}",
        "sequence.said.dead": "{card}: dead card, discarded and replaced",
    }
)
