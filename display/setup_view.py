"""The set-up screen's layout: the players in one block (each name beside its seat's kind, on
one row), the rule options in another (each number option beside its - and + steps), the count
of players with its buttons on top and Start at the bottom, at both panel sizes.

The set-up screen model lists its targets in one list (`Screen.options`); they are told apart
here by their ids: `count:`, `name:` and `seat:` are the players', the rest are options, and an
id ending in `:-` or `:+` steps the option before it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from display.layout import Box
from display.model import Screen, Target

if TYPE_CHECKING:
    from display.canvas import Canvas

GAP = 6
STEP_WIDTH = 60  # px: an option's - and + buttons
PLAYERS = ("count:", "name:", "seat:")


def draw_setup_lists(renderer: Canvas, screen: Screen, box: Box) -> None:
    """The count row, the players' block and the options' block in `box`; Start under them."""
    x, y, w, h = box
    layout = renderer.layout
    counts = [t for t in screen.options if t.id.startswith("count:")]
    pairs = seat_pairs(screen.options)
    lines = option_lines(screen.options)
    pair_columns = 2 if not layout.portrait or len(pairs) > 6 else 1
    stepped = any(len(line) > 1 and line[1].id.endswith((":-", ":+")) for line in lines)
    line_columns = 1 if layout.portrait else 2 if stepped else 3
    pair_rows = -(-len(pairs) // pair_columns)
    line_rows = -(-len(lines) // line_columns)
    notes = screen.lines[1:]  # what the set-up means (the cards dealt or not)
    noted = len(notes) if layout.portrait else 0  # rows of their own; else beside Start
    rows = 2 + pair_rows + line_rows + noted  # the count's row, the blocks, Start's row
    apart = GAP if lines else 0  # the options apart from the players
    row_h = min(layout.row_height, (h - apart + GAP) // rows - GAP)
    top = y
    if counts:
        label_w = w - len(counts) * (w // 4 + GAP)
        renderer.label(screen.lines[0] if screen.lines else "", (x, top, label_w, row_h),
                       layout.font)  # fmt: skip
        renderer.button_row(counts, (x + label_w + GAP, top, w - label_w - GAP, row_h), GAP)
        top += row_h + GAP
    top = _grid(renderer, pairs, (x, top, w), pair_columns, row_h, _draw_pair) + apart
    top = _grid(renderer, lines, (x, top, w), line_columns, row_h, _draw_line)
    start_x = x
    for note in notes:
        if layout.portrait:
            renderer.label(note, (x, top, w, row_h), layout.font - 4)
            top += row_h + GAP
        else:
            start_x = x + w * 2 // 3
            renderer.label(note, (x, y + h - row_h, start_x - x - GAP, row_h), layout.font - 4)
    renderer.buttons(screen.actions, (start_x, y + h - row_h, x + w - start_x, row_h), 1)


def seat_pairs(targets: list[Target]) -> list[list[Target]]:
    """Each seat's name and kind, in seat order."""
    names = [t for t in targets if t.id.startswith("name:")]
    kinds = {t.id.removeprefix("seat:"): t for t in targets if t.id.startswith("seat:")}
    return [[name, *([kinds[seat]] if (seat := name.id[5:]) in kinds else [])] for name in names]


def option_lines(targets: list[Target]) -> list[list[Target]]:
    """The options, each with its steps; Sequence's team counts on one line."""
    lines: list[list[Target]] = []
    for target in targets:
        if target.id.startswith(PLAYERS):
            continue
        steps = target.id.endswith((":-", ":+"))
        same_kind = (
            lines and target.id.startswith("teams:") and lines[-1][0].id.startswith("teams:")
        )
        if lines and (steps or same_kind):
            lines[-1].append(target)
        else:
            lines.append([target])
    return lines


def _grid(
    renderer: Canvas,
    groups: list[list[Target]],
    area: tuple[int, int, int],
    columns: int,
    row_h: int,
    draw: Callable[[Canvas, list[Target], Box], None],
) -> int:
    """Groups of targets in `columns` per row from the top of `area` (x, top, width); returns
    the y under the last row."""
    x, top, w = area
    cell_w = (w - GAP * (columns - 1)) // columns
    for number, group in enumerate(groups):
        row, column = divmod(number, columns)
        draw(
            renderer, group, (x + column * (cell_w + GAP), top + row * (row_h + GAP), cell_w, row_h)
        )
    rows = -(-len(groups) // columns)
    return top + rows * (row_h + GAP)


def _draw_pair(renderer: Canvas, pair: list[Target], box: Box) -> None:
    """A seat: its name (the wider part) beside its kind."""
    x, y, w, h = box
    if len(pair) == 1:
        renderer.button(pair[0], box)
        return
    name_w = (w - GAP) * 11 // 20
    renderer.same_size_buttons(
        pair, [(x, y, name_w, h), (x + name_w + GAP, y, w - name_w - GAP, h)]
    )


def _draw_line(renderer: Canvas, line: list[Target], box: Box) -> None:
    """An option: its value, then its steps; or a row of choices (the team counts)."""
    x, y, w, h = box
    steps = [t for t in line[1:] if t.id.endswith((":-", ":+"))]
    if not steps:
        renderer.button_row(line, box, GAP)
        return
    label_w = w - len(steps) * (STEP_WIDTH + GAP)
    renderer.button(line[0], (x, y, label_w, h))
    for number, step in enumerate(steps):
        renderer.button(step, (x + label_w + GAP + number * (STEP_WIDTH + GAP), y, STEP_WIDTH, h))
