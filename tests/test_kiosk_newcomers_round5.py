"""What stranger H met at the table (issue 57, the fifth round): each problem held by a test."""

from __future__ import annotations

import random
import re

import numpy as np
import pygame
import pytest

import engines
from companion.controller import Controller, Press, Settled, Tap
from companion.persistence.store import Store
from companion.review_worker import review_data
from display.i18n import text
from display.render import Renderer
from display.scores_view import GAME_COLOURS
from review import review_game
from tests.test_companion_controller import reading, roll
from tests.test_kiosk_newcomers import drawn_words, struggle_reveal
from tests.test_kiosk_newcomers_round4 import player_page
from tests.test_review_screen import SIZES, shown_review

LANGUAGES = ["fr", "en"]
ZERO_MARK_PIXELS = 100  # a mark seen at a glance: a bar of 0 was 2 pixels tall, outlined


def struggle_reading(store: Store, language: str) -> Controller:
    """Struggle, Ann's first throw read and not yet confirmed."""
    controller = Controller(store, language, moves_per_page=6, seed_source=random.Random(0))
    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    controller.table.dice.can_throw = True  # the simulated camera
    controller.play("first 0")
    controller.handle(Settled(reading("9", "10", "J", "Q", "K"), np.zeros((120, 160, 3), np.uint8)))
    return controller


# ----- Struggle: the dice to keep are chosen after the reading is confirmed (t-006) ----------


@pytest.mark.parametrize("language", LANGUAGES)
def test_struggle_reading_says_the_dice_to_throw_again_come_after_confirm(tmp_path, language):
    """A newcomer touched a die to throw it again and got the face picker: the line before
    Confirm now says the dice to throw again are touched once the reading is confirmed."""
    with Store(tmp_path) as store:
        controller = struggle_reading(store, language)
        line = controller.screen().turn
        assert ("relancer" if language == "fr" else "again") in line
        controller.handle(Tap("die:0"))  # the picker says it too
        assert ("relancer" if language == "fr" else "again") in controller.message


def test_struggle_reading_of_the_last_throw_offers_no_throw_again(tmp_path):
    """The third throw is the last: its reading waits for Confirm alone."""
    with Store(tmp_path) as store:
        controller = struggle_reading(store, "fr")
        for _ in range(2):
            controller.handle(Press("confirm"))
            controller.handle(Tap("hand:0"))
            controller.handle(Tap("reroll:"))
            image = np.zeros((120, 160, 3), np.uint8)
            controller.handle(Settled(reading("9"), image))
        assert controller.state.view(None)["throws"] == 2
        assert "relancer" not in controller.screen().turn


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_action_button_label_wraps(tmp_path, size, language):
    """The label "− dé" wrapped onto two lines at 800x480 in French: a row of action buttons keeps
    each label on one line."""
    with Store(tmp_path) as store:
        controller = struggle_reading(store, language)
        controller.handle(Tap("die:0"))  # a die touched: the faces and "− die" are offered
        screen = controller.screen()
        drawn = drawn_words(controller, size)
    labels = [t.label for t in screen.options + screen.actions if t.label]
    assert any("−" in label for label in labels)
    assert [label for label in labels if label not in drawn] == []


# ----- Struggle in French names each face one way: the book's Roi, Dame, Valet (t-008) -------

ENGLISH_LETTER = re.compile(r"(?<![\w])[KQJ](?![\w])")


def english_letters(controller: Controller) -> list[str]:
    """Every word drawn on the French screen shown that names a face by its English letter."""
    return [w for w in drawn_words(controller, (800, 480)) if ENGLISH_LETTER.search(w)]


def test_struggle_in_french_names_no_face_by_its_english_letter(tmp_path):
    """The dice, the hand and "gardés : Q Q" said Q, K, J; the moves said Dame, Roi, Valet."""
    with Store(tmp_path) as store:
        controller = struggle_reading(store, "fr")
        assert english_letters(controller) == []  # the dice read, the pawns
        assert ENGLISH_LETTER.search(controller.message) is None
        controller.handle(Tap("die:0"))  # the face keys
        assert english_letters(controller) == []
        controller.handle(Tap("face:9"))
        controller.handle(Press("confirm"))
        controller.handle(Tap("hand:0"))  # the hand and the dice kept
        assert english_letters(controller) == []
        struggle_reveal(controller)  # the objective keys
        assert english_letters(controller) == []
        controller.handle(Tap("key:K"))
        assert english_letters(controller) == []


# ----- Struggle's review: moments in words, and why no accuracy is given (t-064) ------------


def reviewed_struggle(store: Store, mode: str, seed: int = 1) -> Controller:
    """A random finished Struggle game in `mode`, its review shown as if the worker had run."""
    state = engines.make_game("struggle", ["Ann", "Bob"], {}, seed, mode).new_state()
    rng, log = random.Random(seed), []
    while not state.is_over:
        action = state.sample_chance() if state.is_chance else rng.choice(state.legal_actions())
        log.append(action.notation)
        state.apply(action.notation)
    game_id = store.start_game("struggle", ["Ann", "Bob"], {}, seed, mode)
    for notation in log:
        store.append(game_id, notation)
    controller = Controller(store, "fr", seed_source=random.Random(0))
    found = review_game("struggle", ["Ann", "Bob"], log, {}, seed, mode, iterations=2)
    shown_review(controller, review_data("struggle", ["Ann", "Bob"], len(log), found))
    return controller


def test_struggle_review_says_its_moments_in_words(tmp_path):
    """ "Dame +3 : arrive en B ; Valet +1 : …" read as notation."""
    with Store(tmp_path) as store:
        controller = reviewed_struggle(store, "full")
        lines = [line for _, said in controller.screen().sections for line in said]
    moments = [line for line in lines if "mieux" in line]
    assert moments and all(re.search(r"\+\d", line) is None for line in moments), moments
    # The move list's own words (G15: the list, the last move, the undo line and the review
    # say a move alike): each pawn by its name, where it goes or why it cannot.
    assert all(re.search(r"(Dame|Roi|Valet|Dix|Neuf)( \+ (\d )?As)? (→ \d|: impasse)", line)
               for line in moments)  # fmt: skip


def test_struggle_review_at_a_table_says_why_no_accuracy_is_given(tmp_path):
    """At a table the objective cards stay hidden until the end: no move can be judged better,
    so both players read "trop peu de coups notés" after a whole game; the review says why."""
    with Store(tmp_path) as store:
        controller = reviewed_struggle(store, "table")
        heads = [head for head, _ in controller.screen().sections]
    assert all("cartes objectif" in head for head in heads[:2]), heads


# ----- the camera view shows no old dice (r-026, u-002) --------------------------------------


def test_while_a_throw_is_awaited_the_camera_view_shows_no_old_dice(tmp_path):
    """The previous throw's photo stayed while the next throw was awaited."""
    with Store(tmp_path) as store:
        controller = Controller(store, "fr", seed_source=random.Random(0))
        controller.start_game("traverse", ["Ann", "Bob"], seed=3)
        roll(controller, 3, 4)  # the roll-off: Ann's throw, read and confirmed
        assert controller.dice_request() is not None  # Bob's throw awaited
        screen = controller.screen()
        assert screen.camera is None and screen.dice == []
        assert screen.camera_note == text("fr", "camera_throw_wanted")
        controller.handle(Settled(reading(5, 2), np.full((120, 160, 3), 9, np.uint8)))
        assert controller.screen().camera is not None  # the new throw, read


def test_a_new_game_opens_on_no_picture_of_the_last_one(tmp_path):
    """A new Le Roudalon game opened on the poker dice of the Struggle game before it."""
    with Store(tmp_path) as store:
        controller = struggle_reading(store, "en")
        assert controller.screen().camera is not None
        controller.start_game("roudalon", ["Ann", "Bob", "Cid", "Dee"], seed=1)
        screen = controller.screen()
        assert screen.camera is None and screen.dice == []


# ----- the player page: a score of 0 is drawn (r-106, s-053) ---------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_a_score_of_zero_is_a_visible_mark_with_its_value(tmp_path, size):
    """A score of 0 drew nothing: a large empty chart read as no games at all."""
    with Store(tmp_path) as store:
        controller = player_page(store, {"roudalon": [0, 5, 7, 2], "strategix": [0, 3]})
        screen = controller.screen()
        drawn = drawn_words(controller, size)
        surface = Renderer(size).draw(screen)
    assert drawn.count("0") >= 2
    pixels = pygame.surfarray.array3d(surface).reshape(-1, 3)
    for game in ("roudalon", "strategix"):
        painted = int(np.all(pixels == GAME_COLOURS[game], axis=1).sum())
        assert painted >= 12 * 12 + ZERO_MARK_PIXELS, (game, painted)  # its swatch and the mark
