"""Camera sources with stand-in devices: newest frame only, faults, reconnection, the factory."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.camera import Reconnect
from hardware.factory import SearchingCamera, open_camera, parse_spec
from hardware.picam import Picamera2Source
from hardware.replay import ReplaySource
from hardware.webcam import WebcamSource

FAST = Reconnect(first_s=0.01, factor=2.0, max_s=0.05, failed_grabs=3)


def wait_for(predicate, timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return False


class FakeCapture:
    """A cv2.VideoCapture stand-in: frames numbered in the red channel; can be 'unplugged'."""

    def __init__(self, device: FakeDevice) -> None:
        self.device = device
        self.opened = device.plugged
        self.settings: dict[int, float] = {}
        self.released = False

    def isOpened(self) -> bool:  # noqa: N802
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        self.settings[prop] = value
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        time.sleep(0.002)
        if not self.device.plugged or not self.opened:
            return False, None
        self.device.count += 1
        image = np.zeros((24, 32, 3), np.uint8)
        image[0, 0, 2] = self.device.count % 256
        return True, image

    def release(self) -> None:
        self.released = True


class FakeDevice:
    def __init__(self, plugged: bool = True) -> None:
        self.plugged = plugged
        self.count = 0
        self.opens = 0
        self.captures: list[FakeCapture] = []

    def factory(self, index: int) -> FakeCapture:
        self.opens += 1
        capture = FakeCapture(self)
        self.captures.append(capture)
        return capture


def test_webcam_gives_newest_frames_as_bgr_and_configures_capture() -> None:
    device = FakeDevice()
    with WebcamSource(2, size=(320, 240), fps=15, capture_factory=device.factory) as cam:
        first = cam.read(timeout=2)
        assert first is not None and first.image.shape == (24, 32, 3)
        time.sleep(0.05)  # many frames are captured meanwhile: read must skip to the newest
        second = cam.read(timeout=2)
        assert second is not None and second.index > first.index + 1
        assert second.timestamp > first.timestamp
        assert cam.status.state == "ok"
        settings = device.captures[0].settings
        assert settings[cv2.CAP_PROP_FRAME_WIDTH] == 320 and settings[cv2.CAP_PROP_BUFFERSIZE] == 1
    assert device.captures[-1].released


def test_read_never_returns_the_same_frame_twice() -> None:
    device = FakeDevice()
    with WebcamSource(0, capture_factory=device.factory) as cam:
        seen = [cam.read(timeout=2) for _ in range(5)]
    indexes = [f.index for f in seen if f is not None]
    assert len(indexes) == 5 and indexes == sorted(set(indexes))


def test_no_webcam_says_so_and_read_waits_only_its_timeout() -> None:
    device = FakeDevice(plugged=False)
    cam = WebcamSource(0, capture_factory=device.factory, reconnect=FAST)
    with cam:
        assert wait_for(lambda: cam.status.state == "no-camera")
        assert "cannot be opened" in cam.status.message
        started = time.monotonic()
        assert cam.read(timeout=0.1) is None
        assert time.monotonic() - started < 0.5
        assert wait_for(lambda: device.opens >= 3)  # keeps trying in the background


def test_unplugged_webcam_reconnects_when_plugged_back() -> None:
    device = FakeDevice()
    cam = WebcamSource(0, capture_factory=device.factory, reconnect=FAST)
    with cam:
        assert cam.read(timeout=2) is not None
        device.plugged = False
        assert wait_for(lambda: cam.status.state in ("disconnected", "reconnecting"))
        assert "unplugged" in cam.status.message or "reconnecting" in cam.status.message
        assert device.captures[0].released
        device.plugged = True
        assert wait_for(lambda: cam.status.state == "ok")
        assert cam.read(timeout=2) is not None
        assert device.opens >= 2


def test_frames_stopping_without_error_reports_timeout() -> None:
    hang, unblock = threading.Event(), threading.Event()

    class HangingCapture(FakeCapture):
        def read(self):
            if hang.is_set():
                unblock.wait(3)  # a driver stuck inside read()
            return super().read()

    device = FakeDevice()
    cam = WebcamSource(
        0, capture_factory=lambda i: HangingCapture(device), frame_timeout_s=0.1, reconnect=FAST
    )
    with cam:
        assert cam.read(timeout=2) is not None
        hang.set()
        assert wait_for(lambda: cam.status.state == "timeout")
        assert "No picture" in cam.status.message
        hang.clear()
        unblock.set()
        assert wait_for(lambda: cam.status.state == "ok")


def test_grab_exceptions_do_not_kill_the_capture_thread() -> None:
    device = FakeDevice()
    calls = {"n": 0}

    class FlakyCapture(FakeCapture):
        def read(self):
            calls["n"] += 1
            if calls["n"] % 2:
                raise RuntimeError("driver hiccup")
            return super().read()

    with WebcamSource(0, capture_factory=lambda i: FlakyCapture(device), reconnect=FAST) as cam:
        assert cam.read(timeout=2) is not None
        assert cam.read(timeout=2) is not None


class StandInPicamera2:
    """Stands in for picamera2.Picamera2 (the class only): records calls, serves frames."""

    instances: list[StandInPicamera2] = []
    cameras = [{"Model": "imx708", "Num": 0}]

    def __init__(self, camera_num: int = 0) -> None:
        if camera_num >= len(self.cameras):
            raise IndexError("list index out of range")
        self.camera_num = camera_num
        self.camera_controls = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
        self.calls: list[tuple[str, object]] = []
        self.controls: dict[str, object] = {}
        self.count = 0
        StandInPicamera2.instances.append(self)

    @staticmethod
    def global_camera_info() -> list[dict]:
        return list(StandInPicamera2.cameras)

    def create_video_configuration(self, main, controls):
        return {"main": main, "controls": controls}

    def configure(self, config) -> None:
        self.calls.append(("configure", config))

    def set_controls(self, controls) -> None:
        self.calls.append(("set_controls", dict(controls)))
        self.controls.update(controls)

    def start(self) -> None:
        self.calls.append(("start", None))

    def capture_array(self, name: str = "main", wait: float | None = None) -> np.ndarray:
        time.sleep(0.002)
        self.count += 1
        return np.full((12, 16, 4), self.count % 256, np.uint8)  # XBGR-like: 4 channels

    def capture_metadata(self, wait: float | None = None) -> dict:
        return {"ExposureTime": 8000, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6), "Lux": 300}

    def stop(self) -> None:
        self.calls.append(("stop", None))

    def close(self) -> None:
        self.calls.append(("close", None))


@pytest.fixture
def picamera2_class():
    StandInPicamera2.instances = []
    StandInPicamera2.cameras = [{"Model": "imx708", "Num": 0}]
    return StandInPicamera2


def test_picamera2_configures_focus_locks_exposure_and_streams(picamera2_class) -> None:
    cam = Picamera2Source(
        size=(640, 480), fps=20, lens_position=3.5, settle_s=0.05, picamera2_class=picamera2_class
    )
    with cam:
        frame = cam.read(timeout=2)
        assert frame is not None and frame.image.shape == (12, 16, 3)
        assert wait_for(lambda: cam.locked_controls is not None)
    device = picamera2_class.instances[0]
    names = [name for name, _ in device.calls]
    assert names[:3] == ["configure", "set_controls", "start"] and names[-2:] == ["stop", "close"]
    config = device.calls[0][1]
    assert config["main"] == {"size": (640, 480), "format": "RGB888"}
    assert config["controls"] == {"FrameRate": 20.0}
    assert device.calls[1][1] == {"AfMode": 0, "LensPosition": 3.5}
    assert {
        "AeEnable": False,
        "AwbEnable": False,
        "ExposureTime": 8000,
    }.items() <= device.controls.items()
    assert device.controls["ColourGains"] == (1.9, 1.6) and device.controls["AnalogueGain"] == 2.5


def test_picamera2_continuous_autofocus_and_fixed_focus_module(picamera2_class) -> None:
    cam = Picamera2Source(autofocus="continuous", settle_s=10, picamera2_class=picamera2_class)
    with cam:
        assert cam.read(timeout=2) is not None
    assert ("set_controls", {"AfMode": 2}) in picamera2_class.instances[0].calls

    class FixedFocus(picamera2_class):
        def __init__(self, camera_num: int = 0) -> None:
            super().__init__(camera_num)
            self.camera_controls = {}

    with Picamera2Source(settle_s=10, picamera2_class=FixedFocus) as cam:
        assert cam.read(timeout=2) is not None
    assert not [c for c in picamera2_class.instances[-1].calls if c[0] == "set_controls"]


def test_picamera2_missing_camera_is_a_clear_status(picamera2_class) -> None:
    picamera2_class.cameras = []
    cam = Picamera2Source(picamera2_class=picamera2_class, reconnect=FAST)
    with cam:
        assert wait_for(lambda: cam.status.state == "no-camera")
        assert "ribbon cable" in cam.status.message
        assert cam.read(timeout=0.05) is None


def test_picamera2_busy_camera_says_another_program_has_it(picamera2_class) -> None:
    class Busy(picamera2_class):
        def __init__(self, camera_num: int = 0) -> None:
            raise RuntimeError("Failed to acquire camera: Device or resource busy")

    with Picamera2Source(picamera2_class=Busy, reconnect=FAST) as cam:
        assert wait_for(lambda: cam.status.state == "no-camera")
        assert "in use by another program" in cam.status.message


def test_picamera2_not_installed_names_the_package() -> None:
    cam = Picamera2Source(reconnect=FAST)  # picamera2 is not installed on this machine
    with cam:
        assert wait_for(lambda: cam.status.state == "no-camera")
    assert "python3-picamera2" in cam.status.message


def test_bad_picamera2_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="autofocus"):
        Picamera2Source(autofocus="sometimes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="dioptres"):
        Picamera2Source(lens_position=-1)


def write_images(folder: Path, count: int) -> None:
    for number in range(count):
        image = np.full((10, 10, 3), number * 20, np.uint8)
        cv2.imwrite(str(folder / f"frame_{number:03d}.png"), image)


def test_replay_folder_in_order_skips_corrupt_image_and_ends(tmp_path: Path, caplog) -> None:
    write_images(tmp_path, 3)
    (tmp_path / "frame_001b.png").write_bytes(b"not a png")
    (tmp_path / "notes.txt").write_text("ignored")
    with ReplaySource(tmp_path) as cam:
        values = [int(f.image[0, 0, 0]) for f in iter(lambda: cam.read(timeout=0), None)]
        assert values == [0, 20, 40]
        assert cam.status.state == "disconnected" and "ended after 3 frames" in cam.status.message
    assert "frame_001b.png" in caplog.text


def test_replay_loops_and_plays_video(tmp_path: Path) -> None:
    write_images(tmp_path, 2)
    with ReplaySource(tmp_path, loop=True) as cam:
        values = [int(cam.read(timeout=0).image[0, 0, 0]) for _ in range(5)]
    assert values == [0, 20, 0, 20, 0]
    video_path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(video_path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (32, 24))
    for number in range(4):
        writer.write(np.full((24, 32, 3), 60 * number, np.uint8))
    writer.release()
    with ReplaySource(video_path) as cam:
        frames = list(iter(lambda: cam.read(timeout=0), None))
    assert len(frames) == 4 and frames[-1].image.mean() > frames[0].image.mean()


def test_replay_paced_mode_runs_in_real_time(tmp_path: Path) -> None:
    write_images(tmp_path, 2)
    with ReplaySource(tmp_path, loop=True, fps=100) as cam:
        frames = [cam.read(timeout=1) for _ in range(3)]
    assert all(frames) and frames[2].timestamp - frames[0].timestamp >= 0.015


def test_replay_refuses_missing_or_empty_path(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        ReplaySource(tmp_path / "nope")
    with pytest.raises(ValueError, match="no images"):
        ReplaySource(tmp_path)


def test_parse_spec_and_bad_specs() -> None:
    assert parse_spec("webcam:1") == ("webcam", "1")
    assert parse_spec("picamera2") == ("picamera2", None)
    assert parse_spec("replay:/tmp/x:y") == ("replay", "/tmp/x:y")
    for bad in ("usb", "webcam:x", "sim:3", "replay:", "", "auto:1"):
        with pytest.raises(ValueError, match="bad camera spec"):
            parse_spec(bad)


def test_open_camera_passes_settings_and_refuses_unknown(tmp_path: Path) -> None:
    device = FakeDevice()
    cam = open_camera("webcam:3", capture_factory=device.factory, size=(320, 240), seed=4)
    assert isinstance(cam, WebcamSource) and cam.index == 3 and cam.size == (320, 240)
    with pytest.raises(ValueError, match="unknown camera setting.*'zoom'"):
        open_camera("webcam", zoom=2)
    write_images(tmp_path, 1)
    assert isinstance(open_camera(f"replay:{tmp_path}"), ReplaySource)


def test_auto_prefers_the_pi_camera(picamera2_class) -> None:
    cam = open_camera("auto", picamera2_class=picamera2_class, video_indexes=[0])
    assert isinstance(cam, Picamera2Source) and "imx708" in cam.auto_choice


def test_auto_falls_back_to_a_webcam_that_gives_frames(picamera2_class) -> None:
    picamera2_class.cameras = []
    dead, alive = FakeDevice(plugged=False), FakeDevice()

    def factory(index: int) -> FakeCapture:
        return (alive if index == 2 else dead).factory(index)

    cam = open_camera(
        "auto", picamera2_class=picamera2_class, capture_factory=factory, video_indexes=[0, 2]
    )
    assert isinstance(cam, WebcamSource) and cam.index == 2
    assert cam.auto_choice == "webcam 2 (/dev/video2)"
    assert all(c.released for c in alive.captures + dead.captures)  # probes let go


def test_auto_with_nothing_says_so_then_uses_a_webcam_plugged_later(picamera2_class) -> None:
    picamera2_class.cameras = []
    device = FakeDevice(plugged=False)
    cam = open_camera(
        "auto",
        picamera2_class=picamera2_class,
        capture_factory=device.factory,
        video_indexes=[0],
        reconnect=FAST,
    )
    assert isinstance(cam, SearchingCamera) and cam.auto_choice == "none yet"
    with cam:
        assert cam.status.state == "no-camera" and "tabletop doctor" in cam.status.message
        started = time.monotonic()
        assert cam.read(timeout=0.05) is None
        assert time.monotonic() - started < 0.5
        device.plugged = True  # the user plugs a webcam in
        assert wait_for(lambda: cam.found is not None)
        assert cam.read(timeout=2) is not None
        assert cam.status.state == "ok" and cam.auto_choice == "webcam 0 (/dev/video0)"
        assert isinstance(cam.found, WebcamSource)
    assert device.captures[-1].released


def test_restart_after_a_stuck_stop_waits_for_the_old_thread() -> None:
    stuck, unblock = threading.Event(), threading.Event()
    open_now = {"count": 0, "most": 0}

    class StuckCapture(FakeCapture):
        def __init__(self, device: FakeDevice) -> None:
            super().__init__(device)
            open_now["count"] += 1
            open_now["most"] = max(open_now["most"], open_now["count"])

        def read(self):
            if stuck.is_set():
                unblock.wait(3)
            return super().read()

        def release(self) -> None:
            open_now["count"] -= 1
            super().release()

    device = FakeDevice()
    cam = WebcamSource(0, capture_factory=lambda i: StuckCapture(device), reconnect=FAST)
    cam.start()
    assert cam.read(timeout=2) is not None
    stuck.set()
    time.sleep(0.02)
    cam.stop(timeout=0.05)  # the capture thread is inside read(): stop gives up waiting
    stuck.clear()
    cam.start()
    time.sleep(0.05)
    assert open_now["most"] == 1  # the new thread has not opened the device under the old one
    unblock.set()
    assert cam.read(timeout=2) is not None
    cam.stop()
    assert open_now["most"] == 1 and open_now["count"] == 0
