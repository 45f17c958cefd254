"""The on-screen keyboard a player's name is typed on: letters and space, or (a key switches)
accented letters, digits, hyphen and apostrophe."""

from __future__ import annotations

from collections.abc import Callable

from companion.screen_base import KioskView
from display.model import Target

LETTERS = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + (" ",)
MORE = tuple("ÉÈÊËÀÂÄÇÎÏÔÖÙÛÜÑ") + tuple("0123456789") + ("-", "'")
NAME_KEYS = LETTERS + MORE
MAX_NAME = 12


class NameKeyboard:
    """The name being typed and the page of keys shown."""

    def __init__(self, view: KioskView) -> None:
        self.view = view
        self.entry = ""
        self.layer = ""  # "more": accents, digits and signs

    def open(self) -> None:
        """A name to type from the start, on the letters."""
        self.entry, self.layer = "", ""

    def name(self) -> str:
        """The name typed, as it is saved (and shown while typing): "CHLOÉ" is "Chloé"."""
        return self.entry.strip().title()

    def keys(self) -> list[Target]:
        more = self.layer == "more"
        shown = MORE if more else LETTERS
        keys = [Target(f"key:{k}", self.view.t("space") if k == " " else k) for k in shown]
        keys.append(Target("keys:letters" if more else "keys:more",
                           "ABC" if more else "ÉÇ1"))  # fmt: skip
        return keys + entry_controls(self.view)

    def switch(self, layer: str) -> None:
        self.layer = "more" if layer == "more" else ""

    def type(self, key: str) -> None:
        if key.upper() in NAME_KEYS and len(self.entry) < MAX_NAME:
            self.entry += key

    def edit(self, command: str) -> bool:
        """Back or clear; False for a command the keyboard does not have."""
        if command == "clear":
            self.entry = ""
        elif command == "back":
            self.entry = self.entry[:-1].rstrip(" +")
        else:
            return False
        return True


def type_keys(typed: str, edit: Callable[[str], None], key: Callable[[str], None]) -> None:
    """A physical keyboard's characters: Backspace and Enter edit, the others are keys."""
    for char in typed:
        if char == "\b":
            edit("back")
        elif char in "\r\n":
            edit("ok")
        else:
            key(char)


def entry_controls(view: KioskView) -> list[Target]:
    """The keys under any keyboard: back, clear, OK."""
    return [
        Target("entry:back", view.t("back")),
        Target("entry:clear", view.t("clear")),
        Target("entry:ok", view.t("ok"), "primary"),
    ]
