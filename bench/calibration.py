"""The fit of the reader's confidence map (`tabletop bench vision --fit-confidence`, written to
vision/models/confidence.json): per check group (vision/read/confidence.py), the share of dice read
right at each score.

The fit reads only the calibration half of the held-out photos
(`vision.train._photos.is_calibration`): the nets never trained on them, and the held-out half
the bench reports chose nothing. Each set is also held out whole in turn (`kinds_held_out`): a
map fitted on the other sets' photos judges its dice, as the shipped map judges a table of a kind
no photo set shows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from bench.scoring import match_dice
from vision.train._photos import PhotoSet, is_calibration

# Each step of a fitted map counts this many wrong dice more than it saw: a step of 300 dice
# all right gives 300 / 302 = 0.993, over the sure line; one of 100 gives 0.98, under it. The
# map then claims the line only where the calibration photos show it with room to spare.
UNSEEN_WRONG = 2.0


def pooled(scores: Sequence[float], rights: Sequence[float], weights: Sequence[float]) -> list:
    """Pool adjacent violators: blocks [first score, rate, weight] whose rates rise with score
    (the input sorted by score)."""
    blocks: list[list[float]] = []
    for score, right, weight in zip(scores, rights, weights, strict=True):
        blocks.append([score, right, weight])
        while len(blocks) > 1 and blocks[-2][1] >= blocks[-1][1]:
            last = blocks.pop()
            total = blocks[-1][2] + last[2]
            blocks[-1][1] = (blocks[-1][1] * blocks[-1][2] + last[1] * last[2]) / total
            blocks[-1][2] = total
    return blocks


def fit_step_map(samples: Iterable[tuple[float, bool]]) -> dict[str, list[float]]:
    """The non-decreasing map from score to the share right (isotonic), each step counted with
    UNSEEN_WRONG wrong dice more, then made non-decreasing again."""
    ordered = sorted(samples)
    if not ordered:
        return {"scores": [0.0], "chances": [0.0]}
    blocks = pooled([s for s, _ in ordered], [float(r) for _, r in ordered], [1.0] * len(ordered))
    shrunk = [(start, rate * n / (n + UNSEEN_WRONG), n) for start, rate, n in blocks]
    again = pooled([s for s, _, _ in shrunk], [r for _, r, _ in shrunk], [n for _, _, n in shrunk])
    scores = [0.0] + [round(start, 6) for start, _, _ in again[1:]]
    return {"scores": scores, "chances": [round(rate, 4) for _, rate, _ in again]}


Sample = tuple[float, bool]  # (score, read right) of one labelled die read with a value
Samples = dict[str, list[Sample]]  # by check group


def calibration_samples(sets: list[PhotoSet]) -> dict[str, Samples]:
    """Per photo set, (score, read right) per check group for each labelled die read with a
    value on its calibration photos, read by the shipped reader before its check."""
    import cv2

    from vision.read.confidence import GROUPS, checks
    from vision.reader import DiceReader

    reader = DiceReader()
    by_set: dict[str, Samples] = {}
    for photo_set in sets:
        samples: Samples = {group: [] for group in GROUPS}
        for photo in photo_set.photos:
            if not is_calibration(photo.image.name):
                continue
            frame = cv2.imread(str(photo.image))
            dice = reader.dice_in(frame)
            found = [(d.value, d.center, d.side) for d in dice]
            matched = match_dice(photo.dice, found, photo_set.box_kind)
            found_checks = checks(frame, dice)
            for (value, _), index in zip(photo.dice, matched, strict=True):
                check = None if index is None else found_checks[index]
                if check is not None:
                    samples[check.group].append((check.score, dice[index].value == value))
        by_set[photo_set.name] = samples
    return by_set


def pooled_sets(by_set: dict[str, Samples], leaving_out: str = "") -> Samples:
    """The samples of every set but `leaving_out`, per check group."""
    pooled: Samples = {}
    for name, samples in by_set.items():
        if name != leaving_out:
            for group, group_samples in samples.items():
                pooled.setdefault(group, []).extend(group_samples)
    return pooled


def fit_maps(samples: Samples) -> dict[str, dict[str, list[float]]]:
    return {group: fit_step_map(group_samples) for group, group_samples in samples.items()}


def kinds_held_out(by_set: dict[str, Samples]) -> dict[str, dict[str, int]]:
    """Per photo set, its calibration dice judged by a map fitted on the other sets alone, as a
    kind of table no threshold saw: dice given a value, how many of them sure and right, sure
    and wrong (a map that holds on every kind left out gives 0 sure and wrong)."""
    from vision.read.confidence import SURE_LINE, StepMap

    figures = {}
    for name, samples in by_set.items():
        fitted = fit_maps(pooled_sets(by_set, leaving_out=name))
        maps = {g: StepMap(tuple(f["scores"]), tuple(f["chances"])) for g, f in fitted.items()}
        sure = [
            right
            for group, group_samples in samples.items()
            for score, right in group_samples
            if group in maps and maps[group](score) >= SURE_LINE
        ]
        figures[name] = {
            "dice": sum(len(group_samples) for group_samples in samples.values()),
            "sure_right": sum(sure),
            "sure_wrong": len(sure) - sum(sure),
        }
    return figures


def fit_confidence(sets: list[PhotoSet], out: Path) -> dict[str, Any]:
    """Fit the map on the calibration photos and write it; the samples' counts per group, and
    per set what a map fitted without it makes sure (`kinds_held_out`)."""
    by_set = calibration_samples(sets)
    samples = pooled_sets(by_set)
    fitted: dict[str, Any] = fit_maps(samples)
    fitted["fitted_on"] = {
        group: {"dice": len(s), "right": sum(r for _, r in s)} for group, s in samples.items()
    }
    out.write_text(json.dumps(fitted, indent=1) + "\n")
    return {"fitted_on": fitted["fitted_on"], "kinds_held_out": kinds_held_out(by_set)}
