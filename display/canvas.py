"""What the drawing functions of display/ draw with: the `Canvas` protocol, the part of
`display.render.Renderer` that the boards, the scores screens and Sequence's wide table call.
The renderer imports those views to draw its screens; they name this protocol instead of the
renderer, so the dependency points one way.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import pygame

from display.layout import Box, Layout
from display.model import Screen, Target
from display.palette import Colour


@runtime_checkable
class Canvas(Protocol):
    """A surface the views draw on (the Renderer); defaults are written `...`, their values
    are the renderer's alone."""

    layout: Layout
    surface: pygame.Surface
    hits: list[tuple[pygame.Rect, str]]
    drag_areas: list[tuple[pygame.Rect, str, int, int, int]]
    smallest_shown: int  # words drawn smaller are left out (a board drawn to be scaled down)

    def font(self, size: int) -> pygame.font.Font: ...

    def label(
        self, content: str, box: Box, size: int | None = ..., colour: Colour = ..., align: str = ...
    ) -> None: ...

    def paragraph(self, content: str, box: Box, size: int, colour: Colour = ...) -> int: ...

    def wrap(self, content: str, width: int, size: int) -> list[str]: ...

    def fit_lines(
        self, content: str, box: Box, size: int, minimum: int = ...
    ) -> tuple[int, list]: ...

    def panel(self, box: Box, colour: Colour = ...) -> None: ...

    def button(self, target: Target, box: Box, size: int | None = ...) -> None: ...

    def buttons(self, targets: list[Target], box: Box, columns: int | None = ...) -> None: ...

    def button_row(self, targets: list[Target], box: Box, gap: int = ...) -> None: ...

    # The table screen's parts, which Sequence's wide table lays out in a column of its own.

    def same_size_buttons(self, targets: list[Target], cells: list[Box]) -> None: ...

    def status(self, screen: Screen, box: Box | None = ...) -> None: ...

    def moves_or_keys(self, screen: Screen, box: Box) -> None: ...

    def message(self, screen: Screen, box: Box | None = ...) -> None: ...
