"""Roll tracking: from a stream of camera frames and their readings, tell when a roll has settled.

    tracker = RollTracker(settle_frames=4)
    for frame in camera:
        event = tracker.update(frame, reader.read(frame))
        if event and event.kind == "settled":
            use(event.reading)            # once per roll
    tracker.status                         # "empty", "rolling" or "settled"

The tray is "rolling" while the picture changes (dice tumbling, a hand reaching in) or while
something much larger than the dice read lies in it (a still hand). Once nothing has moved and the
reading has stayed the same for `settle_frames` frames, one "settled" event carries the reading.
Another is emitted only after things move again (a new roll).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.read.types import Reading

__all__ = ["RollTracker", "TrackerEvent", "STATUSES"]

STATUSES = ("empty", "rolling", "settled")
_WORK_WIDTH = 160  # frames are compared at this width: fast, and blind to sensor noise


@dataclass(frozen=True)
class TrackerEvent:
    """A change of tray status. `reading` is the settled reading for kind "settled"."""

    kind: str  # "rolling": a roll started; "settled": dice at rest, read; "empty": tray cleared
    frame_index: int
    reading: Reading | None = None


class RollTracker:
    """Follows the tray frame by frame; see the module docstring."""

    def __init__(
        self,
        settle_frames: int = 4,
        motion_fraction: float = 0.002,
        pixel_threshold: int = 22,
        object_share: float = 0.01,
        absorb_frames: int = 30,
    ) -> None:
        """settle_frames: still frames with the same reading before a roll counts as settled.
        motion_fraction: share of the (downscaled) picture that must change to count as movement.
        pixel_threshold: grey-level change of one pixel that counts as a change.
        object_share: a still change (against the empty tray) away from the dice covering this
            share of the picture, or twice a die, is a hand or object in the tray.
        absorb_frames: after this many still frames an object is taken as part of the tray."""
        if settle_frames < 1:
            raise ValueError(f"settle_frames must be >= 1, not {settle_frames}")
        if not 0 < motion_fraction < 1:
            raise ValueError(f"motion_fraction must be within 0..1, not {motion_fraction}")
        self.settle_frames = settle_frames
        self.motion_fraction = motion_fraction
        self.pixel_threshold = pixel_threshold
        self.object_share = object_share
        self.absorb_frames = absorb_frames
        self._object_frames = 0
        self.status = "empty"
        self.frame_index = -1
        self.last_settled: Reading | None = None
        self._previous: np.ndarray | None = None
        self._frame_shape: tuple[int, ...] | None = None
        self._background: np.ndarray | None = None
        self._steady: list[Reading] = []
        self._emitted = False

    def update(
        self, frame_bgr: np.ndarray, reading: Reading | Callable[[], Reading]
    ) -> TrackerEvent | None:
        """Take the next frame and its reading; return an event when the status changes.

        The reading may be given as a function making it: it is then called only when the
        picture has not moved (a moving tray needs no reading), so a slow reader (poker dice on
        a Pi) does not hold up following a roll."""
        self.frame_index += 1
        if self._frame_shape is not None and self._frame_shape != np.shape(frame_bgr):
            raise ValueError("frame size changed mid-stream; start a new RollTracker")
        self._frame_shape = np.shape(frame_bgr)
        small, scale = _downscale(frame_bgr)
        moving = self._previous is not None and self._changed_share(small) > self.motion_fraction
        self._previous = small
        if moving:
            return self._start_rolling()
        if callable(reading):
            reading = reading()
        dice_mask = _dice_mask(small.shape[:2], reading, scale)
        if self._object_in_tray(small, dice_mask, reading, scale):
            return self._start_rolling()
        if not reading.dice:
            self._steady.clear()
            self._emitted = False
            self._learn_background(small, dice_mask)
            return self._become("empty")
        return self._still_with_dice(reading)

    def _start_rolling(self) -> TrackerEvent | None:
        self._steady.clear()
        self._emitted = False
        return self._become("rolling")

    def _still_with_dice(self, reading: Reading) -> TrackerEvent | None:
        if self._emitted:
            return None  # settled already: only movement starts a new roll
        if self._steady and not _same_reading(self._steady[-1], reading):
            self._steady.clear()
        self._steady.append(reading)
        if len(self._steady) < self.settle_frames:
            return self._become("rolling")
        self._emitted = True
        best = max(self._steady, key=lambda r: sum(d.confidence for d in r.dice))
        self.last_settled = best
        self.status = "settled"
        return TrackerEvent("settled", self.frame_index, best)

    def _become(self, status: str) -> TrackerEvent | None:
        if status == self.status:
            return None
        self.status = status
        return TrackerEvent(status, self.frame_index)

    def _changed_share(self, small: np.ndarray) -> float:
        return _changed(small, self._previous, self.pixel_threshold) / _pixels(small)

    def _learn_background(self, small: np.ndarray, dice_mask: np.ndarray) -> None:
        """Remember the still tray as it looks without dice (where no die is)."""
        if self._background is None:
            self._background = small.astype(np.float32)
            return
        keep = np.repeat(dice_mask[..., None], 3, axis=2)
        updated = self._background.copy()
        cv2.accumulateWeighted(small.astype(np.float32), updated, 0.3)
        self._background = np.where(keep, self._background, updated)

    def _object_in_tray(
        self,
        small: np.ndarray,
        dice_mask: np.ndarray,
        reading: Reading,
        scale: float,
    ) -> bool:
        """True when something other than the dice read differs from the empty tray.

        An object left still for `absorb_frames` frames becomes part of the tray (a pencil put
        down, the tray nudged), so it cannot block settling for ever.
        """
        if self._background is None:
            self._object_frames = 0
            return False
        changed = cv2.absdiff(small, self._background.astype(np.uint8)).max(axis=2)
        outside = int(np.count_nonzero((changed > self.pixel_threshold) & ~dice_mask))
        die_area = max((_quad_area(d.quad) for d in reading.dice), default=0.0) * scale**2
        limit = max(self.object_share * _pixels(small), 2 * die_area)
        if outside <= limit:
            self._object_frames = 0
            return False
        self._object_frames += 1
        if self._object_frames >= self.absorb_frames:
            self._background = small.astype(np.float32)
            self._object_frames = 0
            return False
        return True


def _downscale(frame_bgr: np.ndarray) -> tuple[np.ndarray, float]:
    frame = np.asarray(frame_bgr)
    if frame.ndim not in (2, 3) or frame.size == 0:
        raise ValueError(f"a frame is an HxW or HxWx3 image, not shape {frame.shape}")
    colour = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR) if frame.ndim == 2 else frame
    scale = _WORK_WIDTH / colour.shape[1]
    size = (_WORK_WIDTH, max(1, round(colour.shape[0] * scale)))
    small = cv2.resize(colour, size, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (5, 5), 0), scale


def _changed(a: np.ndarray, b: np.ndarray, threshold: int) -> int:
    """How many pixels differ by more than `threshold` in any colour channel."""
    return int(np.count_nonzero(cv2.absdiff(a, b).max(axis=2) > threshold))


def _pixels(small: np.ndarray) -> int:
    return small.shape[0] * small.shape[1]


def _quad_area(quad: np.ndarray | None) -> float:
    return 0.0 if quad is None else abs(cv2.contourArea(np.asarray(quad, np.float32)))


def _dice_mask(shape: tuple[int, int], reading: Reading, scale: float) -> np.ndarray:
    """Where the dice read lie, in downscaled pixels, with room for side faces and shadows."""
    mask = np.zeros(shape, np.uint8)
    for die in reading.dice:
        if die.quad is None:
            continue
        quad = np.asarray(die.quad, np.float32)
        centre = quad.mean(axis=0)
        grown = (centre + (quad - centre) * 1.7) * scale
        cv2.fillConvexPoly(mask, np.round(grown).astype(np.int32), 1)
    return mask.astype(bool)


def _same_reading(a: Reading, b: Reading) -> bool:
    """Same values (unreadable ones included) at about the same places."""
    if len(a.dice) != len(b.dice):
        return False
    if sorted(map(str, (d.value for d in a.dice))) != sorted(map(str, (d.value for d in b.dice))):
        return False
    for die in a.dice:
        distances = [
            np.hypot(die.center[0] - o.center[0], die.center[1] - o.center[1]) for o in b.dice
        ]
        if min(distances) > 6:
            return False
    return True
