"""The capture size that reads the tray's dice: measured when the tray is chosen, raised when
its dice are under the camera ruling's least size (a top face 40 px across), said otherwise."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engines.messages import Message, msg
from hardware.capture_size import CaptureChoice, Roi, Size, choose_capture_size


@dataclass(frozen=True)
class CaptureFit:
    """The dice's side measured at the current size, and the size chosen (None: none will do)."""

    die_px: float
    current: Size
    choice: CaptureChoice | None

    @property
    def raise_to(self) -> Size | None:
        """The larger size to capture at, or None when the current one stays."""
        if self.choice is None or self.choice.size == self.current:
            return None
        return self.choice.size

    def said(self) -> Message | str:
        """What the settings screen says of it ('' when the dice are big enough already)."""
        from vision.read.ruling import LEAST_SIDE

        px = round(self.die_px)
        if self.choice is None:
            return msg("diag.dice_too_small", px=px, least=round(LEAST_SIDE))
        if self.raise_to is None:
            return ""
        width, height = self.raise_to
        return msg("diag.capture_raised", px=px, size=f"{width}x{height}",
                   grown=round(self.choice.die_px))  # fmt: skip


def fit_capture(image_bgr: np.ndarray, roi: Roi | None, offered: list[Size]) -> CaptureFit | None:
    """The fit for the dice in the tray on this frame; None when the tray holds no die."""
    from vision.read.ruling import LEAST_SIDE, tray_dice_sides

    sides = tray_dice_sides(image_bgr, roi)
    if not sides:
        return None
    current = (int(image_bgr.shape[1]), int(image_bgr.shape[0]))
    die_px = float(np.median(sides))
    return CaptureFit(die_px, current, choose_capture_size(current, die_px, offered, LEAST_SIDE))
