"""What a group of newcomers met at the table (issue 57): each problem held by a test."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from companion.controller import Controller, Press, Settled, Tap
from companion.feed import DiceFeed
from companion.persistence.store import Store
from display.i18n import text
from hardware.camera import Frame
from tests.test_companion_controller import logged, reading, roll


@pytest.fixture
def controller(tmp_path):
    with Store(tmp_path / "state") as store:
        yield Controller(store, "fr", moves_per_page=6, seed_source=random.Random(0))


def drawn_words(controller: Controller, size: tuple[int, int]) -> list[str]:
    """Every label the renderer draws for the screen shown (none clipped)."""
    from display.render import Renderer

    renderer = Renderer(size)
    drawn: list[str] = []
    label = renderer.label

    def recorded(words: str, *rest, **named):
        drawn.append(words)
        return label(words, *rest, **named)

    renderer.label = recorded
    renderer.draw(controller.screen())
    assert not renderer.problems, renderer.problems
    return drawn


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


# ----- set-up --------------------------------------------------------------------------------


def test_a_seat_back_to_a_person_gets_its_name_back(controller):
    """Item 4: Personne -> Robot -> ... -> Personne left the seat named "Robot 2"."""
    controller.handle(Tap("game:traverse"))
    controller.handle(Tap("name:1"))
    for key in "ZOE":
        controller.handle(Tap(f"key:{key}"))
    controller.handle(Tap("entry:ok"))
    for _ in range(4):  # through each bot level, back to a person
        controller.handle(Tap("seat:1"))
    assert controller.setup.draft.players[1] == "Zoe" and not controller.setup.draft.bots


def test_more_players_than_the_game_takes_is_said(controller):
    """Item 5: "+ joueur" in Traverse (two players only) did nothing and said nothing."""
    controller.handle(Tap("game:traverse"))
    controller.handle(Tap("count:+"))
    assert controller.error and "2" in controller.message
    assert len(controller.setup.draft.players) == 2


def test_sequence_teams_shown_are_the_teams_played(controller):
    """Item 7: 3 players showed "Teams: 2" selected, then started with 3 teams."""
    controller.handle(Tap("game:sequence"))
    controller.handle(Tap("count:+"))
    assert len(controller.setup.draft.players) == 3
    teams = [t for t in controller.screen().options if t.id.startswith("teams:")]
    assert [(t.id, t.style) for t in teams] == [("teams:3", "selected")]
    controller.handle(Tap("teams:2"))
    assert controller.error
    controller.handle(Tap("start:"))
    assert controller.state.game.teams == 3


def test_the_hint_setting_is_offered_only_where_a_hint_can_appear(controller):
    """Item 8: "Conseil : oui" for Stratégix and Sequence at a table, and no hint there."""
    for game in ("strategix", "sequence"):
        controller.handle(Tap(f"game:{game}"))
        assert not any(t.id == "hintset:" for t in controller.screen().options)
        controller.handle(Tap("nav:home"))
    controller.handle(Tap("game:struggle"))
    assert any(t.id == "hintset:" for t in controller.screen().options)


def test_an_option_touched_says_what_it_does(controller):
    """Item 9: "Dés obligatoires : oui" was not explained."""
    controller.handle(Tap("game:traverse"))
    controller.handle(Tap("option:compulsory_dice"))
    assert "Dés obligatoires" in controller.message and "—" in controller.message
    assert not controller.error


# ----- throwing and reading ------------------------------------------------------------------


class StillCamera:
    """A tray nobody touches: the same frame every time."""

    def __init__(self) -> None:
        self.image = np.full((120, 160, 3), 90, np.uint8)

    def read(self, timeout: float = 0.0) -> Frame:
        return Frame(self.image, 0.0, 0)


def test_dice_left_on_the_tray_are_not_read_again_for_the_next_game():
    """Item 17: a new game opened on the previous game's dice ("2 dés attendus, 5 vus")."""
    feed = DiceFeed(StillCamera(), settle_frames=2)
    feed.read = lambda image, kind: reading(4, 4, 2, 6, 1)
    first = [e for _ in range(10) for e in feed.step("poker") if isinstance(e, Settled)]
    assert len(first) == 1
    later = [e for _ in range(10) for e in feed.step("d6") if isinstance(e, Settled)]
    assert later == []


def struggle_hand(controller: Controller) -> None:
    """Struggle, Ann's first throw read: her hand of five dice to keep or throw again."""
    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    controller.table.dice.can_throw = True  # the simulated camera
    controller.play("first 0")
    roll(controller, "9", "10", "J", "Q", "K")


def test_relancer_throws_the_dice_chosen(controller):
    """Item 16: "Relancer" did not throw; a second "Lancer" was needed."""
    struggle_hand(controller)
    assert controller.table.hand()
    controller.handle(Tap("hand:0"))
    controller.handle(Tap("hand:1"))
    controller.handle(Tap("reroll:"))
    assert logged(controller)[-1].startswith("rethrow ")
    wanted = controller.table.dice.throw_wanted
    assert wanted is not None and wanted.count == 2


def test_r_when_no_dice_are_wanted_says_so(controller):
    """Item 18: R on a staking turn said "Attendez la lecture des dés"."""
    roudalon_with_two_dice(controller)
    controller.handle(Press("reroll"))
    assert controller.error and "lecture" not in controller.message


# ----- playing -------------------------------------------------------------------------------


def test_a_swipe_on_the_move_list_plays_nothing(controller):
    """Item 26 and its class: a swipe on a list played the move under the finger."""
    import pygame

    from display.window import Window

    roudalon_with_two_dice(controller)
    window = Window((800, 480), kiosk=False)
    try:
        window.show(controller.screen())
        rect = next(r for r, t in window.renderer.hits if t.startswith("move:stake"))
        start, end = rect.center, (rect.centerx, rect.centery + 3 * rect.height)

        def touches(*events: tuple[int, tuple[int, int]]) -> list[str]:
            pygame.event.clear()
            for kind, pos in events:
                pygame.event.post(pygame.event.Event(kind, pos=pos, button=1))
            return [i.value for i in window.poll() if i.kind == "tap"]

        assert touches((pygame.MOUSEBUTTONDOWN, start), (pygame.MOUSEBUTTONUP, end)) == []
        tapped = touches((pygame.MOUSEBUTTONDOWN, start), (pygame.MOUSEBUTTONUP, start))
        assert len(tapped) == 1 and tapped[0].startswith("move:stake")
    finally:
        window.close()


def struggle_reveal(controller: Controller) -> None:
    """Struggle in table mode played with random moves to the objective reveal."""
    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    rng = random.Random(2)
    while controller.state.view(None).get("phase") != "reveal":
        if controller.dice_request():
            roll(controller, *controller.state.sample_chance().notation.split()[1:])
        else:
            controller.play(rng.choice(controller.state.legal_actions()).notation)


def test_the_objective_reveal_speaks_words_and_forgets_an_old_refusal(controller):
    """Item 22: raw notation in the reveal's refusal, kept after Effacer; item 23: the hint
    offered orders to choose (the card's order is not a choice) with nothing to confirm."""
    struggle_reveal(controller)
    assert not any(t.id == "hint:" for t in controller.screen().actions)
    controller.handle(Tap("key:K"))
    controller.handle(Tap("entry:ok"))
    assert controller.error and "objective" not in controller.message
    controller.handle(Tap("entry:clear"))
    assert controller.message == ""


def test_the_dice_kept_follow_the_dice_chosen_to_throw_again(controller):
    """Item 21: "gardés : aucun" stayed after the dice to re-throw were chosen."""
    struggle_hand(controller)
    assert "aucun" in controller.screen().turn
    controller.handle(Tap("hand:0"))
    turn = controller.screen().turn
    assert "aucun" not in turn and "10 J Q K" in turn


# ----- command line --------------------------------------------------------------------------


def test_the_help_names_every_bench_target(capsys):
    """Item 34: `tabletop --help` listed four bench targets of eight."""
    from tabletop.cli import main
    from tabletop.commands.bench import TARGETS

    with pytest.raises(SystemExit):
        main(["--help"])
    listed = capsys.readouterr().out
    assert all(target in " ".join(listed.split()) for target in TARGETS)


def test_an_objective_already_revealed_is_refused_in_words(controller):
    """Item 22's class: an order quoted by the engine reached the screen as notation."""
    struggle_reveal(controller)
    for key in ("K", "Q", "J", "10", "9"):
        controller.handle(Tap(f"key:{key}"))
    controller.handle(Tap("entry:ok"))
    controller.handle(Tap("entry:clear"))
    for key in ("K", "Q", "J", "10", "9"):
        controller.handle(Tap(f"key:{key}"))
    controller.handle(Tap("entry:ok"))
    assert controller.error and "K Q J" not in controller.message and "Roi" in controller.message


def test_a_language_set_in_the_config_is_used_after_one_was_picked(controller):
    """Item 32: `language = "en"` was ignored once a language was picked in Settings."""
    store = controller.store
    controller.handle(Tap("nav:settings"))
    controller.handle(Tap("lang:fr"))
    assert Controller(store, "en").language == "en"  # the config file says en now
    Controller(store, "en").handle(Tap("lang:fr"))
    assert Controller(store, "en").language == "fr"  # picked since: kept


def test_run_takes_the_panel_size_and_language_on_the_command_line():
    """Item 33: `tabletop run` had no option for screen size or language."""
    import argparse

    from companion.config import Config
    from tabletop.commands.run import add_parser, with_command_line

    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    args = parser.parse_args(["run", "--size", "720x1280", "--language", "en"])
    config = with_command_line(Config(), args)
    assert config.display.size == (720, 1280) and config.language == "en"


def test_the_name_keyboard_shows_the_name_as_saved_and_opens_on_letters(controller):
    """Item 10: "CHLOÉ" while typing, saved "Chloé"; reopened on the accents page."""
    controller.handle(Tap("game:traverse"))
    controller.handle(Tap("name:0"))
    controller.handle(Tap("keys:more"))
    for key in ("C", "H", "L", "O", "É"):
        controller.handle(Tap(f"key:{key}"))
    assert controller.screen().entry == "Chloé"
    controller.handle(Tap("entry:ok"))
    controller.handle(Tap("name:1"))
    assert any(t.id == "key:A" for t in controller.screen().keys)


def test_the_camera_view_before_any_picture_does_not_look_broken():
    """Item 11: before the first throw the camera panel said "pas d'image caméra"."""
    from display import camera_view

    source = Path(camera_view.__file__).read_text(encoding="utf-8")
    assert '"no_camera_frame"' not in source
    assert "image" not in text("fr", "camera_waiting")


def test_die_buttons_only_when_the_count_is_wrong(controller):
    """Item 14: "+ dé" / "− dé" beside every reading wrapped onto two lines at 800×480;
    they are offered when the reading has too few or too many dice, or a die is touched."""
    struggle_hand(controller)
    controller.handle(Tap("hand:0"))
    controller.handle(Tap("hand:1"))
    controller.handle(Tap("reroll:"))  # two dice wanted
    controller.handle(Settled(reading("9", "K"), np.zeros((120, 160, 3), np.uint8)))
    ids = [t.id for t in controller.screen().actions]
    assert "die:add" not in ids and "die:remove" not in ids
    controller.handle(Tap("die:0"))
    assert "die:remove" in [t.id for t in controller.screen().actions]
    controller.handle(Tap("die:remove"))
    assert "die:add" in [t.id for t in controller.screen().actions]


def test_sequence_prompts_follow_what_was_typed_and_what_was_touched(controller):
    """Item 29: an occupied square answered "Enter the play made"; after "Jack of diamonds"
    the prompt still spoke of the suit."""
    controller.start_game("sequence", ["Ann", "Bob"], seed=1)
    controller.handle(Tap("move:dealer 0"))
    state = controller.state
    play = next(a.notation for a in state.legal_actions() if "@" in a.notation)
    controller.play(play)  # Bob's chip on the board
    controller.play(next(a.notation for a in controller.state.legal_actions() if "@" in a.notation))
    controller.handle(Tap(f"square:{play.split('@')[1]}"))
    assert controller.error and "jeton" in controller.message
    controller.handle(Tap("key:J"))
    controller.handle(Tap("key:D"))
    assert "couleur" not in controller.message and "case" in controller.message


def test_roudalon_says_why_the_last_ally_still_throws(controller):
    """Item 27: the total hit the pot before the last ally, who still threw; nothing said why."""
    roudalon_with_two_dice(controller)
    for notation in ("offer", "yes", "close", "throw 2"):
        controller.play(notation)
    roll(controller, 2, 2)  # 4: the pot of four stakes, with Bob still to throw
    assert "dernier" in controller.screen().turn


def test_scores_of_a_player_print_words_not_python(tmp_path, capsys):
    """Item 34: `tabletop scores --player` printed raw Python dicts."""
    from tabletop.cli import main

    with Store(tmp_path) as store:
        store.finish(store.start_game("traverse", ["Ann", "Bob"]), [3, 1], [0])
    assert main(["scores", "--state-dir", str(tmp_path), "--player", "Ann"]) == 0
    printed = capsys.readouterr().out
    assert "{" not in printed and "Traverse" in printed and "wins 1" in printed


def test_the_space_key_is_not_cut(controller):
    """Item 10: the space key read "espa"."""
    controller.handle(Tap("game:traverse"))
    controller.handle(Tap("name:0"))
    space = next(t for t in controller.screen().keys if t.id == "key: ")
    assert len(space.label) <= 2


def test_a_hint_chosen_in_traverse_is_shown_in_the_move_list(controller):
    """Item 23: in Traverse the hint's chosen move was not in the list of moves."""
    controller.start_game("traverse", ["Ann", "Bob"], seed=3, mode="full")
    while controller.state.is_chance:
        controller.play(controller.state.sample_chance().notation)
    controller.handle(Tap("hint:"))
    controller.table.advice.wait()
    controller.handle(Tap("hint:0"))
    guess = controller.table.turn.guess
    first = controller.screen().moves[0]
    assert first.style == "selected" and first.id == f"move:{guess}"


def test_strategix_before_the_first_lead_shows_round_one_and_no_empty_hands(controller):
    """Item 25: before the first lead the board showed "Round 0/2" and "0 cards"."""

    controller.start_game("strategix", ["Ann", "Bob", "Cid"], seed=1)
    drawn = drawn_words(controller, (800, 480))
    assert not any(" 0/" in words for words in drawn)
    assert not any(words.endswith(" 0 carte") or " 0 cartes" in words for words in drawn)


def test_roudalon_throws_and_alliances_come_before_the_stakes(controller):
    """Item 28: the throw and alliance choices sat on page 2 behind six stake buttons."""
    roudalon_with_two_dice(controller)
    moves = [m.id for m in controller.screen().moves]
    assert moves[:3] == ["move:throw 1", "move:throw 2", "move:offer"]


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_each_name_sits_beside_its_seat_kind(controller, size):
    """Item 6: in portrait a name and its seat-type button sat in different rows."""
    from display.render import Renderer

    controller.handle(Tap("game:sequence"))
    controller.handle(Tap("count:+"))
    controller.handle(Tap("count:+"))
    renderer = Renderer(size)
    renderer.draw(controller.screen())
    where = {target: rect for rect, target in renderer.hits}
    for seat in range(4):
        assert where[f"name:{seat}"].centery == where[f"seat:{seat}"].centery


def test_settings_show_the_camera_in_use(tmp_path, monkeypatch):
    """Item 32: the settings did not show which camera is in use."""
    from companion.app import App
    from companion.config import Config
    from hardware.simcam import SimulatedCamera

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    app = App(Config(state_dir=tmp_path), camera_spec="sim", kiosk=False)
    app.open(camera=SimulatedCamera(seed=1, stepped=True, size=(160, 120)))
    try:
        app.controller.handle(Tap("nav:settings"))
        chosen = [t.id for t in app.controller.screen().options if t.style == "selected"]
        assert "camera:sim" in chosen
    finally:
        app.close()


def test_a_chart_of_one_game_is_a_bar_with_its_value(controller):
    """Item 30: a chart of one game was a solid orange block with no axis or value."""

    store = controller.store
    store.finish(store.start_game("traverse", ["Ann", "Bob"]), [7, 1], [0])
    controller.handle(Tap("nav:scores"))
    controller.handle(Tap("player:Ann"))
    assert "7" in drawn_words(controller, (800, 480))


def test_the_scores_export_to_a_usb_stick_plugged_in(controller, tmp_path, monkeypatch):
    """Item 31: "Exporter CSV" named a path on the Pi that no one at the table can reach."""
    import os

    stick = tmp_path / "media" / "tabletop" / "CLE"
    stick.mkdir(parents=True)
    monkeypatch.setattr(os.path, "ismount", lambda path: str(path) == str(stick))
    controller.scores.media_root = tmp_path / "media"
    store = controller.store
    store.finish(store.start_game("traverse", ["Ann", "Bob"]), [7, 1], [0])
    controller.handle(Tap("nav:scores"))
    controller.handle(Tap("export:"))
    assert (stick / "scores.csv").exists() and "CLE" in controller.message


def test_touching_a_pawn_is_always_answered(controller):
    """Item 19: touching a Struggle pawn did nothing and said nothing."""
    from display.render import Renderer

    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    controller.play("first 0")  # Ann's dice are awaited: no move yet
    renderer = Renderer((800, 480))
    renderer.draw(controller.screen())
    pawns = [target for _, target in renderer.hits if target.startswith("piece:pawn:")]
    assert len(pawns) == 5
    controller.handle(Tap(pawns[0]))
    assert controller.error and controller.message
