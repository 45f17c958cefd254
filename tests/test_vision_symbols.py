"""Dice printing a maker's symbol instead of the 1 or the 6: rendered, and never read as a value."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.synth._draw_faces import face_texture
from vision.synth._draw_logos import LOGO_DESIGNS
from vision.synth.render import SceneStyle, render_scene


@pytest.mark.parametrize("design", LOGO_DESIGNS)
def test_a_symbol_face_is_drawn_instead_of_the_pips(design: str) -> None:
    body = np.full((64, 64, 3), 230.0, np.float32)
    pips = face_texture(1, "d6", body, (30, 30, 30), 64)
    symbol = face_texture(1, "d6", body, (30, 30, 30), 64, logo=design)
    assert (symbol < 128).any()  # ink was drawn
    assert np.abs(symbol - pips).mean() > 3.0


def test_only_dice_showing_the_symbol_face_are_marked_as_symbols() -> None:
    style = replace(SceneStyle(), logo_faces=(6,), logo="star")
    scene = render_scene([6, 6, 2, 5], seed=3, style=style)
    assert sorted((die.value, die.symbol) for die in scene.dice) == [
        (2, False),
        (5, False),
        (6, True),
        (6, True),
    ]


def test_symbol_dice_the_finder_is_sure_of_are_counted_as_unreadable_not_lost() -> None:
    """The finder sees a symbol die; the face net takes it for no die. Where the finder is sure,
    or the symbol net sees a die, it is kept as unreadable (the player sets it with a touch)
    instead of vanishing: 31 of 38 here (13 before the symbol net, none before that), 3 still
    lost (#24)."""
    from bench.symbols import symbol_figures
    from vision.reader import DiceReader

    figures = symbol_figures(DiceReader("d6"), 20)
    assert figures["unreadable"] >= 0.75 * figures["symbol_dice"], figures
    assert figures["missing"] <= 0.1 * figures["symbol_dice"], figures
    assert figures["other_die_accuracy"] >= 0.97  # the trays' other dice are read as before


def test_a_sure_peak_away_from_every_die_read_is_an_unreadable_die() -> None:
    from vision.read.find import square_quad
    from vision.read.types import Die, DieCandidate
    from vision.read.unread import SEEN_SURELY, seen_but_unread

    def candidate(x: float, score: float) -> DieCandidate:
        return DieCandidate((x, 50.0), square_quad((x, 50.0), 40.0), 40.0, score)

    read = Die(3, (50.0, 50.0), 0.99, square_quad((50.0, 50.0), 40.0))
    pip_of_read_die = candidate(60, 0.9)
    faint, sure = candidate(150, SEEN_SURELY - 0.1), candidate(250, SEEN_SURELY + 0.1)
    frame = np.zeros((100, 300, 3), np.uint8)
    frame[30:70, 30:70] = 230  # the die read is white; where the faint peak is, the table
    unread = seen_but_unread(frame, [pip_of_read_die, faint, sure, sure], [read])
    assert [(die.value, die.center) for die in unread] == [(None, (250.0, 50.0))]
    assert "symbol" in unread[0].reason


def test_a_weaker_peak_like_the_dice_read_is_an_unreadable_die() -> None:
    """A symbol die beside the other dice of its set: two of their size and their body's
    colour (one alone might be a number token read as a die, beside another token)."""
    from vision.read.find import square_quad
    from vision.read.types import Die, DieCandidate
    from vision.read.unread import AROUND_A_LIKE, SEEN_BESIDE_ITS_LIKE, seen_but_unread

    def candidate(x: float, side: float, score: float) -> DieCandidate:
        return DieCandidate((x, 50.0), square_quad((x, 50.0), side), side, score)

    def die(x: float) -> Die:
        return Die(3, (x, 50.0), 0.99, square_quad((x, 50.0), 40.0))

    frame = np.full((100, 600, 3), 60, np.uint8)
    for x in (50, 150, 250, 350, 450):
        frame[30:70, x - 20 : x + 20] = (40, 40, 200)  # red dice of one set
    read = [die(50), die(150)]
    weak = SEEN_BESIDE_ITS_LIKE + 0.05
    symbol, smaller = candidate(250, 40, weak), candidate(350, 20, weak)
    too_weak = candidate(450, 40, SEEN_BESIDE_ITS_LIKE - 0.05)
    close = candidate(150 + 0.5 * AROUND_A_LIKE * 40 - 2, 40, weak)
    unread = seen_but_unread(frame, [symbol, smaller, too_weak, close], read)
    assert [die.center for die in unread] == [(250.0, 50.0)]
    assert seen_but_unread(frame, [symbol], read[:1]) == []  # one die like it is not enough
    frame[30:70, 230:270] = 230  # a white thing of a die's size beside the red dice
    assert seen_but_unread(frame, [symbol], read) == []


def test_a_dark_die_with_a_large_light_symbol_has_the_colour_of_its_body() -> None:
    """The body colour compares a symbol die with the dice of its set read beside it: a green
    die printing a white symbol over a third of its middle is green, like its pip faces."""
    import cv2

    from vision.read.body_fit import body_colour

    green = np.array([40, 140, 40], np.uint8)
    grain = np.random.default_rng(0).integers(-6, 7, (60, 60, 3))  # a real body is not flat
    symbol = np.clip(green.astype(int) + grain, 0, 255).astype(np.uint8)
    pips = symbol.copy()
    symbol[12:48, 18:42] = 240  # a large white print, over a third of the middle
    pips[27:33, 27:33] = 240  # a 1's pip
    body = cv2.cvtColor(green.reshape(1, 1, 3), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)
    for face in (symbol, pips):
        assert np.linalg.norm(body_colour(face, (30.0, 30.0), 60.0) - body) < 5.0


def test_a_weaker_peak_the_symbol_net_takes_for_a_die_is_an_unreadable_die(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A symbol die alone in the frame (no die of its set read beside it) is counted where the
    symbol net gives it little chance of being no die; where it gives more, it is not."""
    import vision.read.unread
    from vision.read.find import square_quad
    from vision.read.types import DieCandidate

    weak = vision.read.unread.SEEN_BESIDE_ITS_LIKE + 0.05
    cand = DieCandidate((50.0, 50.0), square_quad((50.0, 50.0), 40.0), 40.0, weak)
    frame = np.full((100, 100, 3), 60, np.uint8)
    for no_die, counted in ((0.02, True), (0.5, False)):
        chances = np.array([[no_die] + [(1 - no_die) / 6] * 6], np.float32)
        monkeypatch.setattr(vision.read.unread, "classify_crops", lambda crops, c=chances, **_: c)
        unread = vision.read.unread.seen_but_unread(frame, [cand], [])
        assert [die.center for die in unread] == ([(50.0, 50.0)] if counted else [])
