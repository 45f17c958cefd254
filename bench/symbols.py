"""Dice that print a maker's symbol instead of the 1 or the 6: found, and called unreadable.

Rendered d6 trays where one face of the set is a symbol (vision.synth._draw_logos) and about half
the dice show it. A symbol die is right when it is found and read as unreadable (the player sets it
with a touch); wrong when read as a value; missing when the reader does not report it at all.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

NEAR = 0.5  # of a face's side: how close a die read must be to a symbol die to be it


def symbol_scenes(count: int, seed: int = 23) -> list[Any]:
    """`count` rendered trays of varied styles, each set with a symbol on its 1 or its 6."""
    from vision.synth._draw_logos import LOGO_DESIGNS
    from vision.synth.render import SceneStyle, render_scene

    rng = np.random.default_rng(seed)
    scenes = []
    for number in range(count):
        symbol_face = int(rng.choice([1, 6]))
        style = replace(
            SceneStyle.random(rng, "d6"),
            logo_faces=(symbol_face,),
            logo=LOGO_DESIGNS[number % len(LOGO_DESIGNS)],
        )
        faces = [
            symbol_face if rng.random() < 0.5 else int(value)
            for value in rng.integers(1, 7, int(rng.integers(1, 8)))
        ]
        scenes.append(render_scene(faces, seed=seed * 1000 + number, style=style))
    return scenes


def symbol_figures(reader: Any, count: int) -> dict[str, Any]:
    """How the reader takes symbol dice, and the other dice of the same trays."""
    tally = {"symbol_dice": 0, "unreadable": 0, "right": 0, "wrong": 0, "missing": 0}
    other, other_right = 0, 0
    for scene in symbol_scenes(count):
        reading = reader.read(scene.frame)
        for truth in scene.dice:
            die = nearest_die(reading.dice, truth)
            if truth.symbol:
                tally["symbol_dice"] += 1
                tally[symbol_outcome(die, truth.value)] += 1
            else:
                other += 1
                other_right += die is not None and die.value == truth.value
    return {
        "trays": count,
        **tally,
        "symbol_unreadable_share": round(tally["unreadable"] / max(tally["symbol_dice"], 1), 4),
        "other_dice": other,
        "other_die_accuracy": round(other_right / max(other, 1), 4),
    }


def symbol_outcome(die: Any, face: int) -> str:
    """What became of a symbol die: "right" when read as the face its symbol stands for."""
    if die is None:
        return "missing"
    if die.value is None:
        return "unreadable"
    return "right" if die.value == face else "wrong"


def nearest_die(dice: Any, truth: Any) -> Any:
    side = float(np.linalg.norm(truth.quad[1] - truth.quad[0]))

    def distance(die: Any) -> float:
        return float(np.hypot(*(np.array(die.center) - np.array(truth.center))))

    close = [die for die in dice if distance(die) < NEAR * side]
    return min(close, key=distance, default=None)
