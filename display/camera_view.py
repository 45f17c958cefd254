"""The live camera view: the frame scaled into its box, each die outlined with what was read
(touchable to correct it), dice entered by hand as a row of buttons, the tray region's marks.

A mixin of `display.render.Renderer`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
import pygame

from display import palette
from display.i18n import text
from display.layout import Box, grid
from display.model import DieMark, Screen, Target

if TYPE_CHECKING:
    from display.layout import Layout


class CameraView:
    """Drawing the camera view (mixed into the Renderer)."""

    layout: Layout
    surface: pygame.Surface
    camera_shown: bool

    def _camera(self, screen: Screen, box: Box) -> None:
        self.camera_shown = True
        self.panel(box, palette.BLACK)
        image = screen.camera
        if image is None:
            note = screen.camera_note or text(screen.language, "camera_waiting")
            self.label(note, box, align="center", colour=palette.TEXT_DIM)
            self._dice_without_frame([replace(d, center=None) for d in screen.dice], box)
            return
        surface, scale, offset = self._camera_image(image, box)
        self.surface.blit(surface, offset)
        if screen.point_target:
            self.point_areas.append((pygame.Rect(offset, surface.get_size()),
                                     screen.point_target, scale))  # fmt: skip
            self._tray_marks(screen, scale, offset)
        placed = [die for die in screen.dice if die.center is not None]
        bodies = [self._die_outline(die, scale, offset) for die in placed]
        taken = [body for body, _ in bodies]
        for die, (body, half) in zip(placed, bodies, strict=True):
            tag = _free_tag_spot(die, body, half, taken, pygame.Rect(box))
            taken.append(tag)
            self._die_tag(die, body, half, tag)
        self._dice_without_frame([d for d in screen.dice if d.center is None], box)

    def _camera_image(self, image: np.ndarray, box: Box) -> tuple[pygame.Surface, float, tuple]:
        x, y, w, h = box
        height, width = image.shape[:2]
        scale = min(w / width, h / height)
        size = (int(width * scale), int(height * scale))
        offset = (x + (w - size[0]) // 2, y + (h - size[1]) // 2)
        key = (id(image), image.shape, size)
        if key != self._camera_key or self._camera_surface is None:
            rgb = np.ascontiguousarray(image[:, :, ::-1])
            raw = pygame.image.frombuffer(rgb.tobytes(), (width, height), "RGB")
            self._camera_surface = pygame.transform.scale(raw, size)
            self._camera_key = key
            self._camera_keepalive = image  # ids are only unique while the image lives
        return self._camera_surface, scale, offset

    def _camera_picture(self, image: np.ndarray, box: Box) -> None:
        """A still picture (a BGR crop) scaled into `box` on black, outside the live view."""
        x, y, w, h = box
        self.panel(box, palette.BLACK)
        height, width = image.shape[:2]
        scale = min(w / width, h / height)
        size = (max(1, int(width * scale)), max(1, int(height * scale)))
        rgb = np.ascontiguousarray(image[:, :, ::-1])
        raw = pygame.image.frombuffer(rgb.tobytes(), (width, height), "RGB")
        self.surface.blit(pygame.transform.scale(raw, size),
                          (x + (w - size[0]) // 2, y + (h - size[1]) // 2))  # fmt: skip

    def _die_outline(
        self, die: DieMark, scale: float, offset: tuple[int, int]
    ) -> tuple[pygame.Rect, float]:
        """The die's outline (and unsure ring) drawn; its body on screen and half its size."""
        colour = _die_colour(die)
        cx, cy = offset[0] + die.center[0] * scale, offset[1] + die.center[1] * scale
        if die.quad:
            points = [(offset[0] + px * scale, offset[1] + py * scale) for px, py in die.quad]
            pygame.draw.polygon(self.surface, colour, points, 3)
            half = max(abs(px - cx) for px, _ in points) + 6
        else:
            half = 22
            pygame.draw.circle(self.surface, colour, (int(cx), int(cy)), 22, 3)
        if die.unsure:  # a ring around the die, not only its outline: seen at a glance
            pygame.draw.circle(self.surface, colour, (int(cx), int(cy)), int(half * 1.3), 4)
        body = pygame.Rect(0, 0, int(2 * half), int(2 * half))
        body.center = (int(cx), int(cy))
        return body, half

    def _die_tag(self, die: DieMark, body: pygame.Rect, half: float, tag: pygame.Rect) -> None:
        """The value read, on its tag; the die and its tag touchable."""
        pygame.draw.rect(self.surface, _die_colour(die), tag, border_radius=6)
        self.label(_die_text(die), tag, 26, palette.BLACK, "center")
        touch = pygame.Rect(0, 0, max(48, int(2 * half)), max(48, int(2 * half)))
        touch.center = body.center
        self.hits.append((touch.union(tag), die.target_id))

    def _tray_marks(self, screen: Screen, scale: float, offset: tuple[int, int]) -> None:
        """The tray region (chosen or current) and the corners touched so far."""

        def place(x: float, y: float) -> tuple[int, int]:
            return (int(offset[0] + x * scale), int(offset[1] + y * scale))

        if screen.tray is not None:
            x, y, w, h = screen.tray
            left, top = place(x, y)
            right, bottom = place(x + w, y + h)
            rect = pygame.Rect(left, top, right - left, bottom - top)
            pygame.draw.rect(self.surface, palette.BLACK, rect, 6)
            pygame.draw.rect(self.surface, palette.YELLOW, rect, 3)
        for point in screen.tray_points:
            pygame.draw.circle(self.surface, palette.BLACK, place(*point), 12)
            pygame.draw.circle(self.surface, palette.YELLOW, place(*point), 9)

    def _dice_without_frame(self, dice: list[DieMark], box: Box) -> None:
        """Dice with no place in the frame (entered by hand, or no frame): a row of buttons."""
        if not dice:
            return
        cells = grid(
            (box[0] + 8, box[1] + box[3] - 70, box[2] - 16, 60), len(dice), max(1, len(dice))
        )
        for die, cell in zip(dice, cells, strict=True):
            style = "selected" if die.selected else ("primary" if die.corrected else "normal")
            self.button(Target(die.target_id, _die_text(die), style), cell)


def _free_tag_spot(
    die: DieMark, body: pygame.Rect, half: float, taken: list[pygame.Rect], area: pygame.Rect
) -> pygame.Rect:
    """Where the die's value goes: above it, else below, left or right, whichever covers no
    other tag and no die (the least covered when every side is)."""
    cx, cy, reach = body.centerx, body.centery, int(half)
    spots = []
    for side in ("midbottom", "midtop", "midright", "midleft"):
        tag = pygame.Rect(0, 0, 58 if die.unsure else 40, 30)
        setattr(
            tag,
            side,
            {
                "midbottom": (cx, cy - reach),
                "midtop": (cx, cy + reach),
                "midright": (cx - reach, cy),
                "midleft": (cx + reach, cy),
            }[side],
        )
        spots.append(tag.clamp(area))

    def covered(tag: pygame.Rect) -> int:
        return sum(tag.clip(rect).w * tag.clip(rect).h for rect in taken)

    return min(spots, key=covered)  # the first free spot: min keeps the first of equals


def _die_colour(die: DieMark) -> palette.Colour:
    if die.selected:
        return palette.DIE_SELECTED
    if die.label == "?":
        return palette.DIE_UNREAD
    if die.unsure:
        return palette.DIE_UNSURE
    if die.corrected:
        return palette.DIE_CORRECTED
    return palette.DIE_OK


def _die_text(die: DieMark) -> str:
    """The face read; an unsure die's best guess with a "?" beside it."""
    return f"{die.label}?" if die.unsure else die.label
