"""The pages' words in French and English: gettext catalogues (.po) read with Babel.

The .po files under pages/locale are the source; they are compiled in memory when first used,
so there is no build step and no binary file in the repository.
"""

from __future__ import annotations

import io
from functools import cache
from importlib import resources

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from engines.registry import available_games, game_class

LANGUAGES = ("fr", "en")
DEFAULT = "fr"
DOMAIN = "pages"


@cache
def game_titles() -> dict[str, str]:
    """Each game's name as its engine writes it (Stratégix, Le Roudalon, ...)."""
    return {name: game_class(name).title for name in available_games()}


@cache
def translations(language: str) -> Translations:
    language = language if language in LANGUAGES else DEFAULT
    source = resources.files("pages.locale") / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    with source.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def pick_language(asked: str | None, cookie: str | None, accept: str | None) -> str:
    """?lang= first, then the cookie, then the browser's Accept-Language, else French."""
    for candidate in (asked, cookie):
        if candidate in LANGUAGES:
            return candidate
    for part in (accept or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return DEFAULT


def game_title(name: str) -> str:
    return game_titles().get(name, name)
