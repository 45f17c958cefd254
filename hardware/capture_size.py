"""The capture size at which the tray's dice come out big enough to read, among those a camera
gives with its whole field of view.

The reader needs a die's top face at least 40 px across (the camera ruling of issue 55). With the
field of view kept, the dice grow with the frame's width, so a die measured at one size is
known at every other. Only sizes of the frame's own shape are offered, so the tray's region
scales with them and the screen's layout is unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Size = tuple[int, int]
Roi = tuple[int, int, int, int]


@dataclass(frozen=True)
class CaptureChoice:
    """A capture size and the dice's side (px) expected at it."""

    size: Size
    die_px: float


def choose_capture_size(
    current: Size, die_px: float, offered: Sequence[Size], least: float
) -> CaptureChoice | None:
    """The smallest offered size at which dice measured `die_px` across at `current` come to
    at least `least`; the current size when they already do; None when no size is enough."""
    if die_px >= least:
        return CaptureChoice(current, die_px)
    for size in sorted(set(offered)):
        grown = die_px * size[0] / current[0]
        if size[0] > current[0] and same_shape(size, current) and grown >= least:
            return CaptureChoice(size, grown)
    return None


def same_shape(size: Size, other: Size) -> bool:
    """Whether two sizes have one aspect ratio (within the rounding to even pixels)."""
    return abs(size[0] * other[1] - size[1] * other[0]) <= 2 * max(size[0], other[0])


def sizes_of_shape(full_view_modes: Iterable[Size], shape: Size) -> list[Size]:
    """For each sensor mode that sees the whole field, the largest size of `shape`'s aspect
    ratio within it (even pixels, as the camera's output wants them), smallest first."""
    width, height = shape
    found = set()
    for mode_width, mode_height in full_view_modes:
        fit_width = min(mode_width, mode_height * width // height) // 2 * 2
        found.add((fit_width, (fit_width * height // width) // 2 * 2))
    return sorted(size for size in found if size[0] > 0 and size[1] > 0)


def scaled_roi(roi: Roi | None, current: Size, size: Size) -> Roi | None:
    """The tray's region at `size`, given it at `current` (same field of view and shape)."""
    if roi is None:
        return None
    scale = size[0] / current[0]
    x, y, w, h = (round(value * scale) for value in roi)
    return (x, y, min(w, size[0] - x), min(h, size[1] - y))
