"""Choosing the tray region by touch on the settings screen: drawn, saved, applied live."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from companion.app import App
from companion.config import Config, ConfigError, load_config, save_tray_roi, saved_config
from companion.controller import CameraImage, Controller, Tap
from companion.feed import BackgroundFeed, DiceFeed
from companion.persistence.store import Store
from display.layout import LANDSCAPE, PORTRAIT
from display.render import Renderer

FRAME = np.full((480, 640, 3), 90, np.uint8)


@pytest.fixture
def controller(tmp_path):
    with Store(tmp_path / "state") as store:
        yield Controller(store, "fr")


def open_tray_choice(controller: Controller) -> None:
    controller.handle(Tap("nav:settings"))
    controller.handle(CameraImage(FRAME))
    controller.handle(Tap("tray:edit"))


def touch(renderer: Renderer, controller: Controller, image_xy: tuple[int, int]) -> None:
    """A finger on the camera view where the image pixel `image_xy` is drawn."""
    rect, _, scale = renderer.point_areas[0]
    position = (rect.x + round(image_xy[0] * scale), rect.y + round(image_xy[1] * scale))
    target = renderer.hit(position)
    assert target is not None and target.startswith("trayat:")
    controller.handle(Tap(target))
    renderer.draw(controller.screen())


@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT])
def test_two_touched_corners_become_the_tray_region(controller, size):
    open_tray_choice(controller)
    renderer = Renderer(size)
    renderer.draw(controller.screen())
    touch(renderer, controller, (500, 400))
    touch(renderer, controller, (100, 60))
    screen = controller.screen()
    assert screen.tray is not None
    x, y, w, h = screen.tray
    assert abs(x - 100) <= 3 and abs(y - 60) <= 3 and abs(w - 400) <= 4 and abs(h - 340) <= 4
    controller.handle(Tap("tray:ok"))
    assert controller.tray_roi == screen.tray and controller.settings.tray_points is None
    assert not controller.error
    assert any("x=" in line for line in controller.screen().lines)


def test_a_third_touch_starts_again_and_reset_means_the_whole_frame(controller):
    open_tray_choice(controller)
    for point in ("10,10", "300,300", "50,40"):
        controller.handle(Tap(f"trayat:{point}"))
    assert controller.settings.tray_points == [(50, 40)]
    controller.handle(Tap("trayat:600,470"))
    controller.handle(Tap("tray:ok"))
    assert controller.tray_roi == (50, 40, 550, 430)
    controller.handle(Tap("tray:edit"))
    controller.handle(Tap("tray:reset"))
    assert controller.tray_roi is None and controller.settings.tray_points is None


def test_bad_tray_input_changes_nothing(controller):
    controller.handle(Tap("trayat:10,10"))  # not choosing the tray
    assert controller.error and controller.settings.tray_points is None
    open_tray_choice(controller)
    controller.handle(Tap("tray:ok"))  # no corner yet
    assert controller.error and controller.tray_roi is None
    controller.handle(Tap("trayat:ten,10"))
    assert controller.error and controller.settings.tray_points == []
    controller.handle(Tap("trayat:100,100"))
    controller.handle(Tap("trayat:110,300"))  # 10 px wide: a slip of the finger
    controller.handle(Tap("tray:ok"))
    assert controller.error and controller.tray_roi is None
    controller.handle(Tap("trayat:9999,-5"))  # off the picture: clamped to its edge
    assert controller.settings.tray_points == [(640, 0)]
    controller.handle(Tap("tray:cancel"))
    assert controller.settings.tray_points is None and controller.tray_roi is None
    controller.handle(Tap("nav:home"))
    controller.handle(Tap("tray:edit"))
    assert controller.error and controller.settings.tray_points is None


def test_a_drag_across_the_picture_gives_both_corners(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from display.window import Window

    window = Window(LANDSCAPE, 0, kiosk=False)
    try:
        with Store(tmp_path) as store:
            controller = Controller(store, "fr")
            open_tray_choice(controller)
            window.show(controller.screen())
            rect = window.renderer.point_areas[0][0]
            start, end = (rect.x + 20, rect.y + 20), (rect.right - 30, rect.bottom - 30)
            events = [
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1),
            ]
            for event in events:
                for user_input in window._translate(event):
                    controller.handle(Tap(user_input.value))
            assert len(controller.settings.tray_points) == 2
            controller.handle(Tap("tray:ok"))
            assert controller.tray_roi is not None and controller.tray_roi[2] > 300
    finally:
        window.close()


def test_saving_keeps_the_rest_of_the_config_file(tmp_path):
    path = tmp_path / "tabletop.toml"
    path.write_text('# my table\nlanguage = "en"\n\n[camera]\nspec = "sim"  # sim\n\n'
                    "[display]\nrotation = 180\n")  # fmt: skip
    save_tray_roi(path, (40, 30, 560, 420))
    config = load_config(path)
    assert config.camera.tray_roi == (40, 30, 560, 420)
    assert config.camera.spec == "sim" and config.display.rotation == 180
    assert config.language == "en" and "# my table" in path.read_text()
    save_tray_roi(path, (1, 2, 300, 200))
    assert load_config(path).camera.tray_roi == (1, 2, 300, 200)
    assert path.read_text().count("tray_roi") == 1
    save_tray_roi(path, None)
    assert load_config(path).camera.tray_roi is None and "tray_roi" not in path.read_text()


def test_saving_creates_the_file_and_refuses_a_broken_one(tmp_path):
    fresh = tmp_path / "new" / "tabletop.toml"
    save_tray_roi(fresh, (0, 0, 100, 100))
    assert load_config(fresh).camera.tray_roi == (0, 0, 100, 100)
    broken = tmp_path / "broken.toml"
    broken.write_text("[display]\nrotation = 45\n")
    with pytest.raises(ConfigError, match="display.rotation"):
        save_tray_roi(broken, (0, 0, 100, 100))
    assert broken.read_text() == "[display]\nrotation = 45\n"


def test_the_app_applies_the_region_to_the_reader_and_saves_it(tmp_path):
    from companion.app import MissingCamera

    app = App(Config(state_dir=tmp_path), kiosk=False)
    dice_feed = DiceFeed(MissingCamera("none"))
    dice_feed.reader("d6")
    status: dict[str, str] = {}
    app.apply_tray((10, 20, 300, 200), BackgroundFeed(dice_feed), status)
    assert dice_feed.roi == (10, 20, 300, 200)
    reader = dice_feed.reader("d6")
    assert reader is None or reader.roi == (10, 20, 300, 200)
    assert status["tray_problem"] == ""
    assert saved_config(tmp_path) == tmp_path / "tabletop.toml"
    assert load_config(saved_config(tmp_path)).camera.tray_roi == (10, 20, 300, 200)


def test_run_reads_the_config_saved_in_the_state_directory(tmp_path, capsys):
    from tabletop.cli import main

    (tmp_path / "tabletop.toml").write_text("[display]\nrotation = 45\n")
    assert main(["run", "--state-dir", str(tmp_path), "--frames", "1"]) == 2
    assert "display.rotation" in capsys.readouterr().err
