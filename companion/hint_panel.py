"""The "Conseil / Hint" target on the table screen: the advisor's best three choices in words,
with a number a player understands and the reason; touching one selects it for confirmation.

Whether a game shows the target is a setting of that game (on the set-up screen, kept in the
store: on unless switched off). The search runs on the table's `AdviceWorker`, never on the loop
that draws the screen: the panel says it is thinking until the choices are there, and `arrived`
tells the kiosk to draw again when they come.
"""

from __future__ import annotations

import engines
from advisor import DEFAULT_BUDGET_MS, Choice
from companion.advice import (
    HINT_CHOICES,
    AdviceWorker,
    advise_copy,
    choice_words,
    measure_words,
    tied_choices,
)
from companion.session import CARD_GAMES, PositionKey
from companion.table_context import TableContext
from display.model import Screen, Target


class HintPanel:
    """The hint's target, panel and choices: a part of the table screen."""

    def __init__(self, table: TableContext, advice: AdviceWorker) -> None:
        self.table = table
        self.view = table.view
        self.advice = advice
        self.seen: PositionKey | None = None  # the position whose choices were drawn

    def offered(self, state: engines.State) -> bool:
        """A person is to choose a move the advisor can weigh from what the companion knows."""
        session = self.view.session
        if session is None or state.is_over or not isinstance(state.actor, int):
            return False
        if self.table.dice_request() is not None or session.bot_level(state.actor):
            return False
        if session.record.game in CARD_GAMES and session.record.mode != "full":
            return False  # the cards in the player's hand are not entered
        if session.table.keyboard(state, session.record.mode):
            return False  # a play typed from the table (an objective card): nothing to choose
        return session.hint_on

    def tap(self, arg: str) -> None:
        session, turn = self.view.session, self.table.turn
        if session is None or not self.offered(session.state):
            self.view.say(self.view.t("hint_none"), True)
            return
        if arg == "":
            turn.hint_open, turn.page = not turn.hint_open, 0  # each list from its first page
            if turn.hint_open:
                self._ask(session.state)
            self.view.say("")
            return
        choices = self.choices()
        if not arg.isdigit() or choices is None or int(arg) >= len(choices):
            self.view.not_here(f"hint:{arg}")
            return
        self._pick(choices[int(arg)].notation)

    def _ask(self, state: engines.State) -> None:
        self.advice.ask(("hint", self._position_key()), advise_copy(state, DEFAULT_BUDGET_MS))

    def _position_key(self) -> PositionKey:
        session = self.view.session
        return (0, 0, 0) if session is None else session.position_key()

    def choices(self) -> list[Choice] | None:
        """The best choices for the position shown, or None while the advisor thinks."""
        if self.view.session is None:
            return None
        found = self.advice.result(("hint", self._position_key()))
        return None if found is None else found[:HINT_CHOICES]

    def _pick(self, notation: str) -> None:
        """A hint's choice selected, to confirm: dice marked for re-throw, or the move shown."""
        turn = self.table.turn
        turn.hint_open = False
        if notation.startswith("rethrow "):
            turn.rethrow = set(hand_indices(self.table.hand(), notation.split()[1:]))
            turn.selected = set()
            self.view.say(self.view.t("hint_rethrow"))
            return
        self.table.play(notation)  # as a move touched in the list: one touch plays it

    def add(self, screen: Screen, state: engines.State) -> None:
        """The hint's target among the actions; its panel in place of the moves when open."""
        turn, t = self.table.turn, self.view.t
        if not self.offered(state):
            turn.hint_open = False
            return
        label = t("hint_hide" if turn.hint_open else "hint")
        screen.actions.insert(0, Target("hint:", label, "selected" if turn.hint_open else "normal"))
        if not turn.hint_open:
            return
        name = state.players[state.actor]
        choices = self.choices()
        screen.pieces, screen.selected, screen.preview = [], [], {}
        screen.keys, screen.board_targets = [], False
        if choices is None:
            self._ask(state)  # asked again after a restart of the worker
            screen.moves = []
            screen.turn = t("hint_thinking", name=name)
            return
        tied = tied_choices(choices, self.view.language)
        screen.moves = [
            Target(f"hint:{i}", self.words(state, c, tied[i]), "primary" if i == 0 else "normal")
            for i, c in enumerate(choices)
        ]
        screen.page = (turn.page, HINT_CHOICES)  # the pager's touches turn the hint's pages too
        measure = measure_words(choices, self.view.language)
        title = t("hint_title", name=name)  # what the figures measure, in its place if any
        screen.turn = t("hint_title_measure", name=name, measure=measure) if measure else title

    def words(self, state: engines.State, choice: Choice, tied: bool = False) -> str:
        said = self.table.said_move(state, choice.notation)
        return choice_words(choice, said, self.view.language, tied)

    def arrived(self) -> bool:
        """Whether the open hint's choices have just come: the screen is to be drawn again."""
        if not self.table.turn.hint_open or self.view.session is None:
            return False
        key = self._position_key()
        if self.seen == key or self.choices() is None:
            return False
        self.seen = key
        return True


def hand_indices(hand: list[str], faces: list[str]) -> list[int]:
    """Which dice of the hand to touch to re-throw `faces` (one die per face listed)."""
    free = list(range(len(hand)))
    chosen = []
    for face in faces:
        index = next((i for i in free if hand[i] == face), None)
        if index is not None:
            free.remove(index)
            chosen.append(index)
    return sorted(chosen)
