"""Stratégix as a newcomer found it, one person against a robot with dealt cards (issues 57,
60): the hint's figures, the review's grades, the stars said, the trick, the hand, the rules."""

from __future__ import annotations

import re

import pytest

import advisor
from advisor import Choice, Reason
from companion.advice import choice_words, tied_choices
from companion.controller import Controller, Tap
from tests.test_advisor_table import open_hint
from tests.test_kiosk_newcomers import controller, strategix_against_a_robot  # noqa: F401


def shed(cards: int) -> Reason:
    return Reason("strategix.shed", {"cards": cards, "stars": 3})


def test_equal_hint_figures_say_they_tie():
    """Conseil gave its three choices 44 % each: equal figures that seemed to rank them."""
    tied = [Choice(f"play {m} +", 0.44, "win", shed(2)) for m in ("C D", "D E", "E F")]
    assert tied_choices(tied, "fr") == [True, True, True]
    for choice in tied:
        assert "égalité" in choice_words(choice, choice.notation, "fr", True)
    apart = [Choice("play C D +", 0.52, "win", shed(2)), Choice("pass", 0.41, "win", shed(0))]
    assert tied_choices(apart, "fr") == [False, False]


def test_the_table_hint_never_shows_equal_figures_unexplained(controller, monkeypatch):  # noqa: F811
    strategix_against_a_robot(controller)
    legal = [a.notation for a in controller.state.legal_actions()][:3]
    same = [Choice(notation, 0.44, "win", shed(2)) for notation in legal]
    monkeypatch.setattr(advisor, "advise", lambda state, budget_ms=0: same)
    labels = [m.label for m in open_hint(controller).moves]
    assert len(labels) == 3
    assert all(re.search(r"44\s%", label) and "égalité" in label for label in labels), labels


def hinted_game(seed: int, hint_iterations: int = 20) -> list[str]:
    """Ana playing every time the hint's first choice against a simple robot, the kiosk dealing."""
    import random

    import engines
    from companion.bot_choice import make_player

    state = engines.make_game("strategix", ["Ana", "Robot"], {}, seed, "full").new_state()
    robot, chance, log = make_player("simple", seed), random.Random(seed), []
    while not state.is_over:
        if state.actor == 0:
            notation = advisor.advise(state, iterations=hint_iterations)[0].notation
        elif state.actor == 1:
            notation = robot(state)
        else:
            notation = state.sample_chance(chance).notation
        state.apply(notation)
        log.append(notation)
    return log


@pytest.mark.parametrize("seed", [0, 3])
def test_the_review_never_grades_the_hints_first_choice_below_good(seed):
    """The review graded the hint's own first choice a blunder ("gaffe (−12 %)", shot-050): it
    judged by the calibrated chance of the position left (which saw five cards shed, not the
    three stars and the Z spent), the hint by its playouts."""
    from review.grades import review_game

    review = review_game("strategix", ["Ana", "Robot"], hinted_game(seed), {}, seed, "full")
    grades = [d.grade for d in review.decisions if d.player == 0]
    assert grades.count(None) < len(grades)
    assert set(grades) <= {None, "best", "good"}, grades


@pytest.mark.parametrize("language", ["fr", "en"])
def test_stars_are_said_as_the_board_shows_them(language):
    """The line said "Léa joue une étoile pour G, H, I, J, une étoile pour K, L" while the board
    showed ★G H I J ★K L: the star seemed to stand for G, H, I and J."""
    from companion.tables.strategix import play_words
    from display.i18n import text

    said = play_words("*=G H I J + *=K L", language)
    star = text(language, "strategix.star_for", letter="G")
    assert said.startswith(f"{star}, H, I, J")
    assert not re.search(r"G, H", said), said
    assert said.endswith(f"{text(language, 'strategix.star_for', letter='K')}, L")


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_trick_just_taken_stays_on_the_board_until_the_next_lead(controller, size):  # noqa: F811
    """The board jumped to "Nouveau pli" about a second after the player's lead, the robot's
    winning play never seen; the line said only "(+3 coups avant)" (shot-014, shot-015)."""
    from companion.bot_choice import make_player
    from display.i18n import text
    from tests.test_kiosk_newcomers import drawn_words, robot_plays

    ana = make_player("simple", 1)
    strategix_against_a_robot(controller)
    now, seen = 100.0, 0
    while seen < 2 and not controller.state.is_over:
        if controller.state.actor == 1:
            robot_plays(controller, now)
            now += 10
        else:
            controller.handle(Tap("move:" + ana(controller.state)))
        view = controller.state.view(0)
        last = view["last_trick"]
        trick = view["trick"]
        if controller.state.actor != 0 or trick["plays"] or trick["building"] or not last:
            continue
        taken = [play for _, play in last["plays"] if play.startswith("play ")][-1]
        name = controller.state.players[last["winner"]]
        drawn = drawn_words(controller, size)
        assert text("fr", "board.trick_taken", name=name) in drawn, " | ".join(drawn)
        assert text("fr", "board.new_trick") not in drawn
        letters = [c.replace("*=", "★") for c in taken.removeprefix("play ").split()]
        assert all(letter in drawn for letter in letters), (taken, drawn)
        seen += 1
    assert seen == 2


def card_places(table: Controller, size: tuple[int, int]) -> list[tuple[str, tuple]]:
    """Each touchable card of the hand drawn, and where."""
    from display.render import Renderer

    renderer = Renderer(size)
    renderer.draw(table.screen())
    return [(id_, tuple(rect)) for rect, id_ in renderer.hits if id_.startswith("piece:card:")]


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_hand_keeps_its_places_while_a_formula_is_built(controller, size):  # noqa: F811
    """The hand closed up after each step of a formula, so the next touch landed on the card
    beside the one aimed at (shot-020, shot-022): a card laid leaves a gap."""
    hand = strategix_against_a_robot(controller)
    letter = next(card for card in hand if card.isalpha())
    controller.handle(Tap(f"piece:card:{letter}"))
    before = card_places(controller, size)
    step = next(m for m in controller.screen().moves if m.id.endswith(" +") and "*" not in m.id)
    laid = step.id.removeprefix("move:play ").removesuffix(" +").split()
    controller.handle(Tap(step.id))
    after = card_places(controller, size)
    assert after and set(after) <= set(before), (before, after)  # each card where it was
    labels = [t.label for t in controller.screen().hand]
    assert len(labels) == len(hand) and labels.count("") == len(laid)


@pytest.mark.parametrize("language", ["fr", "en", "qps"])
def test_a_formula_begun_says_another_group_is_to_come(controller, language):  # noqa: F811
    """After "C D + …" the line said only "Léa : à vous de jouer": nothing told her she had
    committed to a second group, nor how to take it back (shot-012)."""
    from display.i18n import text
    from tests.test_kiosk_newcomers import drawn_words

    controller.language = language
    hand = strategix_against_a_robot(controller)
    controller.handle(Tap(f"piece:card:{next(card for card in hand if card.isalpha())}"))
    step = next(m for m in controller.screen().moves if m.id.endswith(" +") and "*" not in m.id)
    controller.handle(Tap(step.id))
    expected = text(language, "strategix.more", name="Ana", undo=text(language, "undo"))
    assert controller.screen().turn == expected
    for size in ((800, 480), (720, 1280)):
        drawn_words(controller, size)  # said whole, nothing clipped


def test_the_reviews_boards_show_the_hand_and_each_play(controller):  # noqa: F811
    """The review's two small boards showed the same thing: no hand, no card played, seats
    "0 : 20 cartes" (item 8 of the newcomer's Stratégix)."""
    from display.render import Renderer
    from tests.test_review_screen import shown_review

    strategix_against_a_robot(controller)
    index = len(controller.state.history)
    whole = [a.notation for a in controller.state.legal_actions()
             if a.notation.startswith("play ") and not a.notation.endswith("+")]  # fmt: skip
    played, better = whole[0], whole[-1]
    controller.play(played)
    decision = {"index": index, "player": 0, "played": played, "best": better,
                "chance_best": 0.6, "chance_played": 0.4, "grade": "blunder"}  # fmt: skip
    shown_review(controller, {"actions": index + 1, "decisions": [decision]})
    boards = [board for _, board in controller.screen().chart["moment"]["boards"]]
    for board, notation in zip(boards, (played, better), strict=True):
        assert [name for name, _ in board.scores] == ["Ana", "Robot"]
        lit = sorted(t.label for t in board.hand if t.style == "lit")
        assert lit == sorted(c if len(c) == 1 else "*" for c in notation.split()[1:]), notation
        top = board.board["trick"]["top"]  # or, a Z having taken the trick, the last trick
        shown = top["play"] if top else board.board["last_trick"]["plays"][-1][1]
        assert shown.removeprefix("play ") == notation.removeprefix("play "), (shown, notation)
    for size in ((800, 480), (720, 1280)):
        renderer = Renderer(size)
        renderer.draw(controller.screen())
        assert not renderer.problems, renderer.problems


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_rules_page_says_padbolix_on_a_special_and_the_petard_never_leads(
    controller,  # noqa: F811
    size,
    language,
):
    """The Règles page left out that going out on a star, a Z or a pétard makes you Padbolix
    and that a pétard never leads (rule book, RULINGS 6 and 9), and spoke only of typing
    letters, where the dealt cards are touched."""
    from tests.test_kiosk_newcomers import drawn_words

    controller.language = language
    controller.handle(Tap("nav:rules"))
    controller.handle(Tap("rules:strategix"))
    said = " ".join(drawn_words(controller, size)).lower()
    words = {
        "fr": ("finir sur une étoile, un z ou un pétard", "jamais en tête de pli", "votre main"),
        "en": ("going out on a star, a z or a pétard", "never to lead", "your hand"),
    }
    for part in words[language]:
        assert part in said, part
