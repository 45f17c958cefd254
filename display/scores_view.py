"""The scores screens: the player buttons, a scrolling list of headed sections (a drag or the
pager moves it), and on a player's page a drawn chart per game: its scores game after game in
its own unit, in the game's colour, with the games won."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import palette
from display.i18n import text
from display.layout import MIN_TEXT, Box, fit_columns
from display.model import Target

if TYPE_CHECKING:
    from display.canvas import Canvas
    from display.model import Screen

BAR_MAX = 48  # px: the widest bar of a player's scores chart
LEGEND_H = 18  # px: the row saying what the score bars' colours and outline mean
ZERO_MARK = 8  # px: a score of 0 drawn as a low block on the baseline (not as nothing)
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
    """A chart per game, one under another, under the title and what a yellow outline means;
    "no game yet" rather than an empty chart."""
    x, y, w, h = box
    renderer.label(chart["title_scores"], (x, y, w, 24), 18, palette.TEXT_DIM)
    games = chart.get("games") or []
    if not games:
        renderer.label(chart.get("empty", ""), (x, y + 28, w, 40), MIN_TEXT, palette.TEXT_DIM)
        return
    top = y + 24 + _legend(renderer, chart, x, y + 24, w) + 4
    each = (y + h - top) // len(games)
    font = renderer.font(MIN_TEXT)
    heads = [game[key] for game in games for key in ("title", "unit")]
    head_w = min(w // 2, max(font.size(words)[0] for words in heads) + 24)
    for number, game in enumerate(games):
        _game_chart(renderer, game, (x, top + number * each, w, each - 4), head_w)


def _game_chart(renderer: Canvas, game: dict[str, Any], box: Box, head_w: int) -> None:
    """One game's scores, a bar each in the game's colour (outlined when won), zero the
    baseline; beside it the game's name and the unit its scores count."""
    x, y, w, h = box
    colour = GAME_COLOURS.get(game["game"], palette.SKY_BLUE)
    line_h = min(h // 2, renderer.font(MIN_TEXT).get_linesize() + 2)
    middle = y + h // 2
    pygame.draw.rect(
        renderer.surface, colour, (x + 2, middle - line_h + (line_h - 12) // 2, 12, 12)
    )
    renderer.label(game["title"], (x + 18, middle - line_h, head_w - 18, line_h), MIN_TEXT)
    unit_box = (x + 18, middle, head_w - 18, line_h)
    renderer.label(game["unit"], unit_box, MIN_TEXT, palette.TEXT_DIM)
    area = pygame.Rect(x + head_w, y, w - head_w, h)
    pygame.draw.rect(renderer.surface, palette.PANEL, area, border_radius=6)
    scores = game["scores"]
    high = max(1, max(s for s, _ in scores))
    low = min(0, min(s for s, _ in scores))
    scale = max(0.0, area.h - 24) / (high - low)  # room above the highest bar for its value
    zero = area.bottom - 4 + low * scale
    width = min(BAR_MAX, max(3, (area.w - 8) // len(scores)))  # a few games: bars, not a block
    for number, (score, won) in enumerate(scores):
        left = area.x + 4 + number * width
        top = zero - max(score, 0) * scale
        bar = pygame.Rect(left, int(top), max(2, width - 3), max(2, int(abs(score) * scale)))
        if score == 0:  # a chart of zeros read as an empty chart
            top = zero - ZERO_MARK
            bar = pygame.Rect(left, int(top), max(2, width - 3), ZERO_MARK)
        pygame.draw.rect(renderer.surface, colour, bar)
        if won:
            pygame.draw.rect(renderer.surface, palette.YELLOW, bar, 2)
        if width >= VALUE_MIN_WIDTH:  # each bar's score over it while there is room to read it
            value_box = (left, max(area.y, int(min(top, zero)) - 18), max(2, width - 3), 16)
            renderer.label(str(score), value_box, MIN_TEXT, palette.TEXT, "center")
    pygame.draw.line(renderer.surface, palette.TEXT_DIM, (area.x, zero), (area.right, zero))


def _legend(renderer: Canvas, chart: dict[str, Any], x: int, y: int, w: int) -> int:
    """What the yellow outline of a bar means, a swatch and a word; the height drawn."""
    words = chart.get("legend_won", "")
    width = 16 + renderer.font(MIN_TEXT).size(words)[0] + 10
    swatch = pygame.Rect(x, y + (LEGEND_H - 12) // 2, 12, 12)
    pygame.draw.rect(renderer.surface, palette.PANEL_LIGHT, swatch)
    pygame.draw.rect(renderer.surface, palette.YELLOW, swatch, 2)
    renderer.label(words, (x + 16, y, min(w, width) - 16, LEGEND_H), MIN_TEXT, palette.TEXT_DIM)
    return LEGEND_H
