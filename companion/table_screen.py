"""The table screen: the board, whose turn and the moves offered, and its touches on them
(pieces and squares that narrow the moves, a move played, the pager).

A mixin of the controller: the pieces touched, the page and the moves' cache live on the
controller, which plays a move touched through `play`.
"""

from __future__ import annotations

from typing import Any

import engines
from companion.dice_entry import DiceProposal
from companion.tables import Choice
from companion.tables.base import D6_FACES, POKER_FACES, spoken_view
from display.i18n import game_title, text
from display.model import Screen, Target

SHORT_GUESS = 24  # characters a guessed play's words may take on its button (one of three);
# a hint's Traverse play in words overflowed it


class TableScreen:
    """The table screen, its moves and its touches on them (mixed into the Controller)."""

    language: str
    session: Any
    image: Any
    proposal: DiceProposal | None
    picking: int | None
    rethrow: set[int]
    selected: set[str]  # pieces touched on the board: the moves narrowed
    entry: str
    guess: str
    page: int
    can_throw: bool
    moves_per_page: int  # moves beside the camera (dice games)
    side_moves_per_page: int  # beside the board (card games)
    _choices: tuple[tuple, list[Choice]] | None

    def use_layout(self, layout: Any) -> None:
        """Page the moves as many as the panel's layout shows (display.layout.Layout)."""
        self.moves_per_page = layout.moves_per_page
        self.side_moves_per_page = layout.side_moves_per_page

    @property
    def per_page(self) -> int:
        return self.side_moves_per_page if self.table.moves_beside_board else self.moves_per_page

    # ----- touches --------------------------------------------------------------------------

    def _tap_square(self, square: str) -> None:
        """A touch on a board square: completes a typed card (Sequence), else narrows moves."""
        state = self.state
        if state is not None and self._uses_keyboard(state):
            if self.entry:
                self.play(self.table.square_play(self.entry, square))
                return
            guess = self.table.square_guess(state, square)
            if not guess:
                self._say(text(self.language, "enter_play"), True)
            elif guess == self.guess:
                self.play(guess)  # the same square touched again: play its card
            else:
                self.guess = guess
                self._say(self._t("play_guess_help"))
            return
        self._tap_piece(f"square:{square}")

    def _tap_move(self, notation: str) -> None:
        self.play(notation)

    def _tap_piece(self, piece: str) -> None:
        """A pawn, chip or square touched: keep the moves that involve every piece touched."""
        state = self.state
        if state is None:
            return
        chosen = self.selected ^ {piece}
        if chosen and not any(chosen <= c.pieces for c in self.choices(state)):
            chosen = {piece}  # a piece no move shares with the others: start again from it
        if not any(chosen <= c.pieces for c in self.choices(state)):
            self._say(self._t("piece_stuck"), True)
            return
        self.selected, self.page = chosen, 0
        self._say("")

    def _tap_page(self, where: str) -> None:
        """`page:N` from the pager drawn (the renderer knows how many pages the moves take)."""
        if where.isdigit():
            self.page = int(where)
        else:
            self.page = max(0, self.page + (1 if where == "next" else -1))

    def _tap_undo(self, _: str) -> None:
        self.undo()

    # ----- the screen -----------------------------------------------------------------------

    def _screen_table(self) -> Screen:
        session = self.session
        if session is None:
            return Screen("table", self._t("no_game"))
        state = session.state
        record = session.record
        person = isinstance(state.actor, int) and not self.bot_level(state.actor)
        viewer = state.actor if person and record.mode == "full" else None
        screen = Screen(
            "table",
            game_title(record.game, self.language),
            game=record.game,
            board=spoken_view(state.view(viewer), self.language),
            camera=self.image,
            turn=self._waiting(state),
            scores=[(n, str(s)) for n, s in zip(state.players, state.scores(), strict=True)],
        )
        screen.acting = self.table.seat(state)
        screen.dice = self._dice_marks()
        screen.actions = self._table_actions(state)
        self._add_moves(screen, state)
        self._add_hint(screen, state)
        return screen

    def _waiting(self, state: engines.State) -> str:
        """What the table waits for; a reading shown waits for its check, not for a throw."""
        seat = self.table.seat(state)
        if self.proposal is not None and self.dice_request() is not None and seat is not None:
            return self._t("check_roll", name=state.players[seat])
        return self.table.waiting(state, self.language)

    def _table_actions(self, state: engines.State) -> list[Target]:
        actions = []
        request = self.dice_request()
        if request is not None and self.proposal is not None:
            style = "primary" if self.proposal.complete(request.count) else "quiet"
            actions.append(Target("confirm:", self._t("confirm"), style))
            actions.append(Target("die:add", self._t("add_die"), "quiet"))
            actions.append(Target("die:remove", self._t("remove_die"), "quiet"))
        elif request is not None:  # nothing read (no camera, or not settled): enter by hand
            actions.append(Target("die:add", self._t("add_die"), "quiet"))
        if request is not None and self.can_throw:
            style = "quiet" if self.proposal is not None else "primary"
            actions.insert(0, Target("throw:", self._t("throw"), style))
        if self.hand():
            style = "primary" if self.rethrow else "quiet"
            actions.append(Target("reroll:", self._t("reroll"), style))
        actions.append(Target("undo:", self._t("undo"), "danger"))
        if state.is_over:
            actions.append(
                Target(f"game:{self.session.record.game}", self._t("new_game"), "primary")
            )
        return actions

    def _add_moves(self, screen: Screen, state: engines.State) -> None:
        request = self.dice_request()
        if self.picking is not None and request is not None:
            faces = POKER_FACES if request.kind == "poker" else D6_FACES
            screen.options = [Target(f"face:{f}", f, "primary") for f in faces]
            return
        hand = self.hand()
        if hand:
            screen.options = [
                Target(f"hand:{i}", face, "selected" if i in self.rethrow else "normal")
                for i, face in enumerate(hand)
            ]
        if self.bot_choosing():  # the bot's move is shown on the board, not offered to touch
            screen.preview = self.table.preview(state, self.guess) if self.guess else {}
            return
        screen.moves = self.move_targets(state)  # the renderer pages them as they fit
        screen.page = (self.page, self.per_page)
        screen.pieces = self.telling_pieces(state)
        screen.selected = sorted(self.selected)
        screen.preview = self._preview(state)
        if self.guess:  # the square's card, shown on the board, played by one more touch
            label = self.table.choice_label(state, self.guess, self.language)
            if len(label) > SHORT_GUESS:  # a play in many words: the board shows it instead
                label = self._t("confirm")
            screen.actions.insert(0, Target(f"move:{self.guess}", label, "primary"))
            screen.preview = self.table.preview(state, self.guess)
        if self._uses_keyboard(state):
            screen.keys = self.table.keys(state, self.language) + self._entry_controls()
            screen.entry = self.table.entry_words(state, self.entry, self.language)
            screen.board_targets = True

    def _preview(self, state: engines.State) -> dict[str, Any]:
        """The outcome shown on the board: the one move left, else where the pieces may go."""
        if not self.selected:
            return {}
        left = self.narrowed(state)
        return left[0].preview if len(left) == 1 else {"options": [c.preview for c in left]}

    # ----- the moves ------------------------------------------------------------------------

    def choices(self, state: engines.State) -> list[Choice]:
        """The table's moves for this position, kept until the position or language changes."""
        key = (id(state), len(state.history), self.language)
        if self._choices is None or self._choices[0] != key:
            self._choices = (key, self.table.choices(state, self.language))
        return self._choices[1]

    def telling_pieces(self, state: engines.State) -> list[str]:
        """The pieces worth touching: those some moves left involve and others do not (a pawn
        every move moves tells nothing), and those touched already (to let them go)."""
        left = self.narrowed(state)
        every = frozenset.intersection(*(c.pieces for c in left)) if left else frozenset()
        telling = {p for c in left for p in c.pieces} - every
        return sorted(telling | self.selected)

    def narrowed(self, state: engines.State) -> list[Choice]:
        """The moves that involve every piece touched, those moving only them first."""
        left = [c for c in self.choices(state) if self.selected <= c.pieces]
        if self.selected:
            left.sort(key=lambda c: len(c.pieces - self.selected))
        return left

    def move_targets(self, state: engines.State) -> list[Target]:
        if state.is_over or self.dice_request() is not None:
            return []
        return [Target(f"move:{c.notation}", c.label) for c in self.narrowed(state)]
