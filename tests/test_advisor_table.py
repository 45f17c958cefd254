"""The advisor at the table: the hint and its panel, and bot seats, through the controller."""

from __future__ import annotations

import random
import re

import pytest

from companion.bot_seats import BOT_SHOW_SECONDS
from companion.controller import Controller, Press, Tap
from companion.persistence.store import Store

PLAYERS = {"struggle": 2, "traverse": 2, "roudalon": 4, "sequence": 2, "strategix": 3}


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "state") as opened:
        yield opened


def at_a_choice(store: Store, game: str, mode: str = "full", seed: int = 3) -> Controller:
    """A game started and its chance played until a player has a move to choose."""
    controller = Controller(store, "fr", auto_resume=False)
    names = [f"P{i}" for i in range(PLAYERS[game])]
    controller.start_game(game, names, seed=seed, mode=mode)
    rng = random.Random(seed)
    while controller.dice_request() or not isinstance(controller.state.actor, int):
        controller.play(controller.state.sample_chance(rng).notation)
    return controller


def open_hint(controller: Controller):
    controller.handle(Tap("hint:"))
    controller.table.advice.wait()
    return controller.screen()


def logged(controller: Controller) -> list[str]:
    return [a.notation for a in controller.store.actions(controller.session.record.id)]


# ----- the hint -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_the_hint_shows_three_choices_and_touching_one_selects_it(store, game):
    controller = at_a_choice(store, game)
    assert "hint:" in [t.id for t in controller.screen().actions]
    screen = open_hint(controller)
    choices = controller.table.hint.choices()
    assert choices and len(screen.moves) == min(3, len(choices))
    assert [t.id for t in screen.moves] == [f"hint:{i}" for i in range(len(screen.moves))]
    assert all(" — " in t.label or " · " in t.label for t in screen.moves)  # a figure or a reason
    before = logged(controller)
    controller.handle(Tap("hint:0"))
    best = choices[0].notation
    if best.startswith("rethrow "):  # the dice to throw again marked: the throw is the players'
        assert logged(controller) == before
        hand = controller.table.hand()
        assert sorted(hand[i] for i in controller.table.turn.rethrow) == sorted(best.split()[1:])
        controller.handle(Press("reroll"))
    # a move: played at once, as a move touched in the list is (one touch, no Confirm)
    assert logged(controller)[len(before) :] == [best]


def test_the_hint_says_odds_a_player_understands(store):
    controller = at_a_choice(store, "roudalon")
    while not any(a.notation == "throw 1" for a in controller.state.legal_actions()):
        controller.play("stake 1")
        while controller.dice_request():
            controller.play(controller.state.sample_chance(random.Random(1)).notation)
    screen = open_hint(controller)
    labels = [t.label for t in screen.moves]
    odds = ("chance sur", "ne peut pas faire le pot")
    assert any(said in label for label in labels for said in odds), labels
    assert all("\u00a0%" in label for label in labels if "%" in label)  # French typography
    controller.language = "en"
    assert all("\u00a0" not in t.label for t in controller.screen().moves)


def test_the_hint_can_be_switched_off_per_game_and_stays_off(store):
    controller = Controller(store, "fr", auto_resume=False)
    controller.handle(Tap("game:traverse"))
    assert "Conseil : oui" in [t.label.replace("\u00a0", " ") for t in controller.screen().options]
    controller.handle(Tap("hintset:"))
    controller.handle(Tap("start:"))
    rng = random.Random(2)
    while controller.dice_request() or not isinstance(controller.state.actor, int):
        controller.play(controller.state.sample_chance(rng).notation)
    assert "hint:" not in [t.id for t in controller.screen().actions]
    assert not Controller(store, "fr", auto_resume=False).hint_enabled("traverse")
    assert Controller(store, "fr", auto_resume=False).hint_enabled("struggle")


def test_no_hint_for_card_games_whose_hands_the_companion_does_not_know(store):
    controller = Controller(store, "fr", auto_resume=False)
    controller.start_game("sequence", ["Ann", "Bob"], seed=1, mode="table")
    controller.play("cut KS 2H")  # who deals: told by the players at a table
    assert "hint:" not in [t.id for t in controller.screen().actions]


def test_the_hint_closes_when_the_position_changes(store):
    controller = at_a_choice(store, "traverse")
    open_hint(controller)
    assert controller.table.turn.hint_open
    controller.play(controller.state.legal_actions()[0].notation)
    assert not controller.table.turn.hint_open


# ----- bot seats ----------------------------------------------------------------------------


def set_up(controller: Controller, game: str, kinds: dict[int, int]) -> None:
    """The set-up screen: `kinds` touches on each seat's kind (1: simple, 3: advisor)."""
    controller.handle(Tap(f"game:{game}"))
    for seat, touches in kinds.items():
        for _ in range(touches):
            controller.handle(Tap(f"seat:{seat}"))
    controller.handle(Tap("start:"))


def test_a_seat_becomes_a_bot_that_chooses_shows_then_plays(store):
    controller = Controller(store, "fr", seed_source=random.Random(5), auto_resume=False)
    set_up(controller, "traverse", {1: 3})
    assert controller.session.bots == {1: "advisor"}
    assert controller.session.record.players[1] == "Robot 2"
    rng = random.Random(4)
    now = 100.0
    shown = False
    while controller.state.actor != 1 or controller.dice_request():
        state = controller.state
        if controller.dice_request() or not isinstance(state.actor, int):
            controller.play(state.sample_chance(rng).notation)  # the bot's dice too: thrown
        else:
            controller.play(state.legal_actions()[0].notation)
        shown = controller.tick(now)  # a fast worker may have chosen already
        assert not shown or controller.state.actor == 1
    before = logged(controller)
    shown = controller.tick(now) or shown  # any tick may be the one the worker's choice shows at
    controller.table.advice.wait()
    assert controller.tick(now) or shown, "the bot's choice is shown"
    assert "Robot 2 (robot) choisit" in controller.message.replace("\u00a0", " ")
    assert controller.table.turn.guess and logged(controller) == before
    assert not controller.tick(now + BOT_SHOW_SECONDS / 2)
    assert controller.tick(now + BOT_SHOW_SECONDS)
    assert len(logged(controller)) == len(before) + 1
    assert controller.dice_request() is not None  # the next throw is the players' again


def test_a_bot_never_throws_the_dice_itself(store):
    controller = Controller(store, "fr", seed_source=random.Random(5), auto_resume=False)
    set_up(controller, "roudalon", {0: 1, 1: 1, 2: 1})
    for step in range(20):
        controller.tick(float(step))
        controller.table.advice.wait()
    assert controller.dice_request() is not None  # the roll-off: someone throws for each
    assert logged(controller) == []


def test_bot_seats_are_kept_with_the_game_and_resumed(store):
    controller = Controller(store, "fr", seed_source=random.Random(5), auto_resume=False)
    set_up(controller, "struggle", {1: 2})
    resumed = Controller(store, "fr")
    assert resumed.session.bots == {1: "advisor-fast"}


def test_every_seat_cannot_be_a_bot(store):
    controller = Controller(store, "fr", auto_resume=False)
    controller.handle(Tap("game:traverse"))
    controller.handle(Tap("seat:0"))
    controller.handle(Tap("seat:1"))
    assert len(controller.setup.draft.bots) == 1 and controller.error


def test_a_card_game_with_a_bot_is_dealt_by_the_companion(store):
    controller = Controller(store, "fr", seed_source=random.Random(5), auto_resume=False)
    set_up(controller, "sequence", {1: 1})
    assert controller.session.record.mode == "full"
    for step in range(40):  # the deal is automatic; the bot's turns come and go
        state = controller.state
        if isinstance(state.actor, int) and not controller.session.bots.get(state.actor):
            controller.play(state.legal_actions()[0].notation)
        controller.tick(float(step) * BOT_SHOW_SECONDS)
        controller.table.advice.wait()
    names = {logged_action.split("@")[0] for logged_action in logged(controller)}
    assert len(logged(controller)) > 4 and names


def bot_choice_shown(store) -> tuple[Controller, float]:
    """A Traverse game whose second seat is the advisor bot, its choice on the screen."""
    controller = Controller(store, "fr", seed_source=random.Random(5), auto_resume=False)
    set_up(controller, "traverse", {1: 3})
    rng = random.Random(4)
    while controller.state.actor != 1 or controller.dice_request():
        state = controller.state
        if controller.dice_request() or not isinstance(state.actor, int):
            controller.play(state.sample_chance(rng).notation)
        else:
            controller.play(state.legal_actions()[0].notation)
    now = 100.0
    controller.tick(now)
    controller.table.advice.wait()
    assert controller.tick(now) and controller.table.turn.guess
    return controller, now


def test_nobody_can_touch_or_confirm_a_bots_move_while_it_is_shown(store):
    controller, now = bot_choice_shown(store)
    before = logged(controller)
    shown = controller.table.turn.guess
    screen = controller.screen()
    assert screen.moves == [] and not any(t.id.startswith("move:") for t in screen.actions)
    assert screen.preview, "the bot's move is shown on the board"
    other = next(a.notation for a in controller.state.legal_actions() if a.notation != shown)
    for event in (Tap(f"move:{shown}"), Tap(f"move:{other}"), Press("confirm"),
                  Tap("piece:pawn:white1"), Tap("hint:")):  # fmt: skip
        controller.handle(event)
        assert logged(controller) == before, event
        assert controller.error and "robot" in controller.message
    assert controller.tick(now + BOT_SHOW_SECONDS)
    assert logged(controller) == before + [shown]


def test_a_traverse_hint_names_pawns_as_the_list_of_moves_does(store):
    controller = at_a_choice(store, "traverse")
    screen = open_hint(controller)
    listed = {c.notation: c.label for c in controller.table.choices(controller.state)}
    colour = "Rouge" if controller.state.actor == 0 else "Blanc"
    for target, choice in zip(screen.moves, controller.table.hint.choices(), strict=True):
        said = target.label.split(" — ")[0].split(" · ")[0]
        assert "pion" not in said
        for pawn in re.findall(r"(\d+)[+-]\d+", choice.notation):
            assert f"{colour} {pawn} " in said
            assert f"{colour} {pawn} " in listed.get(choice.notation, said)
