"""A USB webcam through OpenCV's VideoCapture, read continuously so no stale frame queues up."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from hardware.camera import CameraUnavailable, Reconnect, ThreadedSource


class VideoCaptureLike(Protocol):
    def isOpened(self) -> bool: ...  # noqa: N802 - OpenCV's name

    def read(self) -> tuple[bool, np.ndarray | None]: ...

    def set(self, prop: int, value: float) -> bool: ...

    def release(self) -> None: ...


CaptureFactory = Callable[[int], VideoCaptureLike]


def opencv_capture(index: int) -> VideoCaptureLike:
    """cv2.VideoCapture on V4L2 under Linux (the default backend there can be GStreamer)."""
    import cv2

    backend = cv2.CAP_V4L2 if sys.platform.startswith("linux") else cv2.CAP_ANY
    return cv2.VideoCapture(index, backend)


class WebcamSource(ThreadedSource):
    def __init__(
        self,
        index: int = 0,
        size: tuple[int, int] | None = (1280, 720),
        fps: float | None = 30.0,
        capture_factory: CaptureFactory | None = None,
        frame_timeout_s: float = 2.0,
        reconnect: Reconnect | None = None,
    ) -> None:
        if index < 0:
            raise ValueError(f"webcam index must be 0 or more, got {index}")
        super().__init__(f"USB camera {index}", frame_timeout_s, reconnect)
        self.index = index
        self.size = size
        self.fps = fps
        self._capture_factory = capture_factory or opencv_capture
        self._capture: VideoCaptureLike | None = None

    def _open(self) -> None:
        capture = self._capture_factory(self.index)
        self._capture = capture
        if not capture.isOpened():
            raise CameraUnavailable(f"/dev/video{self.index} cannot be opened")
        self._configure(capture)

    def _configure(self, capture: VideoCaptureLike) -> None:
        import cv2

        settings: dict[int, Any] = {cv2.CAP_PROP_BUFFERSIZE: 1}
        if self.size is not None:
            settings[cv2.CAP_PROP_FRAME_WIDTH] = self.size[0]
            settings[cv2.CAP_PROP_FRAME_HEIGHT] = self.size[1]
        if self.fps is not None:
            settings[cv2.CAP_PROP_FPS] = self.fps
        for prop, value in settings.items():
            capture.set(prop, value)  # a camera ignoring a setting is not an error

    def _grab(self) -> np.ndarray | None:
        if self._capture is None:
            return None
        ok, image = self._capture.read()
        return image if ok and image is not None else None

    def _close(self) -> None:
        capture, self._capture = self._capture, None
        if capture is not None:
            capture.release()

    def _no_device_message(self, reason: str) -> str:
        return f"No USB camera: {reason} — plug one in or check `tabletop doctor`"

    def _lost_device_message(self) -> str:
        return "USB camera unplugged — reconnecting…"
