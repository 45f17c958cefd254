"""`tabletop bench display`: table-screen frame time, settled-roll-to-screen latency, start-up
time to the first frame, and peak memory of the kiosk.

    table_ms_median        draw the table screen (Struggle, live camera image new every frame,
                           dice outlined) at 800x480 with the dummy driver: screen model + render
    settled_to_screen_ms   from the frame that settles a roll to that roll drawn on screen: read
                           the frame, roll tracker, controller, render (median over rolls)
    settled_read_ms        of that, reading the frame and the roll tracker alone: median, p95,
                           and both per kind of dice (d6 and poker rolls alternate)
    run_first_frame_s      `tabletop run --camera sim` started as a process until its first
                           frame is shown (log line), and the whole process wall time
    peak_rss_mb            peak resident memory of that `tabletop run` process: 300 frames of
                           a resumed Struggle game waiting for dice (every frame read)
    idle_cpu_percent       CPU of `tabletop run --camera sim` on a still table screen (Struggle
                           moves to choose, no dice awaited), % of one core: the difference of
                           a 330-pass and a 30-pass run, so start-up is left out
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

TARGETS = {
    "table_ms_median": 5.0,
    "settled_to_screen_ms": 100.0,
    # Dice coming to rest to their reading, one core, on the development machine (about 100
    # ms on a Raspberry Pi 4): timings wander, so docs/vision.md counts instructions too.
    "settled_read_ms": 20.0,
    "settled_read_ms_p95": 40.0,
    "run_first_frame_s": 2.0,
    "peak_rss_mb": 250.0,
    "idle_cpu_percent": 2.0,
}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("display", help="table screen ms/frame, latency, start, memory")
    parser.add_argument("--frames", type=int, default=300, help="frames to time (default 300)")
    parser.add_argument("--rolls", type=int, default=40, help="rolls for the latency (default 40)")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as scratch:
        results.update(table_frame_time(Path(scratch) / "a", args.frames))
        results.update(settled_latency(Path(scratch) / "b", args.rolls))
        results.update(run_start_and_memory(Path(scratch) / "c"))
        results.update(idle_cpu(Path(scratch) / "d"))
    results["targets"] = TARGETS
    results["pass"] = {
        key: results.get(key, float("inf")) <= limit for key, limit in TARGETS.items()
    }
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        for key, value in results.items():
            print(f"{key:24} {value}")
    return 0


def _struggle_controller(state_dir: Path) -> Any:
    from companion.controller import Controller, Tap
    from companion.persistence.store import Store

    controller = Controller(Store(state_dir), "fr", moves_per_page=4)
    controller.start_game("struggle", ["Alice", "Bruno", "Chloé"], seed=3, mode="table")
    controller.handle(Tap("move:first 0"))
    return controller


def _camera_frames(count: int, kind: str = "poker") -> list[Any]:
    from vision.synth.render import render_roll

    scenes = render_roll(["K", "Q", "A", "J", "9"], kind=kind, seed=5, moving_frames=count - 1,
                         settled_frames=1)  # fmt: skip
    return [scene for scene in scenes]


def table_frame_time(state_dir: Path, frames: int) -> dict[str, float]:
    """Median ms to build and draw the table screen, the camera image new on every frame."""
    from companion.controller import CameraImage, Settled
    from display.render import Renderer
    from vision.read.types import Die, Reading

    controller = _struggle_controller(state_dir)
    scenes = _camera_frames(8)
    settled = scenes[-1]
    dice = tuple(Die(d.value, d.center, 0.9, d.quad) for d in settled.dice)
    controller.handle(Settled(Reading(dice), settled.frame))
    renderer = Renderer((800, 480))
    times = []
    for number in range(frames):
        image = scenes[number % len(scenes)].frame.copy()  # a new array, as from a camera
        start = time.perf_counter()
        controller.handle(CameraImage(image))
        renderer.draw(controller.screen())
        times.append((time.perf_counter() - start) * 1000)
    controller.store.close()
    return {
        "table_ms_median": round(statistics.median(times), 2),
        "table_ms_p95": round(sorted(times)[int(len(times) * 0.95)], 2),
    }


def settled_latency(state_dir: Path, rolls: int) -> dict[str, Any]:
    """From the settling frame's arrival to the roll drawn, through the real reader and tracker.

    The rolls alternate poker dice and d6 of 1 to 7 dice, near and far (a face from 6% to 45% of
    the frame's shorter side, as many dice as fit), any tray style: the reading's time is the
    reader's and the tracker's. Every roll is then handled by a Struggle table and drawn.
    """
    from companion.controller import Settled
    from companion.feed import DiceFeed
    from display.render import Renderer

    controller = _struggle_controller(state_dir)
    renderer = Renderer((800, 480))
    feed = DiceFeed(camera=None, settle_frames=2)
    rng = np.random.default_rng(17)
    latencies, ui, reads = [], [], {"d6": [], "poker": []}
    for number in range(rolls):
        kind = ("poker", "d6")[number % 2]
        camera = settling_camera(number, kind, rng)
        feed.camera, controller.table.turn.proposal = camera, None
        feed.reset()
        for _ in range(2):  # the empty tray, as the camera sees it before a throw
            feed.track(camera.read().image, kind)
        camera.request_roll()
        for _ in range(40):  # past the tracker's 30 frames for taking a still object as tray
            frame = camera.read()
            start = time.perf_counter()
            reading = feed.track(frame.image, kind)
            if reading is not None:
                read_done = time.perf_counter()
                controller.handle(Settled(reading, frame.image))
                renderer.draw(controller.screen())
                end = time.perf_counter()
                latencies.append((end - start) * 1000)
                reads[kind].append((read_done - start) * 1000)
                ui.append((end - read_done) * 1000)
                break
    controller.store.close()
    every_read = reads["d6"] + reads["poker"]
    if not latencies:
        return {"settled_to_screen_ms": float("inf"), "settled_rolls": 0}
    return {
        "settled_to_screen_ms": round(statistics.median(latencies), 1),
        "settled_read_ms": round(statistics.median(every_read), 1),  # the reader + roll tracker
        "settled_read_ms_p95": percentile_95(every_read),
        **{
            f"settled_read_ms_{kind}": round(statistics.median(ms), 1) for kind, ms in reads.items()
        },
        **{f"settled_read_ms_{kind}_p95": percentile_95(ms) for kind, ms in reads.items()},
        "settled_ui_ms": round(statistics.median(ui), 1),  # controller + drawing
        "settled_rolls": len(latencies),
        "unsettled_rolls": rolls - len(latencies),  # never read alike twice in a row
        "reader_problem": feed.problem,
    }


def settling_camera(number: int, kind: str, rng: np.random.Generator) -> Any:
    """A simulated camera showing an empty tray, for one roll of 1-7 dice of `kind`, near or far."""
    from dataclasses import replace

    from hardware.simcam import SimulatedCamera
    from vision.synth.render import SceneStyle

    dice = 1 + number // 2 % 7
    largest = min(0.45, 0.32 / dice**0.5)
    side = 480 * float(np.exp(rng.uniform(np.log(0.06), np.log(largest))))
    style = replace(SceneStyle.random(rng, kind), die_size=(0.9 * side, side), touch_chance=0.0)
    if side > 0.3 * 480:
        style = replace(style, rotation=False, perspective=0.0, distractors=())
    camera = SimulatedCamera(seed=number, kind=kind, dice=dice, stepped=True, style=style,
                             moving_frames=2, settled_frames=3)  # fmt: skip
    camera.start()
    return camera


def percentile_95(values: list[float]) -> float:
    if not values:
        return float("nan")
    return round(float(np.percentile(values, 95)), 1)


def run_start_and_memory(state_dir: Path) -> dict[str, float]:
    """The kiosk resumes a Struggle game waiting for dice, so it reads every camera frame."""
    _struggle_controller(state_dir).store.close()
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", TABLETOP_STATE_DIR=str(state_dir))
    command = [sys.executable, "-m", "tabletop", "run", "--camera", "sim", "--windowed",
               "--frames", "300"]  # fmt: skip
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    wall = time.perf_counter() - start
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    match = re.search(r"first frame after ([\d.]+) s", done.stderr)
    in_app = float(match.group(1)) if match else float("inf")
    return {
        "run_first_frame_s": round(in_app + _interpreter_start(env), 2),
        "run_first_frame_in_app_s": in_app,
        "run_300_frames_wall_s": round(wall, 2),
        "peak_rss_mb": round(peak_kb / 1024, 1),
        "run_exit_code": done.returncode,
    }


def _interpreter_start(env: dict[str, str]) -> float:
    """Seconds from process start to the command running (imports of the CLI)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "tabletop", "--help"], env=env, capture_output=True,
                   timeout=60)  # fmt: skip
    return time.perf_counter() - start


def idle_cpu(state_dir: Path) -> dict[str, float]:
    """% of a core used by the kiosk on a still table screen, start-up subtracted."""
    controller = _struggle_controller(state_dir)
    controller.play("roll 9 J Q K A")  # Struggle's moves to choose: nothing changes on screen
    controller.store.close()
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", TABLETOP_STATE_DIR=str(state_dir))
    spent = {}
    for frames in (30, 330):
        command = [sys.executable, "-m", "tabletop", "run", "--camera", "sim", "--windowed",
                   "--frames", str(frames)]  # fmt: skip
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        spent[frames] = (cpu, wall)
    cpu = spent[330][0] - spent[30][0]
    wall = spent[330][1] - spent[30][1]
    return {"idle_cpu_percent": round(100 * cpu / wall, 1) if wall > 0 else float("inf")}
