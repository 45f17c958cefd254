"""No text of the catalogues a player reads names the code's identifiers (an option's key such as
`axis_length`, `stake_min`, `niveau_superieur`): a newcomer saw them in set-up help and refusals."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from display.i18n import LOCALE_DIR

IDENTIFIER = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")
FIELD = re.compile(r"\{[^}]*\}")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_catalogue_text_names_an_identifier(language):
    with open(LOCALE_DIR / language / "LC_MESSAGES" / "tabletop.po", "rb") as handle:
        catalogue = read_po(handle)
    found = {}
    for message in catalogue:
        if not message.id:
            continue
        strings = [message.string] if isinstance(message.string, str) else message.string
        words = IDENTIFIER.findall(FIELD.sub("", " ".join(strings)))
        if words:
            found[message.id] = words
    assert found == {}
