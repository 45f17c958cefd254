"""The table's review screen: after game over the review is computed in the background and
stored with the game, the table's button says "computing…" until then, and the screen draws
each player's chance and the moments that decided the game, at both panel sizes, in French and
English."""

from __future__ import annotations

import random
import sqlite3

import numpy as np
import pygame
import pytest

from companion.controller import Controller, Tap
from companion.persistence.store import DB_NAME, Store
from display.i18n import text
from display.render import Renderer
from display.review_view import SEAT_COLOURS

SIZES = [(800, 480), (720, 1280)]
PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


@pytest.fixture
def controller(tmp_path):
    with Store(tmp_path / "state") as store:
        opened = Controller(store, "fr", moves_per_page=5, seed_source=random.Random(0))
        yield opened
        opened.close()


def finish_game(controller: Controller, seed: int = 4) -> None:
    """A full game of Le Roudalon, each decision a random legal one (mistakes included)."""
    controller.start_game("roudalon", PLAYERS, seed=seed, mode="full")
    rng = random.Random(seed)
    while not controller.state.is_over:
        state = controller.state
        if controller.dice_request() is not None or not isinstance(state.actor, int):
            controller.play(state.sample_chance(rng).notation)
        else:
            controller.play(rng.choice(state.legal_actions()).notation)


def reviewed(controller: Controller) -> None:
    controller.tick()  # asks for the review
    controller.review.worker.wait()
    assert controller.tick()  # stores it
    assert controller.review.status() == "ready"


def action_ids(controller: Controller) -> dict[str, str]:
    return {target.id: target.label for target in controller.screen().actions}


def test_the_review_is_computed_after_game_over_and_stored_with_the_game(controller):
    finish_game(controller)
    controller.tick()
    assert action_ids(controller)["review:"] == "Calcul…"
    controller.handle(Tap("review:"))  # refused while it is computed, saying why
    assert controller.screen_name == "table" and "en cours de calcul" in controller.message
    reviewed(controller)
    assert action_ids(controller)["review:"] == "Analyse"
    stored = controller.store.review(controller.session.record.id)
    assert stored["players"] == PLAYERS and stored["decisions"]
    assert all(0 <= d["chance_played"] <= d["chance_best"] <= 1 for d in stored["decisions"])


def test_no_review_button_while_the_game_is_played(controller):
    controller.start_game("roudalon", PLAYERS, seed=1, mode="full")
    controller.tick()
    assert "review:" not in action_ids(controller)
    assert not controller.go("to_review")
    assert controller.review.worker.asked(controller.session.record.id) is False


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_review_screen_draws_the_chart_and_the_moments(controller, size, language):
    controller.language = language
    finish_game(controller)
    reviewed(controller)
    controller.handle(Tap("review:"))
    assert controller.screen_name == "review"
    screen = controller.screen()
    heads = [head for head, _ in screen.sections]
    assert all(any(head.startswith(name) for head in heads) for name in PLAYERS)
    said = " ".join(line for _, lines in screen.sections for line in lines)
    assert ("joué" in said) if language == "fr" else ("played" in said)
    assert any(len(points) > 1 for _, points in screen.chart["series"])
    renderer = Renderer(size)
    surface = renderer.draw(screen)
    assert renderer.problems == []  # every word fits
    pixels = pygame.surfarray.array3d(surface).reshape(-1, 3)
    drawn = {tuple(p) for p in np.unique(pixels, axis=0)}
    assert all(SEAT_COLOURS[seat] in drawn for seat in range(len(PLAYERS)))  # each line drawn
    assert any(target == "back:" for _, target in renderer.hits)
    controller.handle(Tap("back:"))
    assert controller.screen_name == "table"


def test_a_reopened_game_drops_its_review(controller):
    finish_game(controller)
    reviewed(controller)
    game_id = controller.session.record.id
    controller.handle(Tap("undo:"))
    controller.handle(Tap("undo:"))  # the second touch reopens the finished game
    assert controller.store.review(game_id) is None
    controller.tick()
    assert controller.review.status() == "none"


def test_an_older_store_gets_the_reviews_table(tmp_path):
    with Store(tmp_path) as store:
        store.db.execute("DROP TABLE reviews")
        store.db.execute("PRAGMA user_version = 2")
    with Store(tmp_path) as store:
        assert any("migrated" in note for note in store.notes)
        game_id = store.start_game("roudalon", PLAYERS)
        store.save_review(game_id, {"decisions": []})
        assert store.review(game_id) == {"decisions": []}
    db = sqlite3.connect(tmp_path / DB_NAME)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 3


GAMES = {
    "struggle": ["Ann", "Bob"],
    "traverse": ["Ann", "Bob"],
    "strategix": ["Ann", "Bob"],
    "sequence": ["Ann", "Bob"],
    "roudalon": PLAYERS,
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["fr", "en", "qps"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_review_button_fits_every_games_table(tmp_path, game, language, size):
    """Game over: New game and Review (computing, then ready) fit beside undo."""
    from tests.club_support import random_game

    state = random_game(game, GAMES[game], seed=1)
    with Store(tmp_path) as store:
        game_id = store.start_game(game, GAMES[game], {}, state.game.seed, "full")
        for action in state.history:
            store.append(game_id, action.notation)
        controller = Controller(store, language, seed_source=random.Random(0))
        controller.language = language
        renderer = Renderer(size)
        controller.use_layout(renderer.layout)
        for status in ("computing", "ready"):
            controller.review.status = lambda status=status: status
            controller.table.review_status = controller.review.status
            renderer.draw(controller.screen())
            labels = (text(language, "review"), text(language, "review.computing_button"))
            assert not [p for p in renderer.problems if any(label in p for label in labels)]
            assert any(target == "review:" for _, target in renderer.hits)
