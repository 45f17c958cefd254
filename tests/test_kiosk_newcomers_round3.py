"""What a newcomer with only the README found (issue 57, round 3): each problem held by a test."""

from __future__ import annotations

import random

import pytest

from companion.controller import Controller, Tap
from companion.persistence.store import Store
from display.i18n import text
from tests.test_kiosk_newcomers import drawn_words


@pytest.fixture
def controller(tmp_path):
    with Store(tmp_path / "state") as store:
        yield Controller(store, "fr", moves_per_page=6, seed_source=random.Random(0))


# ----- 13: who leads Stratégix, asked only when there is a choice, in neutral words -----------


def test_one_person_and_a_robot_are_not_asked_who_is_youngest(controller):
    """13: "Qui est le plus jeune ?" offered one name: the only person leads, said so."""
    controller.start_game("strategix", ["Léa", "Robot 2"], seed=1, mode="full",
                          bots={1: "simple"})  # fmt: skip
    assert not controller.state.is_chance
    assert controller.state.view(0)["hands"][0]
    assert "Léa commence" in controller.message and "seule personne" in controller.message
    assert text("fr", "who_youngest") not in controller.screen().turn


def test_two_people_and_a_robot_are_still_asked(controller):
    controller.start_game("strategix", ["Léa", "Robot 2", "Cid"], seed=1, mode="full",
                          bots={1: "simple"})  # fmt: skip
    assert controller.screen().turn == text("fr", "who_youngest")
    controller.handle(Tap("move:first 0"))
    assert controller.state.actor == 0


@pytest.mark.parametrize("key", ["who_youngest", "strategix.said.first", "only_person_starts",
                                 "strategix.youngest", "strategix.expect.first"])  # fmt: skip
def test_who_leads_is_said_without_a_gender(key):
    """13: "Léa est le plus jeune et commence" assumed a man (and "la plus jeune personne" a
    woman's grammar): no gendered adjective or article about the player."""
    said = text("fr", key, name="Léa", text="x", last=2)
    for gendered in ("le plus jeune", "la plus jeune", "du plus jeune", "plus jeune joueur"):
        assert gendered not in said, said


# ----- 14: several winners, said in the plural --------------------------------------------------


class _Over:
    """A finished game's position, as much of it as the game over's line reads."""

    is_over = True

    def __init__(self, players: list[str], winners: list[int]) -> None:
        self.players, self._winners = players, winners

    def winners(self) -> list[int]:
        return self._winners


@pytest.mark.parametrize(("language", "tie", "alone"), [
    ("fr", "Léa et Robot 2 ont gagné", "Léa a gagné"),
    ("en", "Winners: Léa and Robot 2", "Winner: Léa"),
])  # fmt: skip
def test_a_tie_names_its_winners_in_the_plural(language, tie, alone):
    """14: a tie read "Gagnant : Léa, Robot 2"."""
    from companion.tables.base import Table

    table = Table()
    players = ["Léa", "Robot 2", "Cid"]
    assert table.waiting(_Over(players, [0, 1]), language).endswith(tie)  # type: ignore[arg-type]
    assert table.waiting(_Over(players, [0]), language).endswith(alone)  # type: ignore[arg-type]


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_text_naming_winners_has_plural_forms(language):
    """14's class: a text that lists names as who won or who plays agrees with their number."""
    from display.i18n import lookup

    find = lookup(language)
    template = find("winner", None) or ""
    plural = template.split(":")[-1].strip("{}")
    assert template.startswith("{count:") and find(plural, 1) != find(plural, 2)


# ----- 5, 17: a robot's lines name it once, fit, and do not address it --------------------------


@pytest.mark.parametrize("game", ["strategix", "sequence", "traverse"])
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_a_robots_lines_name_it_once_fit_and_do_not_address_it(controller, game, size):
    """5, 17: "Robot 2 a joué : Robot 2 posera une étoile pour S et g…" (cut at 720x1280),
    "Robot 2 (robot) choisit : Robot 2 passe", and "Robot 2 : à vous de jouer"."""
    from display.render import Renderer

    renderer = Renderer(size)
    controller.use_layout(renderer.layout)
    controller.start_game(game, ["Léa", "Robot 2"], seed=2, mode="full", bots={1: "simple"})
    rng, now, seen = random.Random(2), 0.0, set()
    for _ in range(120):
        state = controller.state
        if state.is_over:
            break
        if controller.dice_request() is not None or not isinstance(state.actor, int):
            assert controller.play(state.sample_chance(rng).notation)
        elif state.actor == 0:
            assert controller.play(rng.choice(state.legal_actions()).notation)
        else:
            assert controller.screen().turn == "Robot 2 (robot) joue"
            now += 1.0
            controller.tick(now)
        for part in controller.message.split(" · "):
            assert part.count("Robot 2") <= 1, controller.message
        seen.add(controller.message)
        renderer.draw(controller.screen())
        cut = [said for said in renderer.problems if "Robot 2" in said or "Léa" in said]
        assert not cut, cut  # the message line (a board's own marks are not this test's)
    assert any("Robot 2" in said for said in seen)


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_a_long_list_of_robot_moves_is_shortened_from_its_earliest(size):
    """5: the message of crop-015.png ran past the panel's edge on both of its lines."""
    from display.model import Screen
    from display.render import Renderer

    formula = "Robot 2 a posé J, une étoile pour J + une étoile pour S, une étoile pour S"
    moves = ["Robot 2 a annoncé une étoile pour S", formula, formula + " + K L"]
    said = " · ".join(["Depuis votre tour : (+3 coups avant)", *moves])
    renderer = Renderer(size)
    renderer.draw(Screen(name="menu", title="", message=said))
    assert not renderer.problems, renderer.problems
    shown = renderer.line_shortened(said, renderer.layout.message, renderer.layout.font - 4)
    assert shown.startswith("Depuis votre tour") and shown.endswith("K L"), shown


# ----- 12: the set-up says whether the cards are dealt ----------------------------------------


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("game", ["strategix", "sequence"])
def test_the_setup_says_whether_the_cards_are_dealt_and_why(controller, game, size, language):
    """12: Stratégix with two people offered only physical cards, and never said so."""
    from display.render import Renderer

    renderer = Renderer(size)
    controller.language = language
    controller.handle(Tap(f"game:{game}"))
    own, dealt = text(language, "cards_own"), text(language, "cards_dealt")
    assert own in controller.screen().lines and dealt not in controller.screen().lines
    assert own.startswith(("Cartes", "Cards")) and ("robot" in own)
    renderer.draw(controller.screen())
    assert not renderer.problems, renderer.problems
    controller.handle(Tap("seat:1"))  # a robot in the second seat
    assert dealt in controller.screen().lines and own not in controller.screen().lines
    drawn = drawn_words(controller, size)
    assert any(dealt in said or said in dealt for said in drawn)


# ----- 15: a sequence completed is announced and marked ----------------------------------------


@pytest.mark.parametrize("language", ["en", "fr"])
def test_completing_a_sequence_is_said_and_marked_on_the_board(controller, language):
    """15: the score changed silently when a sequence was completed."""
    from companion.bot_choice import make_player

    controller.language = language
    controller.start_game("sequence", ["Sam", "Zoé"], seed=4, mode="full")
    controller.play("dealer 0")
    bot = make_player("simple", seed=4)
    for _ in range(400):
        state = controller.state
        assert not state.is_over
        before = list(state.view(None)["team_sequences"])
        name = state.players[state.actor] if isinstance(state.actor, int) else ""
        controller.play(bot(state) if name else state.sample_chance().notation)
        after = controller.state.view(None)
        if after["team_sequences"] != before:
            break
    team = next(t for t, n in enumerate(after["team_sequences"]) if n != before[t])
    said = text(language, "sequence.completed", name=name, n=1, target=after["target"])
    assert said in controller.message
    assert said.startswith(name) and ("1 of 2" in said or "1 sur 2" in said)
    line = next(s["squares"] for s in after["sequences"] if s["team"] == team)
    assert set(controller.screen().preview["squares"]) == set(line)


# ----- 16: Sequence at 800x480: nothing clipped, the word keys in fixed slots --------------------


LONG_REFUSAL = (
    "Refused: b1 belongs to a completed sequence, which can never be broken (the option"
    " Next level allows it)"
)  # shot-070.png's, three lines


def sequence_states(controller: Controller) -> list[tuple[str, object]]:
    """Sequence's screens a table meets, table mode then full mode: the dealer's choice, the
    keys, a short and a long refusal, a card typed, and the game over."""
    shown = []
    controller.start_game("sequence", ["Léa", "Sam"], seed=1)
    shown.append(("dealer", controller.screen()))
    controller.handle(Tap("move:dealer 0"))
    shown.append(("keys", controller.screen()))
    controller.handle(Tap("square:a1"))
    shown.append(("short refusal", controller.screen()))
    controller.handle(Tap("key:J"))
    controller.handle(Tap("key:S"))
    shown.append(("typed", controller.screen()))
    controller.say(LONG_REFUSAL, True)
    shown.append(("long refusal", controller.screen()))
    controller.start_game("sequence", ["Léa", "Sam"], seed=1, mode="full")
    controller.play("dealer 0")
    rng = random.Random(1)
    while not controller.state.is_over:
        state = controller.state
        action = state.sample_chance(rng) if state.is_chance else rng.choice(state.legal_actions())
        controller.play(action.notation)
    shown.append(("game over", controller.screen()))
    return shown


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_sequence_screens_clip_nothing_and_keep_the_word_keys_in_place(controller, size,
                                                                       language):  # fmt: skip
    """16: Undo cut at the right edge at the dealer's choice and the game over (crop-077.png);
    Dead card / Clear / Enter moved up when a refusal was long (shot-070.png)."""
    from display.render import Renderer

    renderer = Renderer(size)
    controller.use_layout(renderer.layout)
    controller.language = language
    places: dict[str, set[tuple[int, int, int, int]]] = {}
    for state, screen in sequence_states(controller):
        renderer.draw(screen)
        assert not renderer.problems, (state, renderer.problems)
        for rect, target in renderer.hits:
            assert rect.left >= 0 and rect.top >= 0, (state, target, rect)
            assert rect.right <= size[0] and rect.bottom <= size[1], (state, target, rect)
            if target in ("entry:dead", "entry:clear", "entry:ok", "undo:"):
                places.setdefault(target, set()).add(tuple(rect))
    assert all(len(rects) == 1 for rects in places.values()), places


# ----- 9: the command line reviews what the kiosk reviews; every game's number is shown ---------


def a_finished_table_sequence(store: Store) -> int:
    """A Sequence game played with physical cards (table mode), a few plays, then finished."""
    import engines

    state = engines.make_game("sequence", ["Léa", "Sam"], {}, 3, "table").new_state()
    game_id = store.start_game("sequence", ["Léa", "Sam"], seed=3, mode="table")
    rng = random.Random(3)
    for _ in range(4):
        action = state.sample_chance(rng) if state.is_chance else rng.choice(state.legal_actions())
        state.apply(action)
        store.append(game_id, action.notation)
    store.finish(game_id, [1, 0], [0])
    return game_id


def test_the_command_line_reviews_a_game_played_with_physical_cards(tmp_path, capsys):
    """9: the kiosk reviewed it; `tabletop review 2` said "only finished full-mode games"."""
    from tabletop.cli import main

    with Store(tmp_path) as store:
        game_id = a_finished_table_sequence(store)
    assert main(["review", str(game_id), "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "sequence:" in out and "Léa: accuracy" in out
    assert main(["scores", "--state-dir", str(tmp_path)]) == 0
    assert f"#{game_id} Sequence: Léa, Sam" in capsys.readouterr().out


def test_the_kiosk_shows_each_games_number(controller):
    """9: no screen showed a game's number, so GAME_ID had to be guessed."""
    game_id = a_finished_table_sequence(controller.store)
    controller.handle(Tap("nav:scores"))
    controller.handle(Tap("player:Léa"))
    recent = dict(controller.screen().sections)[text("fr", "recent_games")]
    assert recent[0].startswith(f"n°\u00a0{game_id} Sequence")
    assert text("fr", "game_number", number=game_id) == f"partie n°\u00a0{game_id}"
