"""Screens drawn headless at both panel sizes; touches map back to the targets drawn."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pygame
import pytest

import engines
from companion.controller import Controller, Settled, Tap
from companion.persistence.store import Store
from display.canvas import Canvas
from display.layout import LANDSCAPE, PORTRAIT, layout_for
from display.render import Renderer, save_png
from display.window import Window, physical_size, to_logical
from vision.read.types import Die, Reading

SIZES = [LANDSCAPE, PORTRAIT]


@pytest.fixture
def controller(tmp_path):
    with Store(tmp_path / "state") as store:
        yield Controller(store, "fr", moves_per_page=5, seed_source=random.Random(0))


def game_in_progress(controller: Controller, game: str, steps: int = 12) -> None:
    if game not in engines.available_games():
        pytest.skip(f"the {game} engine is not built yet")
    players = ["Ann", "Bob", "Cid", "Dee"] if game in ("roudalon", "sequence") else ["Ann", "Bob"]
    controller.start_game(game, players, seed=3, mode="full")
    rng = random.Random(0)
    for _ in range(steps):
        if controller.state.is_over:
            break
        if controller.dice_request():
            controller.play(controller.state.sample_chance().notation)
        else:
            choices = controller.table.choices(controller.state)
            controller.handle(Tap("move:" + rng.choice(choices).notation))


def check_hits(renderer: Renderer) -> None:
    assert renderer.hits
    for rect, _ in renderer.hits:
        assert renderer.hit(rect.center) is not None
    ids = {target_id for _, target_id in renderer.hits}
    assert "nav:home" in ids and "nav:table" in ids


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ["struggle", "traverse", "strategix", "sequence", "roudalon"])
def test_table_screen_of_every_game(controller, size, game):
    game_in_progress(controller, game)
    renderer = Renderer(size)
    surface = renderer.draw(controller.screen())
    assert surface.get_size() == size
    check_hits(renderer)
    # something was drawn in the board area (not just the background)
    pixels = pygame.surfarray.array3d(surface)
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 20


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("screen", ["home", "setup", "scores", "settings", "rules"])
def test_other_screens(controller, size, screen):
    controller.handle(Tap("game:struggle") if screen == "setup" else Tap(f"nav:{screen}"))
    if screen == "setup":
        controller.handle(Tap("name:0"))  # with the keyboard open
    renderer = Renderer(size)
    renderer.draw(controller.screen())
    check_hits(renderer)


def test_dice_are_outlined_and_touchable_on_the_camera_view(controller):
    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    controller.handle(Tap("move:first 0"))
    image = np.full((480, 640, 3), 200, np.uint8)
    quad = np.array([[300, 200], [340, 200], [340, 240], [300, 240]], np.float32)
    dice = (Die("K", (320.0, 220.0), 0.9, quad), Die(None, (100.0, 100.0), 0.1, None))
    controller.handle(Settled(Reading(dice), image))
    renderer = Renderer(LANDSCAPE)
    surface = renderer.draw(controller.screen())
    x, y, w, h = layout_for(LANDSCAPE).main
    scale = min(w / 640, h / 480)
    left = x + (w - 640 * scale) / 2
    top = y + (h - 480 * scale) / 2
    centre = (int(left + 320 * scale), int(top + 220 * scale))
    assert renderer.hit(centre) == "die:0"
    edge = (int(left + 300 * scale), int(top + 220 * scale))
    assert tuple(surface.get_at(edge))[:3] != (200, 200, 200)  # the outline is drawn
    controller.handle(Tap(renderer.hit(centre)))
    renderer.draw(controller.screen())
    faces = [t for _, t in renderer.hits if t.startswith("face:")]
    assert faces == ["face:9", "face:10", "face:J", "face:Q", "face:K", "face:A"]


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
@pytest.mark.parametrize("size", SIZES)
def test_touch_remap_matches_the_software_rotation(size, rotation):
    logical = pygame.Surface(size)
    logical.fill((0, 0, 0))
    point = (size[0] // 5, size[1] // 3)
    logical.set_at(point, (255, 255, 255))
    panel = pygame.transform.rotate(logical, -rotation)
    assert panel.get_size() == physical_size(size, rotation)
    found = np.argwhere(pygame.surfarray.array3d(panel)[:, :, 0] == 255)
    physical = tuple(int(v) for v in found[0])
    assert to_logical(physical, size, rotation) == point


def test_window_rotated_turns_a_click_into_the_target(controller):
    window = Window(PORTRAIT, rotation=90, kiosk=False)
    try:
        assert window.panel.get_size() == (1280, 720)
        window.show(controller.screen())
        rect = next(r for r, t in window.renderer.hits if t == "nav:scores")
        lx, ly = rect.center
        physical = (PORTRAIT[1] - 1 - ly, lx)  # logical -> panel for a 90° clockwise turn
        pygame.event.clear()
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=physical, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=physical, button=1))
        taps = [i for i in window.poll() if i.kind == "tap"]
        assert [t.value for t in taps] == ["nav:scores"]
    finally:
        window.close()


def test_window_finger_touch_on_an_upside_down_panel(controller):
    window = Window(LANDSCAPE, rotation=180, kiosk=False)
    try:
        window.show(controller.screen())
        rect = next(r for r, t in window.renderer.hits if t == "nav:rules")
        lx, ly = rect.center
        px, py = LANDSCAPE[0] - 1 - lx, LANDSCAPE[1] - 1 - ly
        pygame.event.clear()
        where = {"x": px / LANDSCAPE[0], "y": py / LANDSCAPE[1], "finger_id": 0, "touch_id": 0}
        pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, where))
        pygame.event.post(pygame.event.Event(pygame.FINGERUP, where))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_u))
        inputs = window.poll()  # U is a shortcut on the table screen only
        assert [(i.kind, i.value) for i in inputs] == [("tap", "nav:rules")]
    finally:
        window.close()


def test_keys_are_shortcuts_on_the_table_and_type_into_an_open_keyboard(controller):
    window = Window(LANDSCAPE, kiosk=False)
    try:
        controller.start_game("struggle", ["Ann", "Bob"], seed=1)
        window.show(controller.screen())
        pygame.event.clear()
        for key in (pygame.K_u, pygame.K_BACKSPACE, pygame.K_r):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))
        assert [i.value for i in window.poll()] == ["undo", "undo", "reroll"]
        controller.handle(Tap("game:struggle"))
        controller.handle(Tap("name:0"))
        window.show(controller.screen())
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_u))
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="é"))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE))
        assert [(i.kind, i.value) for i in window.poll()] == [("key", "é"), ("key", "\b")]
        controller.type_text("Chloé 2\n")
        assert controller.setup.draft.players[0] == "Chloé 2"
    finally:
        window.close()


def test_english_screen_and_screenshot_file(controller, tmp_path):
    controller.handle(Tap("lang:en"))
    renderer = Renderer(LANDSCAPE)
    surface = renderer.draw(controller.screen())
    path = tmp_path / "home.png"
    save_png(surface, path)
    image = cv2.imread(str(path))
    assert image.shape == (480, 800, 3)
    assert tuple(int(v) for v in image[5, 5][::-1]) == tuple(surface.get_at((5, 5)))[:3]


def test_unsupported_sizes_are_refused():
    with pytest.raises(ValueError, match="800x480 or 720x1280"):
        Renderer((1024, 600))


def test_the_renderer_is_the_canvas_the_views_draw_on():
    assert isinstance(Renderer(), Canvas)
