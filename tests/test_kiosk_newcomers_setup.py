"""What newcomers met setting up a game and at its end (issue 57, round 4): each problem held by
a test. Set-up's names, the bots' seats, the scorebook's players, the game-over screen."""

from __future__ import annotations

import random

import numpy as np
import pytest

from companion.controller import CameraImage, Controller, Settled, Tap
from companion.persistence.store import Store
from tests.test_companion_controller import reading, roll
from tests.test_kiosk_newcomers import drawn_words, roudalon_with_two_dice


@pytest.fixture
def controller(tmp_path):
    with Store(tmp_path / "state") as store:
        yield Controller(store, "fr", moves_per_page=6, seed_source=random.Random(0))


def type_name(controller: Controller, seat: int, name: str) -> None:
    controller.handle(Tap(f"name:{seat}"))
    for key in name:
        controller.handle(Tap(f"key:{key}"))
    controller.handle(Tap("entry:ok"))


def start_and_finish(controller: Controller) -> None:
    """Start the game set up and record it finished (seat 0 wins)."""
    controller.handle(Tap("start:"))
    session = controller.session
    seats = len(session.record.players)
    controller.store.finish(session.record.id, [1] + [0] * (seats - 1), [0])
    session.record = controller.store.game(session.record.id)


def seat_to_bot(controller: Controller, seat: int) -> None:
    controller.handle(Tap(f"seat:{seat}"))
    assert controller.setup.draft.bots.get(seat)


# ----- names: only a person's name becomes a scorebook player --------------------------------


def test_placeholders_and_bots_are_no_scorebook_players(controller):
    """C8, D13, A5: "Joueur 2" and "Robot 2" were saved as players, then offered as people."""
    controller.handle(Tap("game:struggle"))
    type_name(controller, 0, "ANA")
    controller.handle(Tap("count:+"))  # a third seat, left "Joueur 3"
    seat_to_bot(controller, 1)
    start_and_finish(controller)
    assert controller.store.scored_players() == ["Ana"]
    assert controller.store.known_players() == ["Ana"]
    assert [row.player for row in controller.store.totals()] == ["Ana"]
    controller.handle(Tap("nav:home"))
    controller.handle(Tap("game:struggle"))
    offered = controller.setup.draft.players
    assert offered[0] == "Ana" and all("Robot" not in name for name in offered)
    assert controller.setup.draft.unnamed == {1}  # "Joueur 2": still no one's


def test_a_name_typed_or_picked_is_a_person(controller):
    """The class: a typed name is a scorebook player; a known name offered and kept is one."""
    controller.handle(Tap("game:traverse"))
    type_name(controller, 1, "ZOE")
    start_and_finish(controller)
    controller.handle(Tap("nav:home"))
    controller.handle(Tap("game:traverse"))
    assert controller.setup.draft.players[0] == "Zoe" and controller.setup.draft.unnamed == {1}
    start_and_finish(controller)
    assert controller.store.scored_players() == ["Zoe"]
    assert [(row.player, row.games) for row in controller.store.totals()] == [("Zoe", 2)]


def test_an_older_store_keeps_its_bots_out_of_the_scorebook(tmp_path):
    """A table's file from before seat kinds: the bots kept with their games are bots."""
    with Store(tmp_path) as store:
        game_id = store.start_game("traverse", ["Ana", "Robot 2"], kinds=["person", "bot"])
        store.finish(game_id, [0, 1], [1])
        store.set_setting(f"bots.{game_id}", '{"1": "simple"}')
        store.db.execute("ALTER TABLE seats DROP COLUMN kind")
        store.db.execute("PRAGMA user_version = 3")
    with Store(tmp_path) as store:
        assert any("kind" in note for note in store.notes)
        assert store.scored_players() == ["Ana"] and store.known_players() == ["Ana"]


# ----- an abandoned set-up and the scores list -----------------------------------------------


def test_seats_are_numbered_from_the_seats_present(controller):
    """C13: after a game of "Joueur 1".."Joueur 4" was left, new seats were "Joueur 5".."8"."""
    controller.handle(Tap("game:roudalon"))
    controller.handle(Tap("start:"))
    controller.store.abandon(controller.session.record.id)
    controller.handle(Tap("nav:home"))
    controller.handle(Tap("game:roudalon"))
    assert controller.setup.draft.players == [f"Joueur {n}" for n in range(1, 5)]


def test_the_scores_list_only_players_with_a_finished_game(controller):
    """C13: the scores listed players who had no game (offered, or their game abandoned)."""
    store = controller.store
    store.abandon(store.start_game("traverse", ["Ana", "Bob"]))
    store.finish(store.start_game("traverse", ["Cid", "Dee"]), [1, 0], [0])
    store.start_game("traverse", ["Eve", "Cid"])  # still playing
    controller.handle(Tap("nav:scores"))
    listed = [t.label for t in controller.screen().options if t.id.startswith("player:")]
    assert listed == ["Cid", "Dee"]
    controller.handle(Tap("player:Ana"))
    assert controller.error


# ----- the bots' seats: questions about people, dice thrown for a bot -------------------------


def test_the_youngest_player_question_lists_people_only(controller):
    """C9: "who is the youngest?" listed the bot among the players."""
    controller.start_game("strategix", ["Ana", "Robot 2", "Cid"], seed=1, mode="full",
                          bots={1: "simple"})  # fmt: skip
    offered = [m.id for m in controller.screen().moves]
    assert offered == ["move:first 0", "move:first 2"]


def test_a_bots_dice_are_thrown_by_a_person_for_it(controller):
    """D10: "Robot 2 : vérifiez les dés lus" was said to the bot, who has no hands."""
    controller.start_game("struggle", ["Ana", "Robot 2"], seed=1, bots={1: "simple"})
    controller.play("first 1")
    waiting = controller.screen().turn
    assert "Robot 2" in waiting and "pour lui" in waiting and "lancez 5 dés" in waiting
    controller.handle(Settled(reading("9", "9", "10", "J", "Q"), np.zeros((120, 160, 3), np.uint8)))
    waiting = controller.screen().turn
    assert "Robot 2 est un robot" in waiting and "pour lui" in waiting


def test_a_persons_dice_are_still_theirs_to_throw(controller):
    controller.start_game("struggle", ["Ana", "Robot 2"], seed=1, bots={1: "simple"})
    controller.play("first 0")
    assert "robot" not in controller.screen().turn


# ----- a seat's name through its kinds; names offered while typing ---------------------------


def cycle_to_person(controller: Controller, seat: int) -> None:
    while controller.setup.draft.bots.get(seat):
        controller.handle(Tap(f"seat:{seat}"))


def test_a_name_typed_on_a_bots_seat_stays_when_a_person_sits_there(controller):
    """A7: a name typed on a robot's seat was lost when the seat went back to a person."""
    controller.handle(Tap("game:traverse"))
    seat_to_bot(controller, 1)
    type_name(controller, 1, "ZOE")
    cycle_to_person(controller, 1)
    assert controller.setup.draft.players[1] == "Zoe"


def test_a_name_being_typed_is_kept_when_the_seat_becomes_a_bot(controller):
    """A7: the seat's kind touched while its name was typed dropped the name typed."""
    controller.handle(Tap("game:traverse"))
    controller.handle(Tap("name:1"))
    for key in "ZOE":
        controller.handle(Tap(f"key:{key}"))
    seat_to_bot(controller, 1)
    cycle_to_person(controller, 1)
    assert controller.setup.draft.players[1] == "Zoe" and controller.setup.draft.editing is None


def test_the_scorebooks_names_are_offered_while_typing(controller):
    """A6: a name from the scorebook had to be typed again, letter by letter."""
    store = controller.store
    store.finish(store.start_game("traverse", ["Chloé", "Charles", "Bob"]), [1, 0, 0], [0])
    controller.handle(Tap("game:struggle"))  # seats: Bob, Charles (known people first)
    controller.handle(Tap("name:1"))
    offered = [t.id for t in controller.screen().options]
    assert offered == ["suggest:Charles", "suggest:Chloé"]  # not Bob: seated at 0
    controller.handle(Tap("key:C"))
    controller.handle(Tap("key:H"))
    controller.handle(Tap("key:L"))
    assert [t.id for t in controller.screen().options] == ["suggest:Chloé"]
    controller.handle(Tap("suggest:Chloé"))
    controller.handle(Tap("entry:ok"))
    assert controller.setup.draft.players[1] == "Chloé"
    controller.handle(Tap("name:0"))
    controller.handle(Tap("suggest:Chloé"))  # seated at 1: not offered, not taken
    assert controller.error


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_names_offered_fit_above_the_keyboard(controller, size):
    from display.render import Renderer

    store = controller.store
    names = ["Anne-Sophie", "Bartholomé", "Christopher", "Dominique", "Eve"]
    store.finish(store.start_game("sequence", names[:4] + ["Zed"]), [1, 0, 0, 0, 0], [0])
    controller.handle(Tap("game:traverse"))
    controller.handle(Tap("name:1"))
    renderer = Renderer(size)
    renderer.draw(controller.screen())
    assert not renderer.problems, renderer.problems


# ----- Le Roudalon: game over, rule options ---------------------------------------------------


def roudalon_hit(controller: Controller) -> None:
    """Le Roudalon to its end: a stake each (pot 4), then Ann throws both dice for 4."""
    roudalon_with_two_dice(controller)
    controller.play("throw 2")
    roll(controller, 1, 3)
    assert controller.state.is_over


def test_roudalon_game_over_keeps_the_last_pot_and_stakes(controller):
    """C16, A11: the game-over screen showed a pot of 0 and every stake at 0."""
    roudalon_hit(controller)
    board = controller.screen().board
    assert board["pot"] == 4 and board["staked"] == [1, 1, 1, 1]
    assert controller.state.scores() == [3, -1, -1, -1]


def test_roudalon_set_up_offers_the_engines_options(controller):
    """A20: the stake range and the number of games (rule options, R3, R6) were not offered."""
    controller.handle(Tap("game:roudalon"))
    ids = {t.id for t in controller.screen().options}
    for name in ("stake_min", "stake_max", "games"):
        assert {f"option:{name}", f"option:{name}:-", f"option:{name}:+"} <= ids
    controller.handle(Tap("option:games:+"))
    controller.handle(Tap("option:stake_max:-"))
    assert "Mise maximale" in controller.message and "5" in controller.message
    controller.handle(Tap("option:stake_min:-"))  # below 1: refused, said, unchanged
    assert controller.error and controller.setup.draft.options.get("stake_min", 1) == 1
    controller.handle(Tap("start:"))
    assert controller.state.game.option_values["games"] == 2
    assert controller.state.game.option_values["stake_max"] == 5


def test_a_yes_no_option_has_no_steps(controller):
    controller.handle(Tap("game:traverse"))
    controller.handle(Tap("option:compulsory_dice:+"))
    assert controller.error and "compulsory_dice" not in controller.setup.draft.options
    controller.handle(Tap("option:compulsory_dice"))
    assert controller.setup.draft.options["compulsory_dice"] is False


# ----- game over: the last photo --------------------------------------------------------------


def test_game_over_shows_no_photo_of_the_last_throw(controller):
    """D12: the game-over screen kept the last photo of the dice, as if a throw were awaited."""
    roudalon_hit(controller)
    controller.handle(CameraImage(np.zeros((120, 160, 3), np.uint8)))
    screen = controller.screen()
    assert screen.camera is None and not screen.dice
    assert "Partie terminée" in screen.camera_note
    words = drawn_words(controller, (800, 480))
    assert screen.camera_note in words


# ----- the set-up's layout --------------------------------------------------------------------

SETUP_SIZES = [(800, 480), (720, 1280)]


def set_up(controller: Controller, game: str, more: int, bots: int) -> None:
    """A game's set-up with `more` seats added and the first `bots` seats after the first made
    the most wordy kind of bot."""
    controller.handle(Tap("nav:home"))
    controller.handle(Tap(f"game:{game}"))
    for _ in range(more):
        controller.handle(Tap("count:+"))
    for seat in range(1, 1 + bots):
        for _ in range(2):  # person -> simple -> the advisor's fast level (the longest words)
            controller.handle(Tap(f"seat:{seat}"))


@pytest.mark.parametrize("size", SETUP_SIZES)
@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize(
    "game, more",
    [
        ("struggle", 2),
        ("traverse", 0),
        ("strategix", 2),
        ("sequence", 4),
        ("roudalon", 0),
        ("roudalon", 1),
    ],  # fmt: skip
)
def test_set_up_buttons_never_overlap_and_their_words_fit(controller, size, language, game, more):
    """C17, D16: Stratégix's set-up rows crowded at 800x480; Traverse's mixed its players and
    options in one grid. Players are one block (a name beside its seat's kind), options another."""
    from display.render import Renderer
    from tests.test_display_fit import target_problems

    controller.language = language
    set_up(controller, game, more, bots=2 if game != "traverse" else 1)
    renderer = Renderer(size)
    renderer.draw(controller.screen())
    assert not renderer.problems + target_problems(renderer)
    hits = [(rect, target) for rect, target in renderer.hits if not target.startswith("nav:")]
    for number, (rect, target) in enumerate(hits):
        for other_rect, other in hits[number + 1 :]:
            assert not rect.colliderect(other_rect), f"{target} overlaps {other}"
    where = {target: rect for rect, target in hits}
    for seat in range(len(controller.setup.draft.players)):  # a name beside its seat's kind
        name, kind = where[f"name:{seat}"], where[f"seat:{seat}"]
        assert name.centery == kind.centery and name.right < kind.left
    players_bottom = max(r.bottom for t, r in where.items() if t.startswith(("name:", "seat:")))
    options = [r for t, r in where.items() if t.startswith(("option:", "hintset:", "teams:"))]
    assert all(rect.top > players_bottom for rect in options)  # options in their own block
