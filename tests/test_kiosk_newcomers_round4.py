"""What the third newcomers' round left (issue 57, E and F; the review of issue 60): each problem
held by a test."""

from __future__ import annotations

import random

import numpy as np
import pygame
import pytest

from companion.controller import Controller, Press, Settled, Tap
from companion.persistence.store import Store
from companion.review_worker import review_data
from display import palette
from display.layout import MIN_TEXT
from display.model import Screen
from display.render import Renderer
from display.review_view import LEGEND_H
from display.scores_view import GAME_COLOURS
from display.table_view import player_colour
from review import review_game
from tests.test_companion_controller import reading
from tests.test_kiosk_newcomers import drawn_words
from tests.test_review_screen import GAMES, SIZES, shown_review


def stored_random_game(
    store: Store, game: str, players: list[str], seed: int
) -> tuple[list[str], int]:
    """A random finished game of `game` in the store: its log and the engine's seed."""
    from tests.club_support import random_game

    state = random_game(game, players, seed=seed)
    log = [action.notation for action in state.history]
    game_id = store.start_game(game, players, {}, state.game.seed, "full")
    for notation in log:
        store.append(game_id, notation)
    return log, state.game.seed


def reviewed_random_game(
    store: Store, game: str, seed: int = 5, language: str = "en"
) -> Controller:
    """A random finished game of `game`, its review shown as if the worker had computed it."""
    players = GAMES[game]
    log, seed = stored_random_game(store, game, players, seed)
    controller = Controller(store, language, seed_source=random.Random(0))
    found = review_game(game, players, log, {}, seed, iterations=2)
    shown_review(controller, review_data(game, players, len(log), found))
    return controller


def text_sizes_once_scaled(monkeypatch, renderer: Renderer, screen) -> list[tuple[str, float]]:
    """Each word drawn on the review's small boards, with its size once the board is scaled
    down onto the panel."""
    drawn: list[tuple[str, int]] = []
    shown: list[tuple[str, float]] = []
    text_surface, smoothscale = Renderer.text_surface, pygame.transform.smoothscale

    def recorded_text(self, content, size, colour):
        if self is not renderer:
            drawn.append((content, size))
        return text_surface(self, content, size, colour)

    def recorded_scale(surface, size):
        shrink = min(size[0] / surface.get_width(), size[1] / surface.get_height())
        shown.extend((content, points * shrink) for content, points in drawn)
        drawn.clear()
        return smoothscale(surface, size)

    monkeypatch.setattr(Renderer, "text_surface", recorded_text)
    monkeypatch.setattr(pygame.transform, "smoothscale", recorded_scale)
    renderer.draw(screen)
    monkeypatch.undo()
    return shown


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_reviews_small_boards_carry_no_word_too_small_to_read(tmp_path, monkeypatch, game):
    """E8: the moment boards, drawn large then scaled down, carried labels of 5-8 px."""
    with Store(tmp_path) as store:
        controller = reviewed_random_game(store, game)
        for size in SIZES:
            renderer = Renderer(size)
            controller.use_layout(renderer.layout)
            screen = controller.screen()
            shown = text_sizes_once_scaled(monkeypatch, renderer, screen)
            assert not [(w, round(s, 1)) for w, s in shown if s < MIN_TEXT - 0.5], size


def drawn_sizes(monkeypatch, renderer: Renderer, screen) -> dict[str, int]:
    """Each piece of text the panel itself draws (not an off-screen board), with its size."""
    drawn: dict[str, int] = {}
    text_surface = Renderer.text_surface

    def recorded(self, content, size, colour):
        if self is renderer:
            drawn[content] = size
        return text_surface(self, content, size, colour)

    monkeypatch.setattr(Renderer, "text_surface", recorded)
    renderer.draw(screen)
    monkeypatch.undo()
    return drawn


@pytest.mark.parametrize("language", ["fr", "en"])
def test_roudalons_review_says_the_move_made_and_the_better_one_in_large_type(
    tmp_path, monkeypatch, language
):
    """E9: Le Roudalon's board shows no move, so its two small boards looked the same."""
    with Store(tmp_path) as store:
        controller = reviewed_random_game(store, "roudalon", language=language)
        for size in SIZES:
            renderer = Renderer(size)
            controller.use_layout(renderer.layout)
            screen = controller.screen()
            moment = screen.chart["moment"]
            played, better = moment["lines"]
            assert played != better and len(moment["boards"]) == 1  # the position, once
            drawn = drawn_sizes(monkeypatch, renderer, screen)
            assert renderer.problems == []
            for line in (played, better):
                parts = [words for words in drawn if words in line]
                assert parts and " ".join(parts) == line  # drawn whole, wrapped or not
                assert min(drawn[words] for words in parts) > MIN_TEXT


def test_boards_that_show_the_move_keep_two_boards(tmp_path):
    """Sequence marks the square played: the move made and the better one stay two boards."""
    with Store(tmp_path) as store:
        controller = reviewed_random_game(store, "sequence")
        moment = controller.screen().chart["moment"]
        assert len(moment["boards"]) == 2 and "lines" not in moment


PLAYERS = {"struggle": 2, "traverse": 2, "roudalon": 4}


def camera_boxes(monkeypatch, renderer: Renderer, screen) -> list[tuple]:
    """The boxes the camera picture is drawn into."""
    boxes: list[tuple] = []
    camera = Renderer._camera

    def recorded(self, shown, box):
        boxes.append(tuple(box))
        return camera(self, shown, box)

    monkeypatch.setattr(Renderer, "_camera", recorded)
    renderer.draw(screen)
    monkeypatch.undo()
    return boxes


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ["struggle", "traverse", "roudalon"])
def test_correcting_a_die_keeps_the_camera_picture_in_place(tmp_path, monkeypatch, game, size):
    """E11: touching a die to set its face shrank the picture under the finger (the face keys
    took the camera's lower part)."""
    with Store(tmp_path) as store:
        controller = Controller(store, "fr", moves_per_page=6, seed_source=random.Random(0))
        controller.start_game(game, ["Ann", "Bob", "Cid", "Dee"][: PLAYERS[game]], seed=2)
        if game == "struggle":
            controller.play("first 0")
        request = controller.dice_request()
        face = "K" if request.kind == "poker" else 3
        frame = np.zeros((480, 640, 3), np.uint8)
        controller.handle(Settled(reading(*[face] * request.count), frame))
        renderer = Renderer(size)
        controller.use_layout(renderer.layout)
        before = camera_boxes(monkeypatch, renderer, controller.screen())
        controller.handle(Tap("die:0"))
        screen = controller.screen()
        assert any(target.id.startswith("face:") for target in screen.options + screen.actions)
        assert camera_boxes(monkeypatch, renderer, screen) == before and before


def player_page(store: Store, games: dict[str, list[int]]) -> Controller:
    """Ann's page of the scorebook after a game of each of `games` (her score first, won)."""
    for game, scores in games.items():
        players = ["Ann", "Bob", "Cid", "Dee"][: len(scores)]
        store.finish(store.start_game(game, players), scores, [0])
    controller = Controller(store, "fr", seed_source=random.Random(0))
    controller.handle(Tap("nav:scores"))
    controller.handle(Tap("player:Ann"))
    return controller


@pytest.mark.parametrize("size", SIZES)
def test_a_players_chart_has_one_chart_per_game_each_in_its_unit(tmp_path, size):
    """E15: points, pawns and UM were bars on one axis."""
    with Store(tmp_path) as store:
        played = {"struggle": [30, 20], "traverse": [7, 2], "roudalon": [12, 3, 0, -15]}
        controller = player_page(store, played)
        charts = controller.screen().chart["games"]
        assert [chart["game"] for chart in charts] == list(played)
        units = [chart["unit"] for chart in charts]
        assert units == ["points", "pions arrivés", "UM"]
        assert [chart["scores"] for chart in charts] == [[(s[0], True)] for s in played.values()]
        drawn = drawn_words(controller, size)
        assert set(units) <= set(drawn)


def drawn_colours(surface: pygame.Surface) -> set[tuple[int, int, int]]:
    pixels = pygame.surfarray.array3d(surface).reshape(-1, 3)
    return {tuple(int(c) for c in p) for p in np.unique(pixels, axis=0)}


@pytest.mark.parametrize("size", SIZES)
def test_a_players_page_shows_each_game_in_its_own_colour_only(tmp_path, size):
    """F17d: the wins were green whatever the game, green being Le Roudalon's colour."""
    with Store(tmp_path) as store:
        controller = player_page(store, {"struggle": [30, 20], "traverse": [7, 2]})
        renderer = Renderer(size)
        colours = drawn_colours(renderer.draw(controller.screen()))
        assert {GAME_COLOURS["struggle"], GAME_COLOURS["traverse"]} <= colours
        others = {GAME_COLOURS[game] for game in ("strategix", "sequence", "roudalon")}
        assert not others & colours


@pytest.mark.parametrize("size", SIZES)
def test_a_player_chart_with_no_game_says_so(size):
    """F17d: a chart was drawn empty for 0 games."""
    chart = {"title_scores": "Scores", "legend_won": "gagnée", "empty": "Aucune partie",
             "games": []}  # fmt: skip
    screen = Screen("scores", "Scores", chart=chart)
    renderer = Renderer(size)
    words: list[str] = []
    label = renderer.label
    renderer.label = lambda content, *rest, **named: (words.append(content),
                                                      label(content, *rest, **named))  # fmt: skip
    colours = drawn_colours(renderer.draw(screen))
    assert "Aucune partie" in words and palette.PANEL not in colours


@pytest.mark.parametrize("size", SIZES)
def test_every_seats_chance_line_shows_where_lines_lie_on_each_other(tmp_path, size):
    """F17e: Struggle's review chart showed one line: the seats' equal chances drew the second
    line over the first."""
    players = ["Ann", "Bob"]
    with Store(tmp_path) as store:
        log, _ = stored_random_game(store, "struggle", players, 2)
        controller = Controller(store, "fr", seed_source=random.Random(0))
        actions = len(log)
        chances = [[i, [0.5, 0.5]] for i in range(0, actions + 1, 4)]
        shown_review(controller, {"actions": actions, "decisions": [], "chances": chances})
        renderer = Renderer(size)
        controller.use_layout(renderer.layout)
        screen = controller.screen()
        drawn = plot_colours(renderer.draw(screen), renderer)
        seats = {player_colour(screen, seat) for seat in range(len(players))}
        assert len(seats) == len(players) and seats <= drawn


def plot_colours(surface: pygame.Surface, renderer: Renderer) -> set[tuple[int, int, int]]:
    """The colours inside the review chart's plot (its legend left out)."""
    x, y, w, h = renderer.layout.body
    bottom = y + h - renderer.layout.row_height - 6
    if renderer.layout.portrait:
        box_w, box_h = w, (bottom - y) // 2 - 8
    else:
        box_w, box_h = w * 2 // 5 - 6, bottom - y
    plot = pygame.surfarray.array3d(surface)[x : x + box_w, y + 28 : y + box_h - LEGEND_H - 2]
    return {tuple(int(c) for c in p) for p in np.unique(plot.reshape(-1, 3), axis=0)}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["fr", "en", "qps"])
def test_strategix_a_petard_played_is_drawn_in_the_trick(tmp_path, size, language):
    """F17b: the pétard played was not on the board, only the play it followed."""
    with Store(tmp_path) as store:
        controller = Controller(store, language, seed_source=random.Random(0))
        controller.start_game("strategix", ["Ana", "Bob"], seed=1, mode="full")
        rng = random.Random(0)
        while controller.state.is_chance:
            controller.play(controller.state.sample_chance(rng).notation)
        controller.play("play B")  # Bob leads
        controller.play("petard")  # Ana: Bob misses his turn, Ana plays again
        view = controller.state.view(None)
        assert view["trick"]["plays"][-1] == [0, "petard"]
        hand = controller.state.view(0)["hands"][0]
        drawn = drawn_words(controller, size)
        assert drawn.count("!") == hand.count("!") + 1  # the hand's, and the one in the trick
        assert "B" in drawn and any("Ana" in words for words in drawn)


@pytest.mark.parametrize("game", ["strategix", "sequence", "struggle"])
def test_a_deal_by_the_kiosk_is_said_in_one_sentence(tmp_path, game):
    """F17c: "Le jeu distribue : Les cartes sont distribuées" said the deal twice."""
    from display.i18n import say

    with Store(tmp_path) as store:
        controller = Controller(store, "fr", seed_source=random.Random(0))
        controller.start_game(game, ["Ann", "Bob", "Cid"][: 3 if game == "strategix" else 2],
                              seed=1, mode="full")  # fmt: skip
        if game == "strategix":
            controller.play("first 0")  # the youngest, said by the players; then the deal
        dealt = [a for a in controller.state.history if a.notation.startswith("deal")]
        assert dealt and say("fr", dealt[0]) in controller.message
        assert controller.message.count("distribu") <= 1


def unsure_roll(controller: Controller, faces: list, unsure: int) -> None:
    """A roll read with the die at `unsure` below the sure line (shown with a "?")."""
    from vision.read.types import Die, Reading

    dice = [Die(face, (60.0 + 70 * i, 120.0), 0.999 if i != unsure else 0.6, None,
                sure=i != unsure) for i, face in enumerate(faces)]  # fmt: skip
    controller.handle(Settled(Reading(tuple(dice)), np.zeros((120, 160, 3), np.uint8)))


def test_a_face_typed_settles_the_unsure_die_and_the_help_says_so(tmp_path):
    """A9: an unsure die could be settled by touch only, and the keyboard help named R only."""
    from display.window import Window

    with Store(tmp_path) as store:
        controller = Controller(store, "fr", seed_source=random.Random(0))
        controller.start_game("traverse", ["Ann", "Bob"], seed=2)
        unsure_roll(controller, [3, 5], unsure=1)
        controller.handle(Press("reroll"))  # the help an R press gives on an unsure roll
        assert "tapez" in controller.message and "1-6" in controller.message
        window = Window((800, 480), kiosk=False)
        try:
            window.screen_name = "table"
            [typed] = window._key(pygame.K_6)
        finally:
            window.close()
        assert (typed.kind, typed.value) == ("tap", "settle:6")
        controller.handle(Tap(typed.value))
        assert not any(mark.unsure for mark in controller.screen().dice)
        controller.handle(Press("confirm"))
        assert controller.store.actions(controller.session.record.id)[-1].notation == "roll 3 6"
