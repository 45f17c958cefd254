"""`tabletop bench vision`: dice-reading accuracy on the real photo sets, phantoms, and speed.

Per set of `shared/dice-photos/`, for the development split (the nets trained on it), the
calibration split (half the photos never trained on; the reader's confidence map was fitted on
it) and the held-out split (the other half, which chose nothing) separately: per-die accuracy
(labelled dice read right, and how many were given a wrong value as sure), the reliability of
the dice's confidences (a table per bin, and the expected calibration error), per-image
exact accuracy (every labelled die right), how many dice got a value where no label is (labels
skip blurred or cut dice, so these are reported, not counted as misses; `image_exact_strict` also
requires none). Then phantom dice on empty trays (dice-free crops of the photos), the median
milliseconds per 640x480 frame holding 5 dice on one core, and rendered d6/poker scenes when the
renderer is there (poker dice read with a profile learned the way `tabletop learn` does, from
three rendered photos per face), both of the usual size and close-ups (1-2 dice of a seventh to a
quarter of the frame), d6 with a maker's symbol, and poker designs never seen, per design kind
and way of teaching (`tabletop bench poker` at its defaults). `--misses` lists each die behind
the figures that was not read right.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from bench.reliability import print_reliability, reliability
from bench.scale import real_sweep, rendered_sweep
from bench.scoring import Score, score_image, score_rendered
from bench.shared_data import default_shared_dir
from vision.train._photos import Labelled, PhotoSet, photo_sets, split_of

SPLITS = ("development", "calibration", "held-out")

SPEED_PASSES = 5
SPEED_FRAME = (640, 480)


def add_parser(bench_subparsers: argparse._SubParsersAction) -> None:
    parser = bench_subparsers.add_parser(
        "vision", help="dice-reader accuracy on real photos, phantom dice, ms per frame"
    )
    parser.add_argument("--shared", type=Path, default=None, help="the shared/ data folder")
    parser.add_argument("--limit", type=int, default=None, help="at most N images per set")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--speed-only",
        action="store_true",
        help="only the ms per frame (for a steady figure, count instructions: run it under "
        "valgrind --tool=callgrind with --passes 2 and 1 and take the difference)",
    )
    parser.add_argument(
        "--misses",
        action="store_true",
        help="also list every labelled die not read right, and every die read where no label is",
    )
    parser.add_argument(
        "--sweep-only",
        action="store_true",
        help="only the scale sweep: dice from 3%% to 60%% of the frame's shorter side, rendered "
        "and real photos zoomed",
    )
    parser.add_argument(
        "--adapt",
        action="store_true",
        help="only the reader adapting to a table's confirmed rolls: accuracy on 100 rolls "
        "before, and after 10, 30 and 100 confirmed rolls (bench/adapt.py)",
    )
    parser.add_argument(
        "--fit-confidence",
        action="store_true",
        help="only fit the reader's confidence map on the calibration photos and write it to "
        "vision/models/confidence.json (bench/calibration.py); per set, what a map fitted "
        "without that set makes sure",
    )
    parser.add_argument(
        "--passes",
        type=int,
        default=SPEED_PASSES,
        help=f"passes over the speed frames (default {SPEED_PASSES})",
    )
    parser.set_defaults(handler=run)


# ---------------------------------------------------------------- empty trays and speed


def dice_free_crops(photo: Labelled, image: np.ndarray, side: int = 200) -> list[np.ndarray]:
    """Square regions of the photo at least one die size away from every labelled die."""
    height, width = image.shape[:2]
    occupied = np.zeros((height, width), np.uint8)
    for _, box in photo.dice:
        pad = 1.2 * max(box[2] - box[0], box[3] - box[1])
        x0, y0 = int(max(0, box[0] - pad)), int(max(0, box[1] - pad))
        occupied[y0 : int(box[3] + pad), x0 : int(box[2] + pad)] = 1
    crops = []
    for y in range(0, height - side + 1, side // 2):
        for x in range(0, width - side + 1, side // 2):
            if not occupied[y : y + side, x : x + side].any():
                crops.append(image[y : y + side, x : x + side])
    return crops[::3]


def five_dice_frames(sets: list[PhotoSet], count: int) -> list[np.ndarray]:
    """640x480 frames made from real photos holding 5 labelled dice (resized when needed)."""
    import cv2

    frames = []
    for photo_set in sets:
        for photo in photo_set.photos:
            if len(photo.dice) == 5 and len(frames) < count:
                image = cv2.imread(str(photo.image))
                frames.append(cv2.resize(image, SPEED_FRAME, interpolation=cv2.INTER_AREA))
    return frames


def speed(
    read: Callable[[np.ndarray], Any], frames: Iterable[np.ndarray], passes: int = SPEED_PASSES
) -> dict[str, Any]:
    """The median ms to read a frame over all passes, and each pass's own median: a machine's
    timings wander from moment to moment, and the passes' spread shows by how much."""
    frames = list(frames)
    if not frames:
        return {"ms_per_frame": float("nan"), "pass_medians": []}
    for frame in frames[:3]:
        read(frame)  # warm-up: first calls load models and allocate buffers
    passes_ms = [[timed_ms(read, frame) for frame in frames] for _ in range(passes)]
    return {
        "ms_per_frame": round(statistics.median(sum(passes_ms, [])), 2),
        "pass_medians": [round(statistics.median(times), 2) for times in passes_ms],
    }


def print_speed(frame_count: int, report: dict[str, Any]) -> None:
    medians = report["pass_medians"]
    print(
        f"median ms per 640x480 frame with 5 dice ({frame_count} frames, {len(medians)} "
        f"passes): {report['ms_per_frame']} (pass medians {min(medians)}-{max(medians)})"
    )


def timed_ms(read: Callable[[np.ndarray], Any], frame: np.ndarray) -> float:
    start = time.perf_counter()
    read(frame)
    return (time.perf_counter() - start) * 1000.0


# ---------------------------------------------------------------- the bench


def bench_set(reader: Any, photo_set: PhotoSet, limit: int | None) -> dict[str, Score]:
    import cv2

    scores = {split: Score() for split in SPLITS}
    photos = photo_set.photos[:limit] if limit else photo_set.photos
    for photo in photos:
        image = cv2.imread(str(photo.image))
        scores[split_of(photo.image.name)].add(
            score_image(photo, reader.read(image), photo_set.box_kind)
        )
    return scores


def bench_phantoms(reader: Any, sets: list[PhotoSet], limit: int | None) -> dict[str, int]:
    import cv2

    crops = dice = valued = sure = 0
    for photo_set in sets:
        photos = photo_set.photos[:limit] if limit else photo_set.photos
        for photo in photos[::4]:
            for crop in dice_free_crops(photo, cv2.imread(str(photo.image))):
                crops += 1
                found = reader.read(crop).dice
                dice += len(found)
                valued += sum(1 for d in found if d.value is not None)
                sure += sum(1 for d in found if d.sure)
    return {
        "empty_crops": crops,
        "phantom_dice": dice,
        "phantom_values": valued,
        "phantom_sure": sure,
    }


def rendered_figures(limit: int | None) -> dict[str, tuple[dict[str, Any], Score]] | None:
    """Accuracy on rendered scenes (figures, and the score behind them for its misses), when the
    scene renderer (vision.synth.render) exists."""
    try:
        from vision.synth import render
    except ImportError:
        print("vision.synth.render not present: rendered scenes skipped")
        return None
    from vision.reader import DiceReader

    count = min(limit or 100, 100)
    close_ups = min(limit or CLOSE_UP_SCENES, CLOSE_UP_SCENES)
    d6 = DiceReader(kind="d6")
    figures = {
        "d6": bench_rendered(render, d6, "d6", count),
        "d6 close-up": bench_rendered(render, d6, "d6", close_ups, close_up=True),
        "d6 squeezed": bench_rendered(render, d6, "d6", count, squeeze=SQUEEZE),
    }
    try:
        from vision.profiles.profile_learning import learn_from_dir
    except ImportError:
        print("vision.profiles.profile_learning not present: rendered poker dice skipped")
    else:
        with tempfile.TemporaryDirectory() as folder:
            write_learning_photos(render, Path(folder), per_face=3)
            profile = learn_from_dir(folder, "poker")
        poker = DiceReader(kind="poker", profile=profile)
        figures["poker"] = bench_rendered(render, poker, "poker", count)
        figures["poker close-up"] = bench_rendered(render, poker, "poker", close_ups, close_up=True)
    return figures


def write_learning_photos(render: Any, folder: Path, per_face: int) -> None:
    """What a user gives `tabletop learn`: folder/<face>/ with per_face photos of one die showing
    that face, in varied light and surfaces, some with a coin or a pencil in the tray."""
    import cv2

    from vision.read.types import POKER_FACES

    rng = np.random.default_rng(3)
    for number, face in enumerate(POKER_FACES):
        (folder / face).mkdir()
        for index in range(per_face):
            style = render.SceneStyle.random(rng, "poker")
            scene = render.render_scene(
                [face], kind="poker", seed=5000 + 10 * number + index, style=style
            )
            cv2.imwrite(str(folder / face / f"{index}.png"), scene.frame)


def print_figures(title: str, figures: dict[str, Any]) -> None:
    text = ", ".join(f"{k} {v}" for k, v in figures.items())
    print(f"  {title}: {text}")


def run(args: argparse.Namespace) -> int:
    """The figures as lines on stdout; with --json, the lines go to stderr and stdout holds
    one JSON object alone."""
    with contextlib.redirect_stdout(sys.stderr) if args.json else contextlib.nullcontext():
        report = measure(args)
    if isinstance(report, int):
        return report
    if args.json:
        print(json.dumps(report, indent=1))
    return 0


def measure(args: argparse.Namespace) -> dict[str, Any] | int:
    """Every figure asked for (an exit status instead when the arguments are wrong)."""
    import cv2

    from vision.reader import DiceReader

    cv2.setNumThreads(1)  # the targets are for one core
    problem = argument_problem(args)
    if problem:
        print(f"error: {problem}")
        return 2
    if getattr(args, "adapt", False):  # a Namespace made by hand may not have it
        from bench.adapt import measure_adapt

        return measure_adapt(shared=args.shared or default_shared_dir())
    shared = args.shared or default_shared_dir()
    if getattr(args, "fit_confidence", False):
        return fitted_confidence(shared)
    reader = DiceReader(kind="d6")
    report: dict[str, Any] = {}
    if shared is None:
        print("shared/dice-photos not found (a user's clone has none): real photos skipped")
        sets: list[PhotoSet] = []
    else:
        sets = photo_sets(shared)
    if not args.speed_only:
        report["scale_sweep"] = scale_sweep(reader, sets, args.limit)
        if args.sweep_only:
            return report
        report.update(bench_photos(reader, sets, args.limit, args.misses))
    frames = five_dice_frames(sets, 40)
    if frames:
        report.update(speed(reader.read, frames, args.passes))
        print_speed(len(frames), report)
    elif args.speed_only:
        print("error: the speed frames are made from shared/dice-photos, which was not found")
        return 2
    rendered = None if args.speed_only else rendered_figures(args.limit)
    if rendered:
        report["rendered"] = {name: figures for name, (figures, _) in rendered.items()}
        for name, (figures, score) in rendered.items():
            print_figures(f"rendered {name}", figures)
            if args.misses:
                print_misses(score)
        from bench.symbols import symbol_figures

        report["symbol_faces"] = symbol_figures(reader, min(args.limit or 60, 60))
        print_figures("rendered d6 with a maker's symbol on the 1 or the 6", report["symbol_faces"])
        report["poker_designs"] = poker_design_figures(args.limit)
    return report


def fitted_confidence(shared: Path | None) -> dict[str, Any] | int:
    """Fit the reader's confidence map on the calibration photos and write it."""
    from bench.calibration import fit_confidence
    from vision.read.confidence import CALIBRATION_FILE

    if shared is None:
        print("error: the confidence map is fitted on shared/dice-photos, which was not found")
        return 2
    report = fit_confidence(photo_sets(shared), CALIBRATION_FILE)
    print(f"wrote {CALIBRATION_FILE}, fitted on {report['fitted_on']}")
    print("each set's calibration dice, by a map fitted on the other sets alone:")
    for name, figures in report["kinds_held_out"].items():
        print_figures(name, figures)
    return report


def poker_design_figures(limit: int | None) -> dict[str, Any]:
    """Poker designs never seen, per design kind and way of teaching: `tabletop bench poker` at
    its defaults (`--limit` caps the trays read per design)."""
    from bench import poker
    from vision.synth.poker_designs import DESIGN_KINDS

    trays = min(limit or poker.TRAYS, poker.TRAYS)
    print("poker designs never seen, taught from 3 photos per face (tabletop bench poker):")
    return poker.design_figures(list(DESIGN_KINDS), list(poker.WAYS), poker.DESIGNS, trays, 0)


def scale_sweep(reader: Any, sets: list[PhotoSet], limit: int | None) -> dict[str, Any]:
    """Per share of the frame's shorter side a die's face spans: rendered trays, real dice."""
    sweep = {"rendered": rendered_sweep(reader, min(limit or 20, 20))}
    if sets:
        sweep["real"] = real_sweep(reader, sets, min(limit or 60, 60))
    for source, figures in sweep.items():
        print(f"scale sweep, {source} (face side / frame's shorter side):")
        for share, share_figures in figures.items():
            print_figures(share, share_figures)
    return sweep


def print_misses(score: Score) -> None:
    for line in score.wrong:
        print(f"    miss: {line}")
    for line in score.unlabelled:
        print(f"    no label: {line}")


def argument_problem(args: argparse.Namespace) -> str:
    """What is wrong with the command line's values, or an empty string."""
    if args.shared is not None and not (args.shared / "dice-photos").is_dir():
        return f"{args.shared} has no dice-photos folder"
    if args.limit is not None and args.limit < 1:
        return f"--limit must be at least 1, got {args.limit}"
    if args.passes < 1:
        return f"--passes must be at least 1, got {args.passes}"
    return ""


def bench_photos(
    reader: Any, sets: list[PhotoSet], limit: int | None, misses: bool = False
) -> dict[str, Any]:
    """Accuracy on each photo set's splits, and phantom dice on their dice-free crops."""
    from vision.reader import DiceReader

    report: dict[str, Any] = {}
    for photo_set in sets:
        print(f"{photo_set.name} (boxes: {photo_set.box_kind}):")
        scores = bench_set(reader, photo_set, limit)
        both = Score()
        for split, score in scores.items():
            both.add(score)
            report[f"{photo_set.name}/{split}"] = with_reliability(score)
            print_figures(split, score.figures())
            print_reliability(score.outcomes)
            if misses:
                print_misses(score)
        report[f"{photo_set.name}/all"] = both.figures()
        print_figures("all", both.figures())
    if sets:
        report["phantoms"] = bench_phantoms(reader, sets, limit)
        print_figures("empty trays (dice-free crops of the photos)", report["phantoms"])
        poker_reader = DiceReader(kind="poker")
        report["phantoms_poker"] = bench_phantoms(poker_reader, sets, limit)
        print_figures("the same, read for poker dice", report["phantoms_poker"])
    return report


def with_reliability(score: Score) -> dict[str, Any]:
    """The score's figures and its reliability table."""
    return {**score.figures(), "reliability": reliability(score.outcomes)}


# Close-up scenes: 1-2 dice of 90-150 px in a 640x480 frame (a seventh to a quarter of its
# width), beyond the finder's usual look; read through its coarse look (vision/read/large.py).
CLOSE_UP_SIZE = (90.0, 150.0)
CLOSE_UP_SCENES = 50
# The rendered trays squeezed to this share of their height: a 4:3 photo squeezed into a square,
# its dice 4:3 wide (vision/read/aspect.py).
SQUEEZE = 0.75


def bench_rendered(
    render: Any,
    reader: Any,
    kind: str,
    count: int,
    close_up: bool = False,
    squeeze: float = 1.0,
) -> tuple[dict[str, Any], Score]:
    """Rendered scenes of varied styles with known truth, and as many empty trays; `close_up`
    for a few large dice; `squeeze` to shrink the frames' height by (dice look wide, as in a
    photo squeezed into a fixed size)."""
    from vision.read.types import D6_FACES, POKER_FACES

    rng = np.random.default_rng(11 if close_up else 7)
    faces_of_kind = list(D6_FACES if kind == "d6" else POKER_FACES)
    score = Score()
    phantoms = 0
    times = []
    for seed in range(count):
        style = render.SceneStyle.random(rng, kind)
        if close_up:
            style = close_up_style(style)
        dice = int(rng.integers(1, 3 if close_up else 8))
        faces = [faces_of_kind[i] for i in rng.integers(0, 6, size=dice)]
        scene_seed = (20_000 if close_up else 0) + seed
        scene = squeezed(
            render.render_scene(faces, kind=kind, seed=scene_seed, style=style), squeeze
        )
        reading = reader.read(scene.frame)
        times.append(reading.ms)
        score.add(score_rendered(scene, reading, f"scene {seed}"))
        empty = squeezed_frame(render.render_empty(seed=10_000 + scene_seed, style=style), squeeze)
        phantoms += len(reader.read(empty).dice)
    figures = {
        **score.figures(),
        "empty_trays": count,
        "phantom_dice": phantoms,
        "median_ms": round(statistics.median(times), 1) if times else float("nan"),
    }
    return figures, score


def squeezed(scene: Any, squeeze: float) -> Any:
    """The rendered scene with its height shrunk by `squeeze`, its dice's truth with it."""
    if squeeze == 1.0:
        return scene
    dice = tuple(
        replace(
            truth,
            center=(truth.center[0], truth.center[1] * squeeze),
            quad=truth.quad * np.array([1.0, squeeze], np.float32),
        )
        for truth in scene.dice
    )
    return replace(scene, frame=squeezed_frame(scene.frame, squeeze), dice=dice)


def squeezed_frame(frame: np.ndarray, squeeze: float) -> np.ndarray:
    """The frame with its height shrunk by `squeeze`."""
    import cv2

    if squeeze == 1.0:
        return frame
    height, width = frame.shape[:2]
    return cv2.resize(frame, (width, round(height * squeeze)), interpolation=cv2.INTER_AREA)


def close_up_style(style: Any) -> Any:
    """The style with its dice close to the camera: large, apart (so that two fit the
    frame) and seen at most in moderate perspective."""
    perspective = min(style.perspective, 0.6)
    return replace(style, die_size=CLOSE_UP_SIZE, touch_chance=0.0, perspective=perspective)
