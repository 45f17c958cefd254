"""Reads held-out poker dice as a user would, through the `tabletop` command only.

For each design family of vision.synth.heldout_poker and a few makers (seeds), it writes teaching
folders of 3 photos per face, once as close-ups and once as single dice on the table camera's
tray, runs `tabletop learn --kind poker` on each, then reads the same trays with each learned
profile (and with the shipped one) through `tabletop read --kind poker --json`, and prints per
family: dice right / wrong / unreadable / missing, readings where no die lies, and whether
`learn` refused. The reader is a black box here: nothing of it is imported.

    nice -n 10 .venv/bin/python research/heldout_poker_check.py --seeds 0 1 2 --trays 30
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.synth import heldout_poker as hp

REPO = Path(__file__).resolve().parents[1]
PHOTOS_PER_FACE = 3
Truth = list[tuple[str, tuple[int, int, int, int]]]


@dataclass
class Tally:
    right: int = 0
    wrong: int = 0
    unreadable: int = 0
    missing: int = 0
    extra: int = 0
    refused: list[str] = field(default_factory=list)
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.right += other.right
        self.wrong += other.wrong
        self.unreadable += other.unreadable
        self.missing += other.missing
        self.extra += other.extra
        self.refused += other.refused
        self.confusions.update(other.confusions)

    def row(self) -> str:
        dice = self.right + self.wrong + self.unreadable + self.missing
        share = f"{100 * self.right / dice:5.1f}%" if dice else "    -"
        refused = f"  learn refused: {', '.join(self.refused)}" if self.refused else ""
        return (
            f"{dice:5d} dice  right {self.right:4d} ({share})  wrong {self.wrong:3d}  "
            f"unreadable {self.unreadable:3d}  missing {self.missing:3d}  extra {self.extra:3d}"
            f"{refused}"
        )


def write_trays(maker: hp.Design, count: int, rng: np.random.Generator, folder: Path) -> dict:
    """`count` table-camera photos of 1-7 dice; the truth of each, by file name."""
    folder.mkdir(parents=True)
    truths: dict[str, Truth] = {}
    for index in range(count):
        faces = [str(face) for face in rng.choice(hp.FACES, int(rng.integers(1, 8)))]
        image, dice = hp.tray(maker, faces, rng)
        path = folder / f"tray-{index:03d}.png"
        cv2.imwrite(str(path), image)
        truths[str(path)] = dice
    return truths


def write_teaching(maker: hp.Design, mode: str, rng: np.random.Generator, folder: Path) -> None:
    """DIR/<face>/ photos: close-ups of 160-3000 px, or one die on the tray camera."""
    for face in hp.FACES:
        (folder / face).mkdir(parents=True)
        for index in range(PHOTOS_PER_FACE):
            if mode == "close-ups":
                size = int(np.exp(rng.uniform(np.log(160), np.log(3000))))
                photo = hp.close_up(maker, face, rng, size, float(rng.uniform(0.3, 0.95)))
                path = folder / face / f"{index}.jpg"
                cv2.imwrite(str(path), photo, [cv2.IMWRITE_JPEG_QUALITY, 92])
            else:
                photo, _ = hp.tray(maker, [face], rng)
                cv2.imwrite(str(folder / face / f"{index}.png"), photo)


def tabletop(*args: str) -> subprocess.CompletedProcess[str]:
    command = [str(REPO / ".venv" / "bin" / "tabletop"), *args]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def learn(teaching: Path, profile: Path) -> str | None:
    """None when learned, else the line `learn` refused with."""
    done = tabletop("learn", "--kind", "poker", "--out", str(profile), str(teaching))
    if done.returncode == 0:
        return None
    lines = (done.stderr or done.stdout).strip().splitlines()
    return lines[-1] if lines else f"exit status {done.returncode}"


def read_trays(truths: dict[str, Truth], profile: Path | None) -> Tally:
    chosen = ["--profile", str(profile)] if profile else []
    done = tabletop("read", "--kind", "poker", "--json", *chosen, *truths)
    tally = Tally()
    seen = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            reading = json.loads(line)
            seen[reading["image"]] = reading
    for image, truth in truths.items():
        reading = seen.get(image, {"dice": [], "unreadable": 0})
        tally.add(score(truth, reading["dice"], int(reading.get("unreadable", 0))))
    return tally


def score(truth: Truth, dice: list[dict], unreadable: int) -> Tally:
    """Each reading goes to the die whose box holds its centre (nearest first)."""
    tally = Tally()
    left = list(range(len(dice)))
    for face, (x, y, w, h) in truth:
        centre = np.array([x + w / 2, y + h / 2])
        inside = [
            i
            for i in left
            if x - 0.1 * w <= dice[i]["center"][0] <= x + 1.1 * w
            and y - 0.1 * h <= dice[i]["center"][1] <= y + 1.1 * h
        ]
        if not inside:
            tally.missing += 1
            continue
        best = min(inside, key=lambda i: float(np.linalg.norm(dice[i]["center"] - centre)))
        left.remove(best)
        if dice[best]["value"] == face:
            tally.right += 1
        else:
            tally.wrong += 1
            tally.confusions[(face, str(dice[best]["value"]))] += 1
    tally.unreadable = min(unreadable, tally.missing)
    tally.missing -= tally.unreadable
    tally.extra = len(left)
    return tally


def check_maker(family: str, seed: int, trays: int, work: Path) -> dict[str, Tally]:
    maker = hp.design(family, seed)
    rng = np.random.default_rng([seed, hp.FAMILIES.index(family), 2026])
    truths = write_trays(maker, trays, rng, work / "trays")
    results = {"shipped": read_trays(truths, None)}
    for mode in ("close-ups", "trays"):
        write_teaching(maker, mode, rng, work / mode)
        profile = work / f"{mode}.npz"
        refusal = learn(work / mode, profile)
        if refusal is None:
            results[mode] = read_trays(truths, profile)
        else:
            results[mode] = Tally(refused=[f"{family} {seed}: {refusal}"])
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--trays", type=int, default=30)
    parser.add_argument("--families", nargs="+", default=list(hp.FAMILIES))
    parser.add_argument("--keep", type=Path, help="write the photos and profiles here")
    arguments = parser.parse_args()
    started = time.monotonic()
    totals: dict[str, Tally] = {}
    with tempfile.TemporaryDirectory(prefix="heldout-poker-") as temporary:
        root = arguments.keep or Path(temporary)
        for family in arguments.families:
            by_mode: dict[str, Tally] = {}
            for seed in arguments.seeds:
                results = check_maker(family, seed, arguments.trays, root / f"{family}-{seed}")
                for mode, tally in results.items():
                    by_mode.setdefault(mode, Tally()).add(tally)
                    totals.setdefault(mode, Tally()).add(tally)
                    print(f"{family:14s} seed {seed:3d}  {mode:9s}  {tally.row()}", flush=True)
            for mode, tally in by_mode.items():
                print(f"{family:14s} all       {mode:9s}  {tally.row()}")
                worst = tally.confusions.most_common(4)
                common = ", ".join(f"{truth}->{read} x{n}" for (truth, read), n in worst)
                if common:
                    print(f"{'':14s}           {'':9s}  most wrong: {common}")
            print(flush=True)
    for mode, tally in totals.items():
        print(f"{'every family':14s} all       {mode:9s}  {tally.row()}")
    print(f"({time.monotonic() - started:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
