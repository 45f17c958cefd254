"""Words on screen come from the gettext catalogues: counts agree with their nouns, each
language keeps its typography, every engine code and screen key is translated."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import engines
from display import catalogue
from display.i18n import LANGUAGES, PSEUDO, RULES, compile_po, game_title, languages, say, text

NBSP = "\u00a0"


def test_counts_agree_in_french_and_english():
    one = text("fr", "totals", game="Struggle", player="Ann", total=10, games=1, wins=1)
    assert one == f"Struggle — Ann{NBSP}: 10 (1 partie, 1 victoire)"
    many = text("fr", "totals", game="Struggle", player="Ann", total=10, games=3, wins=0)
    assert many == f"Struggle — Ann{NBSP}: 10 (3 parties, 0 victoire)"
    english = text("en", "player_stats", player="Ann", games=1, wins=0)
    assert english == "Ann: 1 game, 0 wins"
    assert text("fr", "roll_wait", n=1) == "Lancez 1 dé"
    assert text("en", "roll_wait", n=2) == "Roll 2 dice"


def test_french_has_a_non_breaking_space_before_double_punctuation_and_english_none():
    for message in catalogue.load("fr"):
        for string in message.string if isinstance(message.string, tuple) else [message.string]:
            assert not re.search(r" [:;?!»]|« ", string), f"fr {message.id!r}: {string!r}"
    for message in catalogue.load("en"):
        for string in message.string if isinstance(message.string, tuple) else [message.string]:
            assert not re.search(r"\s[:;]", string), f"en {message.id!r}: {string!r}"
    assert text("en", "board.hand", hand="—") == "Hand: —"
    assert text("fr", "board.hand", hand="—") == f"Main{NBSP}: —"


@pytest.mark.parametrize("language", languages(with_pseudo=True))
def test_every_engine_code_has_an_entry_and_every_entry_a_translation(language):
    assert list(catalogue.problems(language)) == []


def test_every_screen_key_the_code_asks_for_is_in_the_catalogues():
    for language in LANGUAGES:
        known = {m.id if isinstance(m.id, str) else m.id[0] for m in catalogue.load(language)}
        missing = sorted(catalogue.screen_keys() - known)
        assert not missing, f"{language}: keys without an entry: {missing}"


@pytest.mark.parametrize("language", languages(with_pseudo=True))
def test_the_shipped_mo_files_are_compiled_from_their_po(language):
    po = catalogue.po_path(language)
    assert po.with_suffix(".mo").read_bytes() == compile_po(po), (
        "run: python -m display.catalogue compile"
    )


def test_engine_refusals_are_said_in_each_language():
    state = engines.make_game("traverse", ["Ann", "Bob"]).new_state()
    with pytest.raises(engines.EngineError) as caught:
        state.apply("9+9")
    assert say("fr", caught.value).startswith(f"on attend les dés{NBSP}: roll <2 faces 1-6>")
    assert say("en", caught.value) == str(caught.value)
    assert say("qps", caught.value).startswith("⟦")


def test_a_new_language_is_one_catalogue_file():
    assert LANGUAGES == ("fr", "en") and PSEUDO in languages(with_pseudo=True)
    assert RULES["struggle"]["en"][0].startswith("5 pawns")
    assert game_title("strategix") == "Stratégix"


def test_the_pseudo_locale_is_accented_and_longer():
    english, pseudo = catalogue.load("en"), catalogue.load(PSEUDO)
    for message in english:
        if not message.id or isinstance(message.id, tuple):
            continue
        words = re.sub(r"\{[^{}]*\}|<[^<>]*>", "", message.string)
        if re.search("[a-z]", words):
            shown = pseudo[message.id].string
            assert shown.startswith("⟦") and len(shown) >= len(message.string) * 1.3


def test_importing_the_display_prints_no_pygame_banner():
    done = subprocess.run(
        [sys.executable, "-c", "import companion.controller, display.render"],
        capture_output=True, text=True, check=True, env={"PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert "pygame" not in done.stdout
