"""The review screen: each player's chance to win over the game as a line chart (a legend per
player, in their colour on the board), and beside it (below it on the portrait panel) the
moments that decided the game, per player, in a scrolling list."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from display import palette
from display.layout import MIN_TEXT, Box
from display.scores_view import _sections
from display.table_view import player_colour

if TYPE_CHECKING:
    from display.canvas import Canvas
    from display.model import Screen

LEGEND_H = 22
DOT_SPACING = 8  # a dot on each point while they stand this far apart, else on the last only


def draw_review(renderer: Canvas, screen: Screen) -> None:
    x, y, w, h = renderer.layout.body
    row = renderer.layout.row_height
    bottom = y + h - row - 6
    if renderer.layout.portrait:
        chart_h = (bottom - y) * 2 // 5
        draw_chances(renderer, screen, (x, y, w, chart_h - 8))
        pager = _sections(renderer, screen, (x, y + chart_h, w, bottom - y - chart_h))
    else:
        draw_chances(renderer, screen, (x, y, w * 2 // 5 - 6, bottom - y))
        right = x + w * 2 // 5 + 6
        pager = _sections(renderer, screen, (right, y, x + w - right, bottom - y))
    renderer.button_row(screen.actions + pager, (x, y + h - row, w, row))


def draw_chances(renderer: Canvas, screen: Screen, box: Box) -> None:
    """One line per player in their colour on the board: their chance (0 to 100 %) over the
    game's actions."""
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
        if len(placed) > 1:
            pygame.draw.lines(renderer.surface, colour, False, placed, 3)
        for point in placed if len(placed) * DOT_SPACING <= plot.w else placed[-1:]:
            pygame.draw.circle(renderer.surface, colour, point, 3)
        legend_x = x + (seat % 2) * (w // 2)
        legend_y = area.bottom + 2 + (seat // 2) * LEGEND_H
        pygame.draw.rect(renderer.surface, colour, (legend_x + 2, legend_y + 6, 14, 10))
        renderer.label(name, (legend_x + 20, legend_y, w // 2 - 24, LEGEND_H), MIN_TEXT)
