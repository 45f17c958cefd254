"""What a screen shows, as plain data: the controller builds it, `display.render` draws it.

Nothing here knows pygame. Every touchable thing is a `Target` with an id; the renderer lays
the targets out and maps a touch back to the id, which the controller then handles.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

SCREENS = ("home", "setup", "table", "scores", "settings", "rules", "review")


@dataclass(frozen=True)
class Target:
    """Something to touch: `id` goes back to the controller, `label` is what it says."""

    id: str
    label: str
    style: str = "normal"  # normal, primary, danger, selected, quiet (does nothing now)


def mark_id(piece: str, at: object) -> str:
    """The id of a mark on the board showing where a move takes `piece` ("at:pawn:K@6"): a
    touch on it narrows the moves to those that take the piece there."""
    return f"at:{piece}@{at}"


def is_mark(piece: str) -> bool:
    return piece.startswith("at:")


def marked_piece(mark: str) -> str:
    """The piece a mark shows the way of: "at:pawn:K@6" -> "pawn:K"."""
    return mark.removeprefix("at:").rpartition("@")[0]


@dataclass(frozen=True)
class DieMark:
    """One die seen by the camera: where it is in the frame and what the companion reads."""

    index: int
    center: tuple[float, float] | None  # None: entered by hand, no place in the frame
    quad: tuple[tuple[float, float], ...] | None
    label: str  # the face shown (an unsure die's best guess), "?" when unreadable
    corrected: bool = False
    selected: bool = False
    unsure: bool = False  # read below the sure line: marked "?" until a player settles it

    @property
    def target_id(self) -> str:
        return f"die:{self.index}"


@dataclass
class Screen:
    """One screen's content. Lists that do not apply to a screen stay empty."""

    name: str
    title: str
    language: str = "fr"
    message: str = ""
    error: bool = False
    message_detail: str = ""  # small type under the message (an untranslated engine reason)
    nav: list[Target] = field(default_factory=list)  # top-bar buttons
    actions: list[Target] = field(default_factory=list)  # big primary buttons
    moves: list[Target] = field(default_factory=list)  # the moves offered (the renderer pages)
    page: tuple[int, int] = (0, 6)  # page asked for, most moves a page shows
    options: list[Target] = field(default_factory=list)  # set-up choices, pickers
    keys: list[Target] = field(default_factory=list)  # card-entry keyboard
    entry: str = ""  # text composed on the keyboard
    camera: np.ndarray | None = None  # BGR frame for the live view
    camera_note: str = ""  # said in the camera panel when it has no frame (default: waiting)
    dice: list[DieMark] = field(default_factory=list)
    game: str = ""
    board: dict[str, Any] | None = None  # the engine's view() of the position
    board_targets: bool = False  # board squares are touchable (Sequence entry)
    turn: str = ""
    acting: int | None = None  # the seat whose box is highlighted (to act, or whose dice)
    pieces: list[str] = field(default_factory=list)  # touchable pieces on the board ("pawn:K")
    selected: list[str] = field(default_factory=list)  # pieces touched: the moves narrowed
    hand: list[Target] = field(default_factory=list)  # the viewer's cards, touched to narrow
    slot_labels: list[list[str]] = field(default_factory=list)  # the actions row's slots:
    # what each may say, so each keeps one width and place whatever it holds now
    moves_note: str = ""  # what the moves listed leave out (touch a card, a marked square)
    preview: dict[str, Any] = field(default_factory=dict)  # the outcome shown on the board
    scores: list[tuple[str, str]] = field(default_factory=list)  # (name, score text)
    lines: list[str] = field(default_factory=list)  # rules text, settings
    sections: list[tuple[str, list[str]]] = field(default_factory=list)  # headed lists (scores)
    scroll: int = 0  # first line of `sections` shown
    chart: dict[str, Any] = field(default_factory=dict)  # a player's charts (scores screen)
    # touching the camera view gives `point_target + "x,y"` (camera image pixels): tray corners
    point_target: str = ""
    tray: tuple[int, int, int, int] | None = None  # tray region drawn on the camera view
    tray_points: list[tuple[int, int]] = field(default_factory=list)  # corners touched so far
    # a taught die to check beside the die it looks like (teaching): (BGR crop, caption) each
    look_alike: list[tuple[np.ndarray, str]] = field(default_factory=list)

    def all_targets(self) -> list[Target]:
        dice = [Target(d.target_id, d.label) for d in self.dice]
        return self.nav + self.actions + self.moves + self.options + self.keys + dice
