"""Drawing a `display.model.Screen` with pygame, and mapping touches back to target ids.

The renderer draws on an off-screen surface of the panel's logical size; `display.window`
rotates it onto the real display. Rendered text and the scaled camera image are cached, so a
frame that changes little costs little (the table screen must stay under 5 ms a frame).
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np
import pygame

from display import palette
from display.camera_view import CameraView
from display.layout import MIN_TARGET, MIN_TEXT, Box, fit_columns, grid, layout_for
from display.model import Screen, Target
from display.scores_view import draw_scores
from display.sequence_view import draw_wide
from display.table_view import TableView

TEXT_CACHE_SIZE = 600
FONT_FILE = Path(__file__).parent / "fonts" / "DejaVuSansCondensed-Bold.ttf"


class Renderer(TableView, CameraView):
    """Draws screens on `surface` (logical size) and remembers where each target went."""

    def __init__(self, size: tuple[int, int] = (800, 480)) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.layout = layout_for(size)
        self.size = self.layout.size
        self.surface = pygame.Surface(self.size)
        self.hits: list[tuple[pygame.Rect, str]] = []
        self.problems: list[str] = []  # text that did not fit its box (tests fail on any)
        self.camera_shown = False  # the last screen drawn shows the live camera
        self.page_info = (0, 1)  # the page of moves drawn, and how many there are
        # lists a vertical drag scrolls: (rect, target prefix, first line, line height, last)
        self.drag_areas: list[tuple[pygame.Rect, str, int, int, int]] = []
        # areas where a touch becomes `prefix + "x,y"` in image pixels: (rect, prefix, scale)
        self.point_areas: list[tuple[pygame.Rect, str, float]] = []
        self._fonts: dict[int, pygame.font.Font] = {}
        self._texts: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        self._fits: dict[tuple, tuple[int, list]] = {}
        self._camera_key: tuple | None = None
        self._camera_surface: pygame.Surface | None = None

    # ----- primitives -----------------------------------------------------------------------

    def font(self, size: int) -> pygame.font.Font:
        found = self._fonts.get(size)
        if found is None:
            found = self._fonts[size] = pygame.font.Font(FONT_FILE, size)
        return found

    def text_surface(self, content: str, size: int, colour: palette.Colour) -> pygame.Surface:
        key = (content, size, colour)
        found = self._texts.get(key)
        if found is not None:
            self._texts.move_to_end(key)
            return found
        rendered = self.font(size).render(content, True, colour)
        self._texts[key] = rendered
        if len(self._texts) > TEXT_CACHE_SIZE:
            self._texts.popitem(last=False)
        return rendered

    def fitted_size(self, content: str, size: int, width: int, minimum: int = MIN_TEXT) -> int:
        while size > minimum and self.font(size).size(content)[0] > width:
            size -= 2
        return size

    def label(
        self,
        content: str,
        box: Box,
        size: int | None = None,
        colour: palette.Colour = palette.TEXT,
        align: str = "left",
    ) -> None:
        """One line of text inside `box`, shrunk to fit (then wrapped to two lines if need be)."""
        size = max(MIN_TEXT, size or self.layout.font)
        x, y, w, h = box
        fitted = self.fitted_size(content, size, w)
        readable = max(MIN_TEXT, size * 3 // 4)
        too_wide = self.font(fitted).size(content)[0] > w
        if (fitted < readable or too_wide) and h >= 2 * readable + 2 and " " in content:
            self._two_lines(content, box, max(MIN_TEXT, min(size, h // 2 - 1)), colour, align)
            return
        surface = self.text_surface(content, fitted, colour)
        if surface.get_width() > w or self.font(fitted).get_ascent() > h + 2:
            self.problems.append(f"clipped: {content!r} in {w}x{h}")
        if surface.get_width() > w:
            surface = surface.subsurface((0, 0, w, surface.get_height()))
        left = x + (w - surface.get_width()) // 2 if align == "center" else x
        self.surface.blit(surface, (left, y + (h - surface.get_height()) // 2))

    def _two_lines(
        self, content: str, box: Box, size: int, colour: palette.Colour, align: str
    ) -> None:
        words = content.split()
        x, y, w, h = box
        widths = [
            max(self.font(size).size(" ".join(part))[0] for part in (words[:cut], words[cut:]))
            for cut in range(1, len(words))
        ]
        # never start the second line with a separator
        widths = [
            width + (10_000 if words[cut] in (";", ":", ",", "—") else 0)
            for cut, width in enumerate(widths, start=1)
        ]
        best = 1 + widths.index(min(widths))
        halves = (" ".join(words[:best]), " ".join(words[best:]))
        line_h = min(h // 2, size + 6)
        top = y + (h - 2 * line_h) // 2
        for number, half in enumerate(halves):
            self.label(half, (x, top + number * line_h, w, line_h), size, colour, align)

    def paragraph(
        self, content: str, box: Box, size: int, colour: palette.Colour = palette.TEXT
    ) -> int:
        """Word-wrapped text at one size from the top of `box`; returns the height used."""
        x, y, w, h = box
        font = self.font(size)
        line_h = font.get_linesize()
        lines: list[str] = []
        for word in content.split():
            if lines and font.size(lines[-1] + " " + word)[0] <= w:
                lines[-1] += " " + word
            else:
                lines.append(word)
        used = 0
        for line in lines:
            if used + line_h > h:
                break
            self.label(line, (x, y + used, w, line_h), size, colour)
            used += line_h
        return used

    def wrap(self, content: str, width: int, size: int) -> list[str]:
        """Word-wrap; a text made of `a ; b ; c` parts breaks between the parts when they fit."""
        font = self.font(size)
        parts = content.split(" ; ")
        if len(parts) > 1 and all(font.size(part)[0] <= width for part in parts):
            return parts
        lines: list[str] = []
        for word in content.split(" "):  # not on no-break spaces: "Équipe 1" stays whole
            if not word:
                continue
            if lines and font.size(lines[-1] + " " + word)[0] <= width:
                lines[-1] += " " + word
            else:
                lines.append(word)
        return lines

    def fit_lines(
        self, content: str, box: Box, size: int, minimum: int = MIN_TEXT
    ) -> tuple[int, list]:
        """The largest size (<= `size`) at which `content`, word-wrapped, fits in `box`."""
        _, _, w, h = box
        key = (content, w, h, size, minimum)
        found = self._fits.get(key)
        if found is None:
            found = self._fits[key] = self._fit_lines(content, w, h, size, minimum)
            if len(self._fits) > TEXT_CACHE_SIZE:
                self._fits.clear()
        return found

    def _fit_lines(self, content: str, w: int, h: int, size: int, minimum: int) -> tuple[int, list]:
        while True:
            lines = self.wrap(content, w, size)
            line_h = self.font(size).get_linesize()
            widest = max((self.font(size).size(line)[0] for line in lines), default=0)
            if size <= minimum or (len(lines) * line_h <= h and widest <= w):
                return size, lines
            size -= 1

    def wrapped_button(self, target: Target, box: Box, size: int | None = None) -> None:
        """A button whose label wraps onto several lines at one size (long move texts)."""
        fill, ink = palette.BUTTON_STYLES.get(target.style, palette.BUTTON_STYLES["normal"])
        rect = pygame.Rect(box)
        pygame.draw.rect(self.surface, fill, rect, border_radius=8)
        inner = (box[0] + 8, box[1] + 3, box[2] - 16, box[3] - 6)
        fitted, lines = self.fit_lines(target.label, inner, size or self.layout.font)
        line_h = self.font(fitted).get_linesize()
        if line_h * len(lines) > inner[3] + 4:
            self.problems.append(f"clipped: {target.label!r} in {inner[2]}x{inner[3]}")
        top = inner[1] + (inner[3] - line_h * len(lines)) // 2
        for number, line in enumerate(lines):
            self.label(line, (inner[0], top + number * line_h, inner[2], line_h), fitted, ink,
                       "center")  # fmt: skip
        self.hits.append((rect, target.id))

    def button(self, target: Target, box: Box, size: int | None = None) -> None:
        """A button; its label wraps onto more lines, all at one size, when it is long."""
        self.wrapped_button(target, box, size)

    def buttons(self, targets: list[Target], box: Box, columns: int | None = None) -> None:
        if not targets:
            return
        columns = columns or fit_columns(len(targets), box, 72)
        if columns >= len(targets) and len(targets) > 1:
            self.button_row(targets, box)
            return
        cells = grid(box, len(targets), columns, row_height=self.layout.row_height)
        self.same_size_buttons(targets, cells)

    def same_size_buttons(self, targets: list[Target], cells: list[Box]) -> None:
        size = min(  # one type size for the group: a row of buttons reads as one
            self.fit_lines(t.label, (0, 0, cell[2] - 16, cell[3] - 6), self.layout.font)[0]
            for t, cell in zip(targets, cells, strict=True)
        )
        for target, cell in zip(targets, cells, strict=True):
            self.button(target, cell, size)

    def button_row(self, targets: list[Target], box: Box, gap: int = 6) -> None:
        """One row of buttons, each as wide as its words need, the spare width shared out."""
        if not targets:
            return
        x, y, w, h = box
        h = min(h, self.layout.row_height)
        font = self.font(MIN_TEXT)
        whole = [max(MIN_TARGET, font.size(t.label)[0] + 20) for t in targets]
        words = [max([MIN_TARGET] + [font.size(word)[0] + 20 for word in t.label.split()])
                 for t in targets]  # fmt: skip
        room = w - gap * (len(targets) - 1)
        needs = whole if sum(whole) <= room else words
        spare = max(0, room - sum(needs)) / len(targets)
        left = float(x)
        cells = []
        for need in needs:
            cells.append((round(left), y, round(need + spare), h))
            left += need + spare + gap
        self.same_size_buttons(targets, cells)

    def panel(self, box: Box, colour: palette.Colour = palette.PANEL) -> None:
        pygame.draw.rect(self.surface, colour, pygame.Rect(box), border_radius=10)

    # ----- screens --------------------------------------------------------------------------

    def draw(self, screen: Screen) -> pygame.Surface:
        self.hits, self.point_areas, self.problems = [], [], []
        self.camera_shown = False
        self.page_info, self.drag_areas = (0, 1), []
        self.surface.fill(palette.BACKGROUND)
        if screen.name == "table" and screen.game == "sequence" and not self.layout.portrait:
            draw_wide(self, screen)  # the board takes the full height: the bar goes beside it
            return self.surface
        self._bar(screen)
        getattr(self, f"_draw_{screen.name}", self._draw_lines)(screen)
        if screen.message:
            self.message(screen)
        return self.surface

    def message(self, screen: Screen, box: Box | None = None) -> None:
        colour = palette.ERROR if screen.error else palette.TEXT_DIM
        said = screen.message
        if screen.message_detail:
            said = f"{said} ({screen.message_detail})"
        self.label(said, box or self.layout.message, self.layout.font - 4, colour)

    def hit(self, position: tuple[int, int]) -> str | None:
        """The target under a touch (logical coordinates), the topmost one drawn."""
        for rect, target_id in reversed(self.hits):
            if rect.collidepoint(position):
                return target_id
        return self.point_at(position)

    def dragged(self, start: tuple[int, int], end: tuple[int, int]) -> str | None:
        """A vertical drag on a scrolling list: the target showing it moved by the drag."""
        for rect, prefix, first, line_h, last in self.drag_areas:
            if rect.collidepoint(start):
                lines = round((start[1] - end[1]) / line_h)
                return f"{prefix}{min(last, max(0, first + lines))}"
        return None

    def point_at(self, position: tuple[int, int]) -> str | None:
        """A touch on a picture that takes points (the tray corners): the point in its pixels."""
        for rect, prefix, scale in self.point_areas:
            if rect.collidepoint(position):
                x = round((position[0] - rect.x) / scale)
                y = round((position[1] - rect.y) / scale)
                return f"{prefix}{x},{y}"
        return None

    def _bar(self, screen: Screen) -> None:
        layout = self.layout
        if layout.portrait:
            self.label(screen.title, layout.title, layout.font + 6)
        else:
            self.label(screen.title, layout.title, layout.font + 2)
        self.buttons(screen.nav, layout.bar, columns=len(screen.nav) or 1)

    def _draw_home(self, screen: Screen) -> None:
        body = self.layout.body
        x, y, w, h = body
        tall = self.layout.row_height * (3 if self.layout.portrait else 2)
        columns = 2 if self.layout.portrait else 3
        rows = -(-len(screen.options) // columns)
        games_box = (x, y + 8, w, tall * rows + 6 * (rows - 1))
        cells = grid(games_box, len(screen.options), columns)
        for target, cell in zip(screen.options, cells, strict=True):
            self.button(target, cell, self.layout.font + (14 if self.layout.portrait else 8))
        if screen.actions:  # the unfinished games, to resume
            top = games_box[1] + games_box[3] + 20
            columns = 1 if self.layout.portrait else 2
            rows = -(-len(screen.actions) // columns)
            height = min(y + h - top, rows * (self.layout.row_height + 6))
            cells = grid((x, top, w, height), len(screen.actions), columns)
            self.same_size_buttons(screen.actions, cells)

    def _draw_setup(self, screen: Screen) -> None:
        x, y, w, h = self.layout.body
        rows = screen.lines[:1]
        if rows:
            self.label(rows[0], (x, y, w, 30), self.layout.font)
        if screen.keys:  # typing a name: the keyboard takes the screen
            self.panel((x, y + 36, w, 44), palette.PANEL_LIGHT)
            self.label(screen.entry + "_", (x + 10, y + 36, w - 20, 44), self.layout.font + 4)
            self._keyboard(screen.keys, (x, y + 88, w, h - 88))
            return
        options_box = (x, y + 36, w, h - 110)
        widest = 230 if self.layout.portrait else 190  # columns of readable names, options
        self.buttons(
            screen.options, options_box, fit_columns(len(screen.options), options_box, widest)
        )
        self.buttons(screen.actions, (x, y + h - 64, w, self.layout.row_height), 1)

    # ----- list screens ---------------------------------------------------------------------

    def _draw_settings(self, screen: Screen) -> None:
        """The settings list; while teaching dice, the camera view beside it."""
        if screen.point_target:
            self._draw_tray_choice(screen)
            return
        if screen.camera is None:
            self._draw_lines(screen)
            return
        x, y, w, h = self.layout.body
        preview_w = w // 2 if not self.layout.portrait else w
        self._draw_lines(screen, text_width=w - preview_w - 8 if preview_w < w else w)
        top = y + self._options_height(screen, (x, y, w, h)) + 4
        bottom = y + h - self.layout.row_height - 12
        if self.layout.portrait:
            top = y + h // 2
        self._camera(screen, (x + w - preview_w, top, preview_w, bottom - top))

    def _draw_tray_choice(self, screen: Screen) -> None:
        """Choosing the tray region: the camera view as large as it goes, the help beside it."""
        x, y, w, h = self.layout.body
        row = self.layout.row_height
        if self.layout.portrait:
            camera_box, side = (x, y, w, w * 3 // 4), (x, y + w * 3 // 4 + 12, w, 0)
            side = (side[0], side[1], w, y + h - side[1])
        else:
            camera_w = min(w * 2 // 3, h * 4 // 3)
            camera_box, side = (x, y, camera_w, h), (x + camera_w + 10, y, w - camera_w - 10, h)
        self._camera(screen, camera_box)
        sx, sy, sw, sh = side
        actions_h = len(screen.actions) * (row + 6)
        used = 0
        for line in screen.lines:
            used += self.paragraph(line, (sx, sy + used, sw, sh - actions_h - used),
                                   self.layout.font - 2) + 10  # fmt: skip
        self.buttons(screen.actions, (sx, sy + sh - actions_h, sw, actions_h), 1)

    def _options_height(self, screen: Screen, box: Box) -> int:
        if not screen.options:
            return 0
        columns = fit_columns(len(screen.options), box, 140)
        return -(-len(screen.options) // columns) * (self.layout.row_height + 6)

    def _draw_lines(self, screen: Screen, text_width: int | None = None) -> None:
        x, y, w, h = self.layout.body
        top = y
        if screen.options:
            columns = fit_columns(len(screen.options), (x, y, w, h), 140)
            option_h = self._options_height(screen, (x, y, w, h))
            self.buttons(screen.options, (x, y, w, option_h - 6), columns)
            top += option_h + 4
        w = text_width or w
        action_h = self.layout.row_height + 8 if screen.actions else 0
        bottom = y + h - action_h
        if screen.name == "rules":  # one flowing text, wrapped
            self.paragraph(" ".join(screen.lines), (x + 4, top + 4, w - 8, bottom - top - 4),
                           self.layout.font - 2)  # fmt: skip
        size = self.layout.font - 2
        line_h = max(26, self.layout.font + 4)
        wrapped = [part for line in screen.lines for part in self.wrap(line, w - 8, size)]
        for number, line in enumerate([] if screen.name == "rules" else wrapped):
            line_y = top + number * line_h
            if line_y + line_h > bottom:
                break
            self.label(line, (x + 4, line_y, w - 8, line_h), size)
        if screen.actions:
            self.buttons(screen.actions, (x, y + h - action_h + 8, w, self.layout.row_height), 2)

    def _draw_scores(self, screen: Screen) -> None:
        draw_scores(self, screen)

    _draw_rules = _draw_lines


def save_png(surface: pygame.Surface, path: Any, compression: int = 1) -> None:
    """Write a screenshot quickly (low zlib effort: one is written per demo turn)."""
    import cv2

    width, height = surface.get_size()
    rgb = np.frombuffer(pygame.image.tobytes(surface, "RGB"), np.uint8).reshape(height, width, 3)
    ok = cv2.imwrite(str(path), rgb[:, :, ::-1], [cv2.IMWRITE_PNG_COMPRESSION, compression])
    if not ok:
        raise OSError(f"cannot write screenshot {path}")
