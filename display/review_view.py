"""The review screen: each player's chance to win over the game as a line chart (a legend per
player, in their colour on the board), under it one moment's position on the board twice, the
move made and the better one marked, and beside them (below them on the portrait panel) the
moments that decided the game, per player, in a scrolling list."""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING

import pygame

from display import boards, palette
from display.layout import MIN_TEXT, Box
from display.scores_view import _sections
from display.table_view import player_colour

if TYPE_CHECKING:
    from display.canvas import Canvas
    from display.model import Screen

LEGEND_H = 22
BOARD_SIDE = 420  # px: a board's shorter side as drawn off screen, before it is scaled down
LINE_W, LINE_STEP = 3, 3  # px: the last seat's line, and how much wider each one before it is
DOT_SPACING = 8  # a dot on each point while they stand this far apart, else on the last only


def draw_review(renderer: Canvas, screen: Screen) -> None:
    x, y, w, h = renderer.layout.body
    row = renderer.layout.row_height
    bottom = y + h - row - 6
    moment = screen.chart.get("moment")
    if renderer.layout.portrait:
        chart_h = (bottom - y) * (1 if moment else 2) // 4
        draw_chances(renderer, screen, (x, y, w, chart_h - 8))
        boards_h = (bottom - y) * 3 // 8 if moment else 0
        if moment:
            draw_moment(renderer, moment, (x, y + chart_h, w, boards_h - 8))
        top = y + chart_h + boards_h
        pager = _sections(renderer, screen, (x, top, w, bottom - top))
    else:
        left_w = w * 2 // 5 - 6
        chart_h = (bottom - y) * 9 // 20 if moment else bottom - y
        draw_chances(renderer, screen, (x, y, left_w, chart_h))
        if moment:
            draw_moment(renderer, moment, (x, y + chart_h + 4, left_w, bottom - y - chart_h - 4))
        right = x + w * 2 // 5 + 6
        pager = _sections(renderer, screen, (right, y, x + w - right, bottom - y))
    renderer.button_row(screen.actions + pager, (x, y + h - row, w, row))


def draw_moment(renderer: Canvas, moment: dict, box: Box) -> None:
    """The moment's head, then its position twice side by side, each board under its label:
    the move made, the better one; or, where the two boards would look the same, the two moves
    in words over the position drawn once."""
    x, y, w, h = box
    bottom = y + h
    line_h = renderer.font(MIN_TEXT).get_linesize() + 2
    head = renderer.wrap(moment["head"], w, MIN_TEXT)  # a long name takes a second line
    for number, line in enumerate(head):
        renderer.label(line, (x, y + number * line_h, w, line_h), MIN_TEXT, palette.YELLOW)
    y += len(head) * line_h
    if moment.get("lines"):
        y += _moves_in_words(renderer, moment["lines"], (x, y, w, bottom - y))
    shown = moment["boards"]
    each = (w - 6 * (len(shown) - 1)) // max(1, len(shown))
    for number, (label, board) in enumerate(shown):
        left = x + number * (each + 6)
        top = y + line_h if label else y
        if label:
            renderer.label(label, (left, y, each, line_h), MIN_TEXT, palette.TEXT_DIM)
        draw_small_board(renderer, board, (left, top, each, bottom - top))


def _moves_in_words(renderer: Canvas, lines: list[str], box: Box) -> int:
    """The move made and the better one, each on its line in large type (when the boards
    would not show the difference); returns the height used."""
    x, y, w, h = box
    size = renderer.layout.font
    while size > MIN_TEXT and not _fit_whole(renderer, lines, w, h * 2 // 3, size):
        size -= 2
    used = 0
    for line, colour in zip(lines, (palette.TEXT, palette.YELLOW), strict=False):
        used += renderer.paragraph(line, (x, y + used, w, h - used), size, colour)
    return used + 4


def _fit_whole(renderer: Canvas, lines: list[str], width: int, height: int, size: int) -> bool:
    line_h = renderer.font(size).get_linesize()
    return sum(len(renderer.wrap(line, width, size)) for line in lines) * line_h <= height


def draw_small_board(renderer: Canvas, board: Screen, box: Box) -> None:
    """The game's board drawn as on the table, at a size its words fit (BOARD_SIDE on its
    shorter side, off screen), then scaled down into `box`: drawn straight into a box this
    small, a Sequence square could not hold its card. Words that would end up smaller than
    MIN_TEXT once scaled down are left out: the label above the board says the move."""
    x, y, w, h = box
    if w < 8 or h < 8:
        return
    room = renderer.size  # the off-screen canvas is a panel of the same size
    scale = max(1.0, min(BOARD_SIDE / min(w, h), room[0] / w, room[1] / h))
    full = (min(room[0], round(w * scale)), min(room[1], round(h * scale)))
    beside = _off_screen(type(renderer), tuple(room))
    beside.surface.fill(palette.BACKGROUND)
    beside.hits.clear()
    shrink = min(w / full[0], h / full[1])
    beside.smallest_shown = math.ceil(MIN_TEXT / shrink)  # none below MIN_TEXT once scaled
    boards.draw(beside, board, (0, 0, *full))
    small = pygame.transform.smoothscale(beside.surface.subsurface((0, 0, *full)), (w, h))
    renderer.surface.blit(small, (x, y))


@cache
def _off_screen(kind: type, size: tuple[int, int]) -> Canvas:
    return kind(size)


def draw_chances(renderer: Canvas, screen: Screen, box: Box) -> None:
    """One line per player in their colour on the board: their chance (0 to 100 %) over the
    game's actions; lines lying on each other all show (widest drawn first)."""
    chart = screen.chart
    x, y, w, h = box
    renderer.label(chart.get("title", ""), (x, y, w, 24), 18, palette.TEXT_DIM)
    series = chart.get("series", [])
    legend_rows = -(-len(series) // 2)
    area = pygame.Rect(x, y + 28, w, h - 28 - legend_rows * LEGEND_H)
    pygame.draw.rect(renderer.surface, palette.PANEL, area, border_radius=6)
    plot = area.inflate(-44, -16).move(16, 0)
    for share in (0.0, 0.5, 1.0):
        level = plot.bottom - share * plot.h
        ends = (plot.x, level), (plot.right, level)
        pygame.draw.line(renderer.surface, palette.PANEL_LIGHT, *ends)
        renderer.label(f"{round(share * 100)}", (area.x + 2, int(level) - 9, 34, 18), MIN_TEXT,
                       palette.TEXT_DIM)  # fmt: skip
    actions = max(1, int(chart.get("actions", 1)))
    for seat, (name, points) in enumerate(series):
        colour = player_colour(screen, seat)
        placed = [(plot.x + plot.w * i / actions, plot.bottom - plot.h * c) for i, c in points]
        # each line narrower than the one before: where lines lie on each other (equal
        # chances) every one still shows, as a border around the lines drawn over it
        width = LINE_W + LINE_STEP * (len(series) - 1 - seat)
        if len(placed) > 1:
            pygame.draw.lines(renderer.surface, colour, False, placed, width)
        for point in placed if len(placed) * DOT_SPACING <= plot.w else placed[-1:]:
            pygame.draw.circle(renderer.surface, colour, point, max(3, width // 2))
        legend_x = x + (seat % 2) * (w // 2)
        legend_y = area.bottom + 2 + (seat // 2) * LEGEND_H
        pygame.draw.rect(renderer.surface, colour, (legend_x + 2, legend_y + 6, 14, 10))
        renderer.label(name, (legend_x + 20, legend_y, w // 2 - 24, LEGEND_H), MIN_TEXT)
