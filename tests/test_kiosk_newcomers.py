"""What a group of newcomers met at the table (issue 57): each problem held by a test."""

from __future__ import annotations

import random

import pytest

from companion.controller import Controller, Press, Tap
from companion.store import Store
from tests.test_companion_controller import logged, roll


@pytest.fixture
def controller(tmp_path):
    with Store(tmp_path / "state") as store:
        yield Controller(store, "fr", moves_per_page=6, seed_source=random.Random(0))


def roudalon_with_two_dice(controller: Controller) -> None:
    """Le Roudalon after the roll-off and a stake each: Ann to act, holding two dice."""
    controller.start_game("roudalon", ["Ann", "Bob", "Cid", "Dee"], seed=1)
    for values in ((6, 6), (1, 1), (1, 2), (2, 2)):
        roll(controller, *values)
    for _ in range(4):
        controller.play("stake 1")


# ----- dead ends -----------------------------------------------------------------------------


def test_roudalon_offers_throwing_both_dice(controller):
    """Item 1: "throw 2" was merged into "throw 1" (the same view after both)."""
    roudalon_with_two_dice(controller)
    moves = [m.id for m in controller.screen().moves]
    assert "move:throw 1" in moves and "move:throw 2" in moves
    controller.handle(Tap("move:throw 2"))
    assert controller.dice_request().count == 2


def test_undo_after_the_game_is_over_asks_before_reopening_it(controller):
    """Item 2: one touch on Annuler reopened a finished game."""
    controller.start_game("traverse", ["Ann", "Bob"], seed=3, mode="full")
    state = controller.state
    rng = random.Random(1)
    while not state.is_over:
        action = state.sample_chance() if state.is_chance else rng.choice(state.legal_actions())
        assert controller.play(action.notation)
    before = logged(controller)
    controller.handle(Tap("undo:"))
    assert logged(controller) == before and controller.session.record.status == "over"
    assert "Annuler" in controller.message or "annul" in controller.message.lower()
    controller.handle(Press("undo"))  # the second touch (or the button) reopens it
    assert len(logged(controller)) == len(before) - 1
    assert controller.session.record.status == "playing"
