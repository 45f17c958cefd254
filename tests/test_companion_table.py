"""The table as players meet it: whose turn, words not notation, pieces that narrow the moves,
games in progress kept."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from companion.controller import Controller, Press, Settled, Tap
from companion.persistence.store import Store
from vision.read.types import Die, Reading

NOTATION = re.compile(r"<[^>]+>|\b\d+[+-]\d+\b|[2-9TJQKA][SHDC]@|@[a-j]\d|\b(roll|first|dealer) \d")


def reading(*values) -> Reading:
    dice = (Die(v, (60.0 + 70 * i, 120.0), 0.999, None, sure=True) for i, v in enumerate(values))
    return Reading(tuple(dice))  # every die sure: confirmed at once


@pytest.fixture
def controller(tmp_path):
    with Store(tmp_path / "state") as store:
        yield Controller(store, "fr", moves_per_page=4, seed_source=random.Random(0))


def said(controller: Controller) -> str:
    screen = controller.screen()
    words = [screen.turn, screen.message, screen.entry]
    words += [t.label for t in screen.moves + screen.actions + screen.options]
    return " | ".join(words)


def test_who_starts_is_asked_in_words_and_the_roller_is_named(controller):
    controller.start_game("struggle", ["Alice", "Bruno", "Chloé"], seed=1)
    screen = controller.screen()
    assert screen.turn == "Qui commence\u00a0? Touchez son nom"
    assert [m.label for m in screen.moves] == ["Alice commence", "Bruno commence", "Chloé commence"]
    controller.handle(Tap(screen.moves[1].id))
    screen = controller.screen()
    assert screen.turn.startswith("Bruno\u00a0: lancez 5 dés") and screen.acting == 1
    assert "carte objectif" in screen.turn  # the game's first throw: the cards drawn first
    controller.handle(Settled(reading("K", "Q", "J", "10", "9")))
    assert "confirmez la lecture" in controller.screen().turn  # not "lancez" while it waits
    assert not NOTATION.search(said(controller))


def test_rolloff_names_whose_dice_and_who_won(controller):
    controller.start_game("traverse", ["Alice", "Bruno"], seed=2)
    assert controller.screen().turn.startswith("Tirage au sort\u00a0: lancez 2 dés pour Alice")
    for values in ((3, 4), (1, 2)):
        controller.handle(Settled(reading(*values)))
        controller.handle(Press("confirm"))
    assert "Alice commence" in controller.message
    assert controller.screen().turn == "Alice\u00a0: lancez 2 dés"


def test_touching_a_pawn_narrows_the_moves_and_same_positions_are_one_choice(controller):
    controller.start_game("traverse", ["Alice", "Bruno"], seed=2)
    for values in ((3, 4), (1, 2), (1, 3)):
        controller.handle(Settled(reading(*values)))
        controller.handle(Press("confirm"))
    state = controller.state
    legal = [a for a in state.legal_actions()]
    choices = controller.table.choices(state)
    assert len(choices) <= len(legal)
    screen = controller.screen()
    assert "pawn:red1" in screen.pieces
    controller.handle(Tap("piece:pawn:red1"))
    controller.handle(Tap("piece:pawn:red2"))
    narrowed = controller.table.move_targets(state)
    assert 0 < len(narrowed) <= controller.table.moves_per_page < len(choices)
    assert all({"pawn:red1", "pawn:red2"} <= c.pieces for c in controller.table.narrowed(state))


def test_undo_and_refusals_say_moves_in_words(controller):
    controller.start_game("sequence", ["Alice", "Bruno"], seed=4)
    controller.handle(Tap(controller.table.move_targets(controller.state)[0].id))
    for key in ("7", "H"):
        controller.handle(Tap(f"key:{key}"))
    assert controller.screen().entry == "7 de cœur"
    controller.handle(Tap("square:b1"))
    assert controller.error and "7H@b1" not in controller.message
    controller.handle(Press("undo"))
    assert "Annulé" in controller.message and not NOTATION.search(controller.message)


def test_a_new_game_asks_first_and_the_old_one_stays_resumable(controller):
    controller.start_game("struggle", ["Alice", "Bruno"], seed=1)
    first = controller.session.record.id
    controller.handle(Tap("game:traverse"))
    controller.handle(Tap("start:"))
    assert controller.session.record.id == first and "en cours" in controller.message
    controller.handle(Tap("start:"))
    assert controller.session.record.game == "traverse"
    controller.handle(Tap("nav:home"))
    resumes = [t.id for t in controller.screen().actions]
    assert f"resume:{first}" in resumes
    controller.handle(Tap(f"resume:{first}"))
    assert controller.session.record.id == first and controller.screen_name == "table"
    assert controller.store.game(first).status == "playing"


def test_names_take_accents_digits_and_space(controller):
    controller.handle(Tap("game:struggle"))
    controller.handle(Tap("name:0"))
    for key in ("C", "H", "L", "O"):
        controller.handle(Tap(f"key:{key}"))
    controller.handle(Tap("keys:more"))
    controller.handle(Tap("key:É"))
    controller.handle(Tap("keys:letters"))
    controller.handle(Tap("key: "))
    controller.handle(Tap("keys:more"))
    controller.handle(Tap("key:2"))
    controller.handle(Tap("entry:ok"))
    assert controller.setup.draft.players[0] == "Chloé 2"
    controller.image = np.zeros((4, 4, 3), np.uint8)


class TwoWays:
    """A position where two orders of the same steps reach the same place."""

    is_chance = False
    history = ()

    def __init__(self, place: int = 0) -> None:
        self.place = place

    def legal_actions(self):
        from engines import Action
        from engines.messages import Message

        # unknown codes: a message shows its code as it is
        said = {"a+1 b+2": "a then b", "b+2 a+1": "b then a", "c+1": "c"}
        return [Action(notation, Message(words)) for notation, words in said.items()]

    def clone(self):
        return TwoWays(self.place)

    def apply(self, action, validate=True):
        self.place += 3 if "a" in action.notation else 1

    def view(self, player=None):
        return {"place": self.place, "last_play": "differs"}


def test_moves_reaching_the_same_position_are_one_choice():
    from companion.tables import Table

    choices = Table().choices(TwoWays(), "fr")
    assert [c.label for c in choices] == ["a then b", "c"]


def test_scorebook_scrolls_by_pager_and_drag_and_charts_a_player(controller, monkeypatch):
    import pygame

    from display.window import Window

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    store = controller.store
    for number in range(14):  # more rows than a screen holds
        players = [f"P{number}a", f"P{number}b"]
        game_id = store.start_game("struggle" if number % 2 else "roudalon", players)
        store.finish(game_id, [number, 2], [0])
    controller.handle(Tap("nav:scores"))
    window = Window((800, 480), kiosk=False)
    try:
        window.show(controller.screen())
        pager = [t for _, t in window.renderer.hits if t.startswith("scroll:")]
        assert pager, "a pager when the sections do not fit"
        area = window.renderer.drag_areas[0][0]
        pygame.event.clear()
        start = (area.centerx, area.bottom - 10)
        end = (area.centerx, area.top + 10)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
        for user_input in window.poll():
            controller.handle(Tap(user_input.value))
        assert controller.screen().scroll > 0
        assert "players:next" in [t.id for t in controller.screen().options]
        controller.handle(Tap("player:P3a"))
        chart = controller.screen().chart
        [struggle] = chart["games"]
        assert struggle["game"] == "struggle" and struggle["scores"] == [(3, True)]
    finally:
        window.close()


def test_the_kiosk_redraws_only_on_change_and_says_it_is_headless(tmp_path, monkeypatch, caplog):
    import logging

    from companion.app import App
    from companion.config import Config

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    with Store(tmp_path) as store:
        Controller(store, "fr").start_game("struggle", ["Ann", "Bob"], seed=1)
    app = App(Config(state_dir=tmp_path), camera_spec="sim", kiosk=False)
    app.frame_seconds = 0
    with caplog.at_level(logging.INFO):
        assert app.run(max_frames=60) == 0
    assert app.redraws <= 3  # "who starts?": a still screen, no camera shown
    assert "running headless" in caplog.text and "camera: simulated" in caplog.text


def test_run_fullscreen_is_an_option(tmp_path, monkeypatch):
    from tabletop.cli import main

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert main(["run", "--fullscreen", "--frames", "2", "--state-dir", str(tmp_path)]) == 0


def test_the_simulated_camera_throws_the_dice_asked_for():
    from hardware.simcam import SimulatedCamera

    camera = SimulatedCamera(seed=2, stepped=True, moving_frames=1, settled_frames=1)
    faces = camera.request_roll(count=5, kind="poker")
    assert len(faces) == 5 and set(faces) <= {"9", "10", "J", "Q", "K", "A"}
    assert camera.kind == "poker"


def test_stale_dice_marks_go_with_the_turn(controller):
    controller.table.dice.can_throw = True
    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    controller.handle(Tap("move:first 0"))
    controller.handle(Settled(reading("K", "Q", "J", "10", "9")))
    assert [d.label for d in controller.screen().dice] == ["R", "D", "V", "10", "9"]  # French
    controller.handle(Press("reroll"))  # throw again before confirming: the reading goes
    assert controller.screen().dice == [] and controller.table.dice.throw_wanted is not None
    controller.handle(Settled(reading("K", "Q", "J", "10", "9")))
    controller.handle(Press("confirm"))
    controller.handle(Tap("hand:0"))
    controller.handle(Press("reroll"))  # a re-throw chosen: the old labels are not shown again
    assert controller.screen().dice == []
    assert "lancez 1 dé" in controller.screen().turn


def test_long_status_lines_wrap_on_the_settings_screen(controller):
    from display.render import Renderer

    controller.status["buttons"] = (
        "buttons disabled: no GPIO: Unable to load any default pin factory! (Falling back from "
        "lgpio: No module named 'lgpio'; Falling back from rpigpio: No module named 'RPi')"
    )
    controller.handle(Tap("nav:settings"))
    for size in ((800, 480), (720, 1280)):
        renderer = Renderer(size)
        renderer.draw(controller.screen())
        assert not renderer.problems
