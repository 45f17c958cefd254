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
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.controller import Controller, Tap
from companion.persistence import dbfile
from companion.persistence.store import DB_NAME, Store
from companion.review_worker import chance_series, moments, review_data
from display import palette
from display.i18n import text
from display.render import Renderer
from display.table_view import player_colour
from review import review_game
from review.grades import MIN_GRADED

SIZES = [(800, 480), (720, 1280)]
PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


@pytest.fixture
def controller(tmp_path):
    with Store(tmp_path / "state") as store:
        opened = Controller(store, "fr", moves_per_page=5, seed_source=random.Random(0))
        yield opened
        opened.close()


def finish_game(controller: Controller, seed: int = 4, game: str = "roudalon") -> None:
    """A full game (Le Roudalon), each decision a random legal one (mistakes included)."""
    controller.start_game(game, PLAYERS, seed=seed, mode="full")
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
    assert db.execute("PRAGMA user_version").fetchone()[0] == dbfile.SCHEMA_VERSION


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
        chances = [[i, [0.2 + i / 100, 0.7 - i / 100] * 2] for i in range(0, 41, 4)]
        shown_review(controller, {"actions": 40, "decisions": decisions, "chances": chances})
        renderer = Renderer((800, 480))
        screen = controller.screen()
        drawn = chart_colours(renderer.draw(screen), renderer)
        board_colours = {player_colour(screen, seat) for seat in range(4)}
        assert board_colours == {palette.BLUE, palette.GREEN}  # two teams
        assert board_colours <= drawn and palette.ORANGE not in drawn


def test_a_finished_games_chart_has_every_seat_over_the_whole_game_to_its_result(controller):
    """Issue 60 (D2): the chart ended with the loser at 100 % and covered only the last turns."""
    finish_game(controller)
    reviewed(controller)
    controller.handle(Tap("review:"))
    chart = controller.screen().chart
    state = controller.state
    assert [name for name, _ in chart["series"]] == PLAYERS
    acting = player_positions(state)
    for seat, (_, points) in enumerate(chart["series"]):
        indexes = [index for index, _ in points]
        assert indexes[0] == 0 and indexes[-1] == chart["actions"] == len(state.history)
        assert set(acting) <= set(indexes)
        assert points[-1][1] == (1 / len(state.winners()) if seat in state.winners() else 0.0)


def player_positions(state) -> list[int]:
    """The action indexes where a player (not chance) acts, replayed from the start."""
    replay, found = state.game.new_state(), []
    for index, action in enumerate(state.history):
        if isinstance(replay.actor, int):
            found.append(index)
        replay.apply(action.notation)
    return found


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


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 10_000))
def test_any_finished_games_chart_spans_it_and_ends_at_its_result(game, seed):
    """One series per seat, from the first position to the last, chances from 0 to 1, ending
    at the result (a team's win counting for each of its seats)."""
    from tests.club_support import random_game

    players = ["Ann", "Bob", "Cid", "Dee"] if game in ("roudalon", "sequence") else GAMES[game]
    state = random_game(game, players, seed=seed)
    log = [action.notation for action in state.history]
    found = review_game(game, players, log, {}, state.game.seed, iterations=2)
    series = chance_series(review_data(game, players, len(log), found), len(players))
    assert len(series) == len(players)
    side = getattr(state.game, "team_of", lambda seat: seat)
    won = {side(seat) for seat in state.winners()}
    for seat, points in enumerate(series):
        indexes = [index for index, _ in points]
        assert indexes[0] == 0 and indexes[-1] == len(log) and indexes == sorted(set(indexes))
        assert all(0 <= chance <= 1 for _, chance in points)
        assert points[-1][1] == (1 / len(won) if side(seat) in won else 0.0)


def test_accuracy_from_too_few_graded_moves_is_not_a_figure(controller):
    """Issue 60 (D2): "accuracy 0 %" from one graded decision."""
    finish_game(controller)
    shown_review(controller, {"actions": 9, "decisions": [], "graded": [1, 0, 6, 6],
                              "accuracy": [None, None, 0.5, 1.0]})  # fmt: skip
    heads = [head for head, _ in controller.screen().sections]
    assert heads[:2] == [text("fr", "review.too_few", name=name) for name in ("Ann", "Bob")]
    assert heads[2] == text("fr", "review.accuracy", name="Cid", percent=50)
    assert "trop peu de coups notés" in heads[0]
    review = review_game("roudalon", PLAYERS, [a.notation for a in controller.state.history],
                         {}, controller.state.game.seed)  # fmt: skip
    for seat in range(len(PLAYERS)):
        assert (review.accuracy(seat) is None) == (len(review.graded(seat)) < MIN_GRADED)


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


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["fr", "en"])
def test_each_moment_shows_its_position_with_the_move_made_and_the_better_one(
    tmp_path, size, language
):
    """Issue 60: the review showed no board for its moments. Each moment, stepped to with its
    buttons, draws its position twice (the game's own board, small): the square of the card
    played marked on one, the better square on the other."""
    from tests.club_support import random_game

    state = random_game("sequence", ["Ann", "Bob"], seed=3)
    log = [action.notation for action in state.history]
    with Store(tmp_path) as store:
        game_id = store.start_game("sequence", ["Ann", "Bob"], {}, state.game.seed, "full")
        for notation in log:
            store.append(game_id, notation)
        controller = Controller(store, language, seed_source=random.Random(0))
        controller.language = language
        found = review_game("sequence", ["Ann", "Bob"], log, {}, state.game.seed)
        shown_review(controller, review_data("sequence", ["Ann", "Bob"], len(log), found))
        renderer = Renderer(size)
        controller.use_layout(renderer.layout)
        count = len(moments(controller.review.ready[game_id], 0)) + len(
            moments(controller.review.ready[game_id], 1))  # fmt: skip
        assert count >= 2
        for number in range(count):
            screen = controller.screen()
            moment = screen.chart["moment"]
            assert moment["head"].startswith(f"{number + 1}/{count} ")
            (played_label, played), (better_label, better) = moment["boards"]
            said = {"fr": ("Joué", "Mieux"), "en": ("Played", "Better")}[language]
            assert (played_label, better_label) == said
            assert played.board["cards"] and better.board["cards"]  # the position's board
            assert played.preview["squares"] and better.preview["squares"]
            assert played.preview != better.preview  # the move made, the better one
            renderer.draw(screen)
            assert renderer.problems == []
            yellow = marked_squares(renderer.surface, renderer.layout)
            played.preview, better.preview = {}, {}
            renderer.draw(screen)
            assert yellow > marked_squares(renderer.surface, renderer.layout)  # marks drawn
            steps = {t.id: t.style for t in screen.actions if t.id.startswith("moment:")}
            assert steps[f"moment:{number + 1}"] == ("normal" if number < count - 1 else "disabled")
            assert steps[f"moment:{number - 1}"] == ("normal" if number else "disabled")
            if number < count - 1:
                controller.handle(Tap(f"moment:{number + 1}"))


def marked_squares(surface: pygame.Surface, layout) -> int:
    """Pixels of the yellow mark in the left part of the screen (where the boards are)."""
    x, y, w, h = layout.body
    part = pygame.surfarray.array3d(surface)[x : x + w * 2 // 5 if not layout.portrait else w]
    return int(np.all(np.abs(part.astype(int) - palette.YELLOW) < 40, axis=-1).sum())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_games_moments_draw_their_board_at_both_sizes(tmp_path, game):
    """Each game's own board is drawn for its moments, every word fitting, in both sizes."""
    from tests.club_support import random_game

    players = GAMES[game]
    state = random_game(game, players, seed=5)
    log = [action.notation for action in state.history]
    with Store(tmp_path) as store:
        game_id = store.start_game(game, players, {}, state.game.seed, "full")
        for notation in log:
            store.append(game_id, notation)
        controller = Controller(store, "en", seed_source=random.Random(0))
        found = review_game(game, players, log, {}, state.game.seed, iterations=2)
        shown_review(controller, review_data(game, players, len(log), found))
        for size in SIZES:
            renderer = Renderer(size)
            controller.use_layout(renderer.layout)
            screen = controller.screen()
            assert screen.chart["moment"]["boards"][0][1].game == game
            renderer.draw(screen)
            assert renderer.problems == []


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_chart_of_chances_seen_through_hidden_cards_says_whose_view_each_line_is(
    controller, size, language
):
    """G13: Struggle's three seats each read about 45 % at the start (135 % in all): each line is
    the chance as that player saw it, their objective card known and the others' not."""
    controller.language = language
    finish_game(controller, game="struggle")
    reviewed(controller)
    controller.handle(Tap("review:"))
    screen = controller.screen()
    assert screen.chart["title"] == text(language, "review.chances_seen")
    renderer = Renderer(size)
    renderer.draw(screen)
    assert renderer.problems == []
    controller.handle(Tap("back:"))
    finish_game(controller, game="roudalon")  # nothing hidden: the chances add up to 100 %
    reviewed(controller)
    controller.handle(Tap("review:"))
    assert controller.screen().chart["title"] == text(language, "review.chances")
