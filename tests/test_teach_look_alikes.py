"""The kiosk's teach screen names a captured die that looks like another face's, shows it
beside its look-alike in the report's words, at both panel sizes, in fr and en (#55)."""

from __future__ import annotations

import os

import pytest

from companion.controller import CameraImage, Controller, Tap
from companion.persistence.store import Store
from companion.teach import look_alikes_of

FACES = ("9", "10", "J", "Q", "K", "A")


@pytest.fixture(scope="module")
def captures() -> dict[str, list]:
    """Three dice per face of the project's design, each capture one face's, but for the J
    capture, whose third die shows K (a die put in the tray by mistake)."""
    from companion.teach import crop_dice
    from vision.synth.render import render_scene

    found = {}
    for number, face in enumerate(FACES):
        shown = ["J", "J", "K"] if face == "J" else [face] * 3
        found[face] = render_scene(shown, kind="poker", seed=number).frame
    return {face: crop_dice(frame) for face, frame in found.items()} | {"_frames": found}


@pytest.fixture
def controller(tmp_path):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    with Store(tmp_path / "state") as store:
        yield Controller(store, "en")


def test_a_die_of_another_face_is_named_with_its_look_alike(captures):
    examples = {face: captures[face] for face in FACES}
    named = look_alikes_of(examples)
    (alike,) = [alike for alike in named if alike.face == "J"]
    assert alike.like == "K"  # (K dice may be named as like it in turn)
    assert alike.crop is examples["J"][alike.number - 1]
    assert alike.like_crop is examples["K"][alike.like_number - 1]


def test_the_teach_screen_shows_the_look_alike_then_goes_on(controller, captures):
    controller.handle(Tap("nav:settings"))
    controller.handle(Tap("teach:start"))
    for face in FACES:
        controller.handle(CameraImage(captures["_frames"][face]))
        controller.handle(Tap("teach:capture"))
        assert not controller.error, controller.message
    screen = controller.screen()
    assert len(screen.look_alike) == 2
    (said,) = screen.lines
    assert said.startswith("“J” die") and "looks much like your “K” dice" in said, said
    assert "check it (learned as “J”)" in said
    controller.language = "fr"
    assert "ressemble beaucoup à vos dés" in controller.screen().lines[0]
    while controller.screen().look_alike:
        controller.handle(Tap("teach:seen"))
        assert not controller.error
    assert controller.screen().actions[-1].id == "teach:start"  # the settings as before
    controller.handle(Tap("teach:seen"))  # nothing left to see: refused, one line
    assert controller.error


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_look_alike_screen_fits(controller, captures, size, language):
    from companion.teach import LookAlike
    from display.render import Renderer

    renderer = Renderer(size)
    controller.use_layout(renderer.layout)
    controller.language = language
    controller.handle(Tap("nav:settings"))
    controller.settings.look_alikes = [
        LookAlike("J", 3, captures["J"][0], "K", 1, captures["K"][0]),
        LookAlike("Q", 2, captures["Q"][0], None, None, None),
    ]
    for _ in range(2):
        renderer.draw(controller.screen())
        assert not renderer.problems, renderer.problems
        assert "teach:seen" in [target for _, target in renderer.hits]
        controller.handle(Tap("teach:seen"))
