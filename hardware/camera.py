"""One interface for every camera: the newest frame, a status a user understands, no crash.

A capture thread owns the device and keeps only the latest frame (a stale queued frame is what
makes a preview lag), reconnects with backoff when the device goes away, and `read()` never
blocks longer than its timeout. Status messages are English; `state` is a stable code the
display translates.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from types import TracebackType
from typing import Literal

import numpy as np

log = logging.getLogger(__name__)

CameraState = Literal["starting", "ok", "no-camera", "disconnected", "timeout", "reconnecting"]


@dataclass(frozen=True)
class Frame:
    """One image from a camera: BGR uint8, when it was captured (time.monotonic), its number."""

    image: np.ndarray
    timestamp: float
    index: int


@dataclass(frozen=True)
class CameraStatus:
    state: CameraState
    message: str

    @property
    def ok(self) -> bool:
        return self.state == "ok"


class CameraUnavailable(Exception):
    """The device cannot be opened; the message says why in words a user understands."""


class SourceEnded(Exception):
    """A finite source (a replayed recording) has no more frames; the message says so."""


class CameraSource(ABC):
    """What the app uses: start, read the newest frame, stop, and a status to show."""

    name: str = "camera"
    auto_choice: str | None = None  # set by open_camera("auto"): which device it took and why

    @abstractmethod
    def start(self) -> None: ...

    @abstractmethod
    def stop(self) -> None: ...

    @abstractmethod
    def read(self, timeout: float = 1.0) -> Frame | None:
        """The newest frame not returned before, waiting at most `timeout` s; None if none came."""

    @property
    @abstractmethod
    def status(self) -> CameraStatus: ...

    def __enter__(self) -> CameraSource:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}: {self.status.state}>"


def as_bgr(image: np.ndarray) -> np.ndarray:
    """A capture as 3-channel uint8 BGR (drops the padding channel of XBGR8888, widens grey)."""
    if image.dtype != np.uint8:
        raise ValueError(f"camera image must be uint8, got {image.dtype}")
    if image.ndim == 2:
        return np.repeat(image[:, :, None], 3, axis=2)
    if image.ndim == 3 and image.shape[2] == 4:
        return np.ascontiguousarray(image[:, :, :3])
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    raise ValueError(f"camera image has an unexpected shape {image.shape}")


class LatestFrame:
    """A one-slot mailbox: writers replace the frame, readers wait for one newer than theirs."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._frame: Frame | None = None
        self._next_index = 0

    def put(self, image: np.ndarray, timestamp: float | None = None) -> Frame:
        with self._condition:
            stamp = time.monotonic() if timestamp is None else timestamp
            self._frame = Frame(image=image, timestamp=stamp, index=self._next_index)
            self._next_index += 1
            self._condition.notify_all()
            return self._frame

    def newest(self) -> Frame | None:
        with self._condition:
            return self._frame

    def wait_newer(self, than_index: int, timeout: float) -> Frame | None:
        deadline = time.monotonic() + max(0.0, timeout)
        with self._condition:
            while self._frame is None or self._frame.index <= than_index:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._condition.wait(remaining)
            return self._frame


@dataclass(frozen=True)
class Reconnect:
    """How the capture thread retries a lost device: first wait, growth factor, longest wait."""

    first_s: float = 0.5
    factor: float = 2.0
    max_s: float = 5.0
    failed_grabs: int = 5  # consecutive failed grabs that mean the device is gone

    def delays(self):
        delay = self.first_s
        while True:
            yield delay
            delay = min(self.max_s, delay * self.factor)


class ThreadedSource(CameraSource):
    """A device read continuously by a background thread that keeps only the newest frame.

    Subclasses implement `_open` (raise CameraUnavailable), `_grab` (an image, or None when the
    grab failed) and `_close`. Everything else - status, timeouts, reconnection - lives here.
    """

    def __init__(
        self,
        name: str,
        frame_timeout_s: float = 2.0,
        reconnect: Reconnect | None = None,
    ) -> None:
        self.name = name
        self.frame_timeout_s = frame_timeout_s
        self.reconnect = reconnect or Reconnect()
        self._latest = LatestFrame()
        self._last_read_index = -1
        self._status = CameraStatus("starting", f"Starting {name}…")
        self._status_lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._stuck_thread: threading.Thread | None = None
        self._opened_once = False
        self._ok_since = time.monotonic()

    # --- what subclasses provide -------------------------------------------------------------
    @abstractmethod
    def _open(self) -> None: ...

    @abstractmethod
    def _grab(self) -> np.ndarray | None: ...

    @abstractmethod
    def _close(self) -> None: ...

    def _no_device_message(self, reason: str) -> str:
        return f"No camera: {reason}"

    def _lost_device_message(self) -> str:
        return f"{self.name} disconnected — reconnecting…"

    # --- the interface ---------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        # A thread stuck in a driver call since the last stop still owns the device: the new
        # one waits for it, with its own stop signal so the old one still sees its own.
        previous, self._stuck_thread = self._stuck_thread, None
        self._stopping = threading.Event()
        self._set_status("starting", f"Starting {self.name}…")
        self._thread = threading.Thread(
            target=self._run,
            args=(self._stopping, previous),
            name=f"camera:{self.name}",
            daemon=True,
        )
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stopping.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout)
            if thread.is_alive():
                self._stuck_thread = thread
                log.warning(
                    "%s: capture thread still busy after %.1f s; left to exit", self.name, timeout
                )

    def read(self, timeout: float = 1.0) -> Frame | None:
        frame = self._latest.wait_newer(self._last_read_index, timeout)
        if frame is not None:
            self._last_read_index = frame.index
        return frame

    def latest(self) -> Frame | None:
        """The newest frame without waiting (may be one already returned by read)."""
        return self._latest.newest()

    @property
    def status(self) -> CameraStatus:
        with self._status_lock:
            status = self._status
        if status.state == "ok" and self._frame_age() > self.frame_timeout_s:
            return CameraStatus(
                "timeout",
                f"No picture from {self.name} for {self._frame_age():.0f} s — check the cable",
            )
        return status

    # --- the capture thread ----------------------------------------------------------------
    def _set_status(self, state: CameraState, message: str) -> None:
        with self._status_lock:
            changed = self._status.state != state
            self._status = CameraStatus(state, message)
        if changed:
            level = logging.INFO if state in ("ok", "starting") else logging.WARNING
            log.log(level, "%s: %s", self.name, message)

    def _frame_age(self) -> float:
        frame = self._latest.newest()
        since = frame.timestamp if frame is not None else self._ok_since
        return time.monotonic() - since

    def _run(self, stopping: threading.Event, previous: threading.Thread | None) -> None:
        if previous is not None:
            previous.join()
        delays = self.reconnect.delays()
        while not stopping.is_set():
            if not self._try_open():
                stopping.wait(next(delays))
                continue
            delays = self.reconnect.delays()
            self._capture_until_lost(stopping)
            self._safe_close()
        self._safe_close()

    def _try_open(self) -> bool:
        try:
            self._open()
        except Exception as error:  # a driver may raise anything; the status must say it
            self._safe_close()
            reason = str(error) or type(error).__name__
            if self._opened_once:
                self._set_status("reconnecting", f"{self.name} lost — reconnecting… ({reason})")
            else:
                self._set_status("no-camera", self._no_device_message(reason))
            return False
        self._opened_once = True
        self._ok_since = time.monotonic()
        self._set_status("ok", f"{self.name} ready")
        return True

    def _capture_until_lost(self, stopping: threading.Event) -> None:
        failures = 0
        while not stopping.is_set():
            try:
                image = self._grab()
                if image is not None:
                    image = as_bgr(image)
            except SourceEnded as ended:
                self._set_status("disconnected", str(ended))
                stopping.set()
                return
            except Exception as error:  # a driver hiccup or a malformed image: count, go on
                log.warning("%s: grab failed: %s", self.name, error)
                image = None
            if image is None:
                failures += 1
                if failures >= self.reconnect.failed_grabs:
                    self._set_status("disconnected", self._lost_device_message())
                    return
                stopping.wait(0.02)
                continue
            failures = 0
            self._latest.put(image)
            if self._status.state != "ok":
                self._set_status("ok", f"{self.name} ready")

    def _safe_close(self) -> None:
        try:
            self._close()
        except Exception as error:
            log.debug("%s: closing failed: %s", self.name, error)


class PlaybackSource(ThreadedSource):
    """A source that makes its own frames (a recording, a simulation), in one of two modes.

    Stepped (`fps=None` or `stepped=True`): no thread and no real time; each `read()` returns the
    next frame at once, stamped on a virtual clock (index / fps, fps 30 if unset), so tests and
    demos are deterministic. Paced: a thread makes frames at `fps` and keeps only the newest,
    like a camera.
    """

    def __init__(self, name: str, fps: float | None, stepped: bool) -> None:
        if fps is not None and fps <= 0:
            raise ValueError(f"fps must be positive, got {fps}")
        super().__init__(name)
        self.fps = fps
        self.stepped = stepped or fps is None
        self._next_due = 0.0
        self._ended = False

    @abstractmethod
    def _next_image(self) -> np.ndarray:
        """The next image; raise SourceEnded when there is none."""

    def start(self) -> None:
        if not self.stepped:
            super().start()
            return
        if not self._ended:
            self._set_status("ok", f"{self.name} ready")

    def stop(self, timeout: float = 2.0) -> None:
        super().stop(timeout)
        if self.stepped:
            self._safe_close()

    def read(self, timeout: float = 1.0) -> Frame | None:
        if not self.stepped:
            return super().read(timeout)
        if self._ended:
            return None
        try:
            image = as_bgr(self._next_image())
        except SourceEnded as ended:
            self._ended = True
            self._set_status("disconnected", str(ended))
            return None
        index = self._latest.newest().index + 1 if self._latest.newest() else 0
        frame = self._latest.put(image, timestamp=index / (self.fps or 30.0))
        self._last_read_index = frame.index
        return frame

    @property
    def status(self) -> CameraStatus:
        if self.stepped:
            with self._status_lock:
                return self._status  # no real time passes in stepped mode: never "timeout"
        return super().status

    def _open(self) -> None:
        self._next_due = time.monotonic()

    def _grab(self) -> np.ndarray | None:
        wait = self._next_due - time.monotonic()
        if wait > 0 and self._stopping.wait(wait):
            return None
        assert self.fps is not None
        self._next_due = max(self._next_due + 1.0 / self.fps, time.monotonic())
        return self._next_image()

    def _close(self) -> None:
        pass
