"""Camera frames to controller events: the live image, and the reading once a roll settles.

Frames are read only while the controller waits for dice (reading costs tens of ms); otherwise
the newest frame is just shown. A reader that cannot be built or fails on a frame is reported
in `problem` and gives empty readings: the players can still enter the dice by hand.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from companion.controller import CameraImage, Event, Settled

log = logging.getLogger(__name__)


class DiceFeed:
    """One camera, one reader per kind of dice, one roll tracker."""

    def __init__(
        self,
        camera: Any,
        roi: tuple[int, int, int, int] | None = None,
        poker_profile: Any = None,
        settle_frames: int = 3,
    ) -> None:
        self.camera = camera
        self.roi = roi
        self.poker_profile = poker_profile
        self.settle_frames = settle_frames
        self.problem = ""
        self._readers: dict[str, Any] = {}
        self._tracker: Any = None
        self._tracked_kind = ""
        self.last_image: np.ndarray | None = None

    def reader(self, kind: str) -> Any | None:
        if kind not in self._readers:
            try:
                from vision.reader import DiceReader

                profile = self.poker_profile if kind == "poker" else None
                self._readers[kind] = DiceReader(kind=kind, profile=profile, roi=self.roi)
            except Exception as error:  # a missing model must not stop the table
                self._report(f"dice reader ({kind}) unavailable: {error}")
                self._readers[kind] = None
        return self._readers[kind]

    def read(self, image: np.ndarray, kind: str) -> Any:
        from vision.types import Reading

        reader = self.reader(kind)
        if reader is None:
            return Reading()
        try:
            return reader.read(image)
        except Exception as error:
            self._report(f"dice reader failed: {error}")
            return Reading()

    def _report(self, problem: str) -> None:
        if problem != self.problem:
            log.warning(problem)
        self.problem = problem

    def set_poker_profile(self, profile: Any) -> None:
        """Read poker dice with this (taught) profile from now on."""
        self.poker_profile = profile
        self._readers.pop("poker", None)

    def reset(self) -> None:
        """Forget the roll being tracked (a new roll is awaited)."""
        self._tracker = None

    def step(self, wanted_kind: str | None, timeout: float = 0.0) -> list[Event]:
        """Take the newest frame (if any) and turn it into events for the controller."""
        frame = self.camera.read(timeout=timeout)
        if frame is None:
            return []
        self.last_image = frame.image
        events: list[Event] = [CameraImage(frame.image)]
        if wanted_kind is None:
            self._tracker = None
            return events
        settled = self.track(frame.image, wanted_kind)
        if settled is not None:
            events.append(Settled(settled, frame.image))
        return events

    def track(self, image: np.ndarray, kind: str) -> Any | None:
        """The settled reading when this frame settles a roll, else None."""
        from vision.tracking import RollTracker

        if self._tracker is None or self._tracked_kind != kind:
            self._tracker = RollTracker(settle_frames=self.settle_frames)
            self._tracked_kind = kind
        reading = self.read(image, kind)
        event = self._tracker.update(image, reading)
        if event is not None and event.kind == "settled":
            return event.reading
        return None
