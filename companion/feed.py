"""Camera frames to controller events: the live image, and the reading once a roll settles.

Frames are read only while the controller waits for dice (reading costs tens of ms); otherwise
the newest frame is just shown. A reader that cannot be built or fails on a frame is reported
in `problem` and gives empty readings: the players can still enter the dice by hand.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any

import numpy as np

from companion.controller import CameraImage, Event, Settled

log = logging.getLogger(__name__)
# Seconds between looks at whether the table's examples changed (a look lists their files).
ADAPT_CHECK_EVERY = 0.5


class DiceFeed:
    """One camera, one reader per kind of dice, one roll tracker."""

    def __init__(
        self,
        camera: Any,
        roi: tuple[int, int, int, int] | None = None,
        poker_profile: Any = None,
        settle_frames: int = 3,
        adaptation: Any = None,
    ) -> None:
        self.camera = camera
        self.adaptation = adaptation  # companion.examples.TableAdaptation, or None
        self._adapt_checked = 0.0
        self.roi = roi
        self.poker_profile = poker_profile
        self.settle_frames = settle_frames
        self.problem = ""
        self._readers: dict[str, Any] = {}
        self._tracker: Any = None
        self._frame_shape: tuple[int, ...] = ()
        self.last_image: np.ndarray | None = None

    def reader(self, kind: str) -> Any | None:
        if kind not in self._readers:
            try:
                from vision.reader import DiceReader

                profile = self.poker_profile if kind == "poker" else None
                adapted = self.adapted(kind, profile)
                if kind == "poker" and adapted is not None:
                    profile, adapted = adapted, None
                self._readers[kind] = DiceReader(
                    kind=kind, profile=profile, roi=self.roi, adapter=adapted
                )
            except Exception as error:  # a missing model must not stop the table
                self._report(f"dice reader ({kind}) unavailable: {error}")
                self._readers[kind] = None
        return self._readers[kind]

    def read(self, image: np.ndarray, kind: str) -> Any:
        from vision.read.types import Reading

        reader = self.reader(kind)
        if reader is None:
            return Reading()
        try:
            return reader.read(image)
        except Exception as error:
            self._report(f"dice reader failed: {error}")
            return Reading()

    def adapted(self, kind: str, profile: Any) -> Any:
        """The table's adaptation for `kind` (None: read as shipped or as taught)."""
        if self.adaptation is None or (kind == "poker" and profile is None):
            return None
        try:
            return self.adaptation.update(kind, profile)
        except Exception as error:  # the table's examples must never stop the reading
            self._report(f"adapting the reader ({kind}) failed: {error}")
            return None

    def adapt_if_stale(self) -> None:
        """Between rolls: a reader whose table examples changed is rebuilt with them."""
        now = time.monotonic()
        if self.adaptation is None or now - self._adapt_checked < ADAPT_CHECK_EVERY:
            return
        self._adapt_checked = now
        for kind in list(self._readers):
            profile = self.poker_profile if kind == "poker" else None
            try:
                stale = self.adaptation.stale(kind, profile)
            except OSError:
                continue
            if stale:
                self._readers.pop(kind, None)
                self.reader(kind)

    def _report(self, problem: str) -> None:
        if problem != self.problem:
            log.warning(problem)
        self.problem = problem

    def set_poker_profile(self, profile: Any) -> None:
        """Read poker dice with this (taught) profile from now on."""
        self.poker_profile = profile
        self._readers.pop("poker", None)

    def set_roi(self, roi: tuple[int, int, int, int] | None) -> None:
        """Read dice only inside this region of the frame from now on (None: all of it)."""
        self.roi = roi
        self._readers.clear()
        self._tracker = None

    def reset(self) -> None:
        """Forget the tray's history (another camera, another simulated tray)."""
        self._tracker = None

    def step(self, wanted_kind: str | None, timeout: float = 0.0) -> list[Event]:
        """Take the newest frame (if any) and turn it into events for the controller."""
        frame = self.camera.read(timeout=timeout)
        if frame is None:
            return []
        self.last_image = frame.image
        events: list[Event] = [CameraImage(frame.image)]
        self.adapt_if_stale()  # a confirmed roll's examples, before the next roll is read
        if wanted_kind is None:
            # The tracker is kept: dice thrown while nobody waited for them show as movement
            # against its last frame, while dice left untouched never settle a second time.
            return events
        settled = self.track(frame.image, wanted_kind)
        if settled is not None:
            events.append(Settled(settled, frame.image))
        return events

    def track(self, image: np.ndarray, kind: str) -> Any | None:
        """The settled reading when this frame settles a roll, else None."""
        from vision.read.tracking import RollTracker

        if image.shape != self._frame_shape:  # a camera reconnected at another resolution
            if self._frame_shape:
                log.warning("camera frame size %s -> %s: reader and tracker rebuilt",
                            self._frame_shape, image.shape)  # fmt: skip
                self._readers.clear()
            self._frame_shape, self._tracker = image.shape, None
        if self._tracker is None:  # kept when another kind of dice is wanted: dice left on
            # the tray from the last game are not read again for the next one
            self._tracker = RollTracker(settle_frames=self.settle_frames)
        # Read only when the tracker needs it: not while the dice are moving.
        event = self._tracker.update(image, lambda: self.read(image, kind))
        if event is not None and event.kind == "settled":
            return event.reading
        return None


class BackgroundFeed:
    """Runs a DiceFeed on its own thread so reading dice never holds up touches and drawing.

    The main loop says which dice it waits for (`want`, with a request number that changes with
    every new request) and drains `poll()`; a settled reading made for an older request is
    dropped, so a slow read can never answer the next roll.
    """

    def __init__(self, feed: DiceFeed) -> None:
        self.feed = feed
        self._wanted: tuple[str | None, int] = (None, 0)
        self._camera_shown = True
        self._events: queue.Queue[tuple[int, Event]] = queue.Queue()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="dice-feed", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def want(self, kind: str | None, request: int) -> None:
        self._wanted = (kind, request)

    def show_camera(self, shown: bool) -> None:
        """Whether the screen shows the camera: when not, and no dice are awaited, no frame is
        read (the tracker still compares the next frame read with the last one it saw)."""
        self._camera_shown = shown

    def swap_camera(self, camera: Any) -> None:
        with self._lock:
            self.feed.camera = camera
            self.feed.reset()

    def set_roi(self, roi: tuple[int, int, int, int] | None) -> None:
        with self._lock:
            self.feed.set_roi(roi)

    def _run(self) -> None:
        while not self._stop.is_set():
            kind, request = self._wanted
            if kind is None and not self._camera_shown:
                self._stop.wait(0.1)
                continue
            with self._lock:
                try:
                    events = self.feed.step(kind, timeout=0.05)
                except Exception as error:  # the table goes on; the status says why
                    self.feed._report(f"camera feed failed: {error}")
                    events = []
            for event in events:
                self._events.put((request, event))
            if not events:
                self._stop.wait(0.01)

    def poll(self) -> list[Event]:
        """Events since the last poll: the newest camera image, and settled readings made for
        the request still current."""
        kind, request = self._wanted
        image: Event | None = None
        found: list[Event] = []
        while True:
            try:
                made_for, event = self._events.get_nowait()
            except queue.Empty:
                break
            if isinstance(event, CameraImage):
                image = event
            elif made_for == request and kind is not None:
                found.append(event)
        return ([image] if image is not None else []) + found
