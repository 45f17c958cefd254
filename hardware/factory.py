"""`open_camera(spec)`: the one place that turns a camera setting into a source.

Specs: `auto`, `picamera2[:N]`, `webcam[:N]`, `sim`, `replay:PATH`. `auto` tries the Pi camera,
then each /dev/video* webcam that gives a frame, and otherwise returns a source whose status
says no camera was found (the app still runs). Keyword settings go to the chosen source; a
setting no source knows is an error.
"""

from __future__ import annotations

import functools
import glob
import inspect
import logging
import re
import threading
import time
from collections.abc import Callable
from typing import Any

from hardware.camera import CameraSource, CameraStatus, Frame, Reconnect
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


class SearchingCamera(CameraSource):
    """What `auto` gives when no camera works yet: a `no-camera` status saying what was tried,
    and a background search (with backoff) that starts and uses the first camera that appears,
    such as a webcam plugged in after boot."""

    def __init__(
        self,
        find: Callable[[], tuple[CameraSource | None, str]],
        message: str,
        reconnect: Reconnect | None = None,
    ) -> None:
        self.name = "no camera"
        self._find = find
        self._status = CameraStatus("no-camera", message)
        self._backoff = reconnect or Reconnect(first_s=1.0, max_s=10.0)
        self._lock = threading.Lock()
        self._found: CameraSource | None = None
        self._found_event = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def found(self) -> CameraSource | None:
        """The camera in use once one turned up, else None."""
        return self._found

    def start(self) -> None:
        with self._lock:
            if self._found is not None:
                self._found.start()
                return
            if self._thread is not None and self._thread.is_alive():
                return
            self._stopping = threading.Event()
            self._thread = threading.Thread(
                target=self._search, args=(self._stopping,), name="camera:search", daemon=True
            )
            self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stopping.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout)
        with self._lock:
            if self._found is not None:
                self._found.stop()

    def read(self, timeout: float = 1.0) -> Frame | None:
        deadline = time.monotonic() + max(0.0, timeout)
        self._found_event.wait(max(0.0, timeout))  # like a camera with nothing to send yet
        found = self._found
        if found is None:
            return None
        return found.read(max(0.0, deadline - time.monotonic()))

    @property
    def status(self) -> CameraStatus:
        found = self._found
        return found.status if found is not None else self._status

    def _search(self, stopping: threading.Event) -> None:
        for delay in self._backoff.delays():
            if stopping.wait(delay):
                return
            source, why = self._find()
            if source is None:
                self._status = CameraStatus("no-camera", why)
                continue
            with self._lock:
                if stopping.is_set():
                    return
                source.start()
                self._found, self.name, self.auto_choice = source, source.name, why
            log.info("camera auto: found %s", why)
            self._found_event.set()
            return


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
    """The Pi camera if libcamera sees one, else the first webcam that gives a frame, else a
    SearchingCamera that keeps looking."""
    source, why = find_camera(video_indexes, **config)
    if source is not None:
        return chosen(source, why)
    search_again = functools.partial(find_camera, video_indexes, **config)
    return chosen(SearchingCamera(search_again, why, config.get("reconnect")), "none yet")


def find_camera(
    video_indexes: list[int] | None = None, **config: Any
) -> tuple[CameraSource | None, str]:
    """(a source, why it was chosen) for the first camera that works, or (None, what was tried)."""
    pi_cameras = list_pi_cameras(config.get("picamera2_class"))
    if pi_cameras:
        source = Picamera2Source(**settings_for(Picamera2Source, config))
        return source, f"picamera2 (camera 0: {pi_cameras[0].get('Model', 'unknown model')})"
    capture_factory = config.get("capture_factory") or opencv_capture
    indexes = webcam_indexes() if video_indexes is None else video_indexes
    for index in indexes:
        if webcam_gives_frame(index, capture_factory):
            settings = settings_for(WebcamSource, config) | {"index": index}
            return WebcamSource(**settings), f"webcam {index} (/dev/video{index})"
    tried = (
        "no Pi camera seen by picamera2/libcamera; "
        f"no webcam gave a frame ({len(indexes)} /dev/video* tried)"
    )
    return None, f"No camera found: {tried}{DOCTOR_HINT}"


def chosen(source: CameraSource, why: str) -> CameraSource:
    source.auto_choice = why
    log.info("camera auto: using %s", why)
    return source
