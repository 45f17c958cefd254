"""What stranger G met in Struggle and Sequence (issue 57, round G): each problem held by a test."""

from __future__ import annotations

import random
import re

import numpy as np
import pygame
import pytest

from companion.controller import Controller, Settled, Tap
from companion.persistence.store import Store
from tests.test_companion_controller import reading, roll
from tests.test_kiosk_newcomers import drawn_words


@pytest.fixture
def controller(tmp_path):
    with Store(tmp_path / "state") as store:
        yield Controller(store, "fr", moves_per_page=6, seed_source=random.Random(0))


def struggle_blocked_hand(controller: Controller) -> None:
    """K, 10 and J on the track so that K +2 is blocked unless 10 leaves square 2 first, and J
    +1 always lands on black square 8: hand J K K 10 10."""
    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    controller.table.dice.can_throw = True
    controller.play("first 0")
    controller.state.squares = {"K": 0, "Q": 0, "J": 7, "10": 2, "9": 0}
    roll(controller, "J", "K", "K", "10", "10")


def blocked_count(label: str) -> int:
    return label.count("impasse")


def test_struggle_lists_playable_moves_before_blocked_ones(controller):
    """s-034, s-041: touching a pawn listed first the moves where that pawn is blocked."""
    struggle_blocked_hand(controller)
    untouched = [m.label for m in controller.screen().moves]
    assert untouched == sorted(untouched, key=blocked_count)
    controller.handle(Tap("piece:pawn:K"))
    touched = [m.label for m in controller.screen().moves]
    king_blocked = [bool(re.search(r"Roi\W+impasse", label)) for label in touched]
    assert any(king_blocked) and not king_blocked[0]
    assert king_blocked == sorted(king_blocked)


def aces_said(label: str) -> int:
    """The aces a move's words give a pawn: "Roi + As" is one, "Dame + 2 As" two."""
    return sum(int(n or 1) for n in re.findall(r"\+ (?:(\d) )?As\b", label))


def test_struggle_move_labels_say_which_pawn_each_ace_moves(controller):
    """s-024: "Roi : impasse (occupée) · Dame → 6" did not say the ace had gone to the King."""
    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    controller.table.dice.can_throw = True
    controller.play("first 0")
    controller.state.squares = {"K": 0, "Q": 0, "J": 0, "10": 2, "9": 0}
    roll(controller, "K", "A", "A", "Q", "J")
    labels = [c.label for c in controller.table.choices(controller.state)]
    assert len(labels) > 1 and all(aces_said(label) == 2 for label in labels), labels
    assert any(re.search(r"Roi \+ As\W+impasse", label) for label in labels), labels


def test_struggle_a_play_is_worded_alike_in_the_list_the_last_move_and_undo(controller):
    """s-035, s-036: the list said "Roi → 6", the last-move and undo lines "Roi +2 : case 6"."""
    struggle_blocked_hand(controller)
    choice = controller.table.choices(controller.state)[0]
    assert controller.table.play(choice.notation)
    assert controller.message == choice.label
    controller.handle(Tap("undo:"))
    assert choice.label in controller.message and "case" not in controller.message


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_struggle_a_rethrow_shows_the_dice_kept_and_those_thrown_again(controller, size):
    """s-017: while two dice were thrown again the board still said "Main : 10 10 Q Q A" and the
    button said Lancer."""
    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    controller.table.dice.can_throw = True
    controller.play("first 0")
    roll(controller, "9", "10", "J", "Q", "K")
    controller.handle(Tap("hand:0"))
    controller.handle(Tap("hand:1"))
    controller.handle(Tap("reroll:"))
    words = drawn_words(controller, size)  # none clipped
    assert "Main\u00a0: V D R + ? ?" in words  # the French letters of Valet, Dame, Roi
    assert not any("9 10" in word for word in words)
    throw = next(t for t in controller.screen().actions if t.id == "throw:")
    assert throw.label == "Relancer"


def test_picking_the_face_a_die_already_shows_is_no_correction(controller):
    """s-022, s-023: a die read right, touched and given the face it showed, turned blue
    ("corrected by a player")."""
    controller.start_game("struggle", ["Ann", "Bob"], seed=1)
    controller.play("first 0")
    controller.handle(Settled(reading("9", "10", "J", "Q", "K"), np.zeros((48, 64, 3), np.uint8)))
    proposal = controller.table.turn.proposal
    controller.handle(Tap("die:2"))
    controller.handle(Tap("face:J"))
    assert proposal.faces[2] == "J" and not proposal.corrected
    controller.handle(Tap("die:2"))
    controller.handle(Tap("face:Q"))
    assert proposal.corrected == {2}


NOTATION = re.compile(
    r"@|\b(?:[2-9TJQKA][SHDC]|JS|JH|JD|JC)\b|\bdead [2-9TJQKA]|\brethrow\b|\bobjective\b"
    r"|\b(?:K|Q|J|10|9)\+\d|[a-j]\d+x|x[a-j]\d+|<[^>]*>|\bstake \d|\broll \d"
)
ENGLISH = re.compile(r"\b(?:the|is|not|square|card|play|move|legal|blocked|shows|dead)\b", re.I)
PLAYERS = {"struggle": 2, "sequence": 2, "roudalon": 4, "traverse": 2, "strategix": 3}


def opened_game(controller: Controller, game: str) -> None:
    """`game` started, past its first chance step where one comes first."""
    names = ["Ann", "Bob", "Cid", "Dee"][: PLAYERS[game]]
    controller.start_game(game, names, seed=1)
    if game == "struggle":
        controller.play("first 0")
        controller.state.squares = {"K": 0, "Q": 0, "J": 7, "10": 2, "9": 0}
        roll(controller, "J", "K", "K", "10", "10")
    elif game == "sequence":
        controller.handle(Tap("move:dealer 0"))


def illegal_plays(controller: Controller, game: str) -> list[str]:
    """Plays of every kind the engine refuses here: a move of another position, a card not
    held, a square that shows another card, a jack on an empty square, a card not dead, and
    words that are no play."""
    legal = {a.notation for a in controller.state.legal_actions()}
    tried = {
        "struggle": ["K+2 J+1 10+4", "K+9 J+1 10+2", "rethrow A", "objective K Q J 10 9"],
        "sequence": [],
        "roudalon": ["stake 1", "roll 7 7", "offer", "yes"],
        "traverse": ["roll 9 9", "stake 1", "first 5"],
        "strategix": ["first 5", "play Z Z", "pass"],
    }[game]
    if game == "sequence":
        view = controller.state.view(None)
        shown = [(c, f"{'abcdefghij'[x]}{y + 1}") for y, row in enumerate(view["cards"])
                 for x, c in enumerate(row) if c != "XX"]  # fmt: skip
        card = shown[0][0]
        other = next(sq for c, sq in shown if c != card)
        tried = [f"{card}@{other}", f"JSx{other}", f"dead {card}", "2S@a1", f"{card}@z9"]
    return [notation for notation in [*tried, "zz"] if notation not in legal]


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_no_refusal_shows_notation_or_english_in_french(tmp_path, game, language):
    """q-010, q-013, q-018: refusals said "7 de cœur@h5 : …", "JSxc1 : …", "dead 5 de pique : …"."""
    with Store(tmp_path / "state") as store:
        controller = Controller(store, language, moves_per_page=6, seed_source=random.Random(0))
        opened_game(controller, game)
        for notation in illegal_plays(controller, game):
            controller.say("")
            assert not controller.table.play(notation)
            said = controller.message
            assert controller.error and said, notation
            assert not NOTATION.search(said), (notation, said)
            if language == "fr":
                assert not ENGLISH.search(said), (notation, said)


def sequence_play(controller: Controller, square: str) -> None:
    """The card a square shows, played on it."""
    column, row = "abcdefghij".index(square[0]), int(square[1:]) - 1
    card = controller.state.view(None)["cards"][row][column]
    assert controller.table.play(f"{card}@{square}"), controller.message


def yellow_squares(monkeypatch, controller: Controller) -> set[str]:
    """The squares drawn with the yellow frame of a move or a sequence."""
    from display import palette
    from display.render import Renderer

    renderer, framed = Renderer((720, 1280)), []
    draw_rect = pygame.draw.rect

    def recorded(surface, colour, rect, width=0, **named):
        if colour == palette.YELLOW and width == 4:
            framed.append(pygame.Rect(rect))
        return draw_rect(surface, colour, rect, width, **named)

    monkeypatch.setattr(pygame.draw, "rect", recorded)
    renderer.draw(controller.screen())
    monkeypatch.undo()
    squares = {target.removeprefix("square:"): rect for rect, target in renderer.hits
               if target.startswith("square:")}  # fmt: skip
    return {name for name, rect in squares.items() if rect in framed}


def test_a_completed_sequence_keeps_one_mark_corner_included(controller, monkeypatch):
    """q-012, q-015: a sequence was framed in yellow, corner a1 included, until the next play;
    then only thin rings on its chips were left and the corner was unmarked."""
    controller.start_game("sequence", ["Ann", "Bob"], seed=1)
    controller.handle(Tap("move:dealer 0"))
    first = controller.state.actor
    for ours, theirs in zip(["b1", "c1", "d1", "e1"], ["b5", "c5", "d5", "e5"], strict=True):
        sequence_play(controller, ours if controller.state.actor == first else theirs)
        sequence_play(controller, theirs if controller.state.actor != first else ours)
    line = {"a1", "b1", "c1", "d1", "e1"}
    assert controller.state.view(None)["sequences"]
    assert line <= yellow_squares(monkeypatch, controller)
    sequence_play(controller, "f5" if "f5" not in line else "g5")
    assert line <= yellow_squares(monkeypatch, controller)


def test_sequence_teams_with_no_choice_are_a_plain_value(controller):
    """q-001: "Équipes : 2" with two players looked pressed (orange, as a button selected)."""
    controller.handle(Tap("game:sequence"))
    screen = controller.screen()
    assert not [t for t in screen.options if t.id.startswith("teams:")]
    assert "Équipes\u00a0: 2" in screen.lines
    while len(controller.setup.draft.players) < 6:
        controller.handle(Tap("count:+"))
    teams = [t.id for t in controller.screen().options if t.id.startswith("teams:")]
    assert teams == ["teams:2", "teams:3"]
