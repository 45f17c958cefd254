"""`open_camera(spec)`: the one place that turns a camera setting into a source.

Specs: `auto`, `picamera2[:N]`, `webcam[:N]`, `sim`, `replay:PATH`. `auto` tries the Pi camera,
then each /dev/video* webcam that gives a frame, and otherwise returns a source whose status
says no camera was found (the app still runs). Keyword settings go to the chosen source; a
setting no source knows is an error.
"""

from __future__ import annotations

import glob
import inspect
import logging
import re
import threading
from typing import Any

from hardware.camera import CameraSource, CameraStatus, Frame
from hardware.picam import Picamera2Source, list_pi_cameras
from hardware.replay import ReplaySource
from hardware.simcam import SimulatedCamera
from hardware.webcam import CaptureFactory, WebcamSource, opencv_capture

log = logging.getLogger(__name__)

SPEC_HELP = "auto, picamera2[:N], webcam[:N], sim or replay:PATH"
SOURCES: dict[str, type[CameraSource]] = {
    "picamera2": Picamera2Source,
    "webcam": WebcamSource,
    "sim": SimulatedCamera,
    "replay": ReplaySource,
}
AUTO_ONLY_SETTINGS = frozenset({"video_indexes"})
DOCTOR_HINT = " — run `tabletop doctor`"


class NoCameraSource(CameraSource):
    """What `auto` gives when nothing works: no frames, and a status that says what was tried."""

    def __init__(self, message: str) -> None:
        self.name = "no camera"
        self._status = CameraStatus("no-camera", message)
        self._stopped = threading.Event()

    def start(self) -> None:
        self._stopped.clear()

    def stop(self) -> None:
        self._stopped.set()

    def read(self, timeout: float = 1.0) -> Frame | None:
        self._stopped.wait(max(0.0, timeout))  # behaves like a camera with nothing to send
        return None

    @property
    def status(self) -> CameraStatus:
        return self._status


def settings_for(source: type[CameraSource], config: dict[str, Any]) -> dict[str, Any]:
    accepted = inspect.signature(source.__init__).parameters
    return {key: value for key, value in config.items() if key in accepted}


def check_settings(config: dict[str, Any]) -> None:
    known = set(AUTO_ONLY_SETTINGS)
    for source in SOURCES.values():
        known.update(inspect.signature(source.__init__).parameters)
    unknown = sorted(set(config) - known - {"self"})
    if unknown:
        raise ValueError(f"unknown camera setting(s) {unknown}")


def parse_spec(spec: str) -> tuple[str, str | None]:
    """('webcam', '1') from 'webcam:1'; raises ValueError naming a bad spec."""
    kind, _, argument = spec.strip().partition(":")
    kind = kind.lower()
    bad = ValueError(f"bad camera spec {spec!r}: use {SPEC_HELP}")
    if kind == "auto" or kind == "sim":
        if argument:
            raise bad
        return kind, None
    if kind in ("picamera2", "webcam"):
        if argument and not re.fullmatch(r"\d+", argument):
            raise bad
        return kind, argument or None
    if kind == "replay":
        if not argument:
            raise bad
        return kind, argument
    raise bad


def open_camera(spec: str = "auto", **config: Any) -> CameraSource:
    """A camera source for `spec` (not started); `auto` records its pick in `.auto_choice`."""
    kind, argument = parse_spec(spec)
    check_settings(config)
    if kind == "auto":
        return auto_camera(**config)
    source_class = SOURCES[kind]
    settings = settings_for(source_class, config)
    if kind == "picamera2" and argument is not None:
        settings["camera_num"] = int(argument)
    elif kind == "webcam" and argument is not None:
        settings["index"] = int(argument)
    elif kind == "replay":
        settings["path"] = argument
    return source_class(**settings)


def webcam_indexes() -> list[int]:
    """The N of every /dev/videoN, in order."""
    found = (re.fullmatch(r"/dev/video(\d+)", path) for path in glob.glob("/dev/video*"))
    return sorted(int(match.group(1)) for match in found if match)


def webcam_gives_frame(index: int, capture_factory: CaptureFactory) -> bool:
    capture = capture_factory(index)
    try:
        if not capture.isOpened():
            return False
        ok, image = capture.read()
        return bool(ok) and image is not None
    except Exception as error:
        log.debug("webcam %d: probe failed: %s", index, error)
        return False
    finally:
        capture.release()


def auto_camera(video_indexes: list[int] | None = None, **config: Any) -> CameraSource:
    """The Pi camera if libcamera sees one, else the first webcam that gives a frame."""
    tried: list[str] = []
    pi_cameras = list_pi_cameras(config.get("picamera2_class"))
    if pi_cameras:
        source = Picamera2Source(**settings_for(Picamera2Source, config))
        model = pi_cameras[0].get("Model", "unknown model")
        return chosen(source, f"picamera2 (camera 0: {model})")
    tried.append("no Pi camera seen by picamera2/libcamera")
    capture_factory = config.get("capture_factory") or opencv_capture
    indexes = webcam_indexes() if video_indexes is None else video_indexes
    for index in indexes:
        if webcam_gives_frame(index, capture_factory):
            settings = settings_for(WebcamSource, config) | {"index": index}
            return chosen(WebcamSource(**settings), f"webcam {index} (/dev/video{index})")
    tried.append(f"no webcam gave a frame ({len(indexes)} /dev/video* tried)")
    message = "No camera found: " + "; ".join(tried) + DOCTOR_HINT
    return chosen(NoCameraSource(message), "none")


def chosen(source: CameraSource, why: str) -> CameraSource:
    source.auto_choice = why
    log.info("camera auto: using %s", why)
    return source
