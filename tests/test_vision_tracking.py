"""Roll tracking on rendered rolls: rolling, then exactly one settled reading; empty stays empty."""

from __future__ import annotations

import numpy as np
import pytest

from vision.read.tracking import RollTracker
from vision.read.types import Die, Reading
from vision.synth.render import RenderedScene, SceneStyle, render_empty, render_roll, render_scene


def truth_reading(scene: RenderedScene) -> Reading:
    """What a perfect reader would report for the scene."""
    return Reading(tuple(Die(d.value, d.center, 0.9, d.quad) for d in scene.dice))


def feed(tracker: RollTracker, scenes: list[RenderedScene]) -> list:
    events = []
    for scene in scenes:
        event = tracker.update(scene.frame, truth_reading(scene))
        if event is not None:
            events.append(event)
    return events


def test_a_roll_is_rolling_then_settles_once_with_the_true_values():
    tracker = RollTracker(settle_frames=3)
    scenes = render_roll([2, 6, 6, 1], seed=4, moving_frames=8, settled_frames=6)
    statuses = []
    events = []
    for scene in scenes:
        event = tracker.update(scene.frame, truth_reading(scene))
        statuses.append(tracker.status)
        events += [event] if event else []
    settled = [e for e in events if e.kind == "settled"]
    assert len(settled) == 1
    assert sorted(settled[0].reading.values) == [1, 2, 6, 6]
    assert set(statuses[:8]) == {"rolling"}
    assert statuses[-1] == "settled"
    assert settled[0].frame_index >= 8 + 3 - 1


def test_a_poker_roll_with_a_hand_settles_once():
    style = SceneStyle(distractors=("hand", "coin"))
    scenes = render_roll(["A", "K", "9", "9", "Q"], kind="poker", seed=6, style=style)
    events = feed(RollTracker(), scenes)
    settled = [e for e in events if e.kind == "settled"]
    assert len(settled) == 1
    assert sorted(settled[0].reading.values) == sorted(["A", "K", "9", "9", "Q"])


def test_an_empty_tray_stays_empty():
    tracker = RollTracker()
    empty = Reading()
    events = [tracker.update(render_empty(seed=3), empty) for _ in range(10)]
    assert tracker.status == "empty"
    assert all(e is None for e in events)


def test_two_rolls_give_two_settled_events():
    first = render_roll([3, 3], seed=1, moving_frames=5, settled_frames=5)
    second = render_roll([5, 4], seed=2, moving_frames=5, settled_frames=5)
    events = feed(RollTracker(settle_frames=3), first + second)
    settled = [sorted(e.reading.values) for e in events if e.kind == "settled"]
    assert settled == [[3, 3], [4, 5]]


def test_a_still_hand_in_the_tray_keeps_the_roll_from_settling():
    tracker = RollTracker(settle_frames=3)
    for _ in range(3):
        tracker.update(render_empty(seed=8), Reading())
    busy = render_scene([2, 5], seed=8, style=SceneStyle(distractors=("hand",)))
    events = [tracker.update(busy.frame, truth_reading(busy)) for _ in range(6)]
    assert tracker.status == "rolling"
    assert not any(e and e.kind == "settled" for e in events)
    clear = render_scene([2, 5], seed=8)
    events = [tracker.update(clear.frame, truth_reading(clear)) for _ in range(6)]
    assert [e.kind for e in events if e] == ["settled"]


def test_a_flickering_reading_does_not_settle():
    scene = render_scene([4, 4], seed=5)
    tracker = RollTracker(settle_frames=3)
    unreadable = Reading(tuple(Die(None, d.center, 0.1, d.quad) for d in scene.dice))
    for index in range(8):
        reading = truth_reading(scene) if index % 2 else unreadable
        assert tracker.update(scene.frame, reading) is None or tracker.status != "settled"
    assert tracker.status == "rolling"


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="settle_frames"):
        RollTracker(settle_frames=0)
    tracker = RollTracker()
    tracker.update(np.zeros((48, 64, 3), np.uint8), Reading())
    with pytest.raises(ValueError, match="frame size"):
        tracker.update(np.zeros((96, 128, 3), np.uint8), Reading())


def test_successive_rolls_on_one_tray_with_props_each_settle_once():
    style = SceneStyle(surface="wood", distractors=("coin", "pencil"), tray_seed=5)
    empty = [render_empty(seed=9, style=style)] * 3
    other = render_empty(seed=10, style=style)  # another scene seed: only sensor noise differs
    assert np.abs(empty[0].astype(int) - other.astype(int)).mean() < 4
    tracker = RollTracker(settle_frames=3)
    for frame in empty:
        tracker.update(frame, Reading())
    first = render_roll([1, 1], seed=1, moving_frames=5, settled_frames=5, style=style)
    second = render_roll([6, 2, 3], seed=2, moving_frames=5, settled_frames=5, style=style)
    events = feed(tracker, first + second)
    settled = [sorted(e.reading.values) for e in events if e.kind == "settled"]
    assert settled == [[1, 1], [2, 3, 6]]


def test_a_poker_roll_read_by_the_real_reader_settles_once_with_its_faces():
    from vision.reader import DiceReader

    reader = DiceReader("poker")
    tracker = RollTracker()
    faces = ["10", "J", "K", "Q", "Q"]
    events = []
    try:
        for scene in render_roll(faces, kind="poker", seed=5, settled_frames=8):
            event = tracker.update(scene.frame, reader.read(scene.frame))
            events += [event] if event else []
    except OSError as error:  # the reader's model files are missing
        pytest.skip(f"the dice reader cannot run here: {error}")
    settled = [e for e in events if e.kind == "settled"]
    assert len(settled) == 1
    assert sorted(settled[0].reading.values) == sorted(faces)


def test_a_reading_given_as_a_function_is_made_only_while_the_tray_is_still():
    """A slow reader is not called for the tumbling frames; the roll still settles as usual."""
    scenes = render_roll([3, 5], seed=4, moving_frames=8, settled_frames=6)
    read_frames = []

    def reading_of(index, scene):
        def read():
            read_frames.append(index)
            return truth_reading(scene)

        return read

    tracker = RollTracker(settle_frames=3)
    events = [tracker.update(scene.frame, reading_of(i, scene)) for i, scene in enumerate(scenes)]
    settled = [e for e in events if e is not None and e.kind == "settled"]
    assert len(settled) == 1 and sorted(settled[0].reading.values) == [3, 5]
    assert not set(range(1, 8)) & set(read_frames)  # frames 1-7 differ from the one before
    assert set(range(9, 14)) <= set(read_frames)
