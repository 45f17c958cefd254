"""The "Conseil / Hint" target on the table screen: the advisor's best three choices in words,
with a number a player understands and the reason; touching one selects it for confirmation.

A mixin of the controller. Whether a game shows the target is a setting of that game (on the
set-up screen, kept in the store: on unless switched off). The search runs on the controller's
`AdviceWorker`, never on the loop that draws the screen: the panel says it is thinking until the
choices are there, and `tick` tells the kiosk to draw again when they arrive.
"""

from __future__ import annotations

from typing import Any

import engines
from advisor import DEFAULT_BUDGET_MS, Choice
from companion.advice import HINT_CHOICES, AdviceWorker, advise_copy, choice_words, move_words
from display.model import Screen, Target

CARD_GAMES = ("strategix", "sequence")  # at a table the companion does not know the hands


class HintPanel:
    """The hint's setting, target, panel and choices (mixed into the Controller)."""

    store: Any
    language: str
    session: Any
    screen_name: str
    advice: AdviceWorker
    hint_open: bool
    hint_seen: Any
    hint_on: bool
    guess: str
    rethrow: set[int]

    # ----- the setting (set-up screen) ------------------------------------------------------

    def hint_enabled(self, game: str) -> bool:
        return self.store.setting(f"hint.{game}", "on") == "on"

    def read_hint_setting(self) -> None:
        """The setting of the game shown, read when it starts or is loaded (drawing a screen
        never reads the store)."""
        self.hint_on = self.session is not None and self.hint_enabled(self.session.record.game)

    def _tap_hintset(self, _: str) -> None:
        """Switch the hint on or off for the game being set up (kept for its next games)."""
        if not self._in_setup():
            return
        game = self.draft.game
        self.store.set_setting(f"hint.{game}", "off" if self.hint_enabled(game) else "on")

    def _hint_option(self, game: str) -> Target:
        value = self._t("yes" if self.hint_enabled(game) else "no")
        return Target("hintset:", self._t("field", name=self._t("hint"), value=value))

    # ----- the target and the panel ---------------------------------------------------------

    def hint_offered(self, state: engines.State) -> bool:
        """A person is to choose a move the advisor can weigh from what the companion knows."""
        session = self.session
        if session is None or state.is_over or not isinstance(state.actor, int):
            return False
        if self.dice_request() is not None or self.bot_level(state.actor):
            return False
        if session.record.game in CARD_GAMES and session.record.mode != "full":
            return False  # the cards in the player's hand are not entered
        return self.hint_on

    def _tap_hint(self, arg: str) -> None:
        state = self.state
        if state is None or not self.hint_offered(state):
            self._say(self._t("hint_none"), True)
            return
        if arg == "":
            self.hint_open = not self.hint_open
            if self.hint_open:
                self._ask_hint(state)
            self._say("")
            return
        choices = self.hint_choices()
        if not arg.isdigit() or choices is None or int(arg) >= len(choices):
            self._say(self._t("not_here", what=f"hint:{arg}"), True)
            return
        self._pick(state, choices[int(arg)].notation)

    def _ask_hint(self, state: engines.State) -> None:
        self.advice.ask(("hint", self._position_key()), advise_copy(state, DEFAULT_BUDGET_MS))

    def _position_key(self) -> tuple[int, int]:
        return (self.session.record.id, len(self.session.state.history))

    def hint_choices(self) -> list[Choice] | None:
        """The best choices for the position shown, or None while the advisor thinks."""
        if self.session is None:
            return None
        found = self.advice.result(("hint", self._position_key()))
        return None if found is None else found[:HINT_CHOICES]

    def _pick(self, state: engines.State, notation: str) -> None:
        """A hint's choice selected, to confirm: dice marked for re-throw, or the move shown."""
        self.hint_open = False
        if notation.startswith("rethrow "):
            self.rethrow = set(hand_indices(self.hand(), notation.split()[1:]))
            self.selected = set()
            self._say(self._t("hint_rethrow"))
            return
        self.guess = notation
        self._say(self._t("hint_picked"))

    def _add_hint(self, screen: Screen, state: engines.State) -> None:
        """The hint's target among the actions; its panel in place of the moves when open."""
        if not self.hint_offered(state):
            self.hint_open = False
            return
        label = self._t("hint_hide" if self.hint_open else "hint")
        screen.actions.insert(0, Target("hint:", label, "selected" if self.hint_open else "normal"))
        if not self.hint_open:
            return
        name = state.players[state.actor]
        choices = self.hint_choices()
        screen.pieces, screen.selected, screen.preview = [], [], {}
        screen.keys, screen.board_targets = [], False
        if choices is None:
            self._ask_hint(state)  # asked again after a restart of the worker
            screen.moves = []
            screen.turn = self._t("hint_thinking", name=name)
            return
        screen.moves = [
            Target(f"hint:{i}", self.hint_words(state, choice), "primary" if i == 0 else "normal")
            for i, choice in enumerate(choices)
        ]
        screen.page = (0, HINT_CHOICES)
        screen.turn = self._t("hint_title", name=name)

    def hint_words(self, state: engines.State, choice: Choice) -> str:
        return choice_words(choice, self.said_move(state, choice.notation), self.language)

    def said_move(self, state: engines.State, notation: str) -> str:
        """A move in words: from its notation, else the words of its button on the table."""
        if notation.startswith("rethrow "):
            fallback = " ".join(self.hand())
        else:
            labels = {c.notation: c.label for c in self.choices(state)}
            fallback = labels.get(notation) or self.table.choice_label(
                state, notation, self.language
            )
        seat = state.actor if isinstance(state.actor, int) else 0
        return move_words(state.game.name, notation, fallback, self.language, seat)

    def hint_arrived(self) -> bool:
        """Whether the open hint's choices have just come: the screen is to be drawn again."""
        if not self.hint_open or self.session is None:
            return False
        key = self._position_key()
        if self.hint_seen == key or self.hint_choices() is None:
            return False
        self.hint_seen = key
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
