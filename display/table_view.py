"""The table screen's drawing: board, moves (paged as they fit), keys, whose turn and scores.

A mixin of `display.render.Renderer` (it draws with the renderer's primitives).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from display import boards, palette
from display.i18n import text
from display.layout import LIST_TEXT, MIN_TARGET, MIN_TEXT, Box, grid
from display.model import Screen, Target

if TYPE_CHECKING:
    from display.layout import Layout

CARD_GAMES = ("strategix", "sequence")
BIG_BOARDS = ("traverse",)  # drawn in the main area, the camera / moves beside them
PAWN_COLOURS = {"red": palette.VERMILLION, "white": palette.WHITE}  # Traverse


class TableView:
    """Drawing the table screen (mixed into the Renderer)."""

    layout: Layout
    surface: pygame.Surface
    page_info: tuple[int, int]

    def _draw_table(self, screen: Screen) -> None:
        layout = self.layout
        card_game = screen.game in CARD_GAMES
        keys_tall = bool(screen.keys) and not layout.portrait
        if card_game:
            boards.draw(self, screen, layout.main)
            if keys_tall:  # the keys take the options row too, the entry line above them
                self._keys_with_entry(screen)
            else:
                self.moves_or_keys(screen, layout.side)
        elif screen.game in BIG_BOARDS:  # a grid that needs the large area; dice beside it
            boards.draw(self, screen, layout.main)
            side = self._board_notes(screen, layout.side)
            if screen.moves or screen.keys:
                self.moves_or_keys(screen, side)
            else:  # the same box whatever the options row holds: a die touched to correct
                self._camera(screen, side)  # it stays under the finger
        else:
            if screen.moves or screen.keys or screen.moves_note:  # a result in place of dice
                self.moves_or_keys(screen, layout.main)
            else:
                self._camera(screen, layout.main)
            boards.draw(self, screen, layout.side)
        big_board_alone = screen.game in BIG_BOARDS and not screen.options and not screen.entry
        if not big_board_alone and not (card_game and keys_tall):
            self._options_row(screen)
        self.action_slots(screen, layout.actions)
        self.status(screen)

    def _board_notes(self, screen: Screen, box: Box) -> Box:
        """Where the board's box holds the board alone, its notes at the top of `box`; the
        room left under them."""
        if not self.layout.board_alone or not screen.board:
            return box
        x, y, w, h = box
        used = boards.draw_traverse_notes(self, screen.board, box, screen.language)
        return (x, y + used, w, h - used)

    def action_slots(self, screen: Screen, box: Box, gap: int = 4) -> None:
        """The actions row in slots, each as wide as the longest word it may say and in its
        place whatever the others hold; an empty slot is a gap."""
        actions = screen.actions
        if not actions:
            return
        if len(screen.slot_labels) != len(actions):
            self.buttons(actions, box, len(actions) or 1)
            return
        x, y, w, h = box
        needs = [self._slot_need(labels) for labels in screen.slot_labels]
        room = w - gap * (len(needs) - 1)
        if sum(needs) > room:  # a narrow column (Sequence's at 800x480): every slot narrower
            needs = [need * room / sum(needs) for need in needs]
        spare = max(0, room - sum(needs)) / len(needs)
        cells, left = [], float(x)
        for need in needs:
            cells.append((round(left), y, round(need + spare), min(h, self.layout.row_height)))
            left += need + spare + gap
        shown = [(a, cell) for a, cell in zip(actions, cells, strict=True) if a.style != "empty"]
        if shown:
            self.same_size_buttons([a for a, _ in shown], [cell for _, cell in shown])

    def _slot_need(self, labels: list[str]) -> int:
        """The width of a slot: its longest word at the least type size, and a margin."""
        font = self.font(MIN_TEXT)
        words = [font.size(word)[0] + 20 for label in labels for word in label.split()]
        return max([MIN_TARGET, *words])

    def _options_row(self, screen: Screen) -> None:
        box = self.layout.options
        if screen.entry or (screen.keys and not screen.options):
            self.panel(box, palette.PANEL_LIGHT)
            entry = text(screen.language, "entry", text=screen.entry or "…")
            self.label(entry, (box[0] + 10, box[1], box[2] - 20, box[3]), self.layout.font)
            return
        self.buttons(screen.options, box, len(screen.options) or 1)

    def moves_or_keys(self, screen: Screen, box: Box) -> None:
        x, y, w, h = box
        if screen.keys:
            self._keyboard(screen.keys, box)
            return
        if not screen.moves and not screen.moves_note:
            self.panel(box)
            return
        if screen.hand and not _hand_on_board(screen):  # the cards above what they narrow
            largest = max(boards.CARD_TOUCH, min(w // len(screen.hand), self.layout.row_height))
            used = boards.hand_cards(self, screen.hand, (x, y, w, h), largest) + 4
            y, h = y + used, h - used
        if screen.moves_note:  # two lines above moves; a game's result takes the room
            note_h = 2 * MIN_TEXT + 12 if screen.moves else h
            used = self.paragraph(screen.moves_note, (x + 4, y, w - 8, note_h), self.layout.font,
                                  palette.TEXT) + 6  # fmt: skip
            y, h = y + used, h - used
        if not screen.moves:
            return
        box = (x, y, w, h)
        wanted, most = screen.page
        per_page, row_h, columns = self._moves_per_page(screen.moves, box, most)
        pages = -(-len(screen.moves) // per_page)
        page = min(wanted, pages - 1)
        self.page_info = (page, pages)
        pager_h = MIN_TARGET if pages > 1 else 0
        shown = screen.moves[page * per_page : (page + 1) * per_page]
        cells = grid((x, y, w, h - pager_h - 4), len(shown), columns, 5, row_h)
        for target, cell in zip(shown, cells, strict=True):
            # each label at the largest size it fits: a long one shrinks itself, not the page
            self.wrapped_button(target, cell, self.layout.font - 2)
        if pages > 1:
            self._pager(screen, page, pages, (x, y + h - pager_h, w, pager_h))

    def _moves_per_page(self, moves: list[Target], box: Box, most: int) -> tuple[int, int, int]:
        """The most moves a page holds with every label fitting its button at LIST_TEXT px or
        more (two a row when each fits in three lines: six long moves a page shrank to three
        lines of 16 px), their row height and the columns."""
        one = self._rows_fitting(moves, box, most, 1)
        if len(moves) > one[0]:
            two = self._rows_fitting(moves, box, most, 2, lines=3)
            if two[0] * 2 > one[0]:
                return two[0] * 2, two[1], 2
        return one[0], one[1], 1

    def _rows_fitting(
        self, moves: list[Target], box: Box, most: int, columns: int, lines: int = 9
    ) -> tuple[int, int]:
        """The most rows of `columns` moves a page holds (labels fitting at LIST_TEXT px or
        more, in at most `lines` lines), and their height; one row when none fits. A label too
        long for the tallest row at LIST_TEXT need only fit at MIN_TEXT (one a row): it shrinks
        itself, not the page."""
        _, _, w, h = box
        tallest = self.layout.row_height * 2
        width = (w - 5 * (columns - 1)) // columns - 16
        tall = (0, 0, width, tallest - 6)
        labels = [t.label for t in moves if self._label_fits(t.label, tall, LIST_TEXT, lines)]
        if columns > 1 and len(labels) < len(moves):
            return 0, tallest  # a label too long for half a row: one a row
        rows_wanted = -(-len(moves) // columns)
        for count in range(max(1, min(most, rows_wanted)), 0, -1):
            pager_h = MIN_TARGET if count < rows_wanted else 0  # as moves_or_keys lays them
            row_h = min(tallest, (h - pager_h - 4 - 5 * (count - 1)) // count)
            inner = (0, 0, width, row_h - 6)
            fits = all(self._label_fits(label, inner, LIST_TEXT, lines) for label in labels)
            fits = fits and all(self._label_fits(t.label, inner, MIN_TEXT) for t in moves)
            if row_h >= MIN_TARGET and fits:
                return count, row_h
        return (1 if columns == 1 else 0), min(tallest, h - MIN_TARGET - 4)

    def _label_fits(self, content: str, box: Box, least: int, most_lines: int = 9) -> bool:
        size, lines = self.fit_lines(content, box, least, least)
        line_h = self.font(size).get_linesize()
        return (
            len(lines) <= most_lines
            and len(lines) * line_h <= box[3] + 4
            and all(self.font(size).size(line)[0] <= box[2] for line in lines)
        )

    def _pager(self, screen: Screen, page: int, pages: int, box: Box) -> None:
        """Previous / next page, looking disabled where they lead nowhere, and where we are."""
        x, y, w, h = box
        first, last = page == 0, page == pages - 1
        previous = Target(f"page:{max(0, page - 1)}", text(screen.language, "prev"),
                          "disabled" if first else "normal")  # fmt: skip
        following = Target(f"page:{min(pages - 1, page + 1)}", text(screen.language, "next"),
                           "disabled" if last else "normal")  # fmt: skip
        self.button(previous, (x, y, w // 3, h))
        self.button(following, (x + w - w // 3, y, w // 3, h))
        self.label(f"{page + 1}/{pages}", (x + w // 3, y, w // 3, h), align="center")

    def _keys_with_entry(self, screen: Screen) -> None:
        x, y, w, _ = self.layout.side
        bottom = self.layout.options[1] + self.layout.options[3]
        entry = text(screen.language, "entry", text=screen.entry or "…")
        self.label(entry, (x + 4, y, w - 8, 26), MIN_TEXT + 2)
        self._keyboard(screen.keys, (x, y + 28, w, bottom - y - 28))

    def _keyboard(self, keys: list[Target], box: Box) -> None:
        """Single-character keys in a grid, word keys (pass, clear, enter...) on a wider row."""
        x, y, w, h = box
        gap = 4
        commands = ("entry:", "play:", "keys:")
        letters = [k for k in keys if not k.id.startswith(commands)]
        words = [k for k in keys if k.id.startswith(commands)]
        columns = max(1, min(len(letters), (w + gap) // (MIN_TARGET + 4 + gap)))
        rows = -(-len(letters) // columns) + (1 if words else 0)
        row_h = min(self.layout.row_height + 4, (h + gap) // max(1, rows) - gap)
        letters_h = (row_h + gap) * (rows - (1 if words else 0)) - gap
        cells = grid((x, y, w, letters_h), len(letters), columns, gap)
        self.same_size_buttons(letters, cells)
        if words:
            self.button_row(words, (x, y + letters_h + gap, w, row_h), gap)

    def status(self, screen: Screen, box: Box | None = None) -> None:
        """Whose turn and what the table waits for; each player's box, the acting one lit."""
        x, y, w, h = box or self.layout.status
        turn_h = h // 2 if screen.scores else h
        self.label(screen.turn, (x, y, w, turn_h), self.layout.font, palette.YELLOW)
        if not screen.scores:
            return
        cells = grid((x, y + turn_h + 2, w, h - turn_h - 2), len(screen.scores),
                     len(screen.scores), 4)  # fmt: skip
        narrow = any(  # narrow boxes: the names (whose turn) matter most
            self.font(MIN_TEXT).size(_score_line(screen, name, score))[0] > cell[2] - 8
            for (name, score), cell in zip(screen.scores, cells, strict=True)
        )
        for number, ((name, score), cell) in enumerate(zip(screen.scores, cells, strict=True)):
            colour = player_colour(screen, number)
            rect = pygame.Rect(cell)
            acting = number == screen.acting
            if acting:
                pygame.draw.rect(self.surface, colour, rect, border_radius=6)
            pygame.draw.rect(self.surface, colour, rect, 3, border_radius=6)
            inner = (cell[0] + 4, cell[1], cell[2] - 8, cell[3])
            ink = _ink_on(colour) if acting else palette.TEXT
            if narrow:  # the name above its score, each on its own line
                self._name_over_score(name, score, inner, ink)
            else:
                said = _score_line(screen, name, score)
                self.label(said, inner, self.layout.font - 4, ink, align="center")

    def _name_over_score(self, name: str, score: str, box: Box, ink: palette.Colour) -> None:
        x, y, w, h = box
        top_h = h // 2
        self.label(self.shortened(name, w, MIN_TEXT), (x, y, w, top_h), MIN_TEXT, ink, "center")
        self.label(score, (x, y + top_h, w, h - top_h), MIN_TEXT, ink, align="center")


def _hand_on_board(screen: Screen) -> bool:
    """Stratégix draws the hand on its board (beside the trick); Sequence's board is the grid."""
    return screen.game == "strategix"


def _score_line(screen: Screen, name: str, score: str) -> str:
    return text(screen.language, "score_line", name=name, score=score)


def player_colour(screen: Screen, seat: int) -> palette.Colour:
    """A player's colour; in team games, their team's chip colour."""
    board = screen.board or {}
    pawns = board.get("colours")
    if pawns and seat < len(pawns) and pawns[seat] in PAWN_COLOURS:
        return PAWN_COLOURS[pawns[seat]]
    team_of, names = board.get("team_of"), board.get("team_colours")
    if team_of and names and seat < len(team_of):
        team = team_of[seat]
        fallback = palette.TEAM_FALLBACK[team % len(palette.TEAM_FALLBACK)]
        return palette.TEAM_COLOURS.get(names[team], fallback)
    return palette.PLAYER_COLOURS[seat % len(palette.PLAYER_COLOURS)]


def _ink_on(fill: palette.Colour) -> palette.Colour:
    """Black or white, whichever reads better on `fill`."""
    return palette.BLACK if sum(fill) > 380 else palette.WHITE
