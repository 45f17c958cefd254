"""Text in boxes: the font at each size, rendered text (cached), and text measured, shrunk,
wrapped or split over two lines to fit its box.

A mixin of `display.render.Renderer`.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from display import palette
from display.layout import MIN_TEXT, Box

if TYPE_CHECKING:
    from display.layout import Layout

TEXT_CACHE_SIZE = 600
FONT_FILE = Path(__file__).parent / "fonts" / "DejaVuSansCondensed-Bold.ttf"


class TextFitting:
    """Measuring, fitting and drawing text (mixed into the Renderer, which makes the caches)."""

    layout: Layout
    surface: pygame.Surface
    problems: list[str]
    smallest_shown: int  # words whose fitted size is below it are left out (boards scaled down)
    _fonts: dict[int, pygame.font.Font]
    _texts: OrderedDict[tuple, pygame.Surface]
    _fits: dict[tuple, tuple[int, list]]

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

    def shortened(self, content: str, width: int, size: int) -> str:
        """`content`, cut short with "…" if it is wider than `width` at `size` (a name)."""
        font = self.font(size)
        if font.size(content)[0] <= width:
            return content
        while len(content) > 1 and font.size(content + "…")[0] > width:
            content = content[:-1]
        return content.rstrip() + "…"

    def line_shortened(self, content: str, box: Box, size: int) -> str:
        """`content` short enough for `label` to draw whole in `box` (on two lines if the box
        is tall enough): of a list of moves ("a · b · c") the earliest are left out for "…",
        then words from the end."""
        _, _, w, h = box
        lines = 2 if h >= 2 * max(MIN_TEXT, size * 3 // 4) + 2 else 1
        room = w * lines * (0.9 if lines > 1 else 1.0)  # two lines break between words

        def fits(said: str) -> bool:
            return self.font(MIN_TEXT).size(said)[0] <= room

        parts = content.split(" · ")
        while not fits(" · ".join(parts)) and len(parts) > 2:
            parts = [parts[0], "…", *parts[3 if parts[1] == "…" else 2 :]]
        said = " · ".join(parts)
        words = said.split(" ")
        while not fits(said) and len(words) > 1:
            words.pop()
            said = " ".join(words) + " …"
        return said

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
        if fitted < self.smallest_shown:
            return
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
        """Word-wrapped text from the top of `box`, at the largest size (<= `size`) at which all
        of it fits; returns the height used."""
        x, y, w, h = box
        fitted, lines = self.fit_lines(content, box, size)
        line_h = self.font(fitted).get_linesize()
        if len(lines) * line_h > h + 4:
            self.problems.append(f"clipped: {content!r} in {w}x{h}")
        used = 0
        for line in lines:
            if used + line_h > h + 4:
                break
            self.label(line, (x, y + used, w, line_h), fitted, colour)
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
