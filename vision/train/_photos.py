"""Labelled real dice photos (shared/dice-photos) and their fixed development/held-out split.

Used by the training script and by `tabletop bench vision`; the product never needs them.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from pathlib import Path

HELD_OUT_PERCENT = 30
Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in pixels


@dataclass(frozen=True)
class Labelled:
    image: Path
    dice: tuple[tuple[int, Box], ...]  # (value, box)


@dataclass(frozen=True)
class PhotoSet:
    name: str
    box_kind: str  # "whole die", or "pips" when boxes surround only the top face's pips
    photos: tuple[Labelled, ...]


def is_held_out(image_name: str) -> bool:
    """A fixed 30% of the photos, chosen by a hash of the file name, never used for training."""
    return zlib.crc32(image_name.encode()) % 100 < HELD_OUT_PERCENT


def is_calibration(image_name: str) -> bool:
    """Half the held-out photos, chosen by another hash of the file name: the nets never trained
    on them, and `vision/calibrate.py` fits the reader's confidence on them; the other half is
    the held-out split the benches report, which chose nothing."""
    return is_held_out(image_name) and zlib.crc32(f"cal:{image_name}".encode()) % 2 == 0


def split_of(image_name: str) -> str:
    """Which split a photo is in: "development" (the nets trained on it), "calibration" (the
    confidence map was fitted on it) or "held-out" (used for nothing but measuring)."""
    if not is_held_out(image_name):
        return "development"
    return "calibration" if is_calibration(image_name) else "held-out"


def load_photo_set(folder: Path) -> PhotoSet:
    info = json.loads((folder / "info.json").read_text())
    photos = []
    for line in (folder / "labels.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        entry = json.loads(line)
        dice = tuple((int(d["value"]), tuple(int(v) for v in d["box"])) for d in entry["dice"])
        photos.append(Labelled(folder / entry["image"], dice))
    box_kind = "whole die" if info.get("box_kind", "").startswith("whole") else "pips"
    return PhotoSet(folder.name, box_kind, tuple(photos))


def photo_sets(shared: Path) -> list[PhotoSet]:
    """Every labelled set in shared/dice-photos, by folder name."""
    return [load_photo_set(folder) for folder in labelled_folders(shared)]


def labelled_folders(shared: Path) -> list[Path]:
    """The folders of shared/dice-photos that hold a labelled set, by name."""
    root = shared / "dice-photos"
    return [p for p in sorted(root.iterdir()) if (p / "labels.jsonl").is_file()]


# A pip box spans less of the face the fewer pips there are (a 1's box is the lone pip): the
# face side is about this many times the box side (measured on the webcam photos).
PIP_BOX_TO_FACE = {2: 1.9, 3: 1.8, 4: 1.45, 5: 1.5, 6: 1.3}


def face_estimates(photo: Labelled, box_kind: str) -> list[tuple[float, float, float]]:
    """(centre x, centre y, top-face side) per labelled die."""
    sides = []
    for value, (x0, y0, x1, y1) in photo.dice:
        side = ((x1 - x0) + (y1 - y0)) / 2.0
        if box_kind == "pips":
            side = side * PIP_BOX_TO_FACE[value] if value in PIP_BOX_TO_FACE else 0.0
        sides.append(side)
    known = [s for s in sides if s > 0]
    fallback = sorted(known)[len(known) // 2] if known else 60.0
    return [
        ((x0 + x1) / 2.0, (y0 + y1) / 2.0, side if side > 0 else fallback)
        for (_, (x0, y0, x1, y1)), side in zip(photo.dice, sides, strict=True)
    ]
