"""Stratégix at 800x480 as a newcomer found it, one person against a robot (issue 57, stranger
H): the line of the formula to beat, the hand's size, the hint's figures, the robot's turns,
the card prompts and the review's pictures."""

from __future__ import annotations

from collections.abc import Iterator

import pygame

from companion.bot_choice import make_player
from companion.controller import Controller, Tap
from display import boards
from display.render import Renderer
from tests.test_kiosk_newcomers import controller, robot_plays, strategix_against_a_robot  # noqa: F401

SIZES = ((800, 480), (720, 1280))
LANGUAGES = ("en", "fr")
SKIPPED_BY_A_PETARD = (
    ("en", "Robot played a pétard: Ana is skipped"),
    ("fr", "Robot a joué un pétard\u00a0: Ana passe son tour"),
)


def game_states(table: Controller, steps: int = 70, seed: int = 1) -> Iterator[None]:
    """Ana (a simple player's choices, touched as moves) against a robot on the kiosk's clock,
    the kiosk dealing: stops at each state shown, her turns and the robot's."""
    ana = make_player("simple", seed)
    strategix_against_a_robot(table)
    now = 100.0
    for _ in range(steps):
        if table.state.is_over:
            return
        yield
        if table.state.actor == 1:
            robot_plays(table, now)
            now += 30
        elif table.state.actor == 0:
            table.tick(now)  # the kiosk's clock runs while she thinks
            table.handle(Tap("move:" + ana(table.state)))
        else:
            table.tick(now)
            now += 30


def drawn_hand(table: Controller, size: tuple[int, int], monkeypatch) -> tuple[Renderer, list]:
    """The screen drawn at `size`, and each card of the hand drawn (its rect)."""
    cards: list[pygame.Rect] = []
    card = boards._card

    def recorded(renderer, label, rect, dim):
        cards.append(pygame.Rect(rect))
        card(renderer, label, rect, dim)

    monkeypatch.setattr(boards, "_card", recorded)
    renderer = Renderer(size)
    renderer.draw(table.screen())
    monkeypatch.setattr(boards, "_card", card)
    return renderer, cards


def test_no_line_of_a_game_is_clipped(controller, monkeypatch):  # noqa: F811
    """While a player built a formula at 800x480 the line "Ann is putting a formula together
    (to beat: ★I" was cut (s-011, s-014, s-037): every state, both sizes and languages."""
    building_over = 0
    for _ in game_states(controller):
        trick = controller.state.view(None).get("trick") or {}
        building_over += bool(trick.get("building") and trick.get("top"))
        for language in LANGUAGES:
            controller.language = language
            for size in SIZES:
                renderer, _ = drawn_hand(controller, size, monkeypatch)
                assert not renderer.problems, (language, size, renderer.problems)
    assert building_over  # a formula put together over another was seen


def test_every_hand_card_keeps_a_fingers_size(controller, monkeypatch):  # noqa: F811
    """The hand's cards shrank to 26-30 px during the robot's turn and late in a round (s-011,
    s-022, s-034): every state and hand size, both sizes, each card at least 44 px."""
    sizes_seen = set()
    for _ in game_states(controller):
        hand = controller.screen().hand
        sizes_seen.add(len(hand))
        for size in SIZES:
            _, cards = drawn_hand(controller, size, monkeypatch)
            assert len(cards) == len([c for c in hand if c.style != "gap"])
            small = [rect for rect in cards if min(rect.w, rect.h) < boards.CARD_TOUCH]
            assert not small, (size, len(hand), small[:3])
    assert len(sizes_seen) > 5, sizes_seen


def test_the_hints_figures_describe_the_choice(controller):  # noqa: F811
    """Ending a 6-card formula that used 2 of Ann's 4 stars said "cards laid: 0, stars kept: 4"
    (s-031, s-033): the cards the choice lays, the stars left after it."""
    from advisor.strategix import _reason

    hand = strategix_against_a_robot(controller)
    state = controller.state
    start = next(
        a for a in state.legal_actions() if a.notation.endswith(" +") and "*=" in a.notation
    )
    state.apply(start.notation)
    step = next(a for a in state.legal_actions() if a.notation.startswith("+ "))
    state.apply(step.notation)
    done = next(a for a in state.legal_actions() if a.notation == "done")
    laid = start.notation.split()[1:-1] + step.notation.split()[1:]
    figures = _reason(state, done).params
    assert figures["cards"] == len(laid), (laid, figures)
    assert figures["stars"] == hand.count("*") - "".join(laid).count("*"), (hand, laid, figures)
    more = next((a for a in state.legal_actions() if a.notation.startswith("+ ")), None)
    if more is not None:
        spent = "".join(laid).count("*") + more.notation.count("*")
        assert _reason(state, more).params["stars"] == hand.count("*") - spent


def test_each_robot_turn_is_said_once_whole(controller, monkeypatch):  # noqa: F811
    """A robot's turns were summarised cryptically: a pétard hidden behind "(+1 moves before)",
    its formula repeated as it grew ("laid H I · laid H I + a star (O), P"), a star announced
    for a letter said as a move (s-034, s-035, s-043)."""
    from companion.tables.strategix import StrategixTable

    skips: list[str] = []
    skipping = StrategixTable.skips

    def recorded(self, state, notation):
        found = skipping(self, state, notation)
        skips.extend([notation] * found)
        return found

    monkeypatch.setattr(StrategixTable, "skips", recorded)
    controller.language = "en"
    said, robot_before = 0, False
    for _ in game_states(controller, steps=120):
        if controller.state.actor == 0 and robot_before:
            parts = controller.message.split(" · ")
            assert not any("announced" in part for part in parts), parts
            formulas = [part.partition(" played ")[2] for part in parts]
            grown = [f for f in formulas if f and any(o != f and o.startswith(f) for o in formulas)]
            assert not grown, parts
            assert controller.message.count("Ana is skipped") == len(skips), (skips, parts)
            said += len(skips)
        if controller.state.actor == 0:
            skips.clear()
        robot_before = controller.state.actor == 1
    assert said


def test_a_robots_petard_says_who_is_skipped(controller):  # noqa: F811
    """ "Bot 2 plays a pétard: the next player misses a turn", then "Bot 2 laid a star (D)":
    nothing said that Ann was skipped, nor why (s-034, s-043)."""
    from companion.bot_words import did_words

    found = 0
    for _ in game_states(controller, steps=200):
        state = controller.state
        legal = [a.notation for a in state.legal_actions()] if state.actor == 1 else []
        if "petard" in legal and state.view(None)["trick"].get("top"):
            for language, words in SKIPPED_BY_A_PETARD:
                assert did_words(state, "petard", "", language) == words
            found += 1
    assert found


def test_the_card_prompt_says_only_what_can_be_done(controller):  # noqa: F811
    """ "Touch a card… (0 in all)" while Pass and Pétard were listed (s-027): the line asks
    for a card only when cards lead to plays the list does not show."""
    from display.i18n import text

    controller.language = "en"
    zero = text("en", "hand.summary", n=0)
    notes = 0
    for _ in game_states(controller, steps=150):
        note = controller.table.moves_note(controller.state)
        assert note != zero
        notes += bool(note)
    assert notes


def test_a_lone_play_behind_the_cards_is_offered_at_once(controller):  # noqa: F811
    """ "Touch a card… (1 in all)": the only play needed the card, then the play (s-024,
    s-025): a single play behind the cards is listed, one touch."""
    lone = 0
    for _ in game_states(controller, steps=150):
        if controller.state.actor != 0 or controller.table.turn.selected:
            continue
        choices = controller.table.choices(controller.state)
        cards = [c for c in choices if c.notation not in ("pass", "petard")]
        listed = [c.notation for c in controller.table.listed(controller.state)]
        if len(cards) == 1:
            assert cards[0].notation in listed, (cards[0].notation, listed)
            lone += 1
    assert lone
