"""The scores screens: the player buttons, a scrolling list of headed sections (a drag or the
pager moves it), and on a player's page two drawn charts: their scores game after game, and
their games and wins per game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import palette
from display.i18n import text
from display.layout import MIN_TEXT, Box, fit_columns, grid
from display.model import Target

if TYPE_CHECKING:
    from display.canvas import Canvas
    from display.model import Screen

BAR_MAX = 48  # px: the widest bar of a player's scores chart
LEGEND_H = 18  # px: the row saying what the score bars' colours and outline mean
VALUE_MIN_WIDTH = 22  # px: bars at least this wide have their score written over them
GAME_COLOURS = {
    "struggle": palette.ORANGE,
    "traverse": palette.VERMILLION,
    "strategix": palette.PURPLE,
    "sequence": palette.BLUE,
    "roudalon": palette.GREEN,
}


def draw_scores(renderer: Canvas, screen: Screen) -> None:
    x, y, w, h = renderer.layout.body
    row = renderer.layout.row_height
    columns = fit_columns(len(screen.options), (x, y, w, h), 150)
    rows = -(-len(screen.options) // columns) if screen.options else 0
    options_h = rows * (row + 6)
    if screen.options:
        renderer.buttons(screen.options, (x, y, w, options_h - 6), columns)
    top, bottom = y + options_h, y + h - row - 6
    if screen.chart:
        if renderer.layout.portrait:
            chart_h = (bottom - top) // 2
            _charts(renderer, screen.chart, (x, top, w, chart_h - 8))
            top += chart_h
        else:
            _charts(renderer, screen.chart, (x, top, w // 2 - 6, bottom - top))
            x, w = x + w // 2 + 6, w // 2 - 6
    pager = _sections(renderer, screen, (x, top, w, bottom - top))
    body_x, _, body_w, _ = renderer.layout.body
    renderer.button_row(screen.actions + pager, (body_x, y + h - row, body_w, row))


def _sections(renderer: Canvas, screen: Screen, box: Box) -> list[Target]:
    """The headed lines from `screen.scroll`; returns the pager's buttons."""
    x, y, w, h = box
    size = renderer.layout.font - 4
    line_h = renderer.font(size).get_linesize() + 4
    rows: list[tuple[str, bool]] = []
    for head, lines in screen.sections:
        if head:  # a long head (a review's caveat, a long name) wraps as its lines do
            rows += [(part, True) for part in renderer.wrap(head, w, size)]
        rows += [(part, False) for line in lines for part in renderer.wrap(line, w - 20, size)]
    visible = max(1, h // line_h)
    last = max(0, len(rows) - visible)
    offset = min(screen.scroll, last)
    for number, (content, head) in enumerate(rows[offset : offset + visible]):
        colour = palette.YELLOW if head else palette.TEXT
        indent = 0 if head else 16
        renderer.label(content, (x + indent, y + number * line_h, w - indent, line_h), size, colour)
    renderer.drag_areas.append((pygame.Rect(box), "scroll:", offset, line_h, last))
    if last == 0:
        return []
    step = max(1, visible - 1)
    up = Target(f"scroll:{max(0, offset - step)}", text(screen.language, "scroll_up"),
                "disabled" if offset == 0 else "normal")  # fmt: skip
    down = Target(f"scroll:{min(last, offset + step)}", text(screen.language, "scroll_down"),
                  "disabled" if offset >= last else "normal")  # fmt: skip
    return [up, down]


def _charts(renderer: Canvas, chart: dict[str, Any], box: Box) -> None:
    x, y, w, h = box
    half = h // 2
    _score_bars(renderer, chart, (x, y, w, half - 6))
    _win_bars(renderer, chart, (x, y + half, w, h - half))


def _score_bars(renderer: Canvas, chart: dict[str, Any], box: Box) -> None:
    """One bar per game played, coloured by game, outlined when won; zero is the baseline."""
    x, y, w, h = box
    renderer.label(chart["title_scores"], (x, y, w, 24), 18, palette.TEXT_DIM)
    scores = chart["scores"]
    if not scores:
        return
    legend_h = _legend(renderer, chart, x, y + 24, w)
    area = pygame.Rect(x, y + 28 + legend_h, w, h - 28 - legend_h)
    pygame.draw.rect(renderer.surface, palette.PANEL, area, border_radius=6)
    high = max(1, max(s for _, s, _ in scores))
    low = min(0, min(s for _, s, _ in scores))
    scale = (area.h - 26) / (high - low)  # room above the highest bar for its value
    zero = area.bottom - 4 + low * scale
    width = min(BAR_MAX, max(3, (area.w - 8) // len(scores)))  # a few games: bars, not a block
    for number, (game, score, won) in enumerate(scores):
        left = area.x + 4 + number * width
        top = zero - max(score, 0) * scale
        bar = pygame.Rect(left, int(top), max(2, width - 3), max(2, int(abs(score) * scale)))
        colour = GAME_COLOURS.get(game, palette.SKY_BLUE)
        pygame.draw.rect(renderer.surface, colour, bar)
        if won:
            pygame.draw.rect(renderer.surface, palette.YELLOW, bar, 2)
        if width >= VALUE_MIN_WIDTH:  # each bar's score over it while there is room to read it
            value_box = (left, int(min(top, zero)) - 18, max(2, width - 3), 16)
            renderer.label(str(score), value_box, MIN_TEXT, palette.TEXT, "center")
    pygame.draw.line(renderer.surface, palette.TEXT_DIM, (area.x, zero), (area.right, zero))


def _legend(renderer: Canvas, chart: dict[str, Any], x: int, y: int, w: int) -> int:
    """What the bars' colours and the yellow outline mean, a swatch and a word each, in rows
    as they fit; the height drawn."""
    keys = [(GAME_COLOURS.get(game, palette.SKY_BLUE), 0, title)
            for game, title in chart.get("legend", {}).items()]  # fmt: skip
    keys.append((palette.PANEL_LIGHT, 2, chart.get("legend_won", "")))
    font = renderer.font(MIN_TEXT)
    left, top = x, y
    for colour, outline, words in keys:
        width = 16 + font.size(words)[0] + 10
        if left > x and left + width > x + w:
            left, top = x, top + LEGEND_H
        swatch = pygame.Rect(left, top + (LEGEND_H - 12) // 2, 12, 12)
        pygame.draw.rect(renderer.surface, colour, swatch)
        if outline:
            pygame.draw.rect(renderer.surface, palette.YELLOW, swatch, outline)
        renderer.label(words, (left + 16, top, width - 16, LEGEND_H), MIN_TEXT, palette.TEXT_DIM)
        left += width
    return top + LEGEND_H - y


def _win_bars(renderer: Canvas, chart: dict[str, Any], box: Box) -> None:
    """Per game: a bar of games played, the part won filled, and `wins/games`."""
    x, y, w, h = box
    renderer.label(chart["title_wins"], (x, y, w, 24), 18, palette.TEXT_DIM)
    rows = chart["wins"]
    if not rows:
        return
    cells = grid((x, y + 28, w, h - 28), len(rows), 1, 4, 30)
    most = max(games for _, games, _ in rows)
    name_w = min(w // 3, max(renderer.font(16).size(name)[0] for name, _, _ in rows) + 8)
    for (name, games, wins), cell in zip(rows, cells, strict=True):
        cx, cy, cw, ch = cell
        renderer.label(name, (cx, cy, name_w, ch), 16, palette.TEXT)
        bar_w = cw - name_w - 60
        full = pygame.Rect(cx + name_w, cy + 4, max(2, bar_w * games // most), ch - 8)
        pygame.draw.rect(renderer.surface, palette.PANEL_LIGHT, full, border_radius=4)
        won = pygame.Rect(full.x, full.y, full.w * wins // max(1, games), full.h)
        pygame.draw.rect(renderer.surface, palette.GREEN, won, border_radius=4)
        renderer.label(f"{wins}/{games}", (cx + cw - 56, cy, 56, ch), 16, palette.TEXT, "center")
