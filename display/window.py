"""The real display: full screen under KMSDRM on a Pi, a window on a desktop, dummy when headless.

Screens are drawn at the panel's logical size and rotated here in software (a Touch Display 2
mounted sideways, a 7" panel upside down); touches are mapped back through the same rotation.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pygame

from display.layout import layout_for
from display.model import Screen
from display.render import Renderer

ROTATIONS = (0, 90, 180, 270)
DRAG_PX = 16  # a finger lifted this far from where it went down made a drag
KEY_BUTTONS = {
    pygame.K_RETURN: "confirm",
    pygame.K_SPACE: "confirm",
    pygame.K_r: "reroll",
    pygame.K_u: "undo",
    pygame.K_BACKSPACE: "undo",
}

# Faces typed on the table screen settle the die marked ? (or the die touched): d6 1-6, poker
# dice 9, 0 (the 10), J, Q, K, A.
FACE_KEYS = {
    **{getattr(pygame, f"K_{n}"): str(n) for n in range(1, 7)},
    pygame.K_9: "9", pygame.K_0: "10", pygame.K_j: "J", pygame.K_q: "Q", pygame.K_k: "K",
    pygame.K_a: "A",
}  # fmt: skip


@dataclass(frozen=True)
class UserInput:
    kind: str  # tap, button, key (text typed), quit
    value: str = ""


def to_logical(
    position: tuple[float, float], size: tuple[int, int], rotation: int
) -> tuple[int, int]:
    """A point on the physical panel -> the same point on the logical (unrotated) screen.

    `rotation` is how far the logical screen is turned clockwise to show on the panel.
    """
    px, py = position
    width, height = size  # logical
    if rotation == 0:
        return int(px), int(py)
    if rotation == 90:
        return int(py), int(height - 1 - px)
    if rotation == 180:
        return int(width - 1 - px), int(height - 1 - py)
    if rotation == 270:
        return int(width - 1 - py), int(px)
    raise ValueError(f"rotation must be one of {ROTATIONS}, got {rotation}")


def physical_size(size: tuple[int, int], rotation: int) -> tuple[int, int]:
    return (size[1], size[0]) if rotation in (90, 270) else size


def choose_driver(kiosk: bool, environ: dict[str, str] | os._Environ[str] = os.environ) -> str:
    """The SDL video driver: as set, else x11/wayland on a desktop, kmsdrm on a bare Pi."""
    if environ.get("SDL_VIDEODRIVER"):
        return environ["SDL_VIDEODRIVER"]
    if environ.get("WAYLAND_DISPLAY") or environ.get("DISPLAY"):
        return ""  # let SDL pick the desktop's driver
    return "kmsdrm" if kiosk else "dummy"


class Window:
    """Opens the display and turns pygame input into taps on target ids and button presses."""

    def __init__(
        self,
        size: tuple[int, int] = (800, 480),
        rotation: int = 0,
        kiosk: bool = True,
        fullscreen: bool = True,
        force_fullscreen: bool = False,
    ) -> None:
        if rotation not in ROTATIONS:
            raise ValueError(f"rotation must be one of {ROTATIONS}, got {rotation}")
        layout_for(size)  # refuses unsupported sizes before any window opens
        self.size, self.rotation = tuple(size), rotation
        self.problem = ""
        self._down: tuple[int, int] | None = None  # where a drag on a point picture started
        self.screen_name, self.typing = "", False  # the screen shown: what keys mean
        self._scroll_from: tuple[int, int] | None = None  # where a drag on a list started
        self._pressed: tuple[tuple[int, int], str] | None = None  # a target the finger is on
        driver = choose_driver(kiosk)
        self.driver = self._init_video(driver)
        # full screen on the bare console (KMSDRM); a window on a desktop
        kiosk_screen = kiosk and fullscreen and self.driver == "kmsdrm"
        wanted = force_fullscreen and self.driver != "dummy"
        flags = pygame.FULLSCREEN if kiosk_screen or wanted else 0
        self.panel = pygame.display.set_mode(physical_size(self.size, rotation), flags)
        pygame.display.set_caption("tabletop")
        if kiosk and self.driver == "kmsdrm":
            pygame.mouse.set_visible(False)
        self.renderer = Renderer(self.size)

    def _init_video(self, driver: str) -> str:
        if driver:
            os.environ["SDL_VIDEODRIVER"] = driver
        try:
            pygame.display.init()
        except pygame.error as error:
            if driver == "dummy":
                raise
            self.problem = f"no display ({driver or 'desktop'}: {error}); running headless"
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            pygame.display.init()
        return pygame.display.get_driver()

    def show(self, screen: Screen) -> pygame.Surface:
        self.screen_name, self.typing = screen.name, bool(screen.keys)
        surface = self.renderer.draw(screen)
        if self.rotation:
            self.panel.blit(pygame.transform.rotate(surface, -self.rotation), (0, 0))
        else:
            self.panel.blit(surface, (0, 0))
        pygame.display.flip()
        return surface

    def poll(self) -> list[UserInput]:
        found: list[UserInput] = []
        for event in pygame.event.get():
            found.extend(self._translate(event))
        return found

    def _translate(self, event: pygame.event.Event) -> list[UserInput]:
        if event.type == pygame.QUIT:
            return [UserInput("quit")]
        if event.type == pygame.TEXTINPUT:
            return [UserInput("key", event.text)] if self.typing else []
        if event.type == pygame.KEYDOWN:
            return self._key(event.key)
        if event.type in (pygame.FINGERDOWN, pygame.FINGERUP):
            width, height = self.panel.get_size()
            position = (event.x * width, event.y * height)
            return self._tap(position) if event.type == pygame.FINGERDOWN else self._lift(position)
        if getattr(event, "touch", False):
            return []  # the same touch already came as a finger event
        if event.type == pygame.MOUSEBUTTONDOWN:
            return self._tap(event.pos)
        if event.type == pygame.MOUSEBUTTONUP:
            return self._lift(event.pos)
        return []

    def _key(self, key: int) -> list[UserInput]:
        """Into an open keyboard, keys type; on the table screen, they are shortcuts."""
        if key == pygame.K_ESCAPE:
            return [UserInput("quit")]
        if self.typing:
            typed = {pygame.K_BACKSPACE: "\b", pygame.K_RETURN: "\n", pygame.K_KP_ENTER: "\n"}
            return [UserInput("key", typed[key])] if key in typed else []
        if self.screen_name != "table":
            return []
        if key in FACE_KEYS:
            return [UserInput("tap", f"settle:{FACE_KEYS[key]}")]
        button = KEY_BUTTONS.get(key)
        return [UserInput("button", button)] if button else []

    def _tap(self, position: tuple[float, float]) -> list[UserInput]:
        """A finger down. On a picture that takes points, the point is taken now; a target is
        touched when the finger is lifted on it without moving (a swipe plays nothing)."""
        logical = to_logical(position, self.size, self.rotation)
        target = self.renderer.hit(logical)
        point = bool(target) and target == self.renderer.point_at(logical)
        self._down = logical if point else None
        self._scroll_from = logical if self.renderer.dragged(logical, logical) else None
        self._pressed = (logical, target) if target and not point else None
        return [UserInput("tap", target)] if point and target else []

    def _lift(self, position: tuple[float, float]) -> list[UserInput]:
        """The end of a drag: across a picture that takes points, its second point; up or down
        a scrolling list, the list moved."""
        logical = to_logical(position, self.size, self.rotation)
        down, self._down = self._down, None
        scroll_from, self._scroll_from = self._scroll_from, None
        pressed, self._pressed = self._pressed, None
        if pressed is not None and not moved(pressed[0], logical):
            return [UserInput("tap", pressed[1])]
        if scroll_from is not None and abs(logical[1] - scroll_from[1]) >= DRAG_PX:
            target = self.renderer.dragged(scroll_from, logical)
            return [UserInput("tap", target)] if target else []
        if down is None or not moved(down, logical):
            return []
        target = self.renderer.point_at(logical)
        return [UserInput("tap", target)] if target else []

    def close(self) -> None:
        pygame.display.quit()


def moved(start: tuple[int, int], end: tuple[int, int]) -> bool:
    """The finger went far enough between down and up to be a drag, not a touch."""
    return max(abs(end[0] - start[0]), abs(end[1] - start[1])) >= DRAG_PX
