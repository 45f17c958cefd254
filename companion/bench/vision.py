"""`tabletop bench vision`: dice-reading accuracy on the real photo sets, phantoms, and speed.

Per set of `shared/dice-photos/`: per-die accuracy (labelled dice read right), per-image exact
accuracy (every labelled die right, no extra die), how many unlabelled dice got a value (labels
skip blurred or cut dice, so these are reported, not counted as misses), separately for the
development split and the held-out split. Then phantom dice on empty trays (dice-free crops of
the photos), and the median milliseconds per 640x480 frame holding 5 dice.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

HELD_OUT_PERCENT = 30
SPEED_FRAME = (640, 480)


def add_parser(bench_subparsers: argparse._SubParsersAction) -> None:
    parser = bench_subparsers.add_parser(
        "vision", help="dice-reader accuracy on real photos, phantom dice, ms per frame"
    )
    parser.add_argument("--shared", type=Path, default=None, help="the shared/ data folder")
    parser.add_argument("--limit", type=int, default=None, help="at most N images per set")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(handler=run)


# ---------------------------------------------------------------- photo sets and splits


@dataclass(frozen=True)
class Labelled:
    image: Path
    dice: tuple[tuple[int, tuple[int, int, int, int]], ...]  # (value, box x0 y0 x1 y1)


@dataclass(frozen=True)
class PhotoSet:
    name: str
    box_kind: str  # "whole die" or "pips of the top face"
    photos: tuple[Labelled, ...]


def is_held_out(image_name: str) -> bool:
    """A fixed 30% of the photos, chosen by a hash of the file name, never used for tuning."""
    return zlib.crc32(image_name.encode()) % 100 < HELD_OUT_PERCENT


def load_photo_set(folder: Path) -> PhotoSet:
    info = json.loads((folder / "info.json").read_text())
    photos = []
    for line in (folder / "labels.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        entry = json.loads(line)
        dice = tuple((int(d["value"]), tuple(int(v) for v in d["box"])) for d in entry["dice"])
        photos.append(Labelled(folder / entry["image"], dice))
    box_kind = (
        "whole die" if info.get("box_kind", "").startswith("whole") else "pips of the top face"
    )
    return PhotoSet(folder.name, box_kind, tuple(photos))


def photo_sets(shared: Path) -> list[PhotoSet]:
    root = shared / "dice-photos"
    return [load_photo_set(p) for p in sorted(root.iterdir()) if (p / "labels.jsonl").is_file()]


# ---------------------------------------------------------------- matching a reading to labels


@dataclass
class Score:
    dice: int = 0
    dice_right: int = 0
    images: int = 0
    images_exact: int = 0
    unlabelled_valued: int = 0  # dice read with a value where no label is (blurred/cut or phantom)
    unreadable_labelled: int = 0
    wrong: list[str] = field(default_factory=list)

    def add(self, other: Score) -> None:
        for name in ("dice", "dice_right", "images", "images_exact"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.unlabelled_valued += other.unlabelled_valued
        self.unreadable_labelled += other.unreadable_labelled
        self.wrong.extend(other.wrong)

    def figures(self) -> dict[str, Any]:
        return {
            "images": self.images,
            "dice": self.dice,
            "die_accuracy": round(self.dice_right / max(self.dice, 1), 4),
            "image_exact": round(self.images_exact / max(self.images, 1), 4),
            "unreadable_labelled": self.unreadable_labelled,
            "unlabelled_valued": self.unlabelled_valued,
        }


def box_center(box: tuple[int, int, int, int]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0


def match_dice(
    labels: tuple[tuple[int, tuple[int, int, int, int]], ...],
    found: list[tuple[Any, tuple[float, float], float]],
    box_kind: str,
) -> list[int | None]:
    """For each label, the index of the die read for it (or None).

    Whole-die boxes: a die matches a box its centre lies inside. Pip boxes are smaller than the
    face, so a die matches the nearest label centre within one die size of it. Greedy, nearest
    first, each die used once.
    """
    pairs = []
    for li, (_, box) in enumerate(labels):
        lx, ly = box_center(box)
        for di, (_, (dx, dy), size) in enumerate(found):
            distance = float(np.hypot(dx - lx, dy - ly))
            if box_kind == "whole die":
                inside = box[0] <= dx <= box[2] and box[1] <= dy <= box[3]
            else:
                inside = distance <= max(size * 0.75, 0.6 * max(box[2] - box[0], box[3] - box[1]))
            if inside:
                pairs.append((distance, li, di))
    matched: list[int | None] = [None] * len(labels)
    used: set[int] = set()
    for _, li, di in sorted(pairs):
        if matched[li] is None and di not in used:
            matched[li] = di
            used.add(di)
    return matched


def score_image(photo: Labelled, reading: Any, box_kind: str) -> Score:
    found = [(d.value, d.center, die_size(d)) for d in reading.dice]
    matched = match_dice(photo.dice, found, box_kind)
    score = Score(images=1, dice=len(photo.dice))
    for (value, _), di in zip(photo.dice, matched, strict=True):
        got = found[di][0] if di is not None else "missed"
        if got == value:
            score.dice_right += 1
        else:
            score.unreadable_labelled += got is None
            score.wrong.append(f"{photo.image.name}: {value} read as {got}")
    used = {di for di in matched if di is not None}
    extras = [i for i, d in enumerate(found) if i not in used and d[0] is not None]
    score.unlabelled_valued = len(extras)
    score.images_exact = int(score.dice_right == score.dice and not extras)
    return score


def die_size(die: Any) -> float:
    if die.quad is None:
        return 0.0
    quad = np.asarray(die.quad)
    return float(np.linalg.norm(quad[1] - quad[0]))


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


def median_ms(read: Callable[[np.ndarray], Any], frames: Iterable[np.ndarray]) -> float:
    frames = list(frames)
    for frame in frames[:3]:
        read(frame)  # warm-up: first calls load models and allocate buffers
    times = []
    for frame in frames:
        start = time.perf_counter()
        read(frame)
        times.append((time.perf_counter() - start) * 1000.0)
    return statistics.median(times) if times else float("nan")


# ---------------------------------------------------------------- the bench


def bench_set(reader: Any, photo_set: PhotoSet, limit: int | None) -> dict[str, Score]:
    import cv2

    scores = {"development": Score(), "held-out": Score()}
    photos = photo_set.photos[:limit] if limit else photo_set.photos
    for photo in photos:
        image = cv2.imread(str(photo.image))
        split = "held-out" if is_held_out(photo.image.name) else "development"
        scores[split].add(score_image(photo, reader.read(image), photo_set.box_kind))
    return scores


def bench_phantoms(reader: Any, sets: list[PhotoSet], limit: int | None) -> dict[str, int]:
    import cv2

    crops = dice = 0
    for photo_set in sets:
        photos = photo_set.photos[:limit] if limit else photo_set.photos
        for photo in photos[::4]:
            for crop in dice_free_crops(photo, cv2.imread(str(photo.image))):
                crops += 1
                dice += sum(1 for d in reader.read(crop).dice if d.value is not None)
    return {"empty_crops": crops, "phantom_dice": dice}


def rendered_figures(reader: Any, limit: int | None) -> dict[str, dict[str, Any]] | None:
    """Accuracy on rendered scenes, when the scene renderer (vision.render) exists."""
    try:
        from vision import render
    except ImportError:
        print("vision.render not present: rendered scenes skipped")
        return None
    return bench_rendered(render, reader, limit or 100)


def default_shared_dir() -> Path | None:
    """$TABLETOP_SHARED, or `shared/` beside the clone; None when neither has dice photos."""
    repo = Path(__file__).resolve().parents[2]
    for candidate in (os.environ.get("TABLETOP_SHARED"), repo.parent / "shared"):
        if candidate and (Path(candidate) / "dice-photos").is_dir():
            return Path(candidate)
    return None


def print_figures(title: str, figures: dict[str, Any]) -> None:
    text = ", ".join(f"{k} {v}" for k, v in figures.items())
    print(f"  {title}: {text}")


def run(args: argparse.Namespace) -> int:
    from vision.reader import DiceReader

    shared = args.shared or default_shared_dir()
    if args.shared is not None and not (args.shared / "dice-photos").is_dir():
        print(f"error: {args.shared} has no dice-photos folder")
        return 2
    if args.limit is not None and args.limit < 1:
        print(f"error: --limit must be at least 1, got {args.limit}")
        return 2
    reader = DiceReader(kind="d6")
    report: dict[str, Any] = {}
    if shared is None:
        print("shared/dice-photos not found (a user's clone has none): real photos skipped")
        sets: list[PhotoSet] = []
    else:
        sets = photo_sets(shared)
    for photo_set in sets:
        print(f"{photo_set.name} ({photo_set.box_kind} boxes):")
        scores = bench_set(reader, photo_set, args.limit)
        both = Score()
        for split, score in scores.items():
            both.add(score)
            report[f"{photo_set.name}/{split}"] = score.figures()
            print_figures(split, score.figures())
        report[f"{photo_set.name}/all"] = both.figures()
        print_figures("all", both.figures())
    if sets:
        report["phantoms"] = bench_phantoms(reader, sets, args.limit)
        print_figures("empty trays (dice-free crops of the photos)", report["phantoms"])
        frames = five_dice_frames(sets, 40)
        report["ms_per_frame"] = round(median_ms(reader.read, frames), 2)
        print(
            f"median ms per 640x480 frame with 5 dice ({len(frames)} frames): "
            f"{report['ms_per_frame']}"
        )
    rendered = rendered_figures(reader, args.limit)
    if rendered:
        report["rendered"] = rendered
        for name, figures in rendered.items():
            print_figures(f"rendered {name}", figures)
    if args.json:
        print(json.dumps(report, indent=1))
    return 0


def bench_rendered(render: Any, reader: Any, count: int) -> dict[str, dict[str, Any]]:
    """Rendered d6 scenes with known truth: per-die and per-image accuracy, empty-scene phantoms."""
    rng = np.random.default_rng(7)
    score = Score()
    phantoms = 0
    for seed in range(count):
        faces = [int(v) for v in rng.integers(1, 7, size=int(rng.integers(1, 8)))]
        scene = render.render_scene(faces, kind="d6", seed=seed)
        reading = reader.read(scene.frame)
        score.add(score_rendered(scene, reading))
        empty = render.render_scene([], kind="d6", seed=10_000 + seed)
        phantoms += sum(1 for d in reader.read(empty.frame).dice if d.value is not None)
    return {"d6": score.figures(), "empty": {"scenes": count, "phantom_dice": phantoms}}


def score_rendered(scene: Any, reading: Any) -> Score:
    """Match rendered truth (value and centre of each die) to the dice read, nearest first."""
    labels = []
    for truth in scene.dice:
        cx, cy = truth.center
        half = max(getattr(truth, "size", 20.0), 8.0) / 2.0
        box = (int(cx - half), int(cy - half), int(cx + half), int(cy + half))
        labels.append((truth.value, box))
    photo = Labelled(Path("rendered"), tuple(labels))
    return score_image(photo, reading, "whole die")
