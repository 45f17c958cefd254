"""Faults at the kiosk (#22): it never exits on a recoverable error, it shows it and plays on."""

from __future__ import annotations

import pytest

from companion import app as app_module
from companion.app import App
from companion.config import Config
from companion.controller import Controller, Tap
from companion.kiosk_guard import guarded, screen_or_home
from companion.persistence.recovery import open_store
from companion.persistence.store import DB_NAME, Store
from display.i18n import say, text
from tests.faults_support import fill, small_tmpfs


def test_database_path_a_directory_store_opened_before_the_camera(tmp_path, monkeypatch):
    (tmp_path / DB_NAME).mkdir()
    order = []
    real_open_store, real_open_hardware = app_module.open_store, app_module.open_hardware
    monkeypatch.setattr(app_module, "open_store",
                        lambda d: order.append("store") or real_open_store(d))  # fmt: skip
    monkeypatch.setattr(app_module, "open_hardware",
                        lambda *a: order.append("camera") or real_open_hardware(*a))  # fmt: skip
    assert App(Config(state_dir=tmp_path), camera_spec="sim", kiosk=False).run(max_frames=2) == 0
    assert order == ["store", "camera"]


def test_state_dir_unusable_the_kiosk_still_runs_and_says_so(tmp_path, monkeypatch):
    a_file = tmp_path / "state-file"
    a_file.write_text("x")
    shown = []
    real = app_module.show_problem
    monkeypatch.setattr(app_module, "show_problem", lambda c, p: shown.append(p) or real(c, p))
    assert App(Config(state_dir=a_file), camera_spec="sim", kiosk=False).run(max_frames=2) == 0
    said = say("en", shown[0])  # the journal has the reason ("is a file")
    assert shown and str(a_file) in said and "nothing is kept" in said


def test_an_error_while_handling_a_tap_is_shown_and_the_table_goes_on(tmp_path, monkeypatch):
    with Store(tmp_path) as store:
        controller = Controller(store)

        def broken(_):
            raise RuntimeError("a bug in a handler")

        monkeypatch.setattr(controller, "_navigate", broken)
        guarded(controller, "tap", lambda: controller.handle(Tap("nav:scores")), None)
        assert controller.error and "RuntimeError" in controller.message  # the log: the rest
        assert controller.screen() is not None


def test_a_screen_that_fails_falls_back_to_home(tmp_path, monkeypatch):
    with Store(tmp_path) as store:
        controller = Controller(store)
        controller.handle(Tap("nav:scores"))
        monkeypatch.setattr(store, "totals", lambda: 1 / 0)
        screen = screen_or_home(controller)
        assert controller.screen_name == "home" and screen is not None
        assert "ZeroDivisionError" in controller.message


def test_csv_export_on_a_full_disk_is_shown_and_the_kiosk_stays_up(tmp_path):
    with small_tmpfs(tmp_path / "full", "4m") as mount:
        with Store(mount / "state") as store:
            controller = Controller(store)
            controller.handle(Tap("nav:scores"))
            fill(mount)
            guarded(controller, "tap", lambda: controller.handle(Tap("export:")), None)
            assert controller.error and text("fr", "diag.disk_full") in controller.message
            assert controller.screen() is not None


def test_a_failed_write_during_play_leaves_the_position_shown(tmp_path, monkeypatch):
    with Store(tmp_path) as store:
        controller = Controller(store)
        controller.start_game("traverse", ["A", "B"], seed=1, mode="full")
        before = controller.state.clone()
        legal = controller.state.legal_actions()
        if not legal:
            pytest.skip("traverse opens on a chance action here")

        def full(*args, **kwargs):
            import sqlite3

            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(store, "append", full)
        guarded(controller, "play", lambda: controller.play(legal[0].notation), None)
        assert controller.state == before
        assert text("fr", "diag.disk_full") in controller.message


def test_a_game_that_cannot_be_resumed_does_not_keep_the_table_dark(tmp_path, monkeypatch):
    with Store(tmp_path) as store:
        store.start_game("traverse", ["A", "B"])
    monkeypatch.setattr("companion.controller.rebuild_state",
                        lambda *a: (_ for _ in ()).throw(KeyError("lost")))  # fmt: skip
    assert App(Config(state_dir=tmp_path), camera_spec="sim", kiosk=False).run(max_frames=2) == 0


def test_demo_killed_between_result_and_end_screenshot_reruns(tmp_path):
    from companion import demo

    quiet = dict(say=lambda _: None)
    first = demo.run_demo(["traverse"], 2, tmp_path / "state", tmp_path, **quiet)
    end_shots = list((tmp_path / "traverse").glob("*-end.png"))
    assert end_shots
    for shot in end_shots:
        shot.unlink()
    again = demo.run_demo(["traverse"], 2, tmp_path / "state", tmp_path, **quiet)
    assert again["scores"] == first["scores"]
    assert list((tmp_path / "traverse").glob("*-end.png"))


def test_open_store_with_a_corrupt_move_then_the_kiosk_lists_it(tmp_path):
    with Store(tmp_path) as store:
        game_id = store.start_game("struggle", ["Ann", "Bob"], seed=3)
        store.append(game_id, "roll 9 9 9 9 7")
    with open_store(tmp_path) as store:
        assert store.damaged_games()[0][0] == game_id


def test_run_on_a_damaged_state_dir_never_aborts(tmp_path):
    """The issue saw SIGABRT in 4 of 12 runs (camera started before a store that failed)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    for attempt, damage in enumerate(["directory", "garbage", "directory", "garbage"]):
        state = tmp_path / f"s{attempt}"
        state.mkdir()
        if damage == "directory":
            (state / DB_NAME).mkdir()
        else:
            (state / DB_NAME).write_bytes(b"\x13" * 3000)
        done = subprocess.run(
            [sys.executable, "-m", "tabletop", "run", "--camera", "sim", "--windowed",
             "--state-dir", str(state), "--frames", "3"],
            capture_output=True, text=True, env=env, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr and "moved aside" in done.stderr


def test_the_kiosk_and_scores_on_a_full_disk(tmp_path, capsys):
    from tabletop.cli import main

    with small_tmpfs(tmp_path / "full", "4m") as mount:
        state = mount / "state"
        with Store(state) as store:
            store.finish(store.start_game("traverse", ["A", "B"]), [2, 1], [0])
            store.start_game("traverse", ["A", "B"])  # in progress
        fill(mount)
        app = App(Config(state_dir=state), camera_spec="sim", kiosk=False)
        assert app.run(max_frames=3) == 0
        assert main(["scores", "--state-dir", str(state)]) == 0
        captured = capsys.readouterr()
        assert "A" in captured.out and "Traceback" not in captured.err
