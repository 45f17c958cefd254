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


# ----- greys: a target drawn dim does nothing now --------------------------------------------


def quiet_targets_are_refused(controller: Controller) -> int:
    """Touch every target drawn dim ("quiet") on the screen shown: each must be refused."""
    screen = controller.screen()
    targets = screen.options + screen.actions + screen.moves + screen.keys + screen.nav
    quiet = [t for t in targets if t.style == "quiet"]
    for target in quiet:
        controller.say("")
        controller.handle(Tap(target.id))
        assert controller.error, f"{target.id} ({target.label}) is drawn dim yet works"
    return len(quiet)


def test_every_dim_target_is_one_that_does_nothing_now(controller):
    """Items 3, 15, 30 and their class: a grey button must be a disabled one."""
    quiet_targets_are_refused(controller)
    controller.handle(Tap("game:struggle"))
    controller.handle(Tap("seat:1"))
    quiet_targets_are_refused(controller)
    controller.handle(Tap("name:0"))
    quiet_targets_are_refused(controller)
    controller.handle(Tap("keys:more"))
    quiet_targets_are_refused(controller)
    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    controller.table.dice.can_throw = True
    controller.play("first 0")
    roll(controller, "9", "9")  # two dice of five: the reading waits for its check
    assert quiet_targets_are_refused(controller) >= 1  # Confirm, for an incomplete reading
    controller.store.finish(controller.store.start_game("traverse", ["Zed", "Ann"]), [1, 0], [0])
    for screen in ("scores", "settings", "rules", "home"):
        controller.handle(Tap(f"nav:{screen}"))
        quiet_targets_are_refused(controller)
    controller.handle(Tap("nav:settings"))
    for opened in ("tray:edit", "examples:open"):
        controller.handle(Tap(opened))
        quiet_targets_are_refused(controller)
        controller.handle(Tap("nav:settings"))


def test_the_seat_of_a_person_does_not_read_as_nobody(controller):
    """Item 3: "Joueur 1 | Personne" read as "player 1: nobody"."""
    controller.handle(Tap("game:traverse"))
    seat = next(t for t in controller.screen().options if t.id == "seat:0")
    assert seat.label != "Personne" and seat.style != "quiet"
