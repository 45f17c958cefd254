"""A die read below the sure line: marked "?" on the camera view beside its best guess, and
settled by a touch before the roll is confirmed; a roll read all sure confirms as before.

The dice come through the simulated camera's path (camera, feed, roll tracker) with a reader
that reports the camera's truth and says which dice it is not sure of."""

from __future__ import annotations

import random

import numpy as np
import pygame
import pytest

from companion.controller import Controller, Press, Tap
from companion.feed import DiceFeed
from companion.persistence.store import Store
from display import palette
from display.render import Renderer
from hardware.simcam import SimulatedCamera
from vision.read.types import Die, Reading

SIZES = [(800, 480), (720, 1280)]
ROLLED = [3, 5]  # the dice thrown for the roll-off: Alice's two d6


class DoubtingReader:
    """Reads the simulated camera's truth, but gives the dice in `guesses` (index -> value
    guessed, None: the true value) as not sure, with that value as the best guess."""

    def __init__(self, camera: SimulatedCamera, guesses: dict[int, int | None]) -> None:
        self.camera = camera
        self.guesses = guesses

    def read(self, image: np.ndarray) -> Reading:
        dice = []
        for index, die in enumerate(self.camera.truth.dice):
            value = self.guesses.get(index) or die.value
            dice.append(Die(value, die.center, 0.6 if index in self.guesses else 0.999, die.quad,
                            sure=index not in self.guesses))  # fmt: skip
        return Reading(tuple(dice))


@pytest.fixture
def controller(tmp_path):
    with Store(tmp_path / "state") as store:
        controller = Controller(store, "fr", moves_per_page=4, seed_source=random.Random(0))
        controller.start_game("traverse", ["Alice", "Bruno"], seed=2)  # a roll-off of 2 d6
        yield controller


def throw(controller: Controller, guesses: dict[int, int | None]) -> SimulatedCamera:
    """Throw ROLLED on the simulated camera and hand the settled reading to the table."""
    camera = SimulatedCamera(seed=4, kind="d6", dice=len(ROLLED), size=(640, 480), stepped=True,
                             moving_frames=1, settled_frames=3)  # fmt: skip
    camera.start()
    feed = DiceFeed(camera, settle_frames=2)
    feed._readers["d6"] = DoubtingReader(camera, guesses)
    camera.request_roll(ROLLED)
    for _ in range(10):
        for event in feed.step("d6"):
            controller.handle(event)
        if controller.table.turn.proposal is not None:
            break
    camera.stop()
    assert controller.table.turn.proposal is not None, "the roll never settled"
    return camera


def truth_values(camera: SimulatedCamera) -> list[str]:
    return [str(d.value) for d in camera.truth.dice]


def confirm_target(controller: Controller):
    return next(t for t in controller.screen().actions if t.id == "confirm:")


def amber_at_die(controller: Controller, size: tuple[int, int], target: str) -> int:
    """Pixels of the unsure mark's colour where the die `target` is touched (ring and tag)."""
    renderer = Renderer(size)
    surface = renderer.draw(controller.screen())
    rect = next(rect for rect, hit in renderer.hits if hit == target).clip(surface.get_rect())
    pixels = pygame.surfarray.array3d(surface.subsurface(rect)).reshape(-1, 3)
    return int(np.all(pixels == palette.DIE_UNSURE, axis=1).sum())


def test_an_unsure_die_is_settled_by_a_touch_before_the_roll_is_confirmed(controller):
    truth = truth_values(throw(controller, {1: 6}))  # the second die read 6, not sure
    assert truth[1] != "6"  # and read wrong: the touch corrects it
    store, game_id = controller.store, controller.session.record.id
    logged_before = len(store.actions(game_id))
    marks = controller.screen().dice
    assert [m.unsure for m in marks] == [False, True] and marks[1].label == "6"
    assert controller.message == "Touchez le dé marqué 6\u00a0? et choisissez sa valeur"
    assert confirm_target(controller).label == "Touchez le dé\u00a0?"
    assert "touchez chaque dé marqué" in controller.screen().turn  # not a bare "puis Confirmer"

    controller.handle(Press("confirm"))  # the GPIO button: refused, saying what waits
    assert controller.error and "marqué 6\u00a0?" in controller.message
    controller.handle(Tap("confirm:"))  # the touch target: the same
    assert controller.error and len(store.actions(game_id)) == logged_before

    renderer = Renderer((800, 480))
    renderer.draw(controller.screen())
    touched = next(t for _, t in renderer.hits if t == "die:1")  # the die is where it is marked
    controller.handle(Tap(touched))
    options = controller.screen().options
    assert [o.id for o in options if o.style == "selected"] == ["face:6"]  # best guess first
    controller.handle(Tap(f"face:{truth[1]}"))  # settled to the value on the tray
    assert not controller.screen().dice[1].unsure
    assert confirm_target(controller).label == "Confirmer"

    controller.handle(Press("confirm"))
    assert not controller.error
    logged = store.actions(game_id)[-1]
    assert logged.notation == "roll " + " ".join(truth)
    assert logged.corrected == 1


def test_settling_an_unsure_die_as_read_is_not_counted_a_correction(controller):
    truth = truth_values(throw(controller, {0: None}))  # read right, but not sure
    controller.handle(Tap("die:0"))
    controller.handle(Tap(f"face:{truth[0]}"))
    controller.handle(Press("confirm"))
    logged = controller.store.actions(controller.session.record.id)[-1]
    assert (logged.notation, logged.corrected) == ("roll " + " ".join(truth), 0)


def test_a_roll_read_all_sure_confirms_at_once(controller):
    truth = truth_values(throw(controller, {}))
    assert not any(m.unsure for m in controller.screen().dice)
    assert confirm_target(controller).style == "primary"
    controller.handle(Press("confirm"))
    assert not controller.error
    assert controller.store.actions(controller.session.record.id)[-1].notation == (
        "roll " + " ".join(truth)
    )


@pytest.mark.parametrize("size", SIZES)
def test_the_unsure_mark_is_drawn_at_both_panel_sizes(controller, size):
    throw(controller, {1: 6})
    assert amber_at_die(controller, size, "die:1") > 100  # the amber ring and "6?" tag
    assert amber_at_die(controller, size, "die:0") == 0  # a sure die keeps its green mark
    controller.handle(Tap("die:1"))
    controller.handle(Tap("face:6"))
    assert amber_at_die(controller, size, "die:1") == 0  # settled: the mark goes


def test_a_die_removed_before_an_unsure_one_keeps_the_mark_on_the_right_die(controller):
    throw(controller, {1: 6})
    controller.handle(Tap("die:0"))
    controller.handle(Tap("die:remove"))
    assert [m.unsure for m in controller.screen().dice] == [True]
