"""The session controller driven by scripted events: touches, buttons, camera readings."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

import engines
from companion.controller import CameraImage, Controller, Press, Settled, Tap
from companion.persistence.store import Store
from vision.read.types import Die, Reading


def reading(*values) -> Reading:
    dice = (Die(v, (60.0 + 70 * i, 120.0), 0.999, None, sure=True) for i, v in enumerate(values))
    return Reading(tuple(dice))  # every die sure: confirmed at once


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "state") as opened:
        yield opened


@pytest.fixture
def controller(store):
    return Controller(store, "fr", moves_per_page=5, seed_source=random.Random(0))


def logged(controller: Controller) -> list[str]:
    return [a.notation for a in controller.store.actions(controller.session.record.id)]


def roll(controller: Controller, *values) -> None:
    controller.handle(Settled(reading(*values), np.zeros((120, 160, 3), np.uint8)))
    controller.handle(Press("confirm"))


def requires(game: str) -> None:
    if game not in engines.available_games():
        pytest.skip(f"the {game} engine is not built yet")


# ----- set-up --------------------------------------------------------------------------------


def test_setup_by_touch_names_players_and_starts(controller):
    controller.handle(Tap("game:struggle"))
    assert controller.screen_name == "setup"
    controller.handle(Tap("count:+"))
    assert len(controller.setup.draft.players) == 3
    controller.handle(Tap("name:0"))
    for key in "ZOE":
        controller.handle(Tap(f"key:{key}"))
    controller.handle(Tap("entry:ok"))
    assert controller.setup.draft.players[0] == "Zoe"
    controller.handle(Tap("name:1"))
    for key in "ZOE":  # a name already taken is refused, the draft keeps the old one
        controller.handle(Tap(f"key:{key}"))
    controller.handle(Tap("entry:ok"))
    assert controller.error and controller.setup.draft.players[1] != "Zoe"
    controller.handle(Tap("entry:clear"))
    controller.handle(Tap("key:B"))
    controller.handle(Tap("entry:ok"))
    controller.handle(Tap("start:"))
    assert controller.screen_name == "table"
    assert controller.state.players[:2] == ("Zoe", "B")
    assert controller.session.record.mode == "table"


def test_sequence_setup_with_teams(controller):
    requires("sequence")
    controller.handle(Tap("game:sequence"))
    for _ in range(3):
        controller.handle(Tap("count:+"))
    assert len(controller.setup.draft.players) == 6
    controller.handle(Tap("teams:3"))
    assert controller.setup.draft.teams == [0, 1, 2, 0, 1, 2]
    controller.handle(Tap("start:"))
    assert controller.session.record.teams == (0, 1, 2, 0, 1, 2)
    assert controller.state.view(None)["teams"] == 3


# ----- dice games ----------------------------------------------------------------------------


def test_struggle_roll_correct_confirm_rethrow_and_play(controller):
    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    controller.handle(Tap("move:first 1"))
    request = controller.dice_request()
    assert (request.kind, request.count) == ("poker", 5)
    controller.handle(Settled(reading("K", "Q", None, "A", "9")))
    assert controller.error and "illisible" in controller.message
    before = list(logged(controller))
    controller.handle(Press("confirm"))  # an unreadable die: nothing is played
    assert logged(controller) == before
    controller.handle(Tap("die:2"))
    assert [t.id for t in controller.screen().options][0] == "face:9"
    controller.handle(Tap("face:J"))
    controller.handle(Press("confirm"))
    assert logged(controller)[-1] == "roll 9 J Q K A"
    assert controller.store.actions(controller.session.record.id)[-1].corrected == 1
    screen = controller.screen()
    assert screen.moves and all("rethrow" not in m.id for m in screen.moves)
    assert "Lancer 1/3" in screen.turn
    controller.handle(Tap("hand:0"))
    controller.handle(Tap("hand:4"))
    controller.handle(Press("reroll"))
    assert logged(controller)[-1] == "rethrow 9 A"
    assert controller.dice_request().count == 2
    roll(controller, "K", "K")
    screen = controller.screen()
    assert "Lancer 2/3" in screen.turn and "gardés\u00a0: V D R" in screen.turn
    controller.handle(Tap(screen.moves[0].id))
    assert controller.state.view(None)["current"] == 0
    assert (
        "Valet" in controller.message or "Dame" in controller.message or "Roi" in controller.message
    )


def test_wrong_number_of_dice_is_fixed_by_adding_and_removing(controller):
    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    controller.handle(Tap("move:first 0"))
    controller.handle(Settled(reading("K", "Q", "A", "9", "9", "10")))
    assert controller.error and "6 vu" in controller.message
    controller.handle(Tap("die:5"))
    controller.handle(Tap("die:remove"))
    controller.handle(Press("confirm"))
    assert logged(controller)[-1] == "roll 9 9 Q K A"
    controller.handle(Tap("hand:0"))
    controller.handle(Press("reroll"))
    controller.handle(Tap("die:add"))  # nothing read at all: the dice are entered by hand
    controller.handle(Tap("face:A"))
    controller.handle(Press("confirm"))
    assert logged(controller)[-1] == "roll A"


def test_traverse_rolloff_read_by_camera_then_moves(controller):
    requires("traverse")
    controller.start_game("traverse", ["Ann", "Bob"], seed=2)
    roll(controller, 3, 4)
    roll(controller, 1, 2)
    assert controller.state.view(None)["current"] == 0
    roll(controller, 2, 5)
    screen = controller.screen()
    assert len(screen.moves) > screen.page[1]  # more moves than a page shows
    controller.handle(Tap("page:next"))
    assert controller.screen().page[0] == 1
    controller.handle(Tap("page:0"))
    assert controller.screen().page[0] == 0
    controller.handle(Tap(screen.moves[0].id))  # a pawn's line (a first roll): its moves
    move = next(m for m in controller.screen().moves if m.id.startswith("move:"))
    controller.handle(Tap(move.id))
    assert logged(controller)[-1] == move.id.removeprefix("move:")
    assert controller.dice_request().count == 2


def test_roudalon_stake_through_moves(controller):
    requires("roudalon")
    controller.start_game("roudalon", ["Ann", "Bob", "Cid", "Dee"], seed=2)
    for values in ((6, 6), (1, 1), (1, 2), (2, 2)):
        roll(controller, *values)
    screen = controller.screen()
    assert [m.id for m in screen.moves][0] == "move:stake 1"
    controller.handle(Tap("move:stake 3"))
    assert controller.state.view(None)["pot"] == 3


# ----- card games: entry by touch ------------------------------------------------------------


def test_strategix_play_typed_on_the_keyboard(controller):
    requires("strategix")
    controller.start_game("strategix", ["Ann", "Bob", "Cid"], seed=1)
    controller.handle(Tap("move:first 0"))
    screen = controller.screen()
    assert any(k.id == "key:B" for k in screen.keys)
    for key in ("*", "C", "D", "E"):
        controller.handle(Tap(f"key:{key}"))
    assert controller.table.turn.entry == "*=C D E"
    controller.handle(Tap("entry:ok"))
    assert logged(controller)[-1] == "play *=C D E"
    for key in ("B", "C"):  # weaker than C D E and a different formula: refused, says why
        controller.handle(Tap(f"key:{key}"))
    controller.handle(Tap("entry:ok"))
    assert controller.error and logged(controller)[-1] == "play *=C D E"
    controller.handle(Tap("play:pass"))
    assert logged(controller)[-1] == "pass"


def test_sequence_card_then_square(controller):
    requires("sequence")
    controller.start_game("sequence", ["Ann", "Bob"], seed=1)
    controller.handle(Tap("move:dealer 0"))
    view = controller.state.view(None)
    squares = [
        f"{'abcdefghij'[c]}{r + 1}"
        for r in range(10)
        for c in range(10)
        if view["cards"][r][c] == "7D"
    ]
    controller.handle(Tap("key:7"))
    controller.handle(Tap("key:D"))
    assert controller.screen().board_targets
    controller.handle(Tap(f"square:{squares[0]}"))
    assert logged(controller)[-1] == f"7D@{squares[0]}"
    before = logged(controller)
    controller.handle(Tap("key:7"))
    controller.handle(Tap("key:D"))
    controller.handle(Tap(f"square:{squares[0]}"))  # taken now: refused
    assert controller.error and logged(controller) == before


# ----- buttons through gpiozero's mock pins --------------------------------------------------


def test_gpio_buttons_confirm_and_reroll(controller):
    from gpiozero.pins.mock import MockFactory

    from hardware.buttons import Buttons

    factory = MockFactory()
    buttons = Buttons(confirm_pin=17, reroll_pin=27, pin_factory=factory, bounce_s=0.01,
                      long_press_s=0.5)  # fmt: skip
    try:
        controller.start_game("struggle", ["Ann", "Bob"], seed=1)
        controller.handle(Tap("move:first 0"))
        controller.handle(Settled(reading("K", "Q", "J", "A", "9")))

        def press(pin_number: int) -> None:
            pin = factory.pin(pin_number)
            pin.drive_low()
            time.sleep(0.05)
            pin.drive_high()
            controller.handle(Press(buttons.events.get(timeout=2)))

        press(17)
        assert logged(controller)[-1] == "roll 9 J Q K A"
        controller.handle(Tap("hand:1"))
        press(27)
        assert logged(controller)[-1] == "rethrow J"
    finally:
        buttons.close()


# ----- persistence, undo ---------------------------------------------------------------------


def test_restart_resumes_at_the_same_point(tmp_path):
    with Store(tmp_path) as store:
        first = Controller(store, "fr")
        first.start_game("struggle", ["Ann", "Bob"], seed=1)
        first.handle(Tap("move:first 0"))
        roll(first, "K", "K", "Q", "A", "9")
        history = [a.notation for a in first.state.history]
    with Store(tmp_path) as store:  # a new process after a power cut
        second = Controller(store, "fr")
        assert second.screen_name == "table"
        assert [a.notation for a in second.state.history] == history
        assert second.screen().moves == first.screen().moves


def test_undo_is_repeatable_to_the_start(controller):
    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    controller.handle(Tap("move:first 0"))
    roll(controller, "K", "K", "Q", "A", "9")
    controller.handle(Tap(controller.screen().moves[0].id))
    assert len(logged(controller)) == 3
    for expected in (2, 1, 0):
        controller.handle(Press("undo"))
        assert len(logged(controller)) == expected == len(controller.state.history)
    controller.handle(Tap("undo:"))
    assert controller.error and "Rien" in controller.message


def test_finished_game_is_scored_and_undo_reopens_it(controller):
    controller.start_game("struggle", ["Ann", "Bob"], seed=5, mode="full")
    rng = random.Random(1)
    while not controller.state.is_over:
        request = controller.dice_request()
        if request:
            roll(controller, *controller.state.sample_chance().notation.split()[1:])
        else:
            controller.handle(Tap(rng.choice(controller.screen().moves).id))
    record_id = controller.session.record.id
    assert controller.store.game(record_id).status == "over"
    assert [s for s, _ in controller.store.results(record_id)] == controller.state.scores()
    assert any(t.id == "game:struggle" for t in controller.screen().options)  # new game
    controller.handle(Press("undo"))  # asks first (issue 57: one touch reopened it)
    assert controller.store.game(record_id).status == "over"
    controller.handle(Press("undo"))
    assert controller.store.game(record_id).status == "playing"
    assert not controller.state.is_over


# ----- bad input on every screen -------------------------------------------------------------

BAD_TARGETS = [
    "bogus", "nav:nowhere", "game:chess", "count:7", "name:9", "teams:x", "option:nope",
    "key:B", "entry:ok", "entry:zap", "square:a1", "move:fly", "page:next", "die:9", "die:add",
    "face:7", "hand:9", "reroll:", "confirm:", "lang:de", "rules:chess", "play:pass",
]  # fmt: skip


@pytest.mark.parametrize("screen_name", ["home", "setup", "table", "scores", "settings", "rules"])
def test_bad_input_on_every_screen_changes_nothing(controller, screen_name):
    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    controller.handle(Tap("move:first 0"))
    if screen_name == "setup":
        controller.handle(Tap("game:struggle"))
    else:
        controller.handle(Tap(f"nav:{screen_name}"))
    assert controller.screen_name == screen_name
    history = logged(controller)
    for target in BAD_TARGETS:
        controller.handle(Tap(target))
        controller.screen()
    controller.handle(Press("explode"))
    controller.handle(CameraImage(np.zeros((48, 64, 3), np.uint8)))
    assert logged(controller) == history
    assert controller.error


@pytest.mark.parametrize("screen_name", ["home", "setup", "table", "scores", "settings", "rules"])
def test_every_target_on_every_screen_can_be_touched(controller, screen_name):
    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    controller.handle(Tap("move:first 0"))
    controller.handle(Settled(reading("K", "Q", "J", "A", "9")))
    controller.handle(Tap("game:struggle") if screen_name == "setup" else Tap(f"nav:{screen_name}"))
    for target in controller.screen().all_targets():
        controller.handle(Tap(target.id))
        controller.screen()


def test_english_labels(controller):
    controller.handle(Tap("lang:en"))
    screen = controller.screen()
    assert [t.label for t in screen.nav][0] == "Home"
    assert controller.store.setting("language") == "en"


# ----- settings: teaching poker dice, camera choice ------------------------------------------


def test_teach_poker_dice_face_by_face(controller):
    from vision.profiles.profile import FaceProfile
    from vision.synth.render import render_scene

    controller.handle(Tap("nav:settings"))
    controller.handle(Tap("teach:capture"))  # not started: refused
    assert controller.error
    controller.handle(Tap("teach:start"))
    controller.handle(Tap("teach:capture"))  # no camera frame yet: refused, still on "9"
    assert controller.error and controller.settings.teaching == 0
    for number, face in enumerate(("9", "10", "J", "Q", "K", "A")):
        scene = render_scene([face] * 3, kind="poker", seed=number)
        controller.handle(CameraImage(scene.frame))
        controller.handle(Tap("teach:capture"))
        assert not controller.error, controller.message
    assert controller.settings.teaching is None
    assert controller.store.setting("poker_profile") == controller.profile_path
    profile = FaceProfile.load(controller.profile_path)
    assert all(profile.examples[face] for face in profile.faces)


def test_camera_choice_is_kept(controller, store):
    controller.handle(Tap("nav:settings"))
    controller.handle(Tap("camera:sim"))
    assert Controller(store, "fr").camera_choice == "sim"
    controller.handle(Tap("camera:dslr"))
    assert controller.error and controller.camera_choice == "sim"


def test_scores_screen_shows_totals_and_a_players_history(controller, store):
    for scores, winners in (([20, 10], [0]), ([0, 30], [1])):
        store.finish(store.start_game("struggle", ["Ann", "Bob"]), scores, winners)
    controller.handle(Tap("nav:scores"))
    screen = controller.screen()
    assert screen.sections[0][0] == "Struggle"  # a section per game
    assert any("Bob\u00a0: 40" in line for line in screen.sections[0][1])
    controller.handle(Tap("player:Ann"))
    (head, lines), _ = controller.screen().sections
    assert head.startswith("Ann\u00a0: 2 parties, 1 victoire")
    assert any("record 20" in line for line in lines)
    controller.handle(Tap("player:Nobody"))
    assert controller.error


def test_undoing_a_roll_shows_its_reading_again_for_correction(controller):
    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    controller.handle(Tap("move:first 0"))
    roll(controller, "K", "K", "Q", "A", "9")
    controller.handle(Press("undo"))
    assert controller.dice_request() is not None
    assert controller.table.turn.proposal.faces == ["K", "K", "Q", "A", "9"]
    controller.handle(Tap("die:1"))
    controller.handle(Tap("face:J"))
    controller.handle(Press("confirm"))
    assert logged(controller)[-1] == "roll 9 J Q K A"


def test_struggle_objectives_are_typed_at_the_end_of_a_table_game(controller):
    controller.start_game("struggle", ["Ann", "Bob"], seed=2)
    controller.handle(Tap("move:first 0"))
    rng = random.Random(3)
    while controller.dice_request() or not controller.screen().keys:
        if controller.dice_request():
            roll(controller, *controller.state.sample_chance().notation.split()[1:])
        else:
            controller.handle(Tap(rng.choice(controller.screen().moves).id))
    screen = controller.screen()
    assert not screen.moves  # 120 orders are typed, not listed
    assert [k.id for k in screen.keys][:5] == ["key:K", "key:Q", "key:J", "key:10", "key:9"]
    for pawn in ("K", "Q", "J", "10", "9"):
        controller.handle(Tap(f"key:{pawn}"))
    controller.handle(Tap("entry:ok"))
    assert logged(controller)[-1] == "objective K Q J 10 9"
    for pawn in ("K", "Q", "J", "10", "9"):  # the same card twice: refused
        controller.handle(Tap(f"key:{pawn}"))
    controller.handle(Tap("entry:ok"))
    assert controller.error and logged(controller)[-1] == "objective K Q J 10 9"
    controller.handle(Tap("entry:clear"))
    for pawn in ("9", "10", "J", "Q", "K"):
        controller.handle(Tap(f"key:{pawn}"))
    controller.handle(Tap("entry:ok"))
    assert controller.state.is_over
    assert controller.store.game(controller.session.record.id).status == "over"


def test_sequence_dead_card_key(controller):
    requires("sequence")
    controller.start_game("sequence", ["Ann", "Bob"], seed=1)
    controller.handle(Tap("move:dealer 0"))
    controller.handle(Tap("key:7"))
    controller.handle(Tap("key:D"))
    controller.handle(Tap("entry:dead"))  # both 7D squares are free: not dead, refused
    assert controller.error and "pas une carte morte" in controller.message
    controller.handle(Tap("key:ZZ"))
    assert controller.error


def test_without_a_reading_the_dice_are_entered_by_hand(controller):
    controller.start_game("struggle", ["Ann", "Bob"], seed=1, mode="full")
    assert controller.dice_request() is not None and controller.table.turn.proposal is None
    assert any(t.id == "die:add" for t in controller.screen().options)
    faces = controller.state.sample_chance().notation.split()[1:]
    for face in faces:
        controller.handle(Tap("die:add"))
        controller.handle(Tap(f"face:{face}"))
    controller.handle(Press("confirm"))
    assert logged(controller)[-1] == "roll " + " ".join(faces)
