"""A camera looking at a simulated dice tray, drawn by the vision renderer.

Between rolls it shows the last settled scene (an empty tray before the first). `request_roll`
queues a roll: some frames of tumbling dice, then the settled dice, with the faces given (so
tests and the demo can script a game) or seeded random ones. The same seed gives the same
frames. The truth of every frame (which faces, still rolling or not) is kept for checking.
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from hardware.camera import Frame, PlaybackSource
from vision.read.types import D6_FACES, POKER_FACES, Face

Kind = Literal["d6", "poker"]
FACES_BY_KIND: dict[str, tuple[Face, ...]] = {"d6": D6_FACES, "poker": POKER_FACES}
MAX_DICE = 10
TRUTH_KEPT = 64  # frames whose truth stays available to truth_for()


@dataclass(frozen=True)
class SceneTruth:
    """What a simulated frame really shows."""

    faces: tuple[Face, ...]  # in the order they were asked for; empty for an empty tray
    rolling: bool  # dice still tumbling: no reading should be accepted
    roll: int  # how many rolls were shown so far (0: the empty tray)
    dice: tuple[Any, ...] = ()  # the renderer's per-die truth (positions, faces)


def check_faces(kind: str, faces: Sequence[Face]) -> tuple[Face, ...]:
    allowed = FACES_BY_KIND[kind]
    normalised = tuple(str(f) if kind == "poker" else f for f in faces)
    bad = [f for f in normalised if f not in allowed]
    if bad:
        raise ValueError(f"{kind} faces are {allowed}; not {bad}")
    if not 1 <= len(normalised) <= MAX_DICE:
        raise ValueError(f"a roll has 1 to {MAX_DICE} dice, got {len(normalised)}")
    return normalised


class SimulatedCamera(PlaybackSource):
    def __init__(
        self,
        seed: int = 0,
        kind: Kind = "d6",
        dice: int = 5,
        size: tuple[int, int] = (640, 480),
        fps: float = 15.0,
        stepped: bool = False,
        moving_frames: int = 6,
        settled_frames: int = 4,
        style: Any | None = None,
    ) -> None:
        if kind not in FACES_BY_KIND:
            raise ValueError(f"simulated dice kind is one of {tuple(FACES_BY_KIND)}, not {kind!r}")
        if not 1 <= dice <= MAX_DICE:
            raise ValueError(f"simulated dice count is 1 to {MAX_DICE}, got {dice}")
        if moving_frames < 0 or settled_frames < 1:
            raise ValueError("a roll needs moving_frames >= 0 and settled_frames >= 1")
        super().__init__(f"simulated {kind} tray", fps, stepped)
        self.seed = seed
        self.kind = kind
        self.dice = dice
        self.size = size
        self.moving_frames = moving_frames
        self.settled_frames = settled_frames
        self.style = _one_tray(style, seed)
        self._rng = np.random.default_rng(seed)
        self._lock = threading.Lock()
        self._requests: collections.deque[tuple[tuple[Face, ...], int]] = collections.deque()
        self._script: collections.deque[tuple[np.ndarray, SceneTruth]] = collections.deque()
        self._resting: tuple[np.ndarray, SceneTruth] | None = None
        self._rolls = 0
        self._starting_roll = False  # a roll is being rendered: not idle though nothing is queued
        self._truths: collections.OrderedDict[int, SceneTruth] = collections.OrderedDict()
        self._current: SceneTruth = SceneTruth(faces=(), rolling=False, roll=0)

    # --- scripting ------------------------------------------------------------------------
    def request_roll(
        self, faces: Sequence[Face] | None = None, count: int | None = None, kind: str = ""
    ) -> tuple[Face, ...]:
        """Queue a roll; returns the faces it will settle on (given, or seeded random).

        `kind` switches the dice thrown from now on (poker dice for Struggle, d6 otherwise)."""
        with self._lock:
            if kind:
                if kind not in FACES_BY_KIND:
                    raise ValueError(f"simulated dice kind is one of {tuple(FACES_BY_KIND)}")
                self.kind = kind
            if faces is None:
                count = self.dice if count is None else count
                if not 1 <= count <= MAX_DICE:
                    raise ValueError(f"a roll has 1 to {MAX_DICE} dice, got {count}")
                allowed = FACES_BY_KIND[self.kind]
                faces = [allowed[i] for i in self._rng.integers(0, len(allowed), count)]
            elif count is not None and count != len(faces):
                raise ValueError(f"count={count} but {len(faces)} faces were given")
            chosen = check_faces(self.kind, faces)
            self._requests.append((chosen, int(self._rng.integers(0, 2**31 - 1))))
            return chosen

    @property
    def truth(self) -> SceneTruth:
        """The truth of the newest frame made."""
        with self._lock:
            return self._current

    def truth_for(self, frame: Frame) -> SceneTruth | None:
        """The truth of a recent frame (None when it is too old to be remembered)."""
        with self._lock:
            return self._truths.get(frame.index)

    @property
    def idle(self) -> bool:
        """No roll is queued or under way: the tray shows settled dice (or is empty)."""
        with self._lock:
            return not (self._requests or self._script or self._starting_roll)

    # --- frames -------------------------------------------------------------------------
    def _next_image(self) -> np.ndarray:
        # Rendering takes a while: it runs outside the lock so request_roll and truth never wait.
        roll = self._next_roll()
        rendered = self._render_roll(*roll) if roll else None
        empty = self._render_empty() if self._resting is None and roll is None else None
        with self._lock:
            if rendered is not None:
                self._script.clear()  # the dice were at rest: the new roll starts now
                self._script.extend(rendered)
                self._starting_roll = False
            if self._script:
                image, truth = self._script.popleft()
                if not truth.rolling:
                    self._resting = (image, truth)
            else:
                if self._resting is None:
                    self._resting = empty
                image, truth = self._resting
            self._remember(truth)
            return image

    def _next_roll(self) -> tuple[tuple[Face, ...], int, int] | None:
        """(faces, seed, roll number) of the roll to start now, if one waits and dice rest."""
        with self._lock:
            if not self._requests or any(truth.rolling for _, truth in self._script):
                return None
            faces, roll_seed = self._requests.popleft()
            self._starting_roll = True
            self._rolls += 1
            return faces, roll_seed, self._rolls

    def _remember(self, truth: SceneTruth) -> None:
        # the index the frame about to be stored will get
        newest = self._latest.newest()
        index = 0 if newest is None else newest.index + 1
        self._current = truth
        self._truths[index] = truth
        while len(self._truths) > TRUTH_KEPT:
            self._truths.popitem(last=False)

    def _render_roll(
        self, faces: tuple[Face, ...], roll_seed: int, roll: int
    ) -> list[tuple[np.ndarray, SceneTruth]]:
        from vision.synth.render import render_roll

        scenes = render_roll(
            list(faces),
            kind=self.kind,
            seed=roll_seed,
            size=self.size,
            moving_frames=self.moving_frames,
            settled_frames=self.settled_frames,
            style=self.style,
        )
        frames = []
        for number, scene in enumerate(scenes):
            rolling = number < len(scenes) - self.settled_frames
            truth = SceneTruth(faces, rolling, roll, tuple(scene.dice))
            frames.append((scene.frame, truth))
        return frames

    def _render_empty(self) -> tuple[np.ndarray, SceneTruth]:
        from vision.synth.render import render_empty

        image = render_empty(seed=self.seed, size=self.size, style=self.style)
        return image, SceneTruth(faces=(), rolling=False, roll=0)


def _one_tray(style: Any | None, seed: int) -> Any:
    """The style with its tray fixed by our seed: every roll lands on the same surface and props.

    Without it each roll's seed redraws the wood grain and moves the props, and the roll
    tracker sees a changed tray (it reports "rolling" until it learns the new one).
    """
    from dataclasses import replace

    from vision.synth.render import SceneStyle

    style = style or SceneStyle()
    return style if style.tray_seed is not None else replace(style, tray_seed=seed)
