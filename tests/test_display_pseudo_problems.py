"""A kiosk problem screen speaks the catalogue's words: a camera that fails, a store error, a
full disk, a bug, GPIO missing — each drawn in the pseudo-locale qps with no untranslated word
(the system's own English stays in the log)."""

from __future__ import annotations

import errno
import sqlite3

import pytest

from companion import app, diagnostics
from companion.config import ConfigError
from companion.gallery import SIZES, scenes
from companion.kiosk_guard import guarded
from companion.persistence.store import Store, StoreError, StoreUnavailable
from display.i18n import PSEUDO, say
from display.render import Renderer
from tests.test_display_pseudo import Recorder, names, untranslated

ERRORS = {
    "disk full": OSError(errno.ENOSPC, "No space left on device", "/var/lib/tabletop/games.db"),
    "sqlite full": sqlite3.OperationalError("database or disk is full"),
    "sqlite read-only": sqlite3.OperationalError("attempt to write a readonly database"),
    "read-only": OSError(errno.EROFS, "Read-only file system", "/var/lib/tabletop"),
    "permission": PermissionError(errno.EACCES, "Permission denied", "/var/lib/tabletop"),
    "device gone": OSError(errno.EIO, "Input/output error"),
    "store refused": StoreError("nothing to undo: the game is at its start"),
    "store unusable": StoreUnavailable("/var/lib/tabletop: No such file or directory"),
    "config": ConfigError("display.rotation must be 0, 90, 180 or 270"),
    "memory": MemoryError(),
    "bug": ValueError("too many values to unpack (expected 2)"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with Store(tmp_path_factory.mktemp("pseudo-problems")) as opened:
        yield opened


def drawn_words(controller, recorder: Recorder) -> list[str]:
    """Draw the controller's screen at both panel sizes; the words drawn outside the catalogue."""
    for size in SIZES.values():
        renderer = Renderer(size)
        controller.use_layout(renderer.layout)
        renderer.draw(controller.screen())
    return sorted({w for drawn in recorder.drawn for w in untranslated(drawn, names())})


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_a_problem_at_the_table_is_drawn_in_the_catalogue_words(store, name, monkeypatch):
    recorder = Recorder(monkeypatch)
    controller = dict(scenes(store, PSEUDO))["home"]()

    def fail() -> None:
        raise ERRORS[name]

    guarded(controller, "a tap", fail, None)
    assert controller.error and controller.message.startswith("⟦")
    kind = {type(ERRORS[name]).__name__}  # a bug's class name is an identifier, like a path
    found = [w for w in drawn_words(controller, recorder) if w not in kind]
    assert not found, controller.message


def test_a_camera_that_fails_and_no_gpio_are_said_in_the_catalogue_words(store, monkeypatch):
    def broken(spec: str):
        raise RuntimeError("VIDIOC_STREAMON: Input/output error")

    monkeypatch.setattr("hardware.factory.open_camera", broken)
    camera = app.open_hardware_camera("webcam:0")
    recorder = Recorder(monkeypatch)
    controller = dict(scenes(store, PSEUDO))["settings"]()
    controller.status.update(
        camera=app.camera_line(camera, "webcam:0"), buttons=diagnostics.buttons(False),
        tray_problem=diagnostics.tray_not_saved(ConfigError("cannot write tabletop.toml")),
    )  # fmt: skip
    found = drawn_words(controller, recorder)
    assert not found
    assert any("webcam:0" in drawn for drawn in recorder.drawn)


def test_start_up_problems_are_said_in_the_catalogue_words(store, monkeypatch):
    recorder = Recorder(monkeypatch)
    controller = dict(scenes(store, PSEUDO))["home"]()
    problems = [
        *diagnostics.store_notes(["database schema 2 migrated to 3"]),
        *diagnostics.store_notes([], in_memory="/var/lib/tabletop"),
        diagnostics.profile_ignored("/var/lib/tabletop/poker.npz", ValueError("not a profile")),
        *diagnostics.examples_set_aside(1),
    ]
    app.show_problem(controller, diagnostics.joined(problems))
    assert not drawn_words(controller, recorder), controller.message


def test_the_english_and_french_lines_name_the_problem():
    full = diagnostics.problem(ERRORS["sqlite full"])
    assert say("en", full) == "the disk is full"
    assert say("fr", full) == "le disque est plein"
    gone = diagnostics.problem(ERRORS["device gone"])
    assert say("en", gone) == f"system error {errno.EIO}"
    denied = diagnostics.problem(ERRORS["permission"])
    assert say("fr", denied) == "accès refusé à /var/lib/tabletop"
