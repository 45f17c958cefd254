"""The screens around the table: home (the games, the unfinished ones to resume), set-up (its
keyboard for names), settings (the camera beside them, the tray's choice), the list screens and
the scores.

A mixin of `display.render.Renderer`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from display import palette
from display.layout import Box, fit_columns, grid
from display.model import Screen
from display.review_view import draw_review
from display.scores_view import draw_scores
from display.setup_view import draw_setup_lists

if TYPE_CHECKING:
    from display.layout import Layout


class MenuView:
    """Drawing the screens other than the table (mixed into the Renderer)."""

    layout: Layout

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
        if not screen.keys:
            draw_setup_lists(self, screen, self.layout.body)
            return
        x, y, w, h = self.layout.body
        if screen.lines:  # typing a name: the keyboard takes the screen
            self.label(screen.lines[0], (x, y, w, 30), self.layout.font)
        self.panel((x, y + 36, w, 44), palette.PANEL_LIGHT)
        self.label(screen.entry + "_", (x + 10, y + 36, w - 20, 44), self.layout.font + 4)
        top = y + 88
        if screen.options:  # the scorebook's names, to touch instead of typing
            self.button_row(screen.options, (x, top, w, self.layout.row_height))
            top += self.layout.row_height + 8
        self._keyboard(screen.keys, (x, top, w, y + h - top))

    # ----- list screens ---------------------------------------------------------------------

    def _draw_settings(self, screen: Screen) -> None:
        """The settings list; while teaching dice, the camera view beside it."""
        if screen.point_target:
            self._draw_tray_choice(screen)
            return
        if screen.look_alike:
            self._draw_look_alike(screen)
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

    def _draw_look_alike(self, screen: Screen) -> None:
        """A taught die to check beside the die it looks like, each captioned, the words under
        them (portrait) or beside them."""
        x, y, w, h = self.layout.body
        row = self.layout.row_height
        pictures_h = min(w // 2, h // 2) if self.layout.portrait else min(w // 3, h - row - 60)
        side = min(pictures_h - 34, (w - 30) // 2)
        for number, (crop, caption) in enumerate(screen.look_alike):
            box = (x + number * (side + 20), y, side, side)
            self._camera_picture(crop, box)
            self.label(caption, (box[0], y + side + 4, side, 28), self.layout.font - 4,
                       align="center")  # fmt: skip
        if self.layout.portrait:
            text_box = (x, y + pictures_h + 10, w, h - pictures_h - row - 30)
        else:
            used = len(screen.look_alike) * (side + 20)
            text_box = (x + used, y, w - used, h - row - 20)
        self.paragraph(" ".join(screen.lines), text_box, self.layout.font - 2)
        self.buttons(screen.actions, (x, y + h - row - 8, w, row), 1)

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

    def _draw_review(self, screen: Screen) -> None:
        draw_review(self, screen)

    _draw_rules = _draw_lines
