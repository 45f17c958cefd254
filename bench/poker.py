"""`tabletop bench poker`: teach the reader a poker-dice design it never saw, then read trays of it.

For each kind of design real makers print (`vision.synth.poker_designs`: "pips" with 9 and 10 as
pips and coloured figures, "figures", "letters" of the playing-card kind) and each way of teaching
(3 photos per face taken in the tray, or close up as with a phone), a few random designs are
taught the way `tabletop learn` is (photos in DIR/<face>/, `learn_from_dir`), then trays of 1-7
dice of that design are read by the whole reader (finder, then the profile). Reported per kind
and way: the self-check, dice right, trays right (every die right and nothing else read),
unreadable share (dice reported unreadable or not found), wrong share, and the milliseconds per
640x480 tray on one core: wall clock (`Reading.ms`) and CPU time (steadier on a busy machine).
The same is then done on the held-out generator's designs (`bench.poker_heldout`),
reported apart as "heldout_generator" (`--no-heldout` skips it). Where `shared/dice-photos/`
holds a poker set (a folder named *poker* with `teach/<face>/`
photos and labelled tray photos, see its README), the same is reported on it.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from bench.poker_tally import (
    PHOTOS_PER_FACE,
    WAYS,
    Tally,
    Truth,
    merge,
    quantile,
    taught_reader,
)

DESIGNS, TRAYS = 2, 40  # per kind and way, and per design, by default


def add_parser(bench_subparsers: argparse._SubParsersAction) -> None:
    parser = bench_subparsers.add_parser(
        "poker", help="teach poker designs never seen from 3 photos per face, read their trays"
    )
    parser.add_argument(
        "--designs", type=int, default=DESIGNS, help=f"designs per kind (default {DESIGNS})"
    )
    parser.add_argument(
        "--trays", type=int, default=TRAYS, help=f"trays read per design (default {TRAYS})"
    )
    parser.add_argument(
        "--kinds", default="pips,figures,letters", help="design kinds, comma-separated"
    )
    parser.add_argument("--ways", default=",".join(WAYS), help="tray, close-up or both")
    parser.add_argument("--seed", type=int, default=0, help="first design's seed (default 0)")
    parser.add_argument("--shared", type=Path, default=None, help="the shared/ data folder")
    parser.add_argument(
        "--no-heldout",
        dest="heldout",
        action="store_false",
        help="skip the held-out generator's designs (vision.synth.heldout_poker)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from bench.poker_heldout import heldout_figures
    from vision.synth.poker_designs import DESIGN_KINDS

    cv2.setNumThreads(1)  # the targets are for one core
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    ways = [w.strip() for w in args.ways.split(",") if w.strip()]
    problem = _argument_problem(args, kinds, ways, DESIGN_KINDS)
    if problem:
        print(f"tabletop bench poker: {problem}")
        return 2
    report = design_figures(kinds, ways, args.designs, args.trays, args.seed, quiet=args.json)
    if args.heldout:
        report["heldout_generator"] = heldout_figures(
            ways, args.designs, args.trays, args.seed, quiet=args.json
        )
    report["real"] = bench_real_set(args.shared)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print_line("all", report["all"])
        if args.heldout:
            held = report["heldout_generator"]
            print(f"held-out generator: {held['right']:.2%} right, {held['wrong']:.2%} wrong")
        real = report["real"]
        print(real if isinstance(real, str) else f"real set: {json.dumps(real)}")
    return 0


def design_figures(
    kinds: list[str], ways: list[str], designs: int, trays: int, seed: int, quiet: bool = False
) -> dict[str, Any]:
    """Teach `designs` new designs of each kind each way and read `trays` trays of each: the
    figures per kind and way, and for them all ("all"); a line each printed unless `quiet`."""
    report: dict[str, Any] = {"kinds": {}}
    overall = Tally()
    for kind in kinds:
        report["kinds"][kind] = {}
        for way in ways:
            tally = Tally()
            for number in range(designs):
                bench_design(kind, way, seed + number, trays, tally)
            report["kinds"][kind][way] = tally.figures()
            merge(overall, tally)
            if not quiet:
                _print_line(f"{kind:8} taught {way:8}", tally.figures())
    report["all"] = overall.figures()
    return report


def _argument_problem(
    args: argparse.Namespace, kinds: list[str], ways: list[str], known: tuple[str, ...]
) -> str:
    unknown = [k for k in kinds if k not in known]
    if unknown or not kinds:
        return f"--kinds takes some of {', '.join(known)}"
    if not ways or any(w not in WAYS for w in ways):
        return f"--ways takes some of {', '.join(WAYS)}"
    if args.designs < 1 or args.trays < 1:
        return "--designs and --trays need N >= 1"
    return ""


def _print_line(title: str, figures: dict[str, Any]) -> str:
    line = (
        f"{title}: self-check {figures['self_check']:.0%}, dice right {figures['dice_right']:.1%}"
        f" of {figures['dice']}, trays right {figures['trays_right']:.1%} of {figures['trays']},"
        f" unreadable {figures['unreadable']:.1%}, wrong {figures['wrong']:.1%};"
        f" {figures['median_ms']} ms median, {figures['p95_ms']} ms p95"
        f" (CPU {figures['cpu_median_ms']} / {figures['cpu_p95_ms']} ms)"
    )
    print(line)
    return line


def bench_design(kind: str, way: str, seed: int, trays: int, tally: Tally) -> None:
    """Teach one random design of `kind` from photos taken `way`, then read `trays` trays of it."""
    from vision.synth.poker_designs import PokerDesign

    design = PokerDesign.random(np.random.default_rng([seed, 1]), kind)
    reader = taught_reader(
        lambda folder: write_teaching_photos(folder, design, way, seed),
        tally,
        f"{kind} {way} design {seed}",
    )
    for tray in range(trays):
        read_tray(reader, design, seed, tray, tally)


def _style(rng: np.random.Generator, design: Any) -> Any:
    """A random tray's look (light, surface, blur, camera) for dice of the design: the dice
    themselves keep the set's one body (`set_body`) in every photo and tray."""
    from vision.synth.render import SceneStyle

    colour, finish = set_body(design)
    return replace(
        SceneStyle.random(rng, "poker"), poker_design=design, die_colors=(colour,), finish=finish
    )


def set_body(design: Any) -> tuple[str, str]:
    """The body colour and finish of a maker's dice of this design: one for the whole set, as
    a real set is (until 2026-11-26 each photo and tray drew its own, so a set was taught on
    white dice and read on marbled ivory ones). Drawn as `SceneStyle.random` draws them."""
    from vision.synth.render import FINISH_DRAWS, LIGHT_DIE_COLORS

    rng = np.random.default_rng([design.seed, 4])
    return str(rng.choice(LIGHT_DIE_COLORS)), str(rng.choice(FINISH_DRAWS))


def write_teaching_photos(folder: Path, design: Any, way: str, seed: int) -> None:
    """folder/<face>/ with PHOTOS_PER_FACE photos of one die of the design showing that face:
    in the tray (varied light, surfaces, props) or close up (a phone's photo, side faces
    showing)."""
    import cv2

    for photo in teaching_photos(design, way, seed):
        if photo.index == 0:
            (folder / photo.face).mkdir()
        cv2.imwrite(str(folder / photo.face / f"{photo.index}.png"), photo.render().frame)


@dataclass(frozen=True)
class TeachingPhoto:
    """One teaching photo as drawn (rendered only when asked, by `render`)."""

    face: str
    index: int
    way: str
    seed: int
    style: Any
    fill: float

    def render(self) -> Any:
        from vision.synth.render import render_close_up, render_scene

        if self.way == "close-up":
            return render_close_up(self.face, seed=self.seed, style=self.style, fill=self.fill)
        return render_scene([self.face], kind="poker", seed=self.seed, style=self.style)


def teaching_photos(design: Any, way: str, seed: int) -> list[TeachingPhoto]:
    """The teaching photos of design `seed`, face by face, in the order their random numbers
    are drawn (a test may render one of them alone)."""
    from vision.read.types import POKER_FACES

    rng = np.random.default_rng([seed, 2])
    photos = []
    for number, face in enumerate(POKER_FACES):
        for index in range(PHOTOS_PER_FACE):
            style = _style(rng, design)
            fill = float(rng.uniform(0.3, 0.6)) if way == "close-up" else 0.0
            scene_seed = 70_000 + 1000 * seed + 10 * number + index
            photos.append(TeachingPhoto(face, index, way, scene_seed, style, fill))
    return photos


def tray_scene(design: Any, seed: int, tray: int) -> Any:
    """Tray `tray` of design `seed`: 1-7 dice of the design, rendered."""
    return _tray_drawn(design, seed, tray)[0]


def _tray_drawn(design: Any, seed: int, tray: int) -> tuple[Any, Any]:
    """Tray `tray` of design `seed` rendered, and the style it was rendered in."""
    from vision.read.types import POKER_FACES
    from vision.synth.render import render_scene

    rng = np.random.default_rng([seed, 3, tray])
    faces = [POKER_FACES[i] for i in rng.integers(0, 6, int(rng.integers(1, 8)))]
    style = _style(rng, design)
    scene = render_scene(faces, kind="poker", seed=90_000 + 1000 * seed + tray, style=style)
    return scene, style


def read_tray(reader: Any, design: Any, seed: int, tray: int, tally: Tally) -> None:
    """Render one tray of 1-7 dice of the design, read it, and count."""
    scene, style = _tray_drawn(design, seed, tray)
    truths = [
        Truth(d.value, d.center, float(np.linalg.norm(d.quad[0] - d.quad[1])), style.blur)
        for d in scene.dice
    ]
    if reader is None:
        tally.count_unread(truths)
        return
    started = time.process_time()
    reading = reader.read(scene.frame)
    tally.count(reading, truths, (time.process_time() - started) * 1000)


def bench_real_set(shared: Path | None) -> dict[str, Any] | str:
    """The same on a real poker set in shared/dice-photos, when there is one: taught from its
    teach/<face>/ photos, read on its labelled photos."""
    from bench.shared_data import default_shared_dir

    shared = shared or default_shared_dir()
    photos = shared / "dice-photos" if shared else None
    sets = sorted(p for p in photos.iterdir() if "poker" in p.name.lower()) if photos else []
    sets = [p for p in sets if (p / "teach").is_dir() and (p / "labels.jsonl").is_file()]
    if not sets:
        return "real poker photos: no poker set in shared/dice-photos (skipped)"
    return read_real_set(sets[0])


def read_real_set(folder: Path) -> dict[str, Any]:
    from bench.scoring import Score, score_image
    from vision.profiles.profile_learning import learn_from_dir
    from vision.read.imagefile import load_image
    from vision.reader import DiceReader
    from vision.train._photos import Labelled

    profile = learn_from_dir(folder / "teach", "poker")
    reader = DiceReader("poker", profile=profile)
    score, times = Score(), []
    for line in (folder / "labels.jsonl").read_text().splitlines():
        entry = json.loads(line)
        labels = tuple((d["value"], tuple(d["box"])) for d in entry["dice"] if d.get("box"))
        reading = reader.read(load_image(folder / entry["image"]))
        times.append(reading.ms)
        score.add(score_image(Labelled(folder / entry["image"], labels), reading, "whole die"))
    return {"set": folder.name, "self_check": round(profile.self_check(), 3), **score.figures(),
            "median_ms": quantile(times, 0.5), "p95_ms": quantile(times, 0.95)}  # fmt: skip
