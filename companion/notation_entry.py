"""The keyboard at the table: a play typed key by key in the game's notation, then played (the
keys of a player's name on the set-up screen are handed to that screen).

A mixin of the controller: the text typed lives on the controller, which plays it through `play`.
"""

from __future__ import annotations

from typing import Any

import engines
from companion.setup_screens import SetupDraft


class NotationEntry:
    """Typed plays: the keyboard's keys and its entry controls (mixed into the Controller)."""

    language: str
    session: Any
    screen_name: str
    draft: SetupDraft
    entry: str
    guess: str

    def _uses_keyboard(self, state: engines.State) -> bool:
        record = self.session.record if self.session else None
        return record is not None and self.table.keyboard(state, record.mode)

    def typing(self) -> bool:
        """A keyboard is open: names on the set-up screen, a typed play on the table."""
        if self.screen_name == "setup":
            return self.draft.editing is not None
        state = self.state
        return self.screen_name == "table" and state is not None and self._uses_keyboard(state)

    def _typing_ok(self) -> bool:
        if self.typing():
            return True
        self._not_here("key")
        return False

    def _tap_key(self, key: str) -> None:
        if not self._typing_ok():
            return
        if self.screen_name == "setup":
            self._type_name(key)
            return
        allowed = {t.id.removeprefix("key:") for t in self.table.keys(self.state, self.language)}
        if key not in allowed:
            self._not_here(f"key:{key}")
            return
        self.entry, hint = self.table.type_key(self.state, self.entry, key)
        self.guess = ""
        if hint:
            self._say(self._t(hint))

    def _type_play_key(self, char: str) -> None:
        """A physical key into a typed play: the on-screen key it names, if there is one."""
        keys = {t.id.removeprefix("key:") for t in self.table.keys(self.state, self.language)}
        wanted = {"0": "T", "1": "A"}.get(char, char.upper()) if "T" in keys else char.upper()
        if wanted in keys:
            self._tap_key(wanted)

    def _tap_entry(self, command: str) -> None:
        if not self._typing_ok():
            return
        if command == "clear":
            self.entry = ""
        elif command == "back":
            self.entry = self.entry[:-1].rstrip(" +") if self.entry else ""
        elif command == "ok":
            self._entry_ok()
        elif command == "dead" and self.entry:
            self.play(f"dead {self.entry}")
        else:
            self._not_here(f"entry:{command}")

    def _entry_ok(self) -> None:
        if self.draft.editing is not None and self.screen_name == "setup":
            self._name_ok()
            return
        notation = self.table.entry_notation(self.state, self.entry)
        if notation:
            self.play(notation)

    def _tap_play(self, word: str) -> None:
        """Whole-word plays with their own key (pass, pétard)."""
        self.play(word)
