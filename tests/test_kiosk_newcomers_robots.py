"""Le Roudalon and Undo with robots, as a newcomer found them (issue 57, stranger H): each
problem held by a test driven through the controller."""

from __future__ import annotations

import random

import pytest

import advisor
from companion.advice import figure_words
from companion.bot_seats import BOT_SHOW_SECONDS
from companion.controller import Controller, Settled, Tap
from companion.persistence.store import Store
from display.i18n import say
from tests.test_companion_controller import reading

ROBOT_GAMES = {"roudalon": 3, "traverse": 1, "struggle": 1, "sequence": 1, "strategix": 1}
NOTATION_WORDS = ("expected:", "not legal", "attendu")  # an engine's refusal


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "state") as opened:
        yield opened


def logged(controller: Controller) -> list[str]:
    return [a.notation for a in controller.store.actions(controller.session.record.id)]


def with_robot(store: Store, game: str) -> Controller:
    """`game` set up with its robot seat (the last seat for Le Roudalon: Cid offers to it)."""
    controller = Controller(store, "en", seed_source=random.Random(5), auto_resume=False)
    controller.handle(Tap(f"game:{game}"))
    controller.handle(Tap(f"seat:{ROBOT_GAMES[game]}"))
    controller.handle(Tap("start:"))
    assert controller.session.bots == {ROBOT_GAMES[game]: "simple"}
    return controller


def robot_to_act(controller: Controller) -> bool:
    state = controller.state
    return isinstance(state.actor, int) and bool(controller.session.bot_level(state.actor))


def person_move(controller: Controller, first: str = "offer") -> str:
    """A person's move: `first` when it is legal (the alliance offer to the robot), else a
    small stake, else the first move."""
    notations = [a.notation for a in controller.state.legal_actions()]
    for wanted in (first, "stake 1"):
        if wanted in notations:
            return wanted
    return notations[0]


def dice_or_chance(controller: Controller) -> bool:
    state = controller.state
    return state.is_chance or controller.dice_request() is not None


def throw(controller: Controller, rng: random.Random) -> None:
    """The dice thrown (a robot's too: someone at the table throws them), or chance drawn."""
    state = controller.state
    if state.is_chance:
        controller.play(state.sample_chance(rng).notation)
    else:
        controller.play(rng.choice([a.notation for a in state.legal_actions()]))


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def robot_moves(self, controller: Controller, steps: int = 12) -> None:
        """Time passes with the robot to choose: its choice is made, shown, then played."""
        for _ in range(steps):
            if not robot_to_act(controller) or controller.state.is_over:
                return
            controller.tick(self.now)
            controller.table.advice.wait()
            controller.tick(self.now)
            self.now += BOT_SHOW_SECONDS


def to_robot_answer(controller: Controller, clock: Clock, rng: random.Random) -> None:
    """Play until a person's move is followed by the robot's (in Le Roudalon: the robot's
    answer to an alliance offer)."""
    answering = False  # a person moved since the robot last did
    for _ in range(400):
        assert not controller.state.is_over
        if dice_or_chance(controller):
            throw(controller, rng)
        elif robot_to_act(controller):
            before = len(logged(controller))
            clock.robot_moves(controller, 1)
            clock.robot_moves(controller, 1)
            if answering and len(logged(controller)) > before:
                return
        else:
            move = person_move(controller)
            controller.play(move)
            answering = controller.state.game.name != "roudalon" or move == "offer"
    raise AssertionError("no robot answered a person")


@pytest.mark.parametrize("undos", [1, 2, 3])
@pytest.mark.parametrize("game", sorted(ROBOT_GAMES))
def test_a_robot_plays_on_after_quick_undos_and_a_persons_move(store, game, undos):
    controller = with_robot(store, game)
    clock, rng = Clock(), random.Random(7)
    to_robot_answer(controller, clock, rng)
    for _ in range(undos):  # quick touches: no time passes between them
        controller.handle(Tap("undo:"))
        controller.tick(clock.now)
    moved = False
    for _ in range(40):  # the robot, the dice, then a person's move: the robot plays on
        state = controller.state
        if state.is_over or (moved and not robot_to_act(controller)):
            break
        if dice_or_chance(controller):
            throw(controller, rng)
        elif robot_to_act(controller):
            clock.robot_moves(controller)
            assert not robot_to_act(controller), f"stuck: {controller.message}"
        else:
            controller.play(person_move(controller, first="stake 1"))  # not what was undone
            moved = True
        assert not any(word in controller.message for word in NOTATION_WORDS), controller.message
    assert moved or controller.state.is_over


def test_a_robots_refused_choice_never_sticks_the_table(store, monkeypatch):
    """A robot whose choice the engine refuses chooses again; refused again, the table says
    so in words and the players choose its move."""
    import companion.bot_seats as bot_seats

    asked: list[int] = []

    def illegal(state, level, seed):
        def work() -> str:
            asked.append(len(state.history))
            return "yes"  # an alliance answer, with no alliance offered

        return work

    monkeypatch.setattr(bot_seats, "bot_work", illegal)
    controller = with_robot(store, "roudalon")
    clock, rng = Clock(), random.Random(7)
    for _ in range(200):
        if robot_to_act(controller):
            break
        if dice_or_chance(controller):
            throw(controller, rng)
        else:
            controller.play(person_move(controller, first="stake 1"))
    before = logged(controller)
    clock.robot_moves(controller)
    assert len(asked) == 2, "the robot chose again once"
    assert logged(controller) == before
    assert controller.message == "Bot 4 (robot) cannot choose here: choose its move for it"
    controller.play(person_move(controller, first="stake 1"))
    assert len(logged(controller)) == len(before) + 1


@pytest.mark.parametrize("game", sorted(ROBOT_GAMES))
def test_one_undo_after_a_robots_move_gives_the_person_their_turn_back(store, game):
    """Undo takes back the last person's decision and the robot's moves after it: the robot
    does not replay its move at once, and the line says what was undone."""
    controller = with_robot(store, game)
    clock, rng = Clock(), random.Random(7)
    to_robot_answer(controller, clock, rng)
    while robot_to_act(controller) and not controller.state.is_over:
        clock.robot_moves(controller)
    controller.handle(Tap("undo:"))
    message = controller.message
    assert message.startswith("Undone: ")
    for _ in range(3):
        clock.robot_moves(controller)
    assert not robot_to_act(controller), "a person's decision is on the table"
    assert controller.message == message, "the robot did not play over the undo's line"


def alliance_of_three(store: Store) -> Controller:
    """Le Roudalon at a table of four people: Ann stakes, Bob stakes, ... until Ann offers an
    alliance to Bob, who accepts and offers it on to Cid (the fifth action on)."""
    controller = Controller(store, "en", auto_resume=False)
    controller.start_game("roudalon", ["Ann", "Bob", "Cid", "Dan"], seed=3, mode="table")
    for faces in ("roll 6 6", "roll 1 1", "roll 2 1", "roll 1 2"):  # Ann starts
        controller.play(faces)
    for move in ("stake 4", "stake 4", "stake 1", "stake 1", "offer", "yes", "offer"):
        controller.play(move)
    return controller


def test_alliance_prompts_name_the_ally_who_acts(store):
    controller = alliance_of_three(store)
    assert controller.screen().turn.startswith("Cid: Bob offers you an alliance")
    controller.play("yes")
    controller.play("close")  # Ann, Bob and Cid throw in turn, Ann first
    controller.play("throw 1")  # Ann throws one die: the camera reads it
    assert controller.screen().turn == "Ann: roll 1 die"
    controller.play("roll 1")
    controller.play("throw 1")
    assert controller.screen().turn.startswith("Bob: roll 1 die"), "Bob throws, not Ann"
    controller.handle(Settled(reading(2)))
    assert controller.screen().turn.startswith("Bob: check the dice read")


def test_a_robot_allys_die_is_thrown_for_it_by_name(store):
    controller = Controller(store, "en", auto_resume=False)
    controller.start_game("roudalon", ["Ann", "Bob", "Cid", "Bot 4"], seed=3, mode="table",
                          bots={3: "simple"})  # fmt: skip
    for faces in ("roll 1 1", "roll 1 2", "roll 6 6", "roll 2 1"):  # Cid starts
        controller.play(faces)
    for move in ("stake 4", "stake 1", "stake 1", "stake 1", "offer", "yes", "close"):
        controller.play(move)
    controller.play("throw 1")
    controller.play("roll 1")
    controller.play("throw 1")  # the robot's choice, played for the test
    assert controller.screen().turn == (
        "Bot 4 is a bot: throw 1 die for it — total 1 of the 7 UM pot: 6 to go"
    )


def test_a_void_game_is_won_by_nobody(store):
    """RULINGS Le Roudalon 7: a pot beyond every die makes the game void and every stake is
    returned: nobody wins it, on the screen and in the scorebook."""
    controller = Controller(store, "en", auto_resume=False)
    controller.start_game("roudalon", ["Ann", "Bob", "Cid", "Dan"], seed=3, mode="table")
    for faces in ("roll 6 6", "roll 1 1", "roll 2 1", "roll 1 2"):
        controller.play(faces)
    for _ in range(9):  # 54 UM: beyond the 48 four players' dice can show
        controller.play("stake 6")
    assert controller.state.is_over
    assert "Void game: nobody wins" in controller.screen().turn
    game_id = controller.session.record.id
    rows = store.db.execute("SELECT winner FROM results WHERE game_id = ?", (game_id,))
    assert [row[0] for row in rows] == [0, 0, 0, 0]


def test_roll_off_lines_say_who_rolled_what_and_who_throws_for_the_robot(store):
    controller = Controller(store, "en", auto_resume=False)
    controller.start_game("roudalon", ["Ann", "Bob", "Cid", "Bot 4"], seed=3, mode="table",
                          bots={3: "simple"})  # fmt: skip
    controller.play("roll 4 6")
    said = say("en", controller.state.last)
    assert said == "Ann rolled 10 (4 6) in the roll-off"
    controller.play("roll 1 1")
    controller.play("roll 2 1")
    assert controller.screen().turn == "Roll-off: throw 2 dice for Bot 4"


def test_an_alliance_says_what_its_total_still_needs(store):
    controller = alliance_of_three(store)  # the pot: 10 UM
    controller.play("yes")
    controller.play("close")
    controller.play("throw 1")
    controller.play("roll 4")
    assert "total 4 of the 10 UM pot: 6 to go" in controller.screen().turn


def hint_lines(controller: Controller) -> list[str]:
    controller.handle(Tap("hint:"))
    controller.table.advice.wait()
    return [target.label for target in controller.screen().moves]


def test_le_roudalons_hints_say_exact_figures_plainly(store):
    """Le Roudalon's chances are exact: no 'imagined games'; a throw that cannot make the pot
    does not read 'no chance' beside its chance to win."""
    controller = Controller(store, "en", auto_resume=False)
    controller.start_game("roudalon", ["Ann", "Bob", "Cid", "Dan"], seed=3, mode="table")
    for faces in ("roll 6 6", "roll 1 1", "roll 2 1", "roll 1 2"):
        controller.play(faces)
    for move in ("stake 6", "stake 6", "stake 6", "stake 6"):  # the pot: 24, Ann holds 2 dice
        controller.play(move)
    lines = hint_lines(controller)
    assert lines and not any("imagined" in line for line in lines), lines
    throws = [c for c in advisor.advise(controller.state, 200) if c.notation == "throw 2"]
    figure = figure_words(throws[0], "en")  # 24 UM: beyond two dice
    assert figure == "cannot make the pot now, 25 % to win" or figure.startswith("cannot"), figure


def test_a_stake_that_voids_the_game_says_so(store):
    """RULINGS Le Roudalon 7: at a pot of 48 with four players, one more stake makes the game
    void; its move and its hint say so."""
    controller = Controller(store, "en", auto_resume=False)
    controller.start_game("roudalon", ["Ann", "Bob", "Cid", "Dan"], seed=3, mode="table")
    for faces in ("roll 6 6", "roll 1 1", "roll 2 1", "roll 1 2"):
        controller.play(faces)
    for _ in range(8):
        controller.play("stake 6")  # the pot: 48
    labels = {target.id: target.label for target in controller.screen().moves}
    assert labels["move:stake 1"].endswith("the game becomes void"), labels
    assert not labels["move:throw 1"].endswith("void")
    stakes = [line for line in hint_lines(controller) if line.startswith("stake")]
    assert stakes and all("the game becomes void" in line for line in stakes), stakes
