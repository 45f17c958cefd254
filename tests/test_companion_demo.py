"""`tabletop demo`: complete games, deterministic for a seed, resumable after kill -9."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import companion.demo as demo
import engines
from companion.feed import DiceFeed
from hardware.simcam import SimulatedCamera
from vision.read.types import Die, Reading

REPO = Path(__file__).resolve().parents[1]


def requires(game: str) -> None:
    if game not in engines.available_games():
        pytest.skip(f"the {game} engine is not built yet")


def demo_command(out: Path, game: str, seed: int) -> list[str]:
    return [sys.executable, "-m", "tabletop", "demo", "--game", game, "--seed", str(seed),
            "--out", str(out)]  # fmt: skip


def logged_actions(state_dir: Path) -> int:
    path = state_dir / "tabletop.sqlite3"
    if not path.exists():
        return 0
    with sqlite3.connect(path) as db:
        try:
            return db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        except sqlite3.OperationalError:
            return 0


def clean_env() -> dict[str, str]:
    """No display, no SDL settings: the demo must set up what it needs itself."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SDL_", "DISPLAY", "WAYLAND"))}
    env["PYTHONPATH"] = str(REPO)
    return env


def test_killed_demo_resumes_to_the_same_scores(tmp_path):
    requires("sequence")
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    env = clean_env()
    subprocess.run(demo_command(whole, "sequence", 4), env=env, check=True, capture_output=True,
                   timeout=300)  # fmt: skip
    process = subprocess.Popen(demo_command(killed, "sequence", 4), env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    deadline = time.monotonic() + 120
    while logged_actions(killed / "state") < 30 and time.monotonic() < deadline:
        assert process.poll() is None, "the demo ended before it could be killed"
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert not (killed / "result.json").exists()
    resumed = subprocess.run(demo_command(killed, "sequence", 4), env=env, check=True,
                             capture_output=True, text=True, timeout=300)  # fmt: skip
    assert "resuming after" in resumed.stdout
    first = json.loads((whole / "result.json").read_text())
    second = json.loads((killed / "result.json").read_text())
    assert first["scores"] == second["scores"]
    assert first["games"]["sequence"]["actions"] == second["games"]["sequence"]["actions"]
    assert sorted(p.name for p in (whole / "sequence").iterdir()) == sorted(
        p.name for p in (killed / "sequence").iterdir()
    )


def test_dice_game_interrupted_in_process_ends_like_an_uninterrupted_one(tmp_path, monkeypatch):
    requires("roudalon")
    monkeypatch.setattr(demo, "CAMERA_SIZE", (320, 240))  # smaller renders: a quicker test
    monkeypatch.setattr(demo, "MAX_STEPS", 8)
    with pytest.raises(RuntimeError, match="not over"):
        demo.run_demo(["roudalon"], 1, tmp_path / "a" / "state", tmp_path / "a", say=lambda _: None)
    monkeypatch.setattr(demo, "MAX_STEPS", 5000)
    resumed = demo.run_demo(["roudalon"], 1, tmp_path / "a" / "state", tmp_path / "a",
                            say=lambda _: None)  # fmt: skip
    whole = demo.run_demo(["roudalon"], 1, tmp_path / "b" / "state", tmp_path / "b",
                          say=lambda _: None)  # fmt: skip
    assert resumed["scores"] == whole["scores"]
    summary = whole["games"]["roudalon"]
    assert summary["rolls"] > 4 and summary["rolls"] <= summary["dice_read"] <= 2 * summary["rolls"]
    assert 0 <= summary["misreads_corrected"] <= summary["dice_read"]
    assert summary["misreads_corrected"] == resumed["games"]["roudalon"]["misreads_corrected"]
    assert len(list((tmp_path / "b" / "roudalon").glob("*-dice.png"))) == summary["rolls"]


class TruthReader:
    """Stands in for the dice reader in the feed test: reads the simulated camera's truth."""

    def __init__(self, camera: SimulatedCamera) -> None:
        self.camera = camera

    def read(self, image: np.ndarray) -> Reading:
        truth = self.camera.truth
        return Reading(tuple(Die(d.value, d.center, 0.9, d.quad) for d in truth.dice))


def test_feed_reports_one_settled_reading_per_roll():
    camera = SimulatedCamera(seed=2, kind="d6", dice=2, size=(320, 240), stepped=True,
                             moving_frames=2, settled_frames=3)  # fmt: skip
    camera.start()
    feed = DiceFeed(camera, settle_frames=2)
    feed._readers["d6"] = TruthReader(camera)
    camera.request_roll([3, 5])
    events = [e for _ in range(10) for e in feed.step("d6")]
    settled = [e for e in events if type(e).__name__ == "Settled"]
    assert len(settled) == 1
    assert sorted(d.value for d in settled[0].reading.dice) == [3, 5]
    assert sum(type(e).__name__ == "CameraImage" for e in events) == 10
    assert feed.step(None)[0].image is not None  # frames still shown when no dice are wanted


def test_feed_survives_a_broken_reader():
    camera = SimulatedCamera(seed=2, kind="d6", dice=2, size=(320, 240), stepped=True)
    camera.start()
    feed = DiceFeed(camera)

    class Broken:
        def read(self, image):
            raise RuntimeError("model file missing")

    feed._readers["d6"] = Broken()
    camera.request_roll([1, 2])
    for _ in range(12):
        feed.step("d6")
    assert "model file missing" in feed.problem


def test_background_feed_reads_off_the_main_thread_and_drops_stale_readings():
    from companion.controller import Settled
    from companion.feed import BackgroundFeed

    camera = SimulatedCamera(seed=3, kind="d6", dice=2, size=(320, 240), stepped=True,
                             moving_frames=2, settled_frames=3)  # fmt: skip
    camera.start()
    dice_feed = DiceFeed(camera, settle_frames=2)
    dice_feed._readers["d6"] = TruthReader(camera)
    background = BackgroundFeed(dice_feed)
    background.want("d6", 1)
    camera.request_roll([6, 2])
    background.start()
    try:
        found = []
        deadline = time.monotonic() + 20
        while not any(isinstance(e, Settled) for e in found) and time.monotonic() < deadline:
            found += background.poll()
            time.sleep(0.01)
    finally:
        background.stop()
    settled = [e for e in found if isinstance(e, Settled)]
    assert len(settled) == 1 and sorted(d.value for d in settled[0].reading.dice) == [2, 6]
    background._events.put((1, settled[0]))  # a reading made for request 1 ...
    background.want("d6", 2)  # ... arrives after the game moved on: dropped
    assert not [e for e in background.poll() if isinstance(e, Settled)]
