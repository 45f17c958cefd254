"""The capture size that reads the tray's dice (the camera ruling of #55: a top face at least
40 px across): chosen among the sizes a camera gives with its whole field of view, raised by the
kiosk when the tray chosen on the settings screen holds smaller dice, kept in the config."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from companion.capture_fit import fit_capture
from companion.config import load_config, save_camera_keys
from hardware.capture_size import choose_capture_size, scaled_roi, sizes_of_shape
from hardware.picam import full_view_modes
from vision.synth.render import SceneStyle, render_empty, render_scene

CAMERA_MODULE_3 = [  # picamera2's sensor_modes for an imx708, as a Pi lists them
    {"size": (1536, 864), "crop_limits": (768, 432, 3072, 1728)},
    {"size": (2304, 1296), "crop_limits": (0, 0, 4608, 2592)},
    {"size": (4608, 2592), "crop_limits": (0, 0, 4608, 2592)},
]


class ModesCamera:
    sensor_modes = CAMERA_MODULE_3


def test_only_modes_that_see_the_whole_sensor_are_offered():
    assert full_view_modes(ModesCamera()) == [(2304, 1296), (4608, 2592)]
    assert full_view_modes(object()) == []


def test_sizes_keep_the_frame_shape_within_each_mode():
    assert sizes_of_shape([(2304, 1296), (4608, 2592)], (1536, 864)) == [
        (2304, 1296),
        (4608, 2592),
    ]
    assert sizes_of_shape([(4056, 3040)], (1536, 864)) == [(4056, 2280)]


def test_the_smallest_size_that_reads_the_dice_is_chosen():
    offered = [(2304, 1296), (4608, 2592)]
    choice = choose_capture_size((1536, 864), 30.0, offered, 40.0)
    assert choice is not None and choice.size == (2304, 1296) and choice.die_px == 45.0
    assert choose_capture_size((1536, 864), 50.0, offered, 40.0).size == (1536, 864)
    assert choose_capture_size((1536, 864), 12.0, offered, 40.0) is None
    assert choose_capture_size((1536, 864), 30.0, [(1920, 1440)], 40.0) is None  # another shape


@given(
    width=st.integers(160, 4000),
    die=st.floats(1.0, 200.0),
    grow=st.lists(st.integers(1, 8), max_size=4),
)
def test_a_chosen_size_always_reads_the_dice_and_keeps_the_shape(width, die, grow):
    current = (width * 2, width * 2 * 3 // 4 // 2 * 2)
    offered = [(current[0] * g, current[1] * g) for g in grow]
    choice = choose_capture_size(current, die, offered, 40.0)
    if choice is not None:
        assert choice.die_px >= 40.0 and choice.size in [current, *offered]
    else:
        assert all(die * g < 40.0 for g in grow) and die < 40.0


def test_the_tray_region_scales_with_the_size_and_stays_inside():
    assert scaled_roi((40, 30, 560, 420), (640, 480), (1280, 960)) == (80, 60, 1120, 840)
    assert scaled_roi(None, (640, 480), (1280, 960)) is None
    x, y, w, h = scaled_roi((600, 400, 40, 80), (640, 480), (961, 721))
    assert x + w <= 961 and y + h <= 721


def tray(low: float, high: float):
    return render_scene([1, 4, 6, 2], seed=5, style=SceneStyle(die_size=(low, high))).frame


def test_small_dice_raise_the_capture_size_and_the_screen_says_it():
    fit = fit_capture(tray(24.0, 27.0), None, [(960, 720), (1280, 960), (2560, 1920)])
    assert fit is not None and fit.current == (640, 480) and fit.die_px < 40
    assert fit.raise_to is not None and fit.choice.die_px >= 40
    said = fit.said()
    assert said.code == "diag.capture_raised" and said.params["size"] == "x".join(
        map(str, fit.raise_to)
    )


def test_small_dice_and_no_larger_size_ask_to_move_the_camera():
    fit = fit_capture(tray(24.0, 27.0), None, [])
    assert fit.raise_to is None and fit.said().code == "diag.dice_too_small"


def test_big_enough_dice_and_an_empty_tray_change_nothing():
    fit = fit_capture(tray(50.0, 56.0), None, [(1280, 960)])
    assert fit.raise_to is None and fit.said() == ""
    assert fit_capture(render_empty(seed=3), None, [(1280, 960)]) is None


def test_size_and_region_are_saved_together_and_load(tmp_path: Path):
    path = tmp_path / "tabletop.toml"
    path.write_text('language = "en"\n[camera]\nspec = "sim"  # the camera\n')
    save_camera_keys(path, {"tray_roi": (80, 60, 1120, 840), "capture_size": (1280, 960)})
    camera = load_config(path).camera
    assert camera.tray_roi == (80, 60, 1120, 840) and camera.capture_size == (1280, 960)
    assert "# the camera" in path.read_text()


class SmallDiceCamera:
    """A started camera whose tray holds dice under 40 px, offering a larger size."""

    def __init__(self, image) -> None:
        self.image, self.stopped = image, False

    def latest(self):
        return type("Frame", (), {"image": self.image})()

    def capture_sizes(self) -> list[tuple[int, int]]:
        return [(1280, 960)]

    def stop(self) -> None:
        self.stopped = True


def test_the_kiosk_reopens_the_camera_larger_when_the_chosen_tray_has_small_dice(
    tmp_path, monkeypatch
):
    import companion.app as app_module
    from companion.app import App, Hardware, MissingCamera
    from companion.config import CameraConfig, Config
    from companion.controller import Controller, Tap
    from companion.feed import BackgroundFeed, DiceFeed
    from companion.persistence.store import Store

    opened: list[tuple[str, tuple[int, int] | None]] = []

    def open_camera(spec, size=None):
        opened.append((spec, size))
        return MissingCamera("stand-in")

    monkeypatch.setattr(app_module, "open_hardware_camera", open_camera)
    config = Config(state_dir=tmp_path, camera=CameraConfig(spec="webcam:0"))
    app = App(config, kiosk=False)
    small = SmallDiceCamera(tray(24.0, 27.0))
    hardware = Hardware(small, None, {})
    feed = BackgroundFeed(DiceFeed(small))
    with Store(tmp_path / "store") as store:
        controller = Controller(store, "en", status=hardware.status)
        controller.settings.tray_roi = (40, 30, 560, 420)
        app.apply_tray(controller.tray_roi, feed, hardware.status)
        app.fit_capture(controller, feed, hardware)
        assert small.stopped and opened == [("webcam:0", (1280, 960))]
        assert controller.tray_roi == (80, 60, 1120, 840) == feed.feed.roi
        controller.handle(Tap("nav:settings"))
        lines = controller.screen().lines
        assert any("now captures at 1280x960" in line for line in lines), lines
    saved = load_config(tmp_path / "tabletop.toml").camera
    assert saved.capture_size == (1280, 960) and saved.tray_roi == (80, 60, 1120, 840)
