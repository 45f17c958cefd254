"""Sequence on the 800x480 panel: the board full height on the left (44 px squares with their
coordinates), the navigation, whose turn, the keys or moves and the message in a column beside."""

from __future__ import annotations

from typing import TYPE_CHECKING

from display import boards, palette
from display.i18n import text
from display.layout import MIN_TEXT, grid

if TYPE_CHECKING:
    from display.canvas import Canvas
    from display.model import Screen, Target

BOARD = (2, 2, 474, 476)
COLUMN_X, COLUMN_W = 482, 314
GAP = 4
STATUS_H = 70
MESSAGE_H = 40  # two lines


def draw_wide(renderer: Canvas, screen: Screen) -> None:
    boards.draw(renderer, screen, BOARD)
    nav_h = 2 * 48 + GAP
    plays = [a for a in screen.actions if a.id.startswith("move:")]  # the square's card
    others = [a for a in screen.actions if a not in plays]
    beside_nav = others if len(screen.nav) + len(others) <= 6 else []
    actions = plays + [a for a in others if a not in beside_nav]
    _two_rows(renderer, screen.nav + beside_nav, (COLUMN_X, 2, COLUMN_W, nav_h))
    top = 2 + nav_h + GAP
    renderer.status(screen, (COLUMN_X, top, COLUMN_W, STATUS_H))
    top += STATUS_H + GAP
    spare = 478 - MESSAGE_H - GAP - top - (_keys_height(screen, actions) if screen.keys else 0)
    message_h = _message_height(renderer, screen, spare)
    bottom = 478 - message_h - GAP
    if screen.keys:
        _keys(renderer, screen, actions, top, bottom)
    else:
        words_h = 48 + GAP if actions else 0
        renderer.moves_or_keys(screen, (COLUMN_X, top, COLUMN_W, bottom - top - words_h))
        renderer.button_row(actions, (COLUMN_X, bottom - 48, COLUMN_W, 48))
    if message_h > MESSAGE_H:  # more than two lines: wrapped from the top
        colour = palette.ERROR if screen.error else palette.TEXT_DIM
        box = (COLUMN_X, 478 - message_h, COLUMN_W, message_h)
        renderer.paragraph(screen.message, box, MIN_TEXT, colour)
    elif screen.message:
        renderer.message(screen, (COLUMN_X, 478 - MESSAGE_H, COLUMN_W, MESSAGE_H))


def _message_height(renderer: Canvas, screen: Screen, spare: int) -> int:
    """Two lines for the message, more when it needs them and the column has the room."""
    if not screen.message or screen.message_detail:
        return MESSAGE_H
    size, lines = renderer.fit_lines(screen.message, (0, 0, COLUMN_W, MESSAGE_H), 18)
    if len(lines) * renderer.font(size).get_linesize() <= MESSAGE_H + 4:
        return MESSAGE_H
    needed = len(renderer.wrap(screen.message, COLUMN_W, MIN_TEXT))
    return min(MESSAGE_H + spare, needed * renderer.font(MIN_TEXT).get_linesize())


def _keys_height(screen: Screen, actions: list[Target]) -> int:
    """The height `_keys` takes: the entry line (or a play), the key rows and the word row."""
    plays = any(a.id.startswith("move:") for a in actions)
    words = [
        k for k in screen.keys if k.id.startswith(("entry:", "play:")) and k.id != "entry:back"
    ]
    rows = -(-(len(screen.keys) - len(words)) // 6)
    return (48 if plays else 24) + GAP + rows * 48 + (rows - 1) * GAP + GAP + 48


def _two_rows(renderer: Canvas, targets: list[Target], box: tuple[int, int, int, int]) -> None:
    """Buttons in two rows, each as wide as its words need (a long word keeps its size)."""
    x, y, w, h = box
    half = -(-len(targets) // 2)
    row_h = (h - GAP) // 2
    for number, row in enumerate((targets[:half], targets[half:])):
        renderer.button_row(row, (x, y + number * (row_h + GAP), w, row_h), GAP)


def _keys(renderer: Canvas, screen: Screen, actions: list[Target], top: int, bottom: int) -> None:
    """The entry line (or the play a touched square means), the single-character keys six a
    row, then the word keys and undo."""
    plays = [a for a in actions if a.id.startswith("move:")]
    actions = [a for a in actions if a not in plays]
    if plays:
        renderer.button_row(plays[:1], (COLUMN_X, top, COLUMN_W, 48))
        top += 48 + GAP
    else:
        entry = text(screen.language, "entry", text=screen.entry or "…")
        renderer.label(entry, (COLUMN_X, top, COLUMN_W, 24), 18, palette.TEXT)
        top += 24 + GAP
    words = [k for k in screen.keys if k.id.startswith(("entry:", "play:"))]
    singles = [k for k in screen.keys if k not in words]
    back = [k for k in words if k.id == "entry:back"]
    words = [k for k in words if k.id != "entry:back"] + actions
    singles += back
    rows = -(-len(singles) // 6)
    keys_h = rows * 48 + (rows - 1) * GAP
    cells = grid((COLUMN_X, top, COLUMN_W, keys_h), len(singles), 6, GAP)
    renderer.same_size_buttons(singles, cells)
    words_y = bottom - 48
    renderer.button_row(words, (COLUMN_X, words_y, COLUMN_W, 48), GAP)
