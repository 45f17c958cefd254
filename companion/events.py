"""What the app loop feeds the controller: touches, button presses and camera images."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Tap:
    target: str


@dataclass(frozen=True)
class Press:
    button: str  # confirm, reroll, undo


@dataclass(frozen=True)
class Settled:
    """A camera reading taken once the dice stopped moving."""

    reading: Any  # vision.read.types.Reading
    image: np.ndarray | None = None


@dataclass(frozen=True)
class CameraImage:
    image: np.ndarray


Event = Tap | Press | Settled | CameraImage
