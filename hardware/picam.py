"""A Raspberry Pi camera (Camera Module 3 and the others) through picamera2.

picamera2 exists only on a Pi (installed by apt), so it is imported only when this source is
opened. Exposure and white balance are locked once settled so pip colours don't drift between
rolls; focus is fixed at a lens position (dioptres) for the tray height, or continuous.
"""

from __future__ import annotations

import time
from typing import Any, Literal

import numpy as np

from hardware.camera import CameraUnavailable, Reconnect, ThreadedSource
from hardware.capture_size import sizes_of_shape

Autofocus = Literal["manual", "continuous", "default"]
AUTOFOCUS_MODES: tuple[str, ...] = ("manual", "continuous", "default")
# libcamera's controls.AfModeEnum values; plain ints avoid importing libcamera here.
AF_MODE_MANUAL = 0
AF_MODE_CONTINUOUS = 2
INSTALL_HINT = "sudo apt install python3-picamera2 (venv made with --system-site-packages)"


def import_picamera2_class() -> Any:
    try:
        from picamera2 import Picamera2  # type: ignore[import-not-found]
    except ImportError as error:
        raise CameraUnavailable(f"picamera2 is not installed ({INSTALL_HINT})") from error
    return Picamera2


def list_pi_cameras(picamera2_class: Any | None = None) -> list[dict[str, Any]]:
    """The cameras libcamera sees ([] when picamera2 is missing or none is connected)."""
    try:
        cls = picamera2_class or import_picamera2_class()
        return list(cls.global_camera_info())
    except Exception:
        return []


def open_failure_message(camera_num: int, error: Exception) -> str:
    if "busy" in str(error).lower():
        return f"Pi camera {camera_num} is in use by another program — close it ({error})"
    return f"no Pi camera {camera_num} found — check the ribbon cable ({error})"


def full_view_modes(camera: Any) -> list[tuple[int, int]]:
    """The sizes of the sensor modes that see the whole sensor (a cropped mode sees less: the
    tray's dice would grow, and its region move). Read before the camera is configured, as
    picamera2 probes its modes then; [] when it cannot say."""
    try:
        modes = list(camera.sensor_modes or [])
    except Exception:  # an older picamera2, or a sensor that lists none
        return []
    widest = max((mode.get("crop_limits", (0, 0, 0, 0))[2] for mode in modes), default=0)
    return [
        tuple(mode["size"])
        for mode in modes
        if "size" in mode and mode.get("crop_limits", (0, 0, widest, 0))[2] >= widest
    ]


class Picamera2Source(ThreadedSource):
    def __init__(
        self,
        camera_num: int = 0,
        size: tuple[int, int] = (1536, 864),
        fps: float = 30.0,
        autofocus: Autofocus = "manual",
        lens_position: float = 4.0,
        lock_exposure: bool = True,
        settle_s: float = 1.0,
        picamera2_class: Any | None = None,
        frame_timeout_s: float = 2.0,
        reconnect: Reconnect | None = None,
    ) -> None:
        if autofocus not in AUTOFOCUS_MODES:
            raise ValueError(f"autofocus must be one of {AUTOFOCUS_MODES}, got {autofocus!r}")
        if lens_position < 0:
            raise ValueError(f"lens_position is in dioptres (1/metres), >= 0; got {lens_position}")
        if fps <= 0:
            raise ValueError(f"fps must be positive, got {fps}")
        super().__init__(f"Pi camera {camera_num}", frame_timeout_s, reconnect)
        self.camera_num = camera_num
        self.size = size
        self.fps = fps
        self.autofocus = autofocus
        self.lens_position = lens_position
        self.lock_exposure = lock_exposure
        self.settle_s = settle_s
        self._picamera2_class = picamera2_class
        self._camera: Any | None = None
        self._started_at = 0.0
        self.locked_controls: dict[str, Any] | None = None
        self.full_view_modes: list[tuple[int, int]] = []  # known once the camera was opened

    def _open(self) -> None:
        cls = self._picamera2_class or import_picamera2_class()
        try:
            camera = cls(self.camera_num)
        except (IndexError, RuntimeError) as error:
            raise CameraUnavailable(open_failure_message(self.camera_num, error)) from error
        self._camera = camera
        self.full_view_modes = full_view_modes(camera)
        config = camera.create_video_configuration(
            main={"size": tuple(self.size), "format": "RGB888"},  # RGB888 is BGR in memory
            controls={"FrameRate": float(self.fps)},
        )
        camera.configure(config)
        focus = self._focus_controls(camera)
        if focus:
            camera.set_controls(focus)
        camera.start()
        self._started_at = time.monotonic()
        self.locked_controls = None

    def capture_sizes(self) -> list[tuple[int, int]]:
        """The sizes of this frame's shape the camera gives with its whole field of view,
        smallest first ([] until it was opened)."""
        return sizes_of_shape(self.full_view_modes, self.size)

    def _focus_controls(self, camera: Any) -> dict[str, Any]:
        if "AfMode" not in getattr(camera, "camera_controls", {}) or self.autofocus == "default":
            return {}  # a fixed-focus module (v2, HQ) has no AfMode
        if self.autofocus == "continuous":
            return {"AfMode": AF_MODE_CONTINUOUS}
        return {"AfMode": AF_MODE_MANUAL, "LensPosition": float(self.lens_position)}

    def _grab(self) -> np.ndarray | None:
        if self._camera is None:
            return None
        # a bounded wait: a camera that stops streaming raises instead of hanging the thread
        image = self._camera.capture_array("main", wait=self.frame_timeout_s)
        if self._should_lock():
            self._lock_exposure()
        return image

    def _should_lock(self) -> bool:
        settled = time.monotonic() - self._started_at >= self.settle_s
        return self.lock_exposure and self.locked_controls is None and settled

    def _lock_exposure(self) -> None:
        """Freeze the automatic exposure and white balance at the values they settled on."""
        assert self._camera is not None
        metadata = self._camera.capture_metadata(wait=self.frame_timeout_s)
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if key in metadata:
                controls[key] = metadata[key]
        self._camera.set_controls(controls)
        self.locked_controls = controls

    def _close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is None:
            return
        try:
            camera.stop()
        finally:
            camera.close()

    def _no_device_message(self, reason: str) -> str:
        return f"No Pi camera: {reason}"

    def _lost_device_message(self) -> str:
        return "Pi camera stopped sending pictures — restarting it…"
