"""What stranger G met playing Traverse at 800x480 (issue 57, round 5): each problem held by a
test, and its class over every game and both screen sizes."""

from __future__ import annotations

import random
import re
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pygame
import pytest
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st

from companion.advice import traverse_pawn
from companion.controller import Controller, Settled, Tap
from companion.persistence.store import Store
from display import palette
from display.model import mark_id
from display.render import Renderer
from tests.test_advisor_table import PLAYERS, at_a_choice, open_hint
from tests.test_companion_controller import reading
from tests.test_kiosk_newcomers import drawn_words
from tests.test_kiosk_newcomers_round4 import reviewed_random_game

SIZES = [(800, 480), (720, 1280)]


def drawn_page(controller: Controller, renderer: Renderer) -> tuple[tuple[int, int], set[str]]:
    """The page of moves drawn, of how many, and the ids of the page buttons drawn."""
    controller.use_layout(renderer.layout)
    renderer.draw(controller.screen())
    return renderer.page_info, {target for _, target in renderer.hits if target.startswith("page:")}


def page_through(controller: Controller, renderer: Renderer) -> list[int]:
    """Touch "Next" to the last page, then "Prev" back to the first: the pages drawn."""
    (page, pages), _ = drawn_page(controller, renderer)
    seen = [page]
    for step in [1] * (pages - 1) + [-1] * (pages - 1):
        (page, _), buttons = drawn_page(controller, renderer)
        wanted = f"page:{page + step}"
        assert wanted in buttons, (wanted, buttons)
        controller.handle(Tap(wanted))
        seen.append(drawn_page(controller, renderer)[0][0])
    return seen


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_every_page_button_of_the_hint_panel_changes_the_page(tmp_path, game, size):
    """t-021b..t-024: the hint panel showed "1/3" and "Next »" left it on 1/3 (the panel asked
    always for page 0): the 2nd and 3rd choices could never be seen. In every game, at both
    sizes, each page button shown leads to its page, and the panel opens again on page 1."""
    with Store(tmp_path / "state") as store:
        controller = at_a_choice(store, game)
        open_hint(controller)
        renderer = Renderer(size)
        (_, pages), _ = drawn_page(controller, renderer)
        expected = list(range(pages)) + list(range(pages - 2, -1, -1))
        assert page_through(controller, renderer) == expected
        if pages > 1:
            controller.handle(Tap(f"page:{pages - 1}"))
            controller.handle(Tap("hint:"))
            controller.handle(Tap("hint:"))
            assert drawn_page(controller, renderer)[0][0] == 0


def traverse_at(store: Store, seed: int, plies: int, language: str = "en") -> Controller:
    """Traverse in full mode after `plies` random actions, at a player's move (dice thrown)."""
    controller = Controller(store, language, auto_resume=False)
    controller.start_game("traverse", ["Ann", "Bob"], seed=seed, mode="full")
    rng = random.Random(seed)
    for _ in range(plies):
        state = controller.state
        if state.is_over:
            break
        action = state.sample_chance(rng) if state.is_chance else rng.choice(state.legal_actions())
        controller.play(action.notation)
    while not controller.state.is_over and controller.state.is_chance:
        controller.play(controller.state.sample_chance(rng).notation)
    return controller


def buttons_drawn(controller: Controller, renderer: Renderer) -> list[str]:
    """The ids of the buttons drawn for the screen shown (board pieces are not buttons)."""
    drawn: list[str] = []
    button = renderer.wrapped_button

    def recorded(target, *rest, **named):
        drawn.append(target.id)
        return button(target, *rest, **named)

    renderer.wrapped_button = recorded
    drawn_page(controller, renderer)
    del renderer.wrapped_button
    return drawn


def pawns_listed(controller: Controller, renderer: Renderer) -> set[str]:
    """The pawns the drawn move list names, over every page the pager turns to."""
    choices = {c.notation: c.pieces for c in controller.table.choices(controller.state)}
    named: set[str] = set()
    (_, pages), _ = drawn_page(controller, renderer)
    for page in range(pages):
        controller.handle(Tap(f"page:{page}"))
        for target in buttons_drawn(controller, renderer):
            if target.startswith("piece:"):
                named.add(target.removeprefix("piece:"))
            elif target.startswith("move:"):
                named |= {p for p in choices[target.removeprefix("move:")] if p.startswith("pawn:")}
    return named


@settings(max_examples=40, deadline=None, phases=[Phase.generate])
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 60))
@example(seed=260, plies=11)  # a white pawn moving only beside a lower one had no line
def test_every_traverse_pawn_that_can_move_is_in_the_list(seed, plies):
    """t-025..t-028: with dice 5 5 and nothing touched the list had eight pawn lines and no
    pager; White 10, which could move, was missing (a move of two pawns went under the lower
    one only, so a pawn moving only beside another had no line). Over random positions, at both
    sizes, the pawns the list names, page by page, are the pawns with a legal move."""
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder)) as store:
        controller = traverse_at(store, seed, plies)
        if controller.state.is_over:
            return
        choices = controller.table.choices(controller.state)
        movable = {p for c in choices for p in c.pieces if p.startswith("pawn:")}
        for size in SIZES:
            renderer = Renderer(size)
            assert pawns_listed(controller, renderer) == movable, size


def yellow_drawn(renderer: Renderer, screen) -> int:
    surface = renderer.draw(screen)
    pixels = pygame.surfarray.pixels3d(surface)
    return int(np.all(pixels == palette.YELLOW, axis=-1).sum())


def opponent_at(state, colour: str, position: int, number: int) -> bool:
    """Whether the square pawn `colour number` reaches at `position` holds an opponent pawn."""
    other = "white" if colour == "red" else "red"
    return 1 <= position <= 10 and state.view(None)[other][position - 1] == number


@pytest.mark.parametrize("size", SIZES)
def test_every_destination_of_a_touched_traverse_pawn_is_ringed_a_hit_too(tmp_path, size):
    """t-019, t-020: White 4 touched (dice 4 5) had rings at columns 1, 4 and 5 but none at
    column 9, where its first move lands on Red 9: the ring lay under the pawn hit. Every
    destination of the touched pawn shows its ring, a hit's drawn over the pawn it sends back,
    and a touch there plays a move that takes the pawn there."""
    hits = 0
    for seed in range(40):
        with Store(tmp_path / str(seed)) as store:
            controller = traverse_at(store, seed, 14)
            if controller.state.is_over:
                continue
            renderer = Renderer(size)
            controller.use_layout(renderer.layout)
            state = controller.state
            colour = state.view(None)["colours"][state.actor]
            for choice in controller.table.choices(state):
                for number, position in choice.preview["pawns"].items():
                    if not opponent_at(state, colour, position, number):
                        continue
                    hits += 1
                    screen = replace(controller.screen(), selected=[], pieces=[])
                    bare = yellow_drawn(renderer, replace(screen, preview={}))
                    ring = {"colour": colour, "pawns": {number: position}}
                    assert yellow_drawn(renderer, replace(screen, preview=ring)) > bare + 20
                    mark = f"piece:{mark_id(f'pawn:{colour}{number}', position)}"
                    centre = next(rect.center for rect, id_ in renderer.hits if id_ == mark)
                    assert renderer.hit(centre) == mark  # the ring's touch, not the pawn's
            if hits >= 3:
                return
    assert hits, "no position with a hit found"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    ("language", "red", "white"), [("fr", "Rouge", "Blanc"), ("en", "Red", "White")]
)
def test_the_traverse_score_line_says_who_plays_red_and_who_white(
    tmp_path, size, language, red, white
):
    """t-003: nothing said which player was Red and which White. Each player's box names the
    colour that player moves, drawn whole at both sizes."""
    with Store(tmp_path / "state") as store:
        controller = Controller(store, language, auto_resume=False)
        controller.start_game("traverse", ["Léa", "Marc"], seed=1, mode="full")
        colours = controller.state.view(None)["colours"]
        words = {"red": red, "white": white}
        names = [name for name, _ in controller.screen().scores]
        assert names == [f"Léa ({words[colours[0]]})", f"Marc ({words[colours[1]]})"]
        drawn = drawn_words(controller, size)  # none clipped
        assert any(words[colours[0]] in content and "Léa" in content for content in drawn)


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_traverse_hint_names_a_pawn_moving_twice_once_as_the_list_does(tmp_path, language):
    """t-048b, t-062b: the hint said "Red 7 moves forward 3, Red 7 moves forward 3" where the
    list names the pawn once: the hint's words are the list's, for every move."""
    with Store(tmp_path / "state") as store:
        controller = traverse_at(store, 3, 0, language)
        state = controller.state
        twice = 0
        for choice in controller.table.choices(state):
            said = controller.table.said_move(state, choice.notation)
            assert said == choice.label
            pawns = re.findall(r"(\d+)[+-]", choice.notation)
            if len(pawns) == 2 and pawns[0] == pawns[1]:
                twice += 1
                name = traverse_pawn(state.actor, int(pawns[0]), language)
                assert len(re.findall(rf"{name}\b", said)) == 1, said
        assert twice


def broken_labels(screen, size: tuple[int, int]) -> list[str]:
    """The title and the labels of the bar, action and option buttons drawn on more than one
    line (moves and hints may wrap: they are sentences)."""
    renderer = Renderer(size)
    whole: list[str] = []
    wrapped: list[str] = []
    buttons: list[str] = []
    label, two_lines, button = renderer.label, renderer._two_lines, renderer.wrapped_button

    def recorded(content: str, *rest, **named):
        whole.append(content)
        return label(content, *rest, **named)

    def recorded_two(content: str, *rest, **named):
        wrapped.append(content)
        return two_lines(content, *rest, **named)

    def recorded_button(target, *rest, **named):
        buttons.append(target.label)
        return button(target, *rest, **named)

    renderer.label, renderer._two_lines = recorded, recorded_two
    renderer.wrapped_button = recorded_button
    renderer.draw(screen)
    short = {t.label for t in screen.nav + screen.actions + screen.options if t.label}
    broken = [words for words in buttons if words in short and words not in whole]
    return broken + [screen.title] * (screen.title in wrapped)


def table_screens(store: Store, game: str, language: str) -> list:
    """The table's screens met in a game: at a player's choice, and (Traverse at a table) a
    throw read with a die too many, where "− die" is offered."""
    controller = at_a_choice(store, game)
    controller.settings.choose_language(language)
    screens = [controller.screen()]
    if game == "traverse":
        controller.start_game("traverse", ["Léa", "Marc"], seed=1)
        controller.handle(Settled(reading(6, 6, 2), np.zeros((120, 160, 3), np.uint8)))
        screens.append(controller.screen())
        assert any(t.id.startswith("die") for t in screens[-1].options), screens[-1].options
    return screens


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_no_title_nor_button_label_wraps(tmp_path, game, language):
    """t-009, t-073: at 800x480 "− die" broke onto two lines, and the review's title "Review ·
    Traverse · game #2" took two lines beside the menu bar. In every game, at both sizes, in
    both languages, the title and every button of the bar, the actions and the options are
    drawn on one line: the table at a choice, a throw with a die too many, the review."""
    with Store(tmp_path / "state") as store:
        screens = table_screens(store, game, language)
        review = reviewed_random_game(store, game, language=language)
        screens.append(review.screen())
        for screen in screens:
            for size in SIZES:
                assert not broken_labels(screen, size), (screen.name, size)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("language", "red"), [("fr", "Rouge"), ("en", "Red")])
def test_traverse_set_up_says_which_seat_plays_red(tmp_path, size, language, red):
    """t-003: set-up's seat rows did not say who plays which colour: each name says it."""
    with Store(tmp_path / "state") as store:
        controller = Controller(store, language, auto_resume=False)
        controller.handle(Tap("game:traverse"))
        names = [t.label for t in controller.screen().options if t.id.startswith("name:")]
        assert len(names) == 2 and names[0].endswith(f"({red})"), names
        assert any(f"({red})" in words for words in drawn_words(controller, size))
