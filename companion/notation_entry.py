"""The keyboard at the table: a play typed key by key in the game's notation, then played."""

from __future__ import annotations

import engines
from companion.name_keyboard import type_keys
from companion.table_context import TableContext


class NotationEntry:
    """Typed plays: the keyboard's keys and its entry controls, a part of the table screen."""

    def __init__(self, table: TableContext) -> None:
        self.table = table
        self.view = table.view

    def open_on(self, state: engines.State) -> bool:
        """The game's plays are typed at this position."""
        session = self.view.session
        return session is not None and session.table.keyboard(state, session.record.mode)

    def is_open(self) -> bool:
        session = self.view.session
        return session is not None and self.open_on(session.state)

    def _allowed(self) -> set[str]:
        session = self.view.session
        if session is None:
            return set()
        keys = session.table.keys(session.state, self.view.language)
        spent = session.table.spent_keys(self.table.turn.entry)
        return {t.id.removeprefix("key:") for t in keys} - spent

    def key(self, key: str) -> None:
        session = self.view.session
        if session is None or not self.is_open():
            self.view.not_here("key")
            return
        if key in session.table.spent_keys(self.table.turn.entry):
            self.view.say(self.view.t("key_spent", pawn=key), True)
            return
        if key not in self._allowed():
            self.view.not_here(f"key:{key}")
            return
        turn = self.table.turn
        turn.entry, hint = session.table.type_key(session.state, turn.entry, key)
        turn.guess = ""
        self.view.say(self.view.t(hint) if hint else "")  # no word left from the last key

    def entry(self, command: str) -> None:
        session, turn = self.view.session, self.table.turn
        if session is None or not self.is_open():
            self.view.not_here("key")
        elif command == "clear":
            turn.entry = ""
            self.view.say("")
        elif command == "back":
            turn.entry = turn.entry[:-1].rstrip(" +")
            self.view.say("")
        elif command == "ok":
            notation = session.table.entry_notation(session.state, turn.entry)
            if notation:
                self.table.play(notation)
            else:
                missing = session.table.entry_missing(session.state, turn.entry, self.view.language)
                self.view.say(missing, bool(missing))
        elif command == "dead" and turn.entry:
            self.table.play(f"dead {turn.entry}")
        else:
            self.view.not_here(f"entry:{command}")

    def word(self, word: str) -> None:
        """Whole-word plays with their own key (pass, pétard)."""
        self.table.play(word)

    def type_text(self, typed: str) -> None:
        """Keys of a physical keyboard: the on-screen key each names, if there is one."""
        if self.is_open():
            type_keys(typed, self.entry, self._type_char)

    def _type_char(self, char: str) -> None:
        keys = self._allowed()
        wanted = {"0": "T", "1": "A"}.get(char, char.upper()) if "T" in keys else char.upper()
        if wanted in keys:
            self.key(wanted)
