"""The pages' pieces without a server: ranks with ties, SVG charts, words in both languages."""

from __future__ import annotations

from pages import charts, i18n
from pages.model import Standing, ranked
from pages.render import render


def test_ties_share_a_rank_and_ratings_come_first():
    rows = ranked([
        Standing("Bob", "", games=3, wins=1, total=10),
        Standing("Ann", "", games=3, wins=2, total=5),
        Standing("Cy", "", games=3, wins=1, total=10),
        Standing("Dee", "", games=1, wins=0, total=0, rating=3.0),
    ])  # fmt: skip
    assert [(r.player, r.rank) for r in rows] == [("Dee", 1), ("Ann", 2), ("Bob", 3), ("Cy", 3)]


def test_charts_fit_their_legend_and_escape_their_words():
    series = {f"g{i}": [(0.0, 1.0), (1.0, 4.0)] for i in range(5)}
    svg = charts.line_chart(series, "Total <over> time", "one line a game", {"g0": "<b>"})
    assert 'viewBox="0 0 320 216"' in svg  # two legend rows for five games
    assert svg.count("<polyline") == 5 and "<b>" not in svg and "&lt;b&gt;" in svg
    assert 'aria-label="Total &lt;over&gt; time"' in svg
    assert charts.line_chart({}, "t", "d", {}) == "" and charts.bar_chart({}, "t", "d", {}) == ""
    bars = charts.bar_chart({"struggle": 3, "sequence": 0}, "Wins", "d", {})
    assert bars.count('class="bar"') == 2


def test_every_word_of_the_pages_has_its_french_in_the_kiosk_catalogue():
    from display import catalogue

    phrases = catalogue.page_phrases()
    assert len(phrases) > 80
    for language in ("fr", "en"):
        known = catalogue.load(language)
        for phrase in phrases:
            entry = known.get(phrase if isinstance(phrase, str) else phrase[0])
            assert entry is not None and all(_strings(entry.string)), f"{language}: {phrase!r}"
    french = i18n.translations("fr")
    html = render("fr", "error.html", site="Club", title="t", message="m", is_club=True)
    assert "Retour au classement" in html and 'lang="fr"' in html
    for message in ("Standings", "Live tables", "Rating over time", "Wins per game"):
        assert french.gettext(message) != message
    assert french.ngettext("%(num)d action", "%(num)d actions", 2) == "%(num)d actions"
    assert french.gettext("Standings: %(game)s") == "Classement\u00a0: %(game)s"
    assert i18n.game_title("strategix", "fr") == "Stratégix"
    assert i18n.pick_language(None, None, "en-GB,en;q=0.9") == "en"
    assert i18n.pick_language("de", None, "de-DE") == "fr"


def _strings(value) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else (value,)
