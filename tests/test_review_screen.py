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
from hypothesis import given
from hypothesis import strategies as st

from companion.controller import Controller, Tap
from companion.persistence.store import DB_NAME, Store
from companion.review_worker import chances
from display import palette
from display.i18n import text
from display.render import Renderer
from display.table_view import player_colour

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
    """The game over's buttons (Analyse and New game sit in the options row)."""
    screen = controller.screen()
    return {target.id: target.label for target in screen.actions + screen.options}


def test_the_review_is_computed_after_game_over_and_stored_with_the_game(controller):
    finish_game(controller)
    controller.tick()
    assert action_ids(controller)["review:"] == "Analyse…"
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
    assert all(player_colour(screen, seat) in drawn for seat in range(len(PLAYERS)))
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


def shown_review(controller: Controller, review: dict) -> None:
    """The review screen of the game open, with `review` as if the worker had computed it."""
    controller.review.status = lambda: "ready"
    controller.review.ready[controller.session.record.id] = review
    assert controller.go("to_review")


def decision(index: int, player: int, best: float, played: float, grade: str) -> dict:
    return {"index": index, "player": player, "played": "x", "best": "y", "chance_best": best,
            "chance_played": played, "grade": grade}  # fmt: skip


def chart_colours(surface: pygame.Surface, renderer: Renderer) -> set[tuple[int, int, int]]:
    x, y, w, h = renderer.layout.body
    chart = pygame.surfarray.array3d(surface)[x : x + w * 2 // 5, y : y + h - 80]
    return {tuple(p) for p in np.unique(chart.reshape(-1, 3), axis=0)}


def test_the_chart_draws_each_player_in_their_colour_on_the_board(tmp_path):
    """Issue 57 (seq-over-4): Bob's chips are green on the board, his line was orange."""
    from tests.club_support import random_game

    players = ["Ana", "Bob", "Cléo", "Dan"]
    state = random_game("sequence", players, seed=2)
    with Store(tmp_path) as store:
        game_id = store.start_game("sequence", players, {}, state.game.seed, "full")
        for action in state.history:
            store.append(game_id, action.notation)
        controller = Controller(store, "fr", seed_source=random.Random(0))
        decisions = [decision(i, i % 4, 0.6, 0.6, "best") for i in range(20, 28)]
        shown_review(controller, {"actions": 40, "decisions": decisions})
        renderer = Renderer((800, 480))
        screen = controller.screen()
        drawn = chart_colours(renderer.draw(screen), renderer)
        board_colours = {player_colour(screen, seat) for seat in range(4)}
        assert board_colours == {palette.BLUE, palette.GREEN}  # two teams
        assert board_colours <= drawn and palette.ORANGE not in drawn


def test_the_sides_chances_sum_to_one_at_every_point(controller):
    """Issue 57: at the start both players stood above 50 %."""
    controller.start_game("sequence", ["Ana", "Bob", "Cléo"], seed=1, mode="table")
    decisions = [decision(i, i % 3, 0.55 + i / 100, 0.5, "good") for i in range(9)]
    shown_review(controller, {"actions": 9, "decisions": decisions})
    series = [points for _, points in controller.screen().chart["series"]]
    for at in range(9):
        assert sum(points[at][1] for points in series) == pytest.approx(1.0)
        assert all(points[at][0] == at for points in series)


def test_moments_are_chance_lost_said_by_turn_and_in_words(controller):
    """Issue 57: "Action 35" and a good move (−1 %) listed among the moments that decided."""
    finish_game(controller)
    state = controller.state.game.new_state()
    anns = []
    for index, action in enumerate(controller.state.history):
        if state.actor == 0:
            anns.append(index)
        state.apply(action.notation)
    decisions = [decision(anns[0], 0, 0.5, 0.49, "good"), decision(anns[1], 0, 0.6, 0.4, "blunder")]
    shown_review(controller, {"actions": 9, "decisions": decisions})
    ann = dict(controller.screen().sections)
    lines = next(lines for head, lines in ann.items() if head.startswith("Ann"))
    assert len(lines) == 1 and "gaffe" in lines[0] and "bon coup" not in lines[0]
    assert "Action" not in lines[0] and lines[0].startswith("Tour 2 de Ann")


@pytest.mark.parametrize("game", ["sequence", "strategix"])
def test_a_game_with_physical_cards_says_what_its_review_could_judge(controller, game):
    """Issue 57 (seq-over-4): graded against cards the player never held."""
    controller.start_game(game, ["Ana", "Bob", "Cléo"], seed=1, mode="table")
    shown_review(controller, {"actions": 1, "decisions": []})
    heads = [head for head, _ in controller.screen().sections]
    assert heads[0].startswith("Partie jouée avec de vraies cartes")


@given(
    st.lists(st.integers(0, 2), min_size=2, max_size=4).filter(lambda t: len(set(t)) > 1),
    st.lists(st.tuples(st.integers(0, 3), st.floats(0, 1)), max_size=12),
)
def test_chances_of_the_sides_always_sum_to_one(team_of, decided):
    teams = sorted(set(team_of))
    team_of = [teams.index(team) for team in team_of]  # sides numbered from 0
    decisions = [decision(i, seat % len(team_of), chance, chance, "best")
                 for i, (seat, chance) in enumerate(decided)]  # fmt: skip
    series = chances({"decisions": decisions}, team_of)
    for at in range(len(decisions)):
        sides = {team_of[seat]: points[at][1] for seat, points in enumerate(series)}
        assert sum(sides.values()) == pytest.approx(1.0)
        assert all(0 <= share <= 1 for share in sides.values())


@pytest.mark.parametrize("size", SIZES)
def test_a_long_section_head_wraps_whole(controller, size):
    """Round 3 (s2-014): the physical-card caveat, a section head, ran off the screen at 720x1280
    ("… seule la case choisie po…"): heads wrap as the lines under them do."""
    finish_game(controller)
    reviewed(controller)
    controller.handle(Tap("review:"))
    screen = controller.screen()
    caveat = text("fr", "review.table_cards.sequence")
    screen.sections = [(caveat, []), *screen.sections]
    renderer = Renderer(size)
    renderer.draw(screen)
    assert renderer.problems == []
