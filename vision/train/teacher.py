"""A trained face net whose chances the new one learns beside the labels (distillation)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn

from vision.read._nets import face_model_name
from vision.train.nets import face_net
from vision.train.photos import Photo
from vision.train.warm_start import load_face_init

# The sets the shipped faces48.onnx was trained on: what a teacher net knows (--teacher).
TEACHER_SETS = "mixed-tray-train,white-webcam-train,rendered"


@dataclass
class Teacher:
    """A trained face net whose answers the new one learns beside the labels on the dice of the
    sets it knew (distillation), so that it keeps the sureness it had there. Only on dice: on
    "no die" crops the label stands (the teacher's doubts there, such as a laptop's keys at the
    edge of a webcam photo, are not taught)."""

    net: nn.Module
    sets: frozenset[str]
    weight: float  # of the teacher's chances in the target, the label's taking the rest


def with_teacher(
    targets: torch.Tensor, inputs: torch.Tensor, taught: torch.Tensor, teacher: Teacher
) -> torch.Tensor:
    """The targets of the taught rows blended with the teacher's chances on the same crops."""
    if not taught.any():
        return targets
    with torch.no_grad():
        chances = torch.softmax(teacher.net(inputs[taught]), 1)
    blended = targets.clone()
    blended[taught] = (1 - teacher.weight) * targets[taught] + teacher.weight * chances
    return blended


def load_teacher(
    folder: Path, sets: frozenset[str], weight: float, photos: list[Photo], size: int
) -> Teacher:
    net = face_net(size)
    load_face_init(net, folder / face_model_name(size), photos, [], size)
    return Teacher(net.eval(), sets, weight)
