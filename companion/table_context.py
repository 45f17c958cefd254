"""What the table screen's parts (dice, typed plays, hint, bots) share: the turn under way and
the few things they ask of the table screen (`TableContext`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import engines
from companion.dice_proposal import DiceProposal
from companion.screen_base import KioskView
from companion.tables import Choice, DiceRequest
from display.model import DieMark


@dataclass
class Turn:
    """What the players did on this turn before it is played; cleared when the game moves on."""

    proposal: DiceProposal | None = None  # the dice read, as corrected
    picking: int | None = None  # die being corrected (index, or len() to add one)
    rethrow: set[int] = field(default_factory=set)  # Struggle: dice of the hand to throw again
    selected: set[str] = field(default_factory=set)  # pieces touched: the moves narrowed
    entry: str = ""  # a play being typed
    page: int = 0  # of the moves
    guess: str = ""  # a play guessed (a square's card, a hint, a bot's move), to confirm
    hint_open: bool = False
    seen: list[DieMark] = field(default_factory=list)  # dice on the camera view, not wanted
    throwing: bool = False  # a throw asked of the camera, its reading not yet here
    rethrow_asked: bool = False  # R on a reading with an unsure die: asked once before it throws


class TableContext(Protocol):
    """The table screen, as its parts see it."""

    view: KioskView
    turn: Turn

    def play(self, notation: str, corrected: int = 0) -> bool: ...

    def dice_request(self) -> DiceRequest | None: ...

    def hand(self) -> list[str]: ...

    def choices(self, state: engines.State) -> list[Choice]: ...

    def narrowed(self, state: engines.State) -> list[Choice]: ...

    def said_move(self, state: engines.State, notation: str) -> str: ...
