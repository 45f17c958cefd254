"""Words on screen: counts agree with their nouns; pygame keeps quiet."""

from __future__ import annotations

import subprocess
import sys

from display.i18n import text


def test_counts_agree_in_french_and_english():
    one = text("fr", "totals", game="Struggle", player="Ann", total=10, games=1, wins=1)
    assert one == "Struggle — Ann : 10 (1 partie, 1 victoire)"
    many = text("fr", "totals", game="Struggle", player="Ann", total=10, games=3, wins=0)
    assert many == "Struggle — Ann : 10 (3 parties, 0 victoire)"
    english = text("en", "player_stats", player="Ann", games=1, wins=0)
    assert english == "Ann: 1 game, 0 wins"
    assert text("fr", "roll_wait", n=1) == "Lancez 1 dé"
    assert text("en", "roll_wait", n=2) == "Roll 2 dice"


def test_importing_the_display_prints_no_pygame_banner():
    done = subprocess.run(
        [sys.executable, "-c", "import companion.controller, display.render"],
        capture_output=True, text=True, check=True, env={"PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert "pygame" not in done.stdout
