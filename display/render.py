"""Drawing a `display.model.Screen` with pygame, and mapping touches back to target ids.

The renderer draws on an off-screen surface of the panel's logical size; `display.window`
rotates it onto the real display. Rendered text and the scaled camera image are cached, so a
frame that changes little costs little (the table screen must stay under 5 ms a frame).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np
import pygame

from display import palette
from display.camera_view import CameraView
from display.layout import MIN_TARGET, MIN_TEXT, Box, fit_columns, grid, layout_for, table_layout
from display.menu_view import MenuView
from display.model import Screen, Target
from display.sequence_view import draw_wide
from display.table_view import TableView
from display.text_fit import TextFitting


class Renderer(TextFitting, TableView, CameraView, MenuView):
    """Draws screens on `surface` (logical size) and remembers where each target went."""

    def __init__(self, size: tuple[int, int] = (800, 480)) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.layout = layout_for(size)
        self.size = self.layout.size
        self.surface = pygame.Surface(self.size)
        self.hits: list[tuple[pygame.Rect, str]] = []
        self.problems: list[str] = []  # text that did not fit its box (tests fail on any)
        self.smallest_shown = 0
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
            self._one_line_size(t.label, cell) for t, cell in zip(targets, cells, strict=True)
        )
        for target, cell in zip(targets, cells, strict=True):
            self.button(target, cell, size)

    def _one_line_size(self, label: str, cell: Box) -> int:
        """The largest size a button's label fits its cell at on one line ("− die" broke in
        two at 800x480), else the size it fits at wrapped."""
        inner = (0, 0, cell[2] - 16, cell[3] - 6)
        size = self.fitted_size(label, self.layout.font, inner[2])
        if self.font(size).size(label)[0] <= inner[2]:
            return size
        return self.fit_lines(label, inner, self.layout.font)[0]

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
        table = screen.name == "table"
        self.layout = table_layout(self.size, screen.game) if table else layout_for(self.size)
        if table and screen.game == "sequence" and not self.layout.portrait:
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
        box = box or self.layout.message
        size = self.layout.font - 4
        self.label(self.line_shortened(said, box, size), box, size, colour)

    def hit(self, position: tuple[int, int]) -> str | None:
        """The target under a touch (logical coordinates): of the areas touched, the one whose
        middle is nearest, the topmost of equals. Pieces closer than a finger have overlapping
        areas: a touch on one is that piece, never the neighbour drawn over it."""
        touched = [
            (_distance(rect.center, position), -order, target_id)
            for order, (rect, target_id) in enumerate(self.hits)
            if rect.collidepoint(position)
        ]
        if touched:
            return min(touched)[2]
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
        size = layout.font + (6 if layout.portrait else 2)
        x, y, w, h = layout.title
        one_line = min(h, 2 * max(MIN_TEXT, size * 3 // 4))  # too low for label's two lines
        box = (x, y + (h - one_line) // 2, w, one_line)
        self.label(self._title_fitting(screen.title, w), box, size)
        self.buttons(screen.nav, layout.bar, columns=len(screen.nav) or 1)

    def _title_fitting(self, title: str, width: int) -> str:
        """The title on one line: its first parts ("Review · ") left out while too wide."""
        parts = title.split(" · ")
        while len(parts) > 1 and self.font(MIN_TEXT).size(" · ".join(parts))[0] > width:
            parts = parts[1:]
        return " · ".join(parts)


def save_png(surface: pygame.Surface, path: Any, compression: int = 1) -> None:
    """Write a screenshot quickly (low zlib effort: one is written per demo turn)."""
    import cv2

    width, height = surface.get_size()
    rgb = np.frombuffer(pygame.image.tobytes(surface, "RGB"), np.uint8).reshape(height, width, 3)
    ok = cv2.imwrite(str(path), rgb[:, :, ::-1], [cv2.IMWRITE_PNG_COMPRESSION, compression])
    if not ok:
        raise OSError(f"cannot write screenshot {path}")


def _distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2
