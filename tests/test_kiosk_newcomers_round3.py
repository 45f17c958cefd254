"""What a newcomer with only the README found (issue 57, round 3): each problem held by a test."""

from __future__ import annotations

import random

import pytest

from companion.controller import Controller, Tap
from companion.persistence.store import Store
from display.i18n import text


@pytest.fixture
def controller(tmp_path):
    with Store(tmp_path / "state") as store:
        yield Controller(store, "fr", moves_per_page=6, seed_source=random.Random(0))


# ----- 13: who leads Stratégix, asked only when there is a choice, in neutral words -----------


def test_one_person_and_a_robot_are_not_asked_who_is_youngest(controller):
    """13: "Qui est le plus jeune ?" offered one name: the only person leads, said so."""
    controller.start_game("strategix", ["Léa", "Robot 2"], seed=1, mode="full",
                          bots={1: "simple"})  # fmt: skip
    assert not controller.state.is_chance
    assert controller.state.view(0)["hands"][0]
    assert "Léa commence" in controller.message and "seule personne" in controller.message
    assert text("fr", "who_youngest") not in controller.screen().turn


def test_two_people_and_a_robot_are_still_asked(controller):
    controller.start_game("strategix", ["Léa", "Robot 2", "Cid"], seed=1, mode="full",
                          bots={1: "simple"})  # fmt: skip
    assert controller.screen().turn == text("fr", "who_youngest")
    controller.handle(Tap("move:first 0"))
    assert controller.state.actor == 0


@pytest.mark.parametrize("key", ["who_youngest", "strategix.said.first", "only_person_starts",
                                 "strategix.youngest", "strategix.expect.first"])  # fmt: skip
def test_who_leads_is_said_without_a_gender(key):
    """13: "Léa est le plus jeune et commence" assumed a man (and "la plus jeune personne" a
    woman's grammar): no gendered adjective or article about the player."""
    said = text("fr", key, name="Léa", text="x", last=2)
    for gendered in ("le plus jeune", "la plus jeune", "du plus jeune", "plus jeune joueur"):
        assert gendered not in said, said


# ----- 14: several winners, said in the plural --------------------------------------------------


class _Over:
    """A finished game's position, as much of it as the game over's line reads."""

    is_over = True

    def __init__(self, players: list[str], winners: list[int]) -> None:
        self.players, self._winners = players, winners

    def winners(self) -> list[int]:
        return self._winners


@pytest.mark.parametrize(("language", "tie", "alone"), [
    ("fr", "Léa et Robot 2 ont gagné", "Léa a gagné"),
    ("en", "Winners: Léa and Robot 2", "Winner: Léa"),
])  # fmt: skip
def test_a_tie_names_its_winners_in_the_plural(language, tie, alone):
    """14: a tie read "Gagnant : Léa, Robot 2"."""
    from companion.tables.base import Table

    table = Table()
    players = ["Léa", "Robot 2", "Cid"]
    assert table.waiting(_Over(players, [0, 1]), language).endswith(tie)  # type: ignore[arg-type]
    assert table.waiting(_Over(players, [0]), language).endswith(alone)  # type: ignore[arg-type]


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_text_naming_winners_has_plural_forms(language):
    """14's class: a text that lists names as who won or who plays agrees with their number."""
    from display.i18n import lookup

    find = lookup(language)
    template = find("winner", None) or ""
    plural = template.split(":")[-1].strip("{}")
    assert template.startswith("{count:") and find(plural, 1) != find(plural, 2)
