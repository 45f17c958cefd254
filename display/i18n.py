"""The words on screen, looked up in gettext message catalogues (display/locale/<lang>/...).

Every entry's id is a stable key: a screen key (`turn`, `roll_wait`), an engine message code
(`struggle.no_ace`, see engines.messages), `game_title.<game>`, `option_title.<option>` or
`rules.<game>`. Templates are `str.format` strings; `{n:PLURAL}` says the number through the
plural entry PLURAL, whose form the catalogue's Plural-Forms rule picks. A language is one
`<lang>/LC_MESSAGES/tabletop.po` file: its compiled `.mo` is used when present, otherwise the
`.po` is compiled in memory (see display.catalogue to build, update and compile them).
"""

from __future__ import annotations

import gettext
import io
import os
from functools import cache
from pathlib import Path
from typing import Any

from engines.messages import Lookup, Message, join, render, use_catalogue

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "tabletop"
DEFAULT = "fr"
PSEUDO = "qps"  # the pseudo-locale the tests render every screen in (accented, longer)
_MISSING = "\x00missing"


def languages(with_pseudo: bool = False) -> tuple[str, ...]:
    """The languages that have a catalogue, the default first."""
    found = sorted(
        path.parent.parent.name for path in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")
    )
    found = [lang for lang in found if with_pseudo or lang != PSEUDO]
    return tuple(sorted(found, key=lambda lang: lang != DEFAULT))


LANGUAGES = languages()


def offered() -> tuple[str, ...]:
    """The languages the settings screen offers: the pseudo-locale only for debugging
    (TABLETOP_PSEUDO_LOCALE=1), to see every screen in it on the kiosk itself."""
    return languages(with_pseudo=os.environ.get("TABLETOP_PSEUDO_LOCALE") == "1")


class _Missing(gettext.NullTranslations):
    """The last fallback: tells a missing entry from one translated by the same text."""

    def gettext(self, message: str) -> str:
        return _MISSING

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return _MISSING


def load_translations(language: str) -> gettext.NullTranslations:
    """The language's catalogue alone (no fallback), a new object for each caller: the kiosk and
    the web pages (pages.i18n) read the same catalogue and fall back differently."""
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    mo, po = folder / f"{DOMAIN}.mo", folder / f"{DOMAIN}.po"
    if mo.is_file():
        with mo.open("rb") as data:
            return gettext.GNUTranslations(data)
    if po.is_file():
        return gettext.GNUTranslations(io.BytesIO(compile_po(po)))
    return gettext.NullTranslations()


@cache
def catalogue(language: str) -> gettext.NullTranslations:
    """The language's compiled catalogue, falling back to the default language's."""
    found = load_translations(language)
    found.add_fallback(catalogue(DEFAULT) if language != DEFAULT else _Missing())
    return found


def compile_po(po: Path) -> bytes:
    """A `.po` file compiled to `.mo` bytes with Babel."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as source:
        parsed = read_po(source)
    out = io.BytesIO()
    write_mo(out, parsed)
    return out.getvalue()


@cache
def lookup(language: str) -> Lookup:
    """(key, count) -> the template in `language`, or None when no catalogue has the key."""
    translations = catalogue(language)

    def find(key: str, count: int | None) -> str | None:
        if count is None:
            found = translations.gettext(key)
        else:
            found = translations.ngettext(key, key, count)
        return None if found == _MISSING else found

    return find


use_catalogue(lookup)  # Action.describe(language) for callers outside the display


def has_entry(language: str, key: str) -> bool:
    return lookup(language)(key, None) is not None or lookup(language)(key, 1) is not None


def text(language: str, key: str, **values: object) -> str:
    """The screen text `key` in `language`, its fields filled (a value may be a Message)."""
    return render(Message(key, values), lookup(language))


def names_list(language: str, names: list[str]) -> str:
    """Names as the language lists them: "Léa et Robot 2", "Ann, Bob and Cid"."""
    return join(list(names), lookup(language))


def say(language: str, message: Any) -> str:
    """An engine message (or an EngineError, which carries one) in `language`."""
    found = getattr(message, "message", message)
    return render(found, lookup(language)) if isinstance(found, Message) else str(message)


def decimal(value: float, language: str, digits: int = 1) -> str:
    """A number with the language's decimal point (`2,5` in French)."""
    return f"{value:.{digits}f}".replace(".", text(language, "decimal_point"))


def signed(points: int) -> str:
    """Points won or lost, signed as a score sheet writes them: +2, 0, −2 (a minus sign)."""
    return f"+{points}" if points > 0 else str(points).replace("-", "−")


def game_title(name: str, language: str = DEFAULT) -> str:
    found = lookup(language)(f"game_title.{name}", None)
    return found or name.capitalize()


def option_title(name: str, language: str) -> str:
    found = lookup(language)(f"option_title.{name}", None)
    return found or name.replace("_", " ").capitalize()


def option_help(name: str, language: str) -> str:
    """What a rule option does, in a sentence ("" for an option without one)."""
    return lookup(language)(f"option_help.{name}", None) or ""


class _Rules:
    """`RULES[game][language]`: a game's short rules, one line each, from the catalogue."""

    def __getitem__(self, game: str) -> _GameRules:
        return _GameRules(game)


class _GameRules:
    def __init__(self, game: str) -> None:
        self.game = game

    def __getitem__(self, language: str) -> list[str]:
        return text(language, f"rules.{self.game}").split("\n")


RULES = _Rules()


def face_letter(language: str, face: str) -> str:
    """A poker face's letter as the language's own rule book writes it (French: R, D, V for
    Roi, Dame, Valet); any other face or die value as it is."""
    letters = {
        "K": text(language, "face_letter.king"),
        "Q": text(language, "face_letter.queen"),
        "J": text(language, "face_letter.jack"),
    }
    return letters.get(face, face)


def face_letters(language: str, faces: list[str]) -> str:
    """Faces shown as a row of letters: "10 10 D D A"."""
    return " ".join(face_letter(language, face) for face in faces)
