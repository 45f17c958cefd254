"""The simulated tray camera, with the real vision renderer (and reader when it is usable)."""

from __future__ import annotations

import numpy as np
import pytest

from hardware.factory import open_camera
from hardware.simcam import SimulatedCamera

SMALL = (320, 240)


def stepped(**settings) -> SimulatedCamera:
    settings = {"seed": 5, "size": SMALL, "moving_frames": 3, "settled_frames": 2} | settings
    camera = SimulatedCamera(stepped=True, **settings)
    camera.start()
    return camera


def frames_with_truth(camera: SimulatedCamera, count: int):
    out = []
    for _ in range(count):
        frame = camera.read(timeout=0)
        assert frame is not None
        out.append((frame, camera.truth_for(frame)))
    return out


def test_empty_tray_then_a_scripted_roll_then_rest() -> None:
    camera = stepped()
    ((empty, truth),) = frames_with_truth(camera, 1)
    assert truth.faces == () and truth.roll == 0 and not truth.rolling
    assert empty.image.shape == (240, 320, 3) and empty.image.dtype == np.uint8
    assert camera.request_roll([6, 1, 3]) == (6, 1, 3)
    assert not camera.idle
    shown = frames_with_truth(camera, 8)
    assert [t.rolling for _, t in shown] == [True] * 3 + [False] * 5
    assert all(t.faces == (6, 1, 3) and t.roll == 1 for _, t in shown)
    assert sorted(d.value for d in shown[-1][1].dice) == [1, 3, 6]
    assert camera.idle and camera.truth.faces == (6, 1, 3)
    assert [f.index for f, _ in shown] == list(range(1, 9))
    assert camera.status.state == "ok"


def test_same_seed_same_frames_and_random_faces() -> None:
    first, second = stepped(seed=11), stepped(seed=11)
    assert first.request_roll() == second.request_roll()
    for _ in range(6):
        assert np.array_equal(first.read(0).image, second.read(0).image)
    faces = first.request_roll(count=7)
    assert len(faces) == 7 and set(faces) <= {1, 2, 3, 4, 5, 6}
    other, same = stepped(seed=12), stepped(seed=11)
    assert not np.array_equal(other.read(0).image, same.read(0).image)


def test_new_roll_starts_at_once_when_dice_rest() -> None:
    camera = stepped(settled_frames=6)
    camera.request_roll([2, 2])
    frames_with_truth(camera, 4)  # 3 moving + the first settled frame
    camera.request_roll([5])
    ((_, truth),) = frames_with_truth(camera, 1)
    assert truth.faces == (5,) and truth.rolling and truth.roll == 2


def test_poker_roll_and_faces_checked() -> None:
    camera = stepped(kind="poker", dice=3)
    assert camera.request_roll(["A", "K", 9]) == ("A", "K", "9")
    shown = frames_with_truth(camera, 5)
    assert sorted(d.value for d in shown[-1][1].dice) == ["9", "A", "K"]
    assert set(camera.request_roll()) <= {"9", "10", "J", "Q", "K", "A"}
    with pytest.raises(ValueError, match="poker faces"):
        camera.request_roll([7])
    with pytest.raises(ValueError, match="count=2 but 1 faces"):
        camera.request_roll(["A"], count=2)
    with pytest.raises(ValueError, match="1 to 10 dice"):
        camera.request_roll(count=0)
    with pytest.raises(ValueError, match="kind"):
        SimulatedCamera(kind="d20")  # type: ignore[arg-type]


def test_paced_mode_plays_a_roll_in_real_time() -> None:
    camera = SimulatedCamera(seed=2, size=SMALL, fps=60, moving_frames=2, settled_frames=2)
    with camera:
        assert camera.read(timeout=5) is not None
        camera.request_roll([4, 4])
        for _ in range(200):
            frame = camera.read(timeout=5)
            assert frame is not None
            truth = camera.truth_for(frame)
            if truth is not None and truth.roll == 1 and not truth.rolling:
                break
        else:
            pytest.fail("the roll never settled")
        assert camera.status.state == "ok"


def test_open_camera_sim_takes_its_settings() -> None:
    camera = open_camera("sim", seed=9, kind="poker", dice=2, size=SMALL, stepped=True)
    assert isinstance(camera, SimulatedCamera) and camera.kind == "poker" and camera.stepped
    with camera:
        assert camera.read(timeout=0) is not None


ROLLS = ([1, 2, 3, 4, 5], [6, 6, 5, 2], [3, 3, 1])


def settled_readings(seed: int) -> list[tuple[list[int], list]]:
    """(requested faces, values the dice reader reads) for the settled frame of each roll."""
    from vision.reader import DiceReader

    camera = stepped(size=(640, 480), seed=seed)
    reader = DiceReader("d6")
    results = []
    for faces in ROLLS:
        camera.request_roll(faces)
        settled, truth = frames_with_truth(camera, 5)[-1]
        assert not truth.rolling and truth.faces == tuple(faces)
        try:
            reading = reader.read(settled.image)
        except FileNotFoundError as missing:  # the reader's model is not trained/committed yet
            pytest.skip(f"dice reader not usable yet: {missing}")
        results.append((faces, reading.values))
    return results


def test_reader_finds_no_face_that_was_not_rolled() -> None:
    for faces, values in settled_readings(seed=1):
        leftover = list(faces)
        for value in values:
            assert value in leftover, f"read {values} from a roll of {faces}"
            leftover.remove(value)


def test_settled_frames_read_as_the_requested_faces() -> None:
    for faces, values in settled_readings(seed=1):
        assert sorted(values) == sorted(faces)


def test_request_and_truth_never_wait_for_a_render(monkeypatch) -> None:
    import threading

    import vision.synth.render

    rendering, finish = threading.Event(), threading.Event()
    real_render_roll = vision.synth.render.render_roll

    def slow_render_roll(*args, **kwargs):
        rendering.set()
        finish.wait(5)
        return real_render_roll(*args, **kwargs)

    monkeypatch.setattr(vision.synth.render, "render_roll", slow_render_roll)
    camera = SimulatedCamera(seed=3, size=SMALL, fps=60, moving_frames=1, settled_frames=1)
    with camera:
        camera.request_roll([1])
        assert rendering.wait(5)
        asked = threading.Thread(target=lambda: (camera.truth, camera.request_roll([2])))
        asked.start()
        asked.join(1)
        alive = asked.is_alive()
        assert not camera.idle
        finish.set()
        assert not alive
