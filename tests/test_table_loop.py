"""A complete game of each game through `tabletop run`'s own loop: the simulated camera throws
and the reader reads, a simulated person touches the screen with pygame mouse events; every
screen on the way says whose turn it is, shows no notation and clips no text."""

from __future__ import annotations

import re

import pytest

from bench.table import GAMES as PLAYERS
from companion.app import App
from companion.config import Config
from companion.person import Person

NOTATION = re.compile(
    r"<[^>]+>|\b\d+[+-]\d+\b|\b[2-9TJQKA][SHDC]\b|@|\b(roll|first|dealer|rethrow|play) \w"
)


def check_screen(app: App) -> None:
    screen, renderer = app.screen, app.window.renderer
    assert not renderer.problems, renderer.problems
    if screen.name != "table":
        return
    state = app.controller.state
    assert screen.turn, "the table says what it waits for"
    if not state.is_over:
        assert screen.acting is not None or state.is_chance, "whose turn is shown"
        if screen.acting is not None:
            assert state.players[screen.acting] in screen.turn
    words = [screen.turn, screen.message, screen.message_detail, screen.entry]
    words += [t.label for t in screen.moves + screen.actions + screen.options]
    for said in words:
        assert not NOTATION.search(said), f"notation on screen: {said!r}"


@pytest.fixture
def app(tmp_path, monkeypatch):
    from hardware.simcam import SimulatedCamera

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    started = App(Config(state_dir=tmp_path), kiosk=False)
    started.frame_seconds = 0
    camera = SimulatedCamera(seed=1, stepped=True, moving_frames=1, settled_frames=3,
                             size=(480, 360))  # fmt: skip
    started.open(camera=camera)
    started.step()
    yield started
    started.close()


@pytest.mark.parametrize("game", list(PLAYERS))
def test_a_whole_game_through_the_app_loop(app, game):
    person = Person(app, seed=3, check=check_screen)
    person.start(game, PLAYERS[game])
    tally = person.play_out()
    assert app.controller.state.is_over
    assert app.controller.session.record.status == "over"
    assert tally.move_taps and max(tally.move_taps) <= 7
