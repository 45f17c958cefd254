"""The pages' words in French and English, from the kiosk's own catalogue (display/locale,
domain tabletop): one catalogue for the table's screen and the club's pages.

The templates ask for English phrases (`_("Live tables")`, gettext's usual way, extracted by
`python -m display.catalogue extract` with Babel's Jinja2 extractor); a phrase a catalogue lacks
shows as written in the template.
"""

from __future__ import annotations

import gettext
from functools import cache

from display import i18n as catalogue

LANGUAGES = catalogue.LANGUAGES
DEFAULT = catalogue.DEFAULT


@cache
def game_titles(language: str = DEFAULT) -> dict[str, str]:
    """Each game's name in `language` (Stratégix, Le Roudalon, ...)."""
    from engines.registry import available_games

    return {name: catalogue.game_title(name, language) for name in available_games()}


@cache
def translations(language: str) -> gettext.NullTranslations:
    found = catalogue.load_translations(language if language in LANGUAGES else DEFAULT)
    found.add_fallback(gettext.NullTranslations())  # a phrase not yet translated: as written
    return found


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


def game_title(name: str, language: str = DEFAULT) -> str:
    return game_titles(language).get(name, name)
