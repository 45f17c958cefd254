"""What a group of newcomers met at the table (issue 57): each problem held by a test."""

from __future__ import annotations

import random
import re
import tempfile
from itertools import pairwise
from pathlib import Path

import numpy as np
import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor import advise
from companion.advice import choice_words
from companion.controller import Controller, Press, Settled, Tap
from companion.feed import DiceFeed
from companion.persistence.store import Store
from display.i18n import face_letters, text
from display.layout import MIN_TEXT
from display.model import Screen
from hardware.camera import Frame
from tests.test_companion_controller import logged, reading, roll
from tests.test_struggle import full_game, table_game


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


@pytest.mark.parametrize("game", ["struggle", "traverse", "strategix", "sequence", "roudalon"])
@pytest.mark.parametrize("mode", ["table", "full"])
def test_every_dim_target_at_a_players_turn_is_refused(controller, game, mode):
    """Item 6 (en-09) and its class: Sequence's "Dead card" key was dim and worked."""
    seats = {"traverse": 2, "roudalon": 4}.get(game, 3)
    controller.start_game(game, ["Ann", "Bob", "Cid", "Dee"][:seats], seed=2, mode=mode)
    rng = random.Random(2)
    while not isinstance(controller.state.actor, int):
        assert controller.play(controller.state.sample_chance(rng).notation)
    quiet_targets_are_refused(controller)
    if game == "sequence" and mode == "table":  # a card typed: "Dead card" discards it
        controller.handle(Tap("key:5"))
        controller.handle(Tap("key:H"))
        quiet_targets_are_refused(controller)
        dead = next(key for key in controller.screen().keys if key.id == "entry:dead")
        assert dead.style != "quiet"  # it discards a dead card whenever one is typed


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


def test_player_counts_that_are_not_a_range_are_listed(controller):
    """Round 3 (s3-005): Le Roudalon's set-up said "4 to 6 players" where the rule book says 4
    or 6 (its rules page did): a group of five could not tell."""
    controller.handle(Tap("game:roudalon"))
    controller.handle(Tap("count:-"))
    assert controller.error and "4 ou 6" in controller.message and "à 6" not in controller.message


def test_a_new_seat_takes_a_name_no_one_at_this_table_bears(controller):
    """Seq2-01, en-04: the 4th seat beside Ana, Bob and Cléo was named "Joueur 1", a name an
    earlier game's seat had left (its scores would merge with theirs)."""
    store = controller.store
    earlier = store.start_game("sequence", ["Ana", "Bob", "Cléo", "Joueur 1"])
    store.finish(earlier, [1, 0, 0, 0], [0])
    controller.handle(Tap("game:sequence"))
    for _ in range(3):
        controller.handle(Tap("count:+"))
    players = controller.setup.draft.players
    assert len(players) == len(set(players)) >= 4
    assert players[:3] == ["Ana", "Bob", "Cléo"] and "Joueur 1" not in players


def test_sequence_teams_shown_are_the_teams_played(controller):
    """Item 7: 3 players showed "Teams: 2" selected, then started with 3 teams."""
    controller.handle(Tap("game:sequence"))
    controller.handle(Tap("count:+"))
    assert len(controller.setup.draft.players) == 3
    screen = controller.screen()
    assert not [t for t in screen.options if t.id.startswith("teams:")]  # no choice: a value
    assert controller.t("teams", n=3) in screen.lines
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


def test_confirm_while_the_dice_roll_says_they_are_still_being_read(controller):
    """Item 12: Lancer to a reading takes a second or more; Enter meanwhile was ignored."""
    controller.start_game("traverse", ["Ann", "Bob"], seed=3)
    controller.table.dice.can_throw = True  # the simulated camera
    controller.handle(Press("reroll"))
    assert controller.message == text("fr", "throwing") == "Les dés roulent…"
    assert not controller.error
    controller.handle(Press("confirm"))
    assert controller.error and controller.message == text("fr", "still_reading")
    assert "lecture" in controller.message and logged(controller) == []
    roll(controller, 3, 4)  # the reading arrives: confirm plays it
    assert logged(controller) == ["roll 3 4"]
    controller.handle(Press("confirm"))  # no throw asked: the usual line, not "still read"
    assert controller.message != text("fr", "still_reading")


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
    assert "aucun" not in turn and "10 V D R" in turn


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
    ids = [t.id for t in controller.screen().options]
    assert "die:add" not in ids and "die:remove" not in ids
    controller.handle(Tap("die:0"))
    assert "die:remove" in [t.id for t in controller.screen().options]
    controller.handle(Tap("die:remove"))
    assert "die:add" in [t.id for t in controller.screen().options]


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


def test_sequence_enter_and_corners_say_what_to_do_in_words(controller):
    """En-06, en-07, en-rules: a card + Enter answered with the engine's grammar; a corner
    answered "Enter the play made"; the rules said to touch a card there is no way to touch."""
    controller.language = "en"
    controller.start_game("sequence", ["Ann", "Bob"], seed=1)
    controller.handle(Tap("move:dealer 0"))
    controller.handle(Tap("key:5"))
    controller.handle(Tap("key:H"))
    controller.handle(Tap("entry:ok"))
    assert controller.message == "Now touch the square where the 5 of hearts was played"
    assert not re.search(r"CARD|@|[2-9TJQKA][SHDC]", controller.message)
    controller.handle(Tap("entry:clear"))
    controller.handle(Tap("square:a1"))
    assert controller.error and "everyone's free square" in controller.message
    rules = text("en", "rules.sequence")
    assert "touch the card" not in rules and "type the card played" in rules


@pytest.mark.parametrize("game", ["sequence", "strategix", "traverse"])
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_every_bot_move_since_a_persons_turn_is_named(controller, game, size):
    """Seq2-09 and its class: after two bots in a row only the last one's move was named."""
    from display.render import Renderer

    controller.use_layout(Renderer(size).layout)
    seats = {"traverse": ["Ann", "Robot 1"]}.get(game, ["Ann", "Robot 1", "Robot 2"])
    bots = {seat: "simple" for seat in range(1, len(seats))}
    seed = {"strategix": 5}.get(game, 3)  # both robots play before Ann
    controller.start_game(game, seats, seed=seed, mode="full", bots=bots)
    controller.table.advance_automatic()
    rng, now, persons_turns, own = random.Random(3), 0.0, 0, ""
    while persons_turns < 3 and not controller.state.is_over:
        state = controller.state
        if controller.dice_request() is not None or not isinstance(state.actor, int):
            assert controller.play(state.sample_chance(rng).notation)
        elif state.actor == 0:
            if persons_turns and len(bots) > 1 and controller.message != own:
                message = controller.message
                assert message.startswith("Depuis votre tour")
                assert all(name in message for name in seats[1:]), message
                drawn_words(controller, size)  # said whole
            persons_turns += 1
            controller.tick(now)  # a person to choose: the bots' moves are said
            assert controller.play(rng.choice(state.legal_actions()).notation)
            own = controller.message  # still said when Ann goes on (a formula's next group)
        else:
            now += 1.0
            controller.tick(now)
    assert persons_turns == 3 or controller.state.is_over


def test_sequence_scores_count_wins_not_sequences(controller):
    """Seq2-22: "Bob : 2 (2 parties, 1 victoire)" read as the winner; the 2 was his sequences."""
    store = controller.store
    store.finish(store.start_game("sequence", ["Ann", "Bob"]), [2, 1], [0])
    store.finish(store.start_game("sequence", ["Ann", "Bob"]), [0, 2], [0])
    controller.handle(Tap("nav:scores"))
    lines = dict(controller.screen().sections)["Sequence"]
    assert lines == ["Ann\u00a0: 2 victoires (2 parties)", "Bob\u00a0: 0 victoire (2 parties)"]


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_a_guessed_sequence_play_names_its_card_and_fits_its_button(controller, size):
    """Shot-039: a square touched gave a button saying only "Confirmer"; seq2-05: a hint's
    "5 de cœur : jeton en e5" spilled out of its button at 800x480."""
    from display.render import Renderer

    controller.use_layout(Renderer(size).layout)
    controller.start_game("sequence", ["Ann", "Bob", "Cid"], seed=1)
    controller.handle(Tap("move:dealer 0"))
    controller.handle(Tap("square:h6"))  # the 10 of diamonds
    guessed = next(t for t in controller.screen().actions if t.id == "move:TD@h6")
    assert guessed.label == "10♦ en h6"
    assert "10♦ en h6" in drawn_words(controller, size)  # whole, not clipped


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_sequence_card_labels_keep_apart(controller, size):
    """En-04: "10♣" on a6 and "10♠" on b6 ran together at 720x1280."""
    from display.boards import PAPER, PAPER_MARGIN
    from display.render import Renderer

    renderer = Renderer(size)
    controller.use_layout(renderer.layout)
    controller.start_game("sequence", ["Ann", "Bob"], seed=1)
    controller.handle(Tap("move:dealer 0"))
    surface = renderer.draw(controller.screen())
    squares = {target: rect for rect, target in renderer.hits if target.startswith("square:")}
    for name in ("a6", "b6", "c8", "i2", "j2"):  # 10♣ 10♠ 10♣ 10♥ 10♠
        rect = squares[f"square:{name}"]
        for x in (rect.left + 1, rect.right - PAPER_MARGIN + 1):
            column = {
                tuple(surface.get_at((x, y)))[:3] for y in range(rect.top + 4, rect.bottom - 4)
            }
            assert column == {PAPER}, (name, x)


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


def test_a_hint_chosen_in_traverse_is_played_as_a_listed_move_is(controller):
    """Item 23: in Traverse the hint's chosen move waited for a Confirm that was not in the
    list; C7: a listed move plays at once, so a hint's choice does too."""
    controller.start_game("traverse", ["Ann", "Bob"], seed=3, mode="full")
    while controller.state.is_chance:
        controller.play(controller.state.sample_chance().notation)
    controller.handle(Tap("hint:"))
    controller.table.advice.wait()
    best = controller.table.hint.choices()[0].notation
    before = list(controller.state.history)
    controller.handle(Tap("hint:0"))
    assert [a.notation for a in controller.state.history[len(before) :]][:1] == [best]


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


def words_in_status(controller: Controller, size: tuple[int, int]) -> list[str]:
    """The labels drawn in the status box (whose turn and the players' boxes)."""
    from display.render import Renderer

    renderer = Renderer(size)
    x, y, w, h = renderer.layout.status
    drawn: list[str] = []
    label = renderer.label

    def recorded(words: str, box, *rest, **named):
        if x <= box[0] < x + w and y <= box[1] < y + h:
            drawn.append(words)
        return label(words, box, *rest, **named)

    renderer.label = recorded
    renderer.draw(controller.screen())
    assert not renderer.problems, renderer.problems
    return drawn


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_roudalon_player_boxes_keep_their_scores(controller, size):
    """Item 28: with 4 players at 800×480 the player boxes showed names only."""
    names = ["Maxime", "Chloé", "Bérénice", "Léonard"]
    controller.start_game("roudalon", names, seed=1)
    drawn = words_in_status(controller, size)
    scores = controller.screen().scores
    assert all(any(name in words for words in drawn) for name, _ in scores)
    assert len([words for words in drawn if words.endswith(tuple(s for _, s in scores))]) == 4


def longest_traverse_play(language: str) -> str:
    """A two-pawn play that hits, then enters: the most words Traverse's last play can hold."""
    first = text(language, "traverse.said.back", pawn="Blanc 10", n=6)
    first = text(language, "traverse.said.hit", move=first, other="Rouge 10")
    rest = text(language, "traverse.said.forward", pawn="Blanc 10", n=5)
    rest = text(language, "traverse.said.home", move=rest)
    return text(language, "traverse.said.then", first=first, rest=rest)


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("language", ["fr", "en"])
def test_traverse_last_play_is_shown_whole(controller, size, language):
    """Item 24 and its class: the side panel cut the last play ("…avance de 6 et entre")."""
    from dataclasses import replace

    from display.render import Renderer

    controller.start_game("traverse", ["Maxime", "Chloé"], seed=3, mode="full")
    controller.language = language
    screen = controller.screen()
    last = longest_traverse_play(language)
    screen = replace(screen, board={**screen.board, "last_play_words": last})
    renderer = Renderer(size)
    drawn: list[str] = []
    label = renderer.label
    renderer.label = lambda words, *rest, **named: (
        drawn.append(words) or label(words, *rest, **named)
    )
    renderer.draw(screen)
    assert not renderer.problems, renderer.problems
    assert all(word in " ".join(drawn) for word in last.split())


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("game", ["traverse", "struggle"])
def test_a_touch_on_a_pawn_is_that_pawn_when_the_grid_is_small(controller, size, game):
    """Item 24's wider column makes Traverse's squares narrower than a finger: a touch on a
    pawn selected its neighbour, whose finger-sized area was drawn over it."""
    from dataclasses import replace

    from display.render import Renderer

    controller.start_game(game, ["Maxime", "Chloé"], seed=3, mode="full")
    screen = controller.screen()
    if game == "traverse":
        last = longest_traverse_play("fr")
        screen = replace(screen, board={**screen.board, "last_play_words": last})
    renderer = Renderer(size)
    renderer.draw(screen)
    pawns = {target: rect for rect, target in renderer.hits if target.startswith("piece:")}
    assert len(pawns) >= 5
    for target, rect in pawns.items():
        assert renderer.hit(rect.center) == target
        around = [r for r, t in renderer.hits if t == target]
        assert max(r.w for r in around) >= 44, "each pawn keeps a finger-sized area"


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_a_traverse_pawn_number_stays_inside_its_disc(controller, size):
    """Seen at 720×1280: pawn 10's number spilled out of its disc."""
    from display.render import Renderer

    controller.start_game("traverse", ["Maxime", "Chloé"], seed=3)
    renderer = Renderer(size)
    numbers: list[tuple[int, int, int]] = []
    label = renderer.label

    def recorded(words: str, box, size=None, *rest, **named):
        if words == "10":
            fitted = renderer.fitted_size(words, size, box[2])
            disc = box[2] - 4 - 2  # the square the label box widens, less the disc's rim
            numbers.append((renderer.font(fitted).size(words)[0], disc, fitted))
        return label(words, box, size, *rest, **named)

    renderer.label = recorded
    renderer.draw(controller.screen())
    assert len(numbers) == 2  # Rouge 10 and Blanc 10
    assert all(width <= disc or fitted == MIN_TEXT for width, disc, fitted in numbers), numbers


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_struggle_pawns_at_the_start_do_not_overlap(controller, size, monkeypatch):
    """Seen at 720×1280: the five pawns stacked on the start square overlapped."""
    from display import boards
    from display.render import Renderer

    discs: list[tuple[tuple[int, int], int]] = []
    pawn = boards._pawn
    monkeypatch.setattr(boards, "_pawn", lambda renderer, name, centre, radius, *rest: (
        discs.append((centre, radius + 2)) or pawn(renderer, name, centre, radius, *rest)
    ))  # fmt: skip
    controller.start_game("struggle", ["Maxime", "Chloé"], seed=3)
    Renderer(size).draw(controller.screen())
    assert len(discs) == 5
    for number, ((x, y), r) in enumerate(discs):
        for (x2, y2), r2 in discs[number + 1 :]:
            assert (x - x2) ** 2 + (y - y2) ** 2 >= (r + r2) ** 2, discs


def traverse_pawns_on_every_edge(controller: Controller) -> Screen:
    """Traverse with red pawns on their start and arrival lines in turn, white's the other
    way round: a pawn on each of the grid's four edges."""
    from dataclasses import replace

    controller.start_game("traverse", ["Maxime", "Chloé"], seed=3)
    screen = controller.screen()
    arrived = screen.board["axis_length"]
    red, white = [0, arrived] * 5, [arrived, 0] * 5
    return replace(screen, board={**screen.board, "red": red, "white": white})


def test_traverse_board_at_800x480_has_squares_a_finger_reads_and_clear_edges(
    controller, monkeypatch
):
    """D9: at 800x480 the side panel and the status under the board left 23-24 px squares,
    and pawns on the arrival lines touched the board's edge. The squares are 32 px or more
    and every pawn drawn lies inside the board's box, 4 px or more from its edges."""
    from display import boards
    from display.render import Renderer

    discs: list[pygame.Rect] = []
    pawn = boards._traverse_pawn
    monkeypatch.setattr(boards, "_traverse_pawn", lambda renderer, rect, *rest: (
        discs.append(rect.inflate(2, 2)) or pawn(renderer, rect, *rest)))  # fmt: skip
    renderer = Renderer((800, 480))
    renderer.draw(traverse_pawns_on_every_edge(controller))
    assert len(discs) == 20
    red_along_start = sorted(disc.centerx for disc in discs[:10:2])  # pawns 1, 3, 5, 7, 9
    assert min(b - a for a, b in pairwise(red_along_start)) >= 2 * 32  # a square between
    inside = pygame.Rect(renderer.layout.main).inflate(-8, -8)
    assert all(inside.contains(disc) for disc in discs), (inside, discs)


@pytest.mark.parametrize("stage", ["reading", "moves", "pawn", "correcting", "hint"])
def test_traverse_at_800x480_draws_nothing_over_anything(controller, stage):
    """D9's layout: the board full height and a column beside it keep every button 48 px or
    more, every word whole and no target over another (pawns and dice apart: their
    finger-sized areas may overlap, the nearest middle taking a touch)."""
    from display.render import Renderer

    if stage in ("reading", "correcting"):
        controller.start_game("traverse", ["Ann", "Bob"], seed=1)
        controller.handle(Settled(reading(3, 5), np.zeros((480, 640, 3), np.uint8)))
    else:
        traverse_first_roll(controller)
    if stage == "correcting":
        controller.handle(Tap("die:0"))
    if stage == "pawn":
        controller.handle(Tap("piece:pawn:red3"))
    if stage == "hint":
        controller.handle(Tap("hint:"))
        controller.table.advice.wait()
    renderer = Renderer((800, 480))
    renderer.draw(controller.screen())
    assert not renderer.problems, renderer.problems
    on_pictures = ("piece:", "die:")  # pawns and dice: the nearest middle takes a touch
    assert all(renderer.hit(r.center) == t for r, t in renderer.hits if t.startswith("die:"))
    targets = [(rect, t) for rect, t in renderer.hits if not t.startswith(on_pictures)]
    assert targets
    for number, (rect, target) in enumerate(targets):
        assert min(rect.w, rect.h) >= 48, (target, rect)
        assert pygame.Rect(0, 0, 800, 480).contains(rect), target
        for other_rect, other in targets[number + 1 :]:
            assert not rect.colliderect(other_rect), f"{target} overlaps {other}"
    board = pygame.Rect(renderer.layout.main)
    assert not any(board.colliderect(rect) for rect, _ in targets)


def strategix_play_through_a_round(controller: Controller) -> None:
    """Stratégix at the table, played (lowest letter led, else a pass) until round 1 ends."""
    import engines

    controller.start_game("strategix", ["Maxime", "Chloé", "Bérénice"], seed=1)
    controller.play(controller.state.sample_chance().notation)  # the youngest leads
    while controller.state.view(None)["round"] == 1:
        for notation in ["pass"] + [f"play {letter}" for letter in "BCDEFGHIJKLMNOPQRSTUVWXY"]:
            try:
                controller.state.clone().apply(notation)
            except engines.EngineError:
                continue
            controller.play(notation)
            break


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_strategix_announces_the_end_of_a_round_and_the_exchange(controller, size):
    """Item 25: the end of a round was not announced, nor the card exchange."""
    strategix_play_through_a_round(controller)
    assert "fin de la manche 1" in controller.message
    order = controller.state.view(None)["last_order"]
    dubolix, padbolix = (controller.state.players[seat] for seat in (order[0], order[-1]))
    turn = controller.screen().turn
    assert "pire carte" in turn and turn.index(dubolix) < turn.index(padbolix)
    drawn_words(controller, size)  # said whole, in both languages
    controller.language = "en"
    assert "worst card" in controller.screen().turn
    drawn_words(controller, size)
    controller.play("play B")
    assert "carte" not in controller.screen().turn


def test_sequence_column_says_long_names_and_the_cut_whole(controller):
    """Item 24's class at 800×480: Sequence's column cut a long name in the players' boxes
    and the cut for the dealer in the message."""
    controller.start_game("sequence", ["Maxime", "Chloé", "Bérénice"], seed=0)
    controller.play(controller.state.sample_chance().notation)
    drawn_words(controller, (800, 480))  # the cut's three players and cards, whole
    controller.start_game("sequence", ["Maxime", "Chloé", "Bérénice", "Léonard"], seed=0)
    controller.play(controller.state.sample_chance().notation)
    controller.play(next(a.notation for a in controller.state.legal_actions() if "@" in a.notation))
    assert any(words.endswith("…") for words in drawn_words(controller, (800, 480)))


def catalogue_messages(language: str, longer_than: int) -> list[str]:
    """Every message of the catalogue longer than `longer_than` characters, its fields filled
    with a long name (a number where the field counts), the rules pages aside."""
    import string

    from display.catalogue import load

    said = []
    for entry in load(language):
        if not isinstance(entry.id, str) or not entry.id or entry.id.startswith("rules."):
            continue
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string or entry.id,)
        fields = string.Formatter().parse(" ".join(forms))
        values = {name: 2 if spec else "Bérénice" for _, name, spec, _ in fields if name}
        try:
            words = text(language, entry.id, **values)
        except KeyError:  # a field of a nested plural form: not a message the table says
            continue
        if len(words) > longer_than:
            said.append(words)
    return said


@pytest.mark.parametrize("language", ["fr", "en"])
def test_any_message_fits_sequence_column_whole(language):
    """Found after item 24: with 4 players at 800×480 the cut for the dealer needed 4 lines
    and the column held 3. Its class: any message, under the keys of a card being typed."""
    from dataclasses import replace

    from display.render import Renderer

    with Store(Path(tempfile.mkdtemp()) / "state") as store:
        controller = Controller(store, language, seed_source=random.Random(0))
        controller.start_game("sequence", ["Maxime", "Chloé", "Bérénice", "Léonard"], seed=0)
        controller.play(controller.state.sample_chance().notation)
        shown = controller.screen()
    assert shown.keys and len(shown.message) > 110  # the cut of four, said whole
    for message in [shown.message, *catalogue_messages(language, 80)]:
        renderer = Renderer((800, 480))
        renderer.draw(replace(shown, message=message))
        assert not renderer.problems, renderer.problems


@pytest.mark.parametrize(
    "centres",
    [
        [(80, 60), (80, 78), (98, 69)],  # a tight cluster
        [(40, 60), (58, 60), (76, 60), (94, 60), (112, 60)],  # a row, touching
        [(80, 8), (80, 26), (62, 17)],  # against the top edge
    ],
)
def test_die_labels_never_overlap_nor_cover_another_die(centres):
    """Item 13: die labels overlapped each other or sat on a neighbouring die."""
    import pygame

    from display.model import DieMark, Screen
    from display.render import Renderer

    dice = [DieMark(i, c, None, "K", unsure=i == 1) for i, c in enumerate(centres)]
    screen = Screen("table", "Struggle", game="struggle", camera=np.zeros((120, 160, 3), np.uint8),
                    dice=dice)  # fmt: skip
    renderer = Renderer((800, 480))
    tags: list[pygame.Rect] = []
    label = renderer.label

    def recorded(words: str, box, *rest, **named):
        if words.startswith("K"):
            tags.append(pygame.Rect(box))
        return label(words, box, *rest, **named)

    renderer.label = recorded
    renderer.draw(screen)
    x, y, w, h = renderer.layout.main
    scale = min(w / 160, h / 120)
    left, top = x + (w - 160 * scale) // 2, y + (h - 120 * scale) // 2
    bodies = [
        pygame.Rect(left + cx * scale - 20, top + cy * scale - 20, 40, 40) for cx, cy in centres
    ]
    assert len(tags) == len(dice)
    for number, tag in enumerate(tags):
        assert not any(tag.colliderect(other) for other in tags[:number] + tags[number + 1 :])
        assert not any(tag.colliderect(body) for body in bodies)


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_struggle_hints_without_a_card_name_none_and_come_in_order(tmp_path, seed):
    """Item 20: in table mode, where the objective card was never entered, the hint quoted
    "Dame en B" (a card assumed) and ranked 38 % first, 39 % third."""
    from tests.test_advisor_table import at_a_choice, open_hint

    with Store(tmp_path / "state") as store:
        controller = at_a_choice(store, "struggle", mode="table", seed=seed)
        labels = [t.label for t in open_hint(controller).moves]
    assert len(labels) == 3
    assert all("avant les autres" in label for label in labels), labels
    assert not any(re.search(r"\ben [A-E]\b", label) for label in labels), labels
    percents = [int(re.search(r"(\d+)\s%", label).group(1)) for label in labels]
    assert percents == sorted(percents, reverse=True), labels


def test_struggle_hints_with_the_card_show_what_ranks_them(tmp_path):
    """Item 20, full mode: the figure shown is the expected score the hints are ranked by."""
    from tests.test_advisor_table import at_a_choice, open_hint

    with Store(tmp_path / "state") as store:
        controller = at_a_choice(store, "struggle", mode="full")
        labels = [t.label for t in open_hint(controller).moves]
    points = [float(re.search(r"(\d+,\d) points espérés", label).group(1).replace(",", "."))
              for label in labels]  # fmt: skip
    assert len(points) == 3 and points == sorted(points, reverse=True), labels


# ----- Stratégix as a newcomer played it (2 people, then one against a robot) ---------------


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("language", ["fr", "en"])
def test_strategix_rules_page_says_the_two_player_deal(controller, size, language):
    """The Règles page said nothing of the 2-player deal (R1)."""
    controller.language = language
    controller.handle(Tap("nav:rules"))
    controller.handle(Tap("rules:strategix"))
    said = " ".join(drawn_words(controller, size))
    for words in ("20", "48", "12", "40"):
        assert re.search(rf"\b{words}\b", said), words


def test_strategix_first_lead_says_no_round_end(controller):
    """Before any card was played the turn line said "fin de la manche 0 : échange"."""
    controller.start_game("strategix", ["Ann", "Bob"], seed=1)
    controller.play("first 1")
    for said in (controller.message, controller.screen().turn):
        assert "manche" not in said and "change" not in said, said


def test_strategix_against_a_robot_asks_who_is_youngest(controller):
    """R12: the robot simply led; the youngest leads, asked as at a table of people (with one
    person, that person leads unasked: tests/test_kiosk_newcomers_round3.py)."""
    controller.start_game("strategix", ["Ana", "Robot", "Cid"], seed=1, mode="full",
                          bots={1: "simple"})  # fmt: skip
    assert controller.state.is_chance
    assert controller.screen().turn == text("fr", "who_youngest")
    assert "move:first 0" in [m.id for m in controller.screen().moves]
    controller.handle(Tap("move:first 0"))
    assert controller.state.actor == 0 and controller.state.view(0)["hands"][0]


def strategix_against_a_robot(controller: Controller) -> list[str]:
    """Ana (who leads, the only person) against a simple robot, the kiosk dealing; her hand."""
    controller.start_game("strategix", ["Ana", "Robot"], seed=1, mode="full",
                          bots={1: "simple"})  # fmt: skip
    return list(controller.state.view(0)["hands"][0])


def strategix_the_robot_leads(controller: Controller) -> None:
    """Ana against a simple robot that leads: the kiosk made Ana, the only person, lead; the
    lead and the deal taken back, the robot named instead (as a test may, not a player)."""
    controller.start_game("strategix", ["Ana", "Robot"], seed=1, mode="full",
                          bots={1: "simple"})  # fmt: skip
    while controller.state.history:
        controller.session.undo()
    controller.play("first 1")


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_strategix_a_petard_is_not_drawn_as_a_letter(controller, size):
    """A pétard was an orange "P" card beside real P cards."""
    hand = strategix_against_a_robot(controller)
    assert "!" in hand and "P" in hand
    drawn = drawn_words(controller, size)
    assert drawn.count("P") == hand.count("P")
    assert drawn.count("!") == hand.count("!")


def robot_plays(controller: Controller, now: float) -> str:
    """The robot's turn on the kiosk's clock: its choice shown, then played; what it said."""
    from companion.bot_seats import BOT_SHOW_SECONDS

    controller.tick(now)
    controller.table.advice.wait()
    controller.tick(now)
    chosen = controller.message
    controller.tick(now + BOT_SHOW_SECONDS)
    return chosen


@pytest.mark.parametrize("language", ["fr", "en", "qps"])
def test_strategix_stars_are_said_in_words_and_pass_is_always_at_hand(controller, language):
    """Moves and messages said "Ana joue *=O *=O"; Passe sat on the last of 4 pages."""
    controller.language = language
    strategix_against_a_robot(controller)
    controller.handle(Tap("piece:card:*"))
    labels = [m.label for m in controller.screen().moves]
    assert not any("*" in label for label in labels), labels
    star = next(m.id for m in controller.screen().moves if "*=" in m.id)
    assert text(language, "strategix.star_for", letter=star[-1]) in " ".join(labels)
    controller.handle(Tap(star))
    assert "*" not in controller.message, controller.message
    now = 100.0
    while controller.state.actor == 1:  # a robot's play may take steps ("star L", then play)
        assert "*" not in robot_plays(controller, now)
        assert "*" not in controller.message, controller.message
        now += 10
    assert controller.state.actor == 0 and controller.state.view(0)["trick"]["top"]
    first_page = [m.id for m in controller.screen().moves[:2]]
    assert first_page == ["move:pass", "move:petard"]


def strategix_robot_round(controller: Controller, seed: int, rounds: int = 1) -> float:
    """Ana against a robot until `rounds` rounds end (Ana plays as a simple bot would); the
    kiosk's clock then."""
    from companion.bot_choice import make_player

    ana = make_player("simple", seed)
    controller.start_game("strategix", ["Ana", "Robot"], seed=seed, mode="full",
                          bots={1: "simple"})  # fmt: skip
    controller.play("first 0")
    now = 100.0
    while len(controller.state.view(None)["round_points"]) < rounds:
        if controller.state.actor == 1:
            robot_plays(controller, now)
            now += 10
            continue
        controller.handle(Tap("move:" + ana(controller.state)))
    return now


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_strategix_round_end_says_places_and_stays_until_read(controller, seed):
    """A round's end said nothing of who came first or last, and against a robot its line was
    replaced at once by the robot's next lead; the cards exchanged were never shown."""
    from companion.tables.strategix import ROUND_END_SECONDS

    now = strategix_robot_round(controller, seed)
    said = controller.message
    assert re.search(r"Dubolix (Ana|Robot) \+2, Padbolix (Ana|Robot) −2", said), said
    drawn = " ".join(drawn_words(controller, (720, 1280)))
    assert "Échange" in drawn, drawn  # Ana gave or got a card: she sees which
    drawn_words(controller, (800, 480))
    if controller.state.actor == 0:
        return  # Ana is Padbolix and leads: nothing waits on a robot
    controller.tick(now)
    controller.table.advice.wait()
    assert not controller.tick(now + ROUND_END_SECONDS / 2) and controller.message == said
    assert "seen:" in [a.id for a in controller.screen().actions]
    if seed % 2:
        controller.handle(Tap("seen:"))
    else:
        now += ROUND_END_SECONDS
    robot_plays(controller, now)
    assert controller.message != said


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_strategix_a_formula_being_built_shows_on_the_table_not_in_the_hand(controller, size):
    """A play of several groups showed only in the message line: the table said "Nouveau
    pli" and the hand still held the cards already chosen."""
    hand = strategix_against_a_robot(controller)
    controller.handle(Tap(f"piece:card:{next(card for card in hand if card.isalpha())}"))
    first = next(m for m in controller.screen().moves if m.id.endswith(" +") and "*" not in m.id)
    group = first.id.removeprefix("move:play ").removesuffix(" +").split()
    controller.handle(Tap(first.id))
    drawn = drawn_words(controller, size)
    assert text("fr", "board.new_trick") not in drawn
    assert text("fr", "board.building", name="Ana") in drawn
    for letter in set(group):  # on the table once each, in the hand as often as left there
        assert drawn.count(letter) == hand.count(letter), letter
    assert all(len(m.label) < 60 for m in controller.screen().moves)  # the group, not it all


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_strategix_game_over_shows_each_rounds_points(controller, size):
    """Game over showed "Nouveau pli" over an empty panel, and no points per round."""
    strategix_robot_round(controller, 1, rounds=2)
    assert controller.state.is_over
    drawn = drawn_words(controller, size)
    assert text("fr", "board.new_trick") not in drawn
    for number, points in enumerate(controller.state.view(None)["round_points"], start=1):
        row = next(words for words in drawn if words.startswith(f"Manche {number}"))
        assert all(f"{abs(p)}" in row for p in points), row
    assert "Dubolix" in controller.message and "Padbolix" in controller.message


def drawn_targets(controller: Controller, size: tuple[int, int]) -> dict[str, object]:
    """Where each target of the screen shown is drawn (its rectangle, by id)."""
    from display.render import Renderer

    renderer = Renderer(size)
    renderer.draw(controller.screen())
    return {target: rect for rect, target in renderer.hits}


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("game", ["traverse", "strategix", "roudalon", "struggle", "sequence"])
def test_game_over_undo_is_not_where_another_button_of_play_was(controller, size, game):
    """Game over: "Annuler" sat exactly where "Conseil" had been, so a habitual touch asked to
    reopen the game. Annuler keeps its own place (C7: each action one slot), where no other
    button of the actions row was during play, and still asks first."""
    players = {"sequence": 3, "roudalon": 4}.get(game, 2)
    controller.start_game(game, ["Ann", "Bob", "Cid", "Dee"][:players], seed=3, mode="full")
    rng = random.Random(1)
    during_play = []  # where the other actions were on the last turn
    while not controller.state.is_over:
        state = controller.state
        action = state.sample_chance(rng) if state.is_chance else rng.choice(state.legal_actions())
        after = state.clone()
        after.apply(action.notation)
        if after.is_over or not during_play:
            drawn = drawn_targets(controller, size)
            during_play += [drawn[a.id] for a in controller.screen().actions
                            if a.id in drawn and a.id != "undo:"]  # fmt: skip
        assert controller.play(action.notation), controller.message
    undo = drawn_targets(controller, size)["undo:"]
    assert undo.collidelist(during_play) == -1, (undo, during_play)
    controller.handle(Tap("undo:"))
    assert "rouvrir" in controller.message  # still there, and still asks first


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_strategix_round_points_of_four_players_fit(controller, size):
    """Four players' round points, each row whole on the 7" panel."""
    controller.start_game("strategix", [f"Joueur {n}" for n in range(1, 5)], seed=3, mode="full")
    rng = random.Random(1)
    while not controller.state.is_over:
        state = controller.state
        action = state.sample_chance(rng) if state.is_chance else rng.choice(state.legal_actions())
        controller.play(action.notation)
    assert " ".join(drawn_words(controller, size)).count("Joueur 4") >= 5


# ----- Struggle's choices (issue 57, second round) --------------------------------------------


def struggle_choice_points(seeds: range):
    """Struggle states where the acting player picks how the hand moves, from random games."""
    import engines

    for seed in seeds:
        rng = random.Random(seed)
        state = engines.make_game("struggle", ["A", "B", "C"], seed=seed).new_state()
        while not state.is_over:
            if state.is_chance:
                state.apply(state.sample_chance(rng))
                continue
            actions = state.legal_actions()
            if not any(a.notation.startswith("rethrow") for a in actions):
                yield state
            state.apply(rng.choice(actions))


def test_struggle_playing_no_pawn_comes_last_and_says_it_passes():
    """Round 2, item 1: "No pawn can move" was listed first, above real moves, and touching it
    wasted the turn: while a choice moves a pawn, the one moving none is last, said as a pass."""
    from companion.tables import table_for

    table, seen = table_for("struggle"), 0
    for state in struggle_choice_points(range(12)):
        choices = table.choices(state, "en")
        moving = [table.moves_a_pawn(state, c.notation) for c in choices]
        passes = [i for i, c in enumerate(choices) if c.label.startswith("Play no pawn (pass)")]
        assert not any("No pawn can move" in c.label for c in choices)
        if not passes or not any(moving):
            continue
        seen += 1
        assert moving == sorted(moving, reverse=True), [c.label for c in choices]
        assert passes[0] > max(i for i, moves in enumerate(moving) if moves)
    assert seen >= 5


NAMED_BUTTON = re.compile(r"\b(?:[Tt]ouch|then|or|again|[Tt]ouchez|puis|encore|ou) ([A-Z][\w-]+)")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_message_naming_a_button_uses_its_label(language):
    """Round 2, item 6: "touch Reroll" while the button reads "Re-throw"; the class: a button a
    message names is one whose label begins with that word."""
    from babel.messages.pofile import read_po

    path = Path(__file__).parents[1] / f"display/locale/{language}/LC_MESSAGES/tabletop.po"
    with path.open("rb") as po:
        said = [m.string for m in read_po(po) if m.id and isinstance(m.string, str)]
    labels = {s.split()[0] for s in said if s and len(s.split()) <= 4 and ":" not in s}
    named = {(word, s) for s in said for word in NAMED_BUTTON.findall(s)}
    assert named, "the pattern finds the messages naming buttons"
    assert [(word, s) for word, s in sorted(named) if word not in labels] == []


RULES_TAKE = [("en", "the square your pawn came from"), ("fr", "la case d'où vient votre pion")]


@pytest.mark.parametrize(("language", "said"), RULES_TAKE)
def test_struggle_rules_send_a_taken_pawn_where_the_engine_does(language, said):
    """Round 2, item 8: the rules page sent a taken pawn to "your start square"; the engine (and
    RULINGS 6, tests/test_struggle.py) send it to the square the mover came from."""
    rules = " ".join(text(language, "rules.struggle").split())
    assert said in rules and "start square" not in rules and "case de départ" not in rules


def test_struggle_pawns_stand_out_on_every_square_they_can_stand_on():
    """Round 2, item 10: the King pawn was the orange-red of the red squares. Pawns stand on
    yellow and red squares (a black one is an impasse); each fill differs from both, and from
    the other pawns, by a clear distance."""
    from display import palette

    fills = {pawn: fill for pawn, (fill, _) in palette.STRUGGLE_PAWNS.items()}
    squares = [palette.TRACK_COLOURS["Y"], palette.TRACK_COLOURS["R"]]

    def apart(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
        return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5

    for pawn, fill in fills.items():
        assert all(apart(fill, square) >= 90 for square in squares), pawn
        assert all(apart(fill, other) >= 90 for p, other in fills.items() if p != pawn), pawn


PAWN_NAMES = {"K": "King", "Q": "Queen", "J": "Jack", "10": "Ten", "9": "Nine"}
FACES = ["9", "10", "J", "Q", "K", "A"]


def pawns_a_choice_moves(state, choice) -> list[str]:
    """A play: the pawns whose square or box it changes; a re-throw: the racing figures kept."""
    racing = [p for p in PAWN_NAMES if p not in state.boxes]
    if choice.notation.startswith("rethrow"):
        return [p for p in choice.reason.params["kept"].split() if p in racing]
    after = state.clone()
    after.apply(choice.notation)
    return [p for p in racing if (after.squares.get(p), after.boxes.get(p))
            != (state.squares.get(p), state.boxes.get(p))]  # fmt: skip


@settings(max_examples=25, deadline=None)
@given(
    hand=st.lists(st.sampled_from(FACES), min_size=5, max_size=5),
    squares=st.lists(st.integers(0, 32), min_size=5, max_size=5),
    arrived=st.integers(0, 3),
    card=st.booleans(),
)
def test_struggle_hints_name_only_a_pawn_their_choice_moves(hand, squares, arrived, card):
    """Round 2, item 2 and round 3, E4: hints said "Queen arrives before the others" for a hand
    without a Queen (a re-throw of every die named any pawn): over hands and positions, with
    the card (full mode) and without (table mode), a hint names only a pawn its choice moves,
    its figure that pawn's chance (or the expected points), and the hints come in order."""
    state = full_game(("Ann", "Bob")) if card else table_game(("Ann", "Bob", "Cid"))
    pawns = list(PAWN_NAMES)
    state.boxes = dict(zip(pawns[:arrived], "ABCD", strict=False))
    state.squares = {p: s for p, s in zip(pawns, squares, strict=True) if p not in state.boxes}
    state.apply("roll " + " ".join(hand))
    choices = advise(state, iterations=1)  # never out of time: the same on any machine
    for choice in choices:
        moved = pawns_a_choice_moves(state, choice)
        pawn = choice.reason.params.get("pawn")
        assert pawn is None or pawn in moved, (choice, moved)
        if pawn is not None and not card:
            assert choice.figure == pytest.approx(choice.reason.params["chance"], abs=1e-4)
        words = choice_words(choice, "", "en")
        named = [p for p, name in PAWN_NAMES.items() if name in words]
        assert set(named) <= set(moved), (words, moved)
    figures = [c.figure for c in choices]
    assert figures == sorted(figures, reverse=True)


def test_roudalon_turn_line_names_who_answers_an_alliance(controller):
    """Round 2, item 3 (r-022): during an offer the line read "Anne : à vous de jouer" while the
    panel marked the player who offered: it names who answers, who offered, and what to do."""
    roudalon_with_two_dice(controller)
    controller.play("offer")
    turn = controller.screen().turn
    assert turn.startswith("Bob") and "Ann" in turn and "alliance" in turn, turn
    assert "à vous de jouer" not in turn
    for size in ((800, 480), (720, 1280)):
        drawn_words(controller, size)  # drawn whole at both sizes


def test_struggle_objective_keys_refuse_a_repeat_and_the_hand_line_clears(controller):
    """Round 2, item 7 (s-7176, s-077): "J J J J" was typed, refused only on Enter, and
    "Hand: 10 J J J J" stayed after the race: a pawn's key is spent once typed (drawn disabled,
    refused) until the entry is cleared, and the board shows no hand once the race is over."""
    struggle_reveal(controller)
    controller.handle(Tap("key:J"))
    keys = {t.id: t.style for t in controller.screen().keys}
    assert keys["key:J"] == "disabled" and keys["key:Q"] != "disabled"
    controller.say("")
    controller.handle(Tap("key:J"))
    assert controller.error and controller.table.turn.entry == "J"
    controller.handle(Tap("entry:clear"))
    assert {t.id: t.style for t in controller.screen().keys}["key:J"] != "disabled"
    hand = " ".join(controller.state.view(None)["hand"])
    assert hand and not any(hand in words for words in drawn_words(controller, (800, 480)))


def test_struggle_touched_pawn_is_marked_and_rings_only_its_squares(controller):
    """Round 2, item 9 (s-036): a touched pawn showed no mark (a yellow ring on a yellow square)
    and rings marked the other pawns' destinations too: only the touched pawn's are ringed."""
    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    controller.table.dice.can_throw = True
    controller.play("first 0")
    roll(controller, "10", "10", "K", "A", "A")
    controller.handle(Tap("piece:pawn:10"))
    screen = controller.screen()
    assert screen.selected == ["pawn:10"]
    options = screen.preview.get("options") or [screen.preview]
    assert len(options) > 1 and all(set(o["squares"]) | set(o["boxes"]) <= {"10"} for o in options)
    assert all("Ten" in m.label or "Dix" in m.label for m in screen.moves)


def test_r_on_an_unsure_die_asks_before_it_throws_again(controller):
    """Round 2, item 4 (r-032, r-033): R on a reading with a die marked "?" threw again at once,
    dropping the reading being settled: the first R says how to settle it, a second R throws."""
    from tests.test_table_unsure import throw

    controller.start_game("traverse", ["Alice", "Bruno"], seed=2)
    controller.table.dice.can_throw = True  # R throws (the simulated camera)
    throw(controller, {1: 6})
    controller.handle(Press("reroll"))
    assert controller.error and "R encore" in controller.message
    assert "marqué 6" in controller.message  # how to settle it by touch
    assert [m.unsure for m in controller.screen().dice] == [False, True]
    assert controller.table.dice.throw_wanted is None
    controller.handle(Press("reroll"))
    assert controller.table.dice.throw_wanted is not None


def test_roudalon_panel_says_whose_roll_off_dice_and_who_starts(controller):
    """Round 2, item 5 (r-008, r-013): the side panel read "Dés : 4 6" with no owner during the
    roll-off, and the last roll-off's "Dés : 4 4" stayed on the first staking turn."""
    controller.start_game("roudalon", ["Ann", "Bob", "Cid", "Dee"], seed=1)
    roll(controller, 4, 6)
    last = str(controller.screen().board.get("last_words"))
    assert last.startswith("Ann") and "4 6" in last, last
    for values in ((1, 1), (1, 2), (2, 2)):
        roll(controller, *values)
    last = str(controller.screen().board.get("last_words"))
    assert "Ann commence" in last and not last.startswith("Dés"), last
    for size in ((800, 480), (720, 1280)):
        drawn_words(controller, size)  # drawn whole at both sizes


def test_traverse_scorebook_counts_wins_not_pawns_home(tmp_path):
    """Round 2, item 12 (t-043s): the Traverse total added pawns home ("Bot 2: 10, Anne: 8")
    though the docs say Traverse counts wins."""
    with Store(tmp_path / "state") as store:
        for scores, winners in (([10, 8], [0]), ([3, 10], [1]), ([4, 10], [1])):
            store.finish(store.start_game("traverse", ["Bot 2", "Anne"]), scores, winners)
        totals = {row.player: row.total for row in store.totals() if row.game == "traverse"}
    assert totals == {"Anne": 2, "Bot 2": 1}


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_player_chart_has_a_legend(controller, size):
    """Round 2, item 12 (t-044s): the player page's scores chart, coloured by game and outlined
    when won, said neither."""
    store = controller.store
    store.finish(store.start_game("traverse", ["Ann", "Bob"]), [7, 1], [0])
    store.finish(store.start_game("struggle", ["Ann", "Bob"]), [10, 20], [1])
    controller.handle(Tap("nav:scores"))
    controller.handle(Tap("player:Ann"))
    drawn = drawn_words(controller, size)
    assert {"Traverse", "Struggle", "gagnée"} <= set(drawn), drawn


# ----- Struggle and Traverse play (issue 57, third round) --------------------------------------


def drawn_hits(controller: Controller, size: tuple[int, int] = (800, 480)) -> list[str]:
    """The target ids the renderer drew for the screen shown, in drawing order."""
    from display.render import Renderer

    renderer = Renderer(size)
    renderer.draw(controller.screen())
    return [target for _, target in renderer.hits]


# ----- a dealt hand is the way to act (issue 57, third round) ---------------------------------


def sequence_against_a_robot(controller: Controller) -> list[str]:
    """Ana against a simple robot, the kiosk dealing, Ana to play; Ana's hand."""
    controller.start_game("sequence", ["Ana", "Robot"], seed=1, mode="full",
                          bots={1: "simple"})  # fmt: skip
    rng = random.Random(1)
    while controller.state.is_chance:
        controller.play(controller.state.sample_chance(rng).notation)
    assert controller.state.actor == 0
    return list(controller.state.view(0)["hands"][0])


def drawn_hand(controller: Controller, size: tuple[int, int]) -> dict[str, object]:
    """The hand's cards drawn to touch, by id (each a finger's size: 44 px, as a square)."""
    drawn = drawn_targets(controller, size).items()
    cards = {target: rect for target, rect in drawn if target.startswith("piece:card:")}
    assert all(min(rect.size) >= 43 for rect in cards.values()), cards
    return cards


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_strategix_dealt_cards_are_touched_and_narrow_the_moves(controller, size):
    """C3, B6: against a robot the moves ran to 179 pages and the hand could not be touched."""
    from display.render import Renderer

    hand = strategix_against_a_robot(controller)
    renderer = Renderer(size)
    controller.use_layout(renderer.layout)
    cards = drawn_hand(controller, size)
    assert {f"piece:card:{card}" for card in hand if card != "!"} <= set(cards)  # no pétard lead
    renderer.draw(controller.screen())
    assert renderer.page_info[1] == 1 and not renderer.problems  # a summary, not pages
    plays = [c for c in controller.table.choices(controller.state) if c.pieces]
    assert f"({len(plays)} " in controller.screen().moves_note
    letter = next(card for card in hand if card.isalpha())
    controller.handle(Tap(f"piece:card:{letter}"))
    moves = controller.screen().moves
    assert moves[0].id == f"move:play {letter}"
    assert all(letter in move.id.removeprefix("move:").split() for move in moves)
    assert f"card:{letter}" in controller.screen().selected
    controller.handle(Tap(moves[0].id))
    assert controller.state.view(None)["trick"]["top"]["play"] == letter


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_sequence_dealt_cards_mark_their_squares_and_a_marked_square_plays(controller, size):
    """C3, B16: the hand was shown as pages of moves; a card touched marks its squares on the
    board, and a marked square touched plays it there."""
    hand = sequence_against_a_robot(controller)
    cards = drawn_hand(controller, size)
    assert {f"piece:card:{card}" for card in hand} == set(cards)
    assert not controller.screen().moves and controller.screen().moves_note
    card = next(c for c in hand if not c.startswith("J"))
    controller.handle(Tap(f"piece:card:{card}"))
    marked = [s for o in controller.screen().preview["options"] for s in o["squares"]]
    assert marked and all(m.id.startswith(f"move:{card}@") for m in controller.screen().moves)
    assert all(f"square:{square}" in drawn_targets(controller, size) for square in marked)
    controller.handle(Tap(f"square:{marked[-1]}"))
    assert controller.state.view(None)["last_square"] == marked[-1]
    assert controller.state.actor == 1


def test_sequence_a_two_eyed_jack_marks_the_board_instead_of_pages(controller):
    """A jack goes on any free square: its 90 squares are marked, not listed on 30 pages."""
    hand = sequence_against_a_robot(controller)
    jack = "JC" if "JC" in hand else "JD"
    controller.session.state = controller.state  # the same position, a jack put in the hand
    controller.state.hands = type(controller.state.hands)(
        [type(controller.state.hands[0])([jack, *hand[1:]]), controller.state.hands[1]]
    )
    controller.session.forget_choices()
    controller.handle(Tap(f"piece:card:{jack}"))
    screen = controller.screen()
    assert len(screen.preview["options"]) > 80
    assert not screen.moves and f"({len(screen.preview['options'])} " in screen.moves_note


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_strategix_the_hand_shown_is_its_own_while_the_robot_builds(controller, size):
    """C5: the player's hand lost the cards the robot laid while it built its formula."""
    strategix_the_robot_leads(controller)
    ana = controller.state.view(0)["hands"][0]
    step = next(a.notation for a in controller.state.legal_actions()
                if a.notation.endswith(" +") and "*" not in a.notation)  # fmt: skip
    controller.play(step)  # the robot's first group, on the table
    assert controller.state.view(None)["trick"]["building"]
    assert [t.label for t in controller.screen().hand] == ana
    drawn = drawn_words(controller, size)
    assert all(drawn.count(card) >= ana.count(card) for card in ana if card.isalpha())


def test_strategix_places_are_named_in_words_in_english(controller):
    """C10: "Dubolix Ana +2, Padbolix Robot −2" said nothing to English players."""
    controller.language = "en"
    strategix_robot_round(controller, 1)
    said = controller.message
    assert re.search(r"(Ana|Robot) first \(Dubolix\) \+2, (Ana|Robot) last \(Padbolix\) −2", said)


@pytest.mark.parametrize("game", ["strategix", "sequence"])
@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_rules_page_says_how_to_play_dealt_cards(controller, game, language):
    """C4: against a robot (cards dealt) the rules described the keyboard of physical cards."""
    controller.language = language
    dealt = text(language, f"rules.dealt_{game}")
    controller.start_game(game, ["Ana", "Robot"], seed=1, mode="full", bots={1: "simple"})
    controller.handle(Tap("nav:rules"))
    lines = controller.screen().lines
    assert dealt in lines and not any(line.startswith(("Entry", "Saisie")) for line in lines)
    drawn_words(controller, (800, 480))
    controller.start_game(game, ["Ana", "Bob"], seed=1, mode="table")
    controller.handle(Tap("nav:rules"))
    assert dealt not in controller.screen().lines


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("language", ["fr", "en"])
def test_sequence_game_over_shows_the_result(controller, size, language):
    """C12: Sequence's game over left the panel beside the board empty."""
    controller.language = language
    controller.start_game("sequence", ["Ana", "Bob", "Cid"], seed=3, mode="full")
    rng = random.Random(1)
    while not controller.state.is_over:
        state = controller.state
        action = state.sample_chance(rng) if state.is_chance else rng.choice(state.legal_actions())
        controller.play(action.notation)
    view = controller.state.view(None)
    line = next(s["squares"] for s in view["sequences"] if s["team"] == view["winner_team"])
    drawn = " ".join(drawn_words(controller, size))
    assert f"{line[0]}–{line[-1]}" in drawn and "Ana" in drawn
    assert text(language, "sequence.team_count", n=2, count=0) in drawn
    assert set(line) <= set(controller.screen().preview["squares"])


def test_a_robot_formula_is_played_in_one_show_and_its_thinking_said(controller, monkeypatch):
    """C6: the robot's formula took ~45 s: each of its steps (star, group, group, done) was
    shown 1.5 s, with nothing to do; the table said nothing while it chose."""
    import threading

    from companion import bot_seats
    from companion.bot_seats import BOT_SHOW_SECONDS

    strategix_the_robot_leads(controller)
    released, steps = threading.Event(), ["star F", "play *=F G +", "+ K L", "done"]

    def scripted(state, level, seed):
        step = steps[len(state.history) - 2]  # after `first` and the deal
        return lambda: released.wait(10) and step

    monkeypatch.setattr(bot_seats, "bot_work", scripted)
    now = 100.0
    assert controller.tick(now)
    assert controller.message == text("fr", "bot_thinking", name="Robot")
    released.set()
    for _ in range(20):  # every step but the last played at once, on the same clock
        controller.table.advice.wait()
        controller.tick(now)
        if controller.table.bots.turn is not None:
            break
    assert controller.state.view(None)["trick"]["building"]  # the last step is shown
    controller.tick(now + BOT_SHOW_SECONDS)
    assert controller.state.actor == 0
    assert controller.state.view(None)["trick"]["top"]["player"] == 1


@pytest.mark.parametrize("game", ["roudalon", "traverse", "strategix", "sequence", "struggle"])
def test_what_a_robot_did_is_said_in_the_past(controller, game):
    """C15: "Bot 4: join the alliance" read as a command; a robot's move is said as done."""
    from companion.bot_words import did_words

    imperatives = [text("en", key) for key in ("hint.yes", "hint.no", "hint.offer", "hint.close",
                                               "hint.throw_1", "hint.throw_2")]  # fmt: skip
    players = {"roudalon": 4, "sequence": 2}.get(game, 2)
    controller.start_game(game, ["Ann", "Bob", "Cid", "Dee"][:players], seed=5, mode="full")
    rng, said = random.Random(5), []
    for _ in range(300):
        state = controller.state
        if state.is_over:
            break
        if state.is_chance:
            controller.play(state.sample_chance(rng).notation)
            continue
        notation = rng.choice(state.legal_actions()).notation
        words = did_words(state, notation, controller.table.said_move(state, notation), "en")
        name = state.players[state.actor]
        assert words.startswith(name) and not any(i in words for i in imperatives), words
        said.append(words)
        controller.play(notation)
    past = ("passed", "threw", "staked", "offered", "joined", "declined", "closed", "moved",
            "laid", "put", "removed", "discarded", "played", "announced")  # fmt: skip
    assert all(any(f" {verb}" in words for verb in past) for words in said), said


ROLES = {"throw": "throw", "reroll": "throw", "confirm": "confirm", "move": "confirm",
         "die": "fix", "hint": "hint", "undo": "undo", "game": "new game", "review": "review",
         "seen": "seen"}  # fmt: skip  # a slot's action, whatever its words


def slot_roles(controller: Controller, size: tuple[int, int]) -> list[tuple[str, object, bool]]:
    """The actions row drawn: each button's role, rectangle and whether it works now."""
    from display.render import Renderer

    renderer = Renderer(size)
    renderer.draw(controller.screen())
    drawn = {target: rect for rect, target in renderer.hits}
    return [(ROLES[a.id.partition(":")[0]], drawn[a.id], a.style != "disabled")
            for a in controller.screen().actions if a.id in drawn]  # fmt: skip


def traverse_first_roll(controller: Controller, dice: tuple[int, int] = (2, 6)) -> None:
    """Traverse in table mode, red to play its first roll (every pawn on its start line)."""
    controller.start_game("traverse", ["Ann", "Bob"], seed=1)
    roll(controller, 6, 6)
    roll(controller, 1, 2)  # red wins the roll-off
    roll(controller, *dice)
    assert controller.state.actor == 0 and not controller.dice_request()


@pytest.mark.parametrize("game", ["struggle", "traverse"])
def test_a_ring_on_the_board_plays_its_move_when_touched(controller, game):
    """D5: touching a ringed destination square did nothing (only the list played). The class:
    every mark showing where a move takes a pawn plays that move when touched; a mark several
    moves share narrows the list to them."""
    if game == "struggle":
        struggle_hand(controller)
        controller.play("rethrow 9 10 J Q K")
        roll(controller, "10", "10", "K", "A", "A")
        pawn = "piece:pawn:10"
    else:
        traverse_first_roll(controller)
        pawn = "piece:pawn:red1"
    controller.handle(Tap(pawn))
    rings = [t for t in drawn_hits(controller) if t.startswith("piece:at:")]
    assert rings, "the touched pawn's destinations are touchable"
    choices = controller.table.choices(controller.state)
    alone = [r for r in rings if sum(r[6:] in c.pieces for c in choices) == 1]
    shared = [r for r in rings if sum(r[6:] in c.pieces for c in choices) > 1]
    before = logged(controller)
    if shared:
        controller.handle(Tap(shared[0]))
        assert logged(controller) == before and not controller.error
        left = controller.table.narrowed(controller.state)
        assert 1 < len(left) < len(choices) and str(len(left)) in controller.message
        controller.handle(Tap(pawn))  # let the ring go
        controller.handle(Tap(pawn))
    controller.handle(Tap(alone[0]))
    played = next(c.notation for c in choices if alone[0][6:] in c.pieces)
    assert logged(controller) == [*before, played]


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_traverse_first_roll_fits_three_pages_one_line_per_pawn(tmp_path, size, language):
    """D6: a first roll at 800×480 took 19 pages of 3 moves: the moves are grouped by pawn
    (a line per pawn, touched to see its moves), short lines two a row, ≤ 3 pages, every
    label whole; touching a pawn's line narrows the list to its moves, again ≤ 3 pages."""
    from display.render import Renderer

    with Store(tmp_path / "state") as store:
        per_page = 4 if size == (800, 480) else 8
        controller = Controller(store, language, moves_per_page=per_page)
        traverse_first_roll(controller)
        for touched in ("", "piece:pawn:red3"):
            if touched:
                assert any(m.id == touched for m in controller.screen().moves)
                controller.handle(Tap(touched))
            renderer = Renderer(size)
            renderer.draw(controller.screen())
            assert not renderer.problems, renderer.problems
            assert renderer.page_info[1] <= 3, renderer.page_info
        moves = controller.screen().moves
        assert all(m.id.startswith("piece:") or "3" in m.id.split()[0] for m in moves), moves


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_one_long_move_shrinks_only_its_own_button(controller, size):
    """A17: at 720×1280 one long entry shrank the whole list's type."""
    from dataclasses import replace

    from display.model import Target
    from display.render import Renderer

    traverse_first_roll(controller)
    controller.handle(Tap("piece:pawn:red1"))
    controller.handle(Tap("piece:pawn:red2"))
    screen = controller.screen()
    longest = longest_traverse_play("fr")
    moves = [*screen.moves[:1], Target("move:long", f"{longest} — {longest}")]
    renderer = Renderer(size)
    sizes: dict[str, int] = {}
    label = renderer.label

    def recorded(words: str, box, size=None, *rest, **named):
        if " " in words:  # a move's line, not a pawn's number
            sizes[words] = size
        return label(words, box, size, *rest, **named)

    renderer.label = recorded
    renderer.draw(replace(screen, moves=moves))
    assert not renderer.problems, renderer.problems
    short = min(size for words, size in sizes.items() if words in moves[0].label)
    long = min(size for words, size in sizes.items() if words in moves[1].label)
    assert short >= renderer.layout.font - 2 and long < short


@pytest.mark.parametrize("game", ["traverse", "struggle"])
def test_a_hint_chosen_is_played_and_leaves_no_stale_list(controller, game):
    """D7: after a hint was chosen the list still showed the previous pawn's moves and
    "touchez-le" did not say what to touch; C7: a listed move plays at once. A hint chosen is
    played at once too, whatever pawn was touched before, and nothing of it is left over."""
    if game == "traverse":
        traverse_first_roll(controller)
        controller.handle(Tap("piece:pawn:red10"))
    else:
        struggle_hand(controller)
        for _ in range(2):  # the third throw: only plays left to hint
            controller.play(f"rethrow {' '.join(controller.table.hand())}")
            roll(controller, "10", "10", "K", "A", "A")
        controller.handle(Tap("piece:pawn:K"))
    before = logged(controller)
    controller.handle(Tap("hint:"))
    controller.table.advice.wait()
    best = controller.table.hint.choices()[0].notation
    controller.handle(Tap("hint:0"))
    assert logged(controller) == [*before, best]
    assert not controller.table.turn.selected and not controller.table.turn.guess
    assert "touchez-le" not in controller.message


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_struggle_first_turn_at_a_table_says_to_draw_the_objective_cards(controller, size):
    """D3: nothing at Struggle's start said to draw the objective cards (table mode): the
    first throw's line says it, drawn whole; the next player's line does not."""
    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    controller.play("first 1")
    assert "carte objectif" in controller.screen().turn
    assert any("carte objectif" in words for words in drawn_words(controller, size))
    roll(controller, "9", "10", "J", "Q", "K")
    controller.play(next(c.notation for c in controller.table.choices(controller.state)
                         if not c.notation.startswith("rethrow")))  # fmt: skip
    assert "carte objectif" not in controller.screen().turn


@pytest.mark.parametrize("mode", ["table", "full"])
def test_struggle_hints_say_once_what_their_figures_measure(tmp_path, mode):
    """D3: the hints' percentages did not say what they measure: the panel's line says it
    once, in words (a pawn's chance to arrive first at a table, expected points with the
    card)."""
    from tests.test_advisor_table import at_a_choice, open_hint

    with Store(tmp_path / "state") as store:
        controller = at_a_choice(store, "struggle", mode=mode)
        turn = open_hint(controller).turn
        for size in ((800, 480), (720, 1280)):
            drawn_words(controller, size)  # drawn whole
    said = "chance que ce pion arrive" if mode == "table" else "score espéré de votre carte"
    assert turn.count(said) == 1, turn


INTERNAL = re.compile(
    r"\b(?:key|entry|move|piece|hint|page|die|face|hand|game|button|square|play|confirm"
    r"|reroll|throw|undo|review|seen|nav|at|pawn):\S|\b[a-z]+_[a-z_]+\b|\b[a-z]+\.[a-z_]{2,}\b"
)


def test_a_used_objective_key_is_said_in_words(controller):
    """D4: a used key on the objective keyboard answered with its internal name "key:J"."""
    struggle_reveal(controller)
    controller.handle(Tap("key:J"))
    controller.handle(Tap("key:J"))
    assert controller.error and controller.message.startswith("J est déjà dans votre ordre")
    assert not INTERNAL.search(controller.message), controller.message


def table_positions(controller: Controller, game: str, mode: str):
    """A few positions of a random game at the table: its start, a choice, the reveal."""
    seats = {"traverse": 2, "roudalon": 4}.get(game, 3)
    controller.start_game(game, ["Ann", "Bob", "Cid", "Dee"][:seats], seed=2, mode=mode)
    rng = random.Random(2)
    yield
    for _ in range(40):
        state = controller.state
        if state.is_over:
            break
        if controller.dice_request():
            roll(controller, *state.sample_chance(rng).notation.split()[1:])
        elif state.is_chance:
            controller.play(state.sample_chance(rng).notation)
        elif controller.table.typing.open_on(state):
            yield
            break
        else:
            yield
            controller.play(rng.choice(state.legal_actions()).notation)


@pytest.mark.parametrize("game", ["struggle", "traverse", "strategix", "sequence", "roudalon"])
@pytest.mark.parametrize("mode", ["table", "full"])
def test_no_internal_token_reaches_the_table_message(controller, game, mode):
    """D4's class: no internal token (a target id, an action id, a code) reaches the screen:
    every touch kind of the table, with arguments it does not offer, and every button, answer
    in the players' words."""
    from companion.controller import Press

    kinds = sorted(set(controller.table.taps) - {"game", "review", "undo"})  # leave, go back
    seen = 0
    for _ in table_positions(controller, game, mode):
        for kind in kinds:
            for arg in ("", "zz", "99", "J"):
                controller.say("")
                controller.table.turn.guess = ""
                controller.handle(Tap(f"{kind}:{arg}"))
                assert not INTERNAL.search(controller.message), (kind, arg, controller.message)
                seen += bool(controller.message)
                controller.handle(Tap("nav:table"))
        controller.handle(Press("nowhere"))
        assert not INTERNAL.search(controller.message), controller.message
    assert seen


def test_struggle_moves_say_a_blocked_pawn_before_it_is_chosen():
    """D11: the move list did not say a pawn was blocked until the move was played: each
    choice names every pawn of the hand, a blocked one as blocked and why."""
    from companion.tables import table_for

    table, seen = table_for("struggle"), 0
    for state in struggle_choice_points(range(12)):
        for choice in table.choices(state, "en"):
            action = next(a for a in state.legal_actions() if a.notation == choice.notation)
            outcomes = action.data[1].outcomes if isinstance(action.data, tuple) else []
            kinds = [kind for _, _, (kind, _) in outcomes]
            if not outcomes or all(k in ("black", "occupied") for k in kinds):
                continue
            blocked = kinds.count("black") + kinds.count("occupied")
            assert choice.label.count("blocked (") == blocked, (choice.label, kinds)
            seen += bool(blocked)
    assert seen >= 5


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_hand_whose_every_move_is_blocked_says_why_nothing_moves(language):
    """D14: a robot "played no pawn" where, as the tester read the rules, the hand must be
    played. The engine is right (RULINGS 7: the hand is played, impasses included; the rule
    book forbids declining a hand whose pawns *can* move): the choice says why nothing moves,
    naming each blocked pawn, and so does a robot's move, which is said with that label."""
    from companion.advice import move_words
    from companion.tables import table_for
    from tests.test_struggle import table_game

    state = table_game(("Ann", "Bot"))
    state.squares = {"K": 5, "Q": 1, "J": 6, "10": 2, "9": 3}  # square 8 is black
    state.apply("roll J J K K K")
    state.apply("rethrow J")  # the third throw: only plays are left
    state.apply("roll J")
    state.apply("rethrow J")
    state.apply("roll J")
    choices = table_for("struggle").choices(state, language)
    assert len(choices) == 1 and choices[0].notation != "pass"
    label = choices[0].label
    start = {"en": "No pawn of the hand can move:", "fr": "Aucun pion de la main ne peut bouger"}
    assert label.startswith(start[language]), label
    assert label.count(text(language, "face.J")) == 1 and text(language, "face.K") in label
    said = move_words("struggle", choices[0].notation, label, language)
    assert said == label


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("language", ["fr", "en"])
def test_traverse_hint_details_are_plain_words(tmp_path, size, language):
    """D15: Traverse's hint details spoke jargon ("pions exposés"): plain words, drawn whole."""
    with Store(tmp_path / "state") as store:
        controller = Controller(store, language, moves_per_page=4 if size[0] == 800 else 8)
        traverse_first_roll(controller)
        controller.handle(Tap("hint:"))
        controller.table.advice.wait()
        labels = " ".join(m.label for m in controller.screen().moves)
        drawn_words(controller, size)
    assert "exposé" not in labels and "exposed" not in labels and "prises" not in labels
    said = {"fr": "qu'un lancer peut prendre", "en": "a throw can hit"}[language]
    assert said in labels, labels


def moved_under_the_finger(before, after) -> list[tuple[str, str]]:
    """Buttons of the new state drawn over a working button of another role."""
    working = [(old, rect) for old, rect, works in before if works]
    return [(old, new) for old, old_rect in working for new, new_rect, _ in after
            if new != old and new_rect.colliderect(old_rect)]  # fmt: skip


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("game", ["struggle", "traverse", "roudalon", "strategix", "sequence"])
def test_every_action_keeps_its_slot_across_states(controller, size, game):
    """C7, D8: after the last move "New game" sat where Confirm was, and Conseil took Lancer's
    place: a button at a slot either keeps its action or the slot is empty or disabled; New
    game never comes where the last move's touch was."""
    players = {"sequence": 2, "roudalon": 4}.get(game, 2)
    controller.start_game(game, ["Ann", "Bob", "Cid", "Dee"][:players], seed=3, mode="full")
    controller.table.dice.can_throw = True
    from companion.bot_choice import make_player

    rng, before, found = random.Random(2), slot_roles(controller, size), []
    chooser, last_touched = make_player("simple", 2), []
    for _ in range(3000):
        state = controller.state
        if state.is_over:
            break
        request = controller.dice_request()
        if request is not None:
            faces = state.sample_chance(rng).notation.split()[1:]
            controller.handle(Settled(reading(*faces), np.zeros((120, 160, 3), np.uint8)))
            shown = slot_roles(controller, size)  # the reading, waiting for Confirm
            found += moved_under_the_finger(before, shown)
            before = shown
            controller.handle(Press("confirm"))
        elif state.is_chance:
            controller.play(state.sample_chance(rng).notation)
        else:
            controller.play(chooser(state))  # the simple bot's choices: games of sane length
        if not controller.state.is_over:
            last_touched = [rect for target, rect in drawn_targets(controller, size).items()
                            if target.startswith(("move:", "piece:", "square:"))]  # fmt: skip
        after = slot_roles(controller, size)
        found += moved_under_the_finger(before, after)
        before = after
    assert controller.state.is_over
    assert not found, sorted(set(found))
    new_game = drawn_targets(controller, size)[f"game:{game}"]
    working = [rect for _, rect, works in before if works]  # the game over's row: undo only
    assert new_game.collidelist(last_touched + working) == -1


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_traverse_panel_shows_dice_only_while_they_are_played(controller, size):
    """The side panel's "Dés : 2 6" stayed after the play, beside the next throw's reading (a
    newcomer's class of stale dice, A10/r-013): the dice are shown while they are played; after
    the play its words say them."""
    traverse_first_roll(controller)
    assert text("fr", "board.dice", dice="2 6") in drawn_words(controller, size)
    controller.play(controller.table.choices(controller.state)[0].notation)
    controller.handle(Settled(reading(3, 4), np.zeros((120, 160, 3), np.uint8)))  # unconfirmed
    dice_word = text("fr", "board.dice", dice="").strip()
    assert not any(words.startswith(dice_word) for words in drawn_words(controller, size))


DIM_COUNTS = [("traverse", {"count:-", "count:+"}), ("struggle", {"count:-"}),
              ("sequence", {"count:-"})]  # fmt: skip


@pytest.mark.parametrize(("game", "dim"), DIM_COUNTS)
def test_player_count_buttons_are_dim_where_no_count_is_left(controller, game, dim):
    """ "− joueur" and "+ joueur" looked active in Traverse, a game of 2 only (a newcomer's third
    walkthrough): a button that changes nothing is dim; touched, it still says the counts."""
    controller.handle(Tap(f"game:{game}"))
    styles = {o.id: o.style for o in controller.screen().options if o.id.startswith("count:")}
    assert {target for target, style in styles.items() if style == "disabled"} == dim
    controller.handle(Tap("count:+"))
    if "count:+" in dim:
        assert "2" in controller.message


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_hand_that_moves_nothing_says_it_once(language):
    """ "No pawn of the hand can move: The hand moves nothing" said it twice, with a capital after
    the colon (a newcomer's third walkthrough): with no pawn to name, one sentence."""
    from companion.tables import table_for

    table = table_for("struggle")
    said = table._none_can_move(text(language, "struggle.said.pass"), language)
    assert said == text(language, "st_none_can_move_bare")


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_struggle_game_over_shows_each_card_and_its_points(controller, size):
    """Struggle's game over showed only the last objective revealed and the totals (a newcomer's
    third walkthrough): the arrival order and every player's card with its points, drawn whole."""
    from tests.club_support import random_game

    finished = random_game("struggle", ["Ana", "Bob", "Cid"], 3, None)
    controller.start_game("struggle", ["Ana", "Bob", "Cid"], seed=3, mode="full")
    for action in finished.history:
        controller.play(action.notation)
    assert controller.state.is_over
    note = controller.screen().moves_note
    view = controller.state.view(None)
    seats = zip(["Ana", "Bob", "Cid"], view["objectives"], view["scores"], strict=True)
    for name, order, points in seats:  # the French letters: R, D, V
        assert f"{name} {face_letters('fr', list(order))} → {points}" in note
    arrival = face_letters("fr", sorted(view["boxes"], key=lambda pawn: view["boxes"][pawn]))
    assert arrival in note
    drawn = " ".join(drawn_words(controller, size))
    assert arrival in drawn and "Cid " in drawn, drawn


# ----- Struggle and Traverse, the third round's leftovers (E, F, D) ---------------------------


@pytest.mark.parametrize("language", ["en", "fr"])
def test_struggle_setup_and_rules_say_the_objective_cards_are_drawn_by_hand(controller, language):
    """E3: Struggle's set-up in table mode never said the objective cards are physical cards
    the players draw themselves: its mode line and its rules page say it."""
    controller.language = language
    card = text(language, "struggle.cards_own")
    controller.handle(Tap("game:struggle"))
    assert card in controller.screen().lines
    for size in ((800, 480), (720, 1280)):
        assert card in " ".join(drawn_words(controller, size))
    controller.handle(Tap("nav:rules"))
    controller.handle(Tap("rules:struggle"))
    assert text(language, "struggle.rules_cards") in controller.screen().lines
    for size in ((800, 480), (720, 1280)):
        drawn_words(controller, size)  # the page still fits, its new line included


def drawn_move_type(controller: Controller, size: tuple[int, int]) -> list[tuple[int, int, int]]:
    """For each move drawn on the screen shown: its type size, its lines and its page's columns."""
    from display.render import Renderer

    renderer = Renderer(size)
    drawn: list[tuple[int, int, int]] = []
    button = renderer.wrapped_button

    def recorded(target, box, size=None):
        if target.id.startswith(("move:", "piece:")):
            inner = (box[0] + 8, box[1] + 3, box[2] - 16, box[3] - 6)
            fitted, lines = renderer.fit_lines(target.label, inner, size or renderer.layout.font)
            columns = 1 if box[2] > renderer.layout.main[2] // 2 else 2
            drawn.append((fitted, len(lines), columns))
        return button(target, box, size)

    renderer.wrapped_button = recorded
    renderer.draw(controller.screen())
    assert not renderer.problems, renderer.problems
    return drawn


@pytest.mark.parametrize("game", ["struggle", "traverse"])
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_move_lists_keep_a_readable_type(controller, game, size):
    """E5: Struggle at 800x480 drew six moves a page in three lines of small type: every move of
    a list is drawn at LIST_TEXT px or more (the 16 px floor let two a row shrink to it), two a
    row in three lines at most: fewer a page rather than smaller."""
    from display.layout import LIST_TEXT

    players = ["Ann", "Bob", "Cid"] if game == "struggle" else ["Ann", "Bob"]
    controller.start_game(game, players, seed=1)
    rng, seen = random.Random(2), 0
    while seen < 40 and not controller.state.is_over:
        state = controller.state
        if controller.dice_request():
            roll(controller, *state.sample_chance().notation.split()[1:])
            continue
        if state.view(None).get("phase") == "reveal":
            break
        if state.is_chance:  # the first player drawn
            controller.play(state.sample_chance().notation)
            continue
        for fitted, lines, columns in drawn_move_type(controller, size):
            assert fitted >= LIST_TEXT, (fitted, lines, columns)
            assert columns == 1 or lines <= 3 or fitted > LIST_TEXT, (fitted, lines, columns)
        seen += 1
        controller.play(rng.choice(state.legal_actions()).notation)
    assert seen >= 20


@pytest.mark.parametrize("dice", [(1, 1), (2, 6), (3, 5)])
def test_traverse_first_page_is_one_form_and_rings_are_the_touched_pawns(controller, dice):
    """E13: a first roll of 1 1 listed "Rouge 10 avance de 2" among the pawns' lines ("Rouge 3 :
    avance de 1, 2"), and a line touched ringed every column's first square (its partners'
    moves): with nothing touched every entry is a pawn's line, and once one is touched the
    board rings only where that pawn may go."""
    from display.model import marked_piece

    traverse_first_roll(controller, dice)
    moves = controller.screen().moves
    assert moves and all(m.id.startswith("piece:pawn:") for m in moves), moves
    assert not controller.screen().preview
    controller.handle(Tap("piece:pawn:red3"))
    preview = controller.screen().preview
    rings = [mark for option in preview.get("options", [preview]) for mark in
             controller.session.table.marks(option)]  # fmt: skip
    assert rings and {marked_piece(mark) for mark in rings} == {"pawn:red3"}, rings


def test_struggle_robot_at_a_table_has_a_real_card_a_person_turns_over_at_the_end(tmp_path):
    """F10, G12: at a table a robot held no card and revealed an order chosen among those left;
    then a card the kiosk drew in secret from its own deck, which no one could leave out of the
    real one. The robot is dealt a real card, face down by the screen, as everyone is; at the
    end a person turns it over and types its order: the robot does not choose it."""
    from engines._struggle_board import OBJECTIVE_DECK

    with Store(tmp_path / "state") as store:
        controller = Controller(store, "en", moves_per_page=6, seed_source=random.Random(0))
        controller.start_game("struggle", ["Ann", "Robo"], seed=4, bots={1: "simple"})
        controller.play("first 0")
        dealt = text("en", "struggle.draw_cards_robot", robots="Robo")
        assert dealt in controller.screen().turn
        controller.language = "fr"  # the longer words, on the portrait panel's one line
        line = text("fr", "struggle.draw_cards_robot", robots="Robo")
        assert any(line in words for words in drawn_words(controller, (720, 1280)))
        controller.language = "en"
        state, rng, now = controller.state, random.Random(1), 100.0
        while state.view(None).get("phase") != "reveal" or state.actor != 1:
            if controller.dice_request():
                roll(controller, *state.sample_chance().notation.split()[1:])
            elif state.actor == 1:
                now += 10
                robot_plays(controller, now)
            elif state.view(None).get("phase") == "reveal":
                controller.play("objective " + " ".join(OBJECTIVE_DECK[0]))
            else:
                controller.play(rng.choice(state.legal_actions()).notation)
            state = controller.state
        asked = text("en", "struggle.robot_card_enter", name="Robo")
        assert asked in controller.screen().turn
        robot_plays(controller, now + 60)  # the robot waits for its card to be typed
        assert controller.state.view(None).get("phase") == "reveal" and controller.state.actor == 1
        keys = [key.id for key in controller.screen().keys]
        assert keys[:5] == [f"key:{pawn}" for pawn in ("K", "Q", "J", "10", "9")]
        typed = OBJECTIVE_DECK[7]
        controller.play("objective " + " ".join(typed))
        assert controller.state.view(None)["objectives"][1] == list(typed)
        while controller.state.is_over:  # a finished game reopens on a second touch
            controller.handle(Tap("undo:"))
        # The robot's card was a person's entry: Undo takes back that one, not Ann's before it.
        state = controller.state
        assert state.actor == 1 and state.view(None)["objectives"][0] == list(OBJECTIVE_DECK[0])
