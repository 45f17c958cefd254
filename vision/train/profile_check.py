"""Face profiles learned from, and checked on, the project's own rendered dice.

profile = learn_rendered("poker", per_face=3)
check = check_rendered(profile, dice=300, whole_trays=True)   # right / refused / wrong
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from vision.profiles.ink_maps import CROP
from vision.profiles.profile import FaceProfile
from vision.read.types import Face, faces_of


def learn_rendered(kind: str, per_face: int = 3, seed: int = 0) -> FaceProfile:
    """A profile learned from the project's own rendered dice: `per_face` renders of each face,
    in varied light, surfaces and sizes, cut out along their true top-face corners."""
    from vision.synth.render import SceneStyle, rectify_truth, render_scene

    rng = np.random.default_rng(seed)
    examples: dict[Face, list[np.ndarray]] = {}
    for number, face in enumerate(faces_of(kind) * per_face):
        style = SceneStyle.random(rng, kind)
        scene = render_scene([face], kind=kind, seed=1_000_000 + seed * 1000 + number, style=style)
        examples.setdefault(face, []).append(rectify_truth(scene.frame, scene.dice[0], CROP))
    return FaceProfile(kind, examples)


@dataclass(frozen=True)
class RenderedCheck:
    """How a profile reads new rendered dice: right, refused (unreadable) and wrong."""

    dice: int
    correct: int
    refused: int

    @property
    def accuracy(self) -> float:
        return self.correct / self.dice if self.dice else float("nan")

    @property
    def wrong(self) -> int:
        return self.dice - self.correct - self.refused


def check_rendered(
    profile: FaceProfile,
    dice: int = 300,
    seed: int = 50_000,
    quad_error: float = 0.0,
    whole_trays: bool = False,
) -> RenderedCheck:
    """Read `dice` new rendered dice of the profile's kind (varied styles, five to a tray) and
    count the right answers, refusals and wrong answers.

    Each face is cut out along its true outline; with `quad_error` > 0 along a spoilt one, as a
    finder might give: moved by that fraction of the side, rescaled by that fraction and turned by
    40 times it in degrees (standard deviations). With `whole_trays` the whole reader
    (`vision.reader.DiceReader`: its finder, then this profile) reads each tray instead, and a die
    it does not report counts as refused."""
    from vision.synth.render import SceneStyle, render_scene

    rng = np.random.default_rng(seed)
    spoil = np.random.default_rng([seed, 1])
    read = _reader_answers(profile) if whole_trays else _crop_answers(profile, quad_error, spoil)
    faces = profile.faces
    correct = refused = seen = 0
    tray = 0
    while seen < dice:
        chosen = [faces[i] for i in rng.integers(0, len(faces), min(5, dice - seen))]
        style = SceneStyle.random(rng, profile.kind)
        scene = render_scene(chosen, kind=profile.kind, seed=seed + tray, style=style)
        tray += 1
        for die, value in zip(scene.dice, read(scene), strict=True):
            correct += value == die.value
            refused += value is None
            seen += 1
    return RenderedCheck(seen, correct, refused)


def _crop_answers(
    profile: FaceProfile, quad_error: float, spoil: np.random.Generator
) -> Callable[..., list[Face | None]]:
    from vision.synth.render import rectify_truth

    def read(scene) -> list[Face | None]:
        answers = []
        for die in scene.dice:
            spoilt = replace(die, quad=_spoilt(die.quad, quad_error, spoil))
            answers.append(profile.classify(rectify_truth(scene.frame, spoilt, CROP))[0])
        return answers

    return read


def _reader_answers(profile: FaceProfile) -> Callable[..., list[Face | None]]:
    from vision.reader import DiceReader

    reader = DiceReader(profile.kind, profile=profile)

    def read(scene) -> list[Face | None]:
        reported = reader.read(scene.frame).dice
        answers: list[Face | None] = []
        for die in scene.dice:
            side = float(np.linalg.norm(die.quad[0] - die.quad[1]))
            near = [d for d in reported if np.hypot(*np.subtract(d.center, die.center)) < side / 2]
            answers.append(near[0].value if near else None)
        return answers

    return read


def _spoilt(quad: np.ndarray, error: float, rng: np.random.Generator) -> np.ndarray:
    if error <= 0:
        return quad
    centre = quad.mean(axis=0)
    side = float(np.linalg.norm(quad[0] - quad[1]))
    turn = np.radians(rng.normal(0, error * 40))
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    scale = 1 + rng.normal(0, error)
    shift = rng.normal(0, error * side, 2)
    return ((quad - centre) @ rotation.T * scale + centre + shift).astype(np.float32)
