"""Sequence on the 800x480 panel: the board full height on the left (44 px squares with their
coordinates), the navigation, whose turn, the keys or moves and the message in a column beside."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from display import boards, palette
from display.i18n import text
from display.layout import MIN_TEXT, grid

if TYPE_CHECKING:
    from display.canvas import Canvas
    from display.model import Screen, Target

BOARD = (2, 2, 474, 476)
COLUMN_X, COLUMN_W = 482, 314
COLUMN_BOTTOM = 478
GAP = 4
STATUS_H = 70
MESSAGE_H = 40  # two lines
BUTTON_H = 48
COMPACT_BUTTON_H = 44  # a finger's least: the buttons a long message may take room from
ENTRY_H = 24


@dataclass(frozen=True)
class _Rows:
    """How tall the column's buttons are and whether the (empty) entry line is shown: the
    usual rows, else compact ones when the message needs the room."""

    button_h: int = BUTTON_H
    entry_line: bool = True


def draw_wide(renderer: Canvas, screen: Screen) -> None:
    boards.draw(renderer, screen, BOARD)
    undo = [a for a in screen.actions if a.id == "undo:"]  # beside the nav in every state
    screen = without_undo(screen)
    plays = [a for a in screen.actions if a.id.startswith("move:")]  # the square's card
    others = [a for a in screen.actions if a not in plays and a.style != "empty"]
    slots = bool(screen.slot_labels) and not screen.keys  # each action in its place
    beside_nav = undo + (others if len(screen.nav) + len(others) < 6 and not slots else [])
    actions = plays + [a for a in others if a not in beside_nav]
    rows, message_h = _layout(renderer, screen, actions)
    nav_h = 2 * rows.button_h + GAP
    _two_rows(renderer, screen.nav + beside_nav, (COLUMN_X, 2, COLUMN_W, nav_h))
    top = 2 + nav_h + GAP
    renderer.status(screen, (COLUMN_X, top, COLUMN_W, STATUS_H))
    top += STATUS_H + GAP
    bottom = COLUMN_BOTTOM - message_h - GAP
    if screen.keys:  # the keys end where they always do, whatever the message's length
        _keys(renderer, screen, actions, (top, _above_message(screen, actions, rows)), rows)
    else:
        words_h = rows.button_h + GAP if actions else 0
        if screen.options and not screen.moves:  # game over: Analyse, New game above the
            # actions, below the result (not where the hand's cards or the moves were)
            words_h += rows.button_h + GAP
            options_y = bottom - words_h
            renderer.button_row(screen.options, (COLUMN_X, options_y, COLUMN_W, rows.button_h))
        renderer.moves_or_keys(screen, (COLUMN_X, top, COLUMN_W, bottom - top - words_h))
        row = (COLUMN_X, bottom - rows.button_h, COLUMN_W, rows.button_h)
        if slots:
            renderer.action_slots(screen, row)
        else:
            renderer.button_row(actions, row)
    if message_h > MESSAGE_H:  # more than two lines: wrapped from the top
        colour = palette.ERROR if screen.error else palette.TEXT_DIM
        box = (COLUMN_X, COLUMN_BOTTOM - message_h, COLUMN_W, message_h)
        renderer.paragraph(screen.message, box, MIN_TEXT, colour)
    elif screen.message:
        renderer.message(screen, (COLUMN_X, COLUMN_BOTTOM - MESSAGE_H, COLUMN_W, MESSAGE_H))


def without_undo(screen: Screen) -> Screen:
    """The screen with Undo (and its slot) out of the actions row: it sits beside the nav."""
    kept = [n for n, a in enumerate(screen.actions) if a.id != "undo:"]
    labels = screen.slot_labels
    if len(labels) == len(screen.actions):
        labels = [labels[n] for n in kept]
    return replace(screen, actions=[screen.actions[n] for n in kept], slot_labels=labels)


def _layout(renderer: Canvas, screen: Screen, actions: list[Target]) -> tuple[_Rows, int]:
    """The rows and the message's height: the usual rows while the message fits beneath them,
    else compact ones (a finger's height, no empty entry line) giving it their room."""
    needed = _message_needs(renderer, screen)
    for rows in (_Rows(), _Rows(COMPACT_BUTTON_H, entry_line=bool(screen.entry))):
        spare = COLUMN_BOTTOM - GAP - _above_message(screen, actions, rows)
        if needed <= spare:
            break
    return rows, max(MESSAGE_H, min(needed, spare))


def _message_needs(renderer: Canvas, screen: Screen) -> int:
    """Two lines for the message, more when it needs them."""
    if not screen.message or screen.message_detail:
        return MESSAGE_H
    size, lines = renderer.fit_lines(screen.message, (0, 0, COLUMN_W, MESSAGE_H), 18)
    if len(lines) * renderer.font(size).get_linesize() <= MESSAGE_H + 4:
        return MESSAGE_H
    needed = len(renderer.wrap(screen.message, COLUMN_W, MIN_TEXT))
    return needed * renderer.font(MIN_TEXT).get_linesize()


def _above_message(screen: Screen, actions: list[Target], rows: _Rows) -> int:
    """Where the nav, the status and the keys (or the least of the moves) end."""
    top = 2 + 2 * rows.button_h + GAP + GAP + STATUS_H + GAP
    if screen.keys:
        return top + _keys_height(screen, actions, rows)
    return top + 2 * rows.button_h + GAP  # a move at least, and the row of actions


def _keys_height(screen: Screen, actions: list[Target], rows: _Rows) -> int:
    """The height `_keys` takes: the entry line (or a play), the key rows and the word row."""
    plays = any(a.id.startswith("move:") for a in actions)
    words = [
        k for k in screen.keys if k.id.startswith(("entry:", "play:")) and k.id != "entry:back"
    ]
    key_rows = -(-(len(screen.keys) - len(words)) // 6)
    button_h = rows.button_h
    head = button_h + GAP if plays else (ENTRY_H + GAP if rows.entry_line else 0)
    return head + key_rows * button_h + (key_rows - 1) * GAP + GAP + button_h


def _two_rows(renderer: Canvas, targets: list[Target], box: tuple[int, int, int, int]) -> None:
    """Buttons in two rows, each as wide as its words need (a long word keeps its size)."""
    x, y, w, h = box
    half = -(-len(targets) // 2)
    row_h = (h - GAP) // 2
    for number, row in enumerate((targets[:half], targets[half:])):
        renderer.button_row(row, (x, y + number * (row_h + GAP), w, row_h), GAP)


def _keys(
    renderer: Canvas, screen: Screen, actions: list[Target], span: tuple[int, int], rows: _Rows
) -> None:
    """The entry line (or the play a touched square means), the single-character keys six a
    row, then the word keys and undo."""
    top, bottom = span
    button_h = rows.button_h
    plays = [a for a in actions if a.id.startswith("move:")]
    actions = [a for a in actions if a not in plays]
    if plays:
        renderer.button_row(plays[:1], (COLUMN_X, top, COLUMN_W, button_h))
        top += button_h + GAP
    elif rows.entry_line:
        entry = text(screen.language, "entry", text=screen.entry or "…")
        renderer.label(entry, (COLUMN_X, top, COLUMN_W, ENTRY_H), 18, palette.TEXT)
        top += ENTRY_H + GAP
    words = [k for k in screen.keys if k.id.startswith(("entry:", "play:"))]
    singles = [k for k in screen.keys if k not in words]
    back = [k for k in words if k.id == "entry:back"]
    words = [k for k in words if k.id != "entry:back"] + actions
    singles += back
    key_rows = -(-len(singles) // 6)
    keys_h = key_rows * button_h + (key_rows - 1) * GAP
    cells = grid((COLUMN_X, top, COLUMN_W, keys_h), len(singles), 6, GAP)
    renderer.same_size_buttons(singles, cells)
    renderer.button_row(words, (COLUMN_X, bottom - button_h, COLUMN_W, button_h), GAP)
