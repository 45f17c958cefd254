"""The two arcade buttons (confirm, reroll) as app events: "confirm", "reroll", "undo".

A short press fires on release; a long press on confirm fires its long action ("undo") while
still held and then nothing on release, so it never also confirms. Contacts bounce: only a level
that stayed put for `bounce_s` counts (checked by a settle timer, or at the next edge when the
timer ran late), so a bouncing press is one event (gpiozero's own bounce_time is passed too,
but the mock pins and some factories ignore it).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from hardware.gpio import build_or_reason

log = logging.getLogger(__name__)

EVENTS = ("confirm", "reroll", "undo")
EventSink = Callable[[str], None]


class DebouncedButton:
    """One gpiozero Button turned into debounced short/long press events."""

    def __init__(
        self,
        device: Any,
        bounce_s: float,
        short_event: str,
        long_event: str | None,
        emit: EventSink,
    ) -> None:
        self.device = device
        self.bounce_s = bounce_s
        self.short_event = short_event
        self.long_event = long_event
        self._emit = emit
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._pending: bool | None = None  # the level after the last edge, not yet settled
        self._pending_since = 0.0
        self._timers_started = 0  # a timer acts only if no newer edge started another
        self._down = False
        self._long_fired = False
        device.when_pressed = self._edge
        device.when_released = self._edge
        if long_event is not None:
            device.when_held = self._held

    def _edge(self) -> None:
        now = time.monotonic()
        level = bool(self.device.is_pressed)
        with self._lock:
            # The previous level held still for bounce_s even if its timer has not run yet (a
            # busy machine): it counts before this edge starts a new settle period.
            held_still = self._pending is not None and now - self._pending_since >= self.bounce_s
            event = self._apply(self._pending) if held_still else None
            if self._timer is not None:
                self._timer.cancel()
            self._pending, self._pending_since = level, now
            self._timers_started += 1
            self._timer = threading.Timer(self.bounce_s, self._settle, args=(self._timers_started,))
            self._timer.daemon = True
            self._timer.start()
        if event:
            self._emit(event)

    def _settle(self, timer_id: int) -> None:
        with self._lock:
            if timer_id != self._timers_started or self._pending is None:
                return  # a newer edge restarted the settle period
            event = self._apply(self._pending)
            self._pending = None
        if event:
            self._emit(event)

    def _apply(self, pressed: bool | None) -> str | None:
        """Moves to a settled level; the event a release gives, if any."""
        if pressed is None or pressed == self._down:
            return None  # a glitch that came back to the settled level
        self._down = pressed
        if pressed:
            self._long_fired = False
            return None
        return None if self._long_fired else self.short_event

    def _held(self) -> None:
        with self._lock:
            if self._long_fired or not self.device.is_pressed:
                return
            self._long_fired = True
            self._down = True
        assert self.long_event is not None
        self._emit(self.long_event)

    def close(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
        self.device.close()


class Buttons:
    """Confirm and reroll buttons wired between a GPIO pin and ground (internal pull-ups).

    Events go into `events` (a thread-safe queue the app polls) and, if given, to `on_event`
    (called from a GPIO thread). Use `Buttons.open(...)` to get an inactive stand-in instead of
    an error on a machine without GPIO.
    """

    available = True
    reason = ""

    def __init__(
        self,
        confirm_pin: int | str = 17,
        reroll_pin: int | str = 27,
        long_press_s: float = 1.0,
        bounce_s: float = 0.05,
        long_press_action: str | None = "undo",
        pin_factory: Any | None = None,
        on_event: EventSink | None = None,
    ) -> None:
        check_settings(confirm_pin, reroll_pin, long_press_s, bounce_s, long_press_action)
        from gpiozero import Button

        self.events: queue.Queue[str] = queue.Queue()
        self._on_event = on_event
        self._buttons: list[DebouncedButton] = []
        wiring = ((confirm_pin, "confirm", long_press_action), (reroll_pin, "reroll", None))
        try:
            for pin, short_event, long_event in wiring:
                device = Button(
                    pin,
                    pull_up=True,
                    bounce_time=bounce_s,
                    hold_time=long_press_s,
                    pin_factory=pin_factory,
                )
                self._buttons.append(
                    DebouncedButton(device, bounce_s, short_event, long_event, self._emit)
                )
        except Exception:
            self.close()
            raise

    @classmethod
    def open(cls, **settings: Any) -> Buttons | InactiveButtons:
        """Buttons when GPIO works here, else an inactive object saying why (bad settings raise)."""
        buttons, reason = build_or_reason(lambda: cls(**settings))
        if buttons is None:
            log.warning("buttons disabled: %s", reason)
            return InactiveButtons(reason)
        return buttons

    def _emit(self, event: str) -> None:
        log.debug("button event: %s", event)
        self.events.put(event)
        if self._on_event is not None:
            self._on_event(event)

    def close(self) -> None:
        for button in self._buttons:
            button.close()
        self._buttons = []

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class InactiveButtons:
    """What the app gets without GPIO: no events ever, and the reason to show in settings."""

    available = False

    def __init__(self, reason: str) -> None:
        self.reason = reason
        self.events: queue.Queue[str] = queue.Queue()

    def close(self) -> None:
        pass

    def __enter__(self) -> InactiveButtons:
        return self

    def __exit__(self, *exc_info: object) -> None:
        pass


def check_settings(
    confirm_pin: int | str,
    reroll_pin: int | str,
    long_press_s: float,
    bounce_s: float,
    long_press_action: str | None,
) -> None:
    if confirm_pin == reroll_pin:
        raise ValueError(f"confirm and reroll buttons need different pins, both are {confirm_pin}")
    if not 0 < bounce_s < long_press_s:
        raise ValueError(
            f"need 0 < bounce_s < long_press_s: bounce_s={bounce_s}, long_press_s={long_press_s}"
        )
    if long_press_action is not None and long_press_action not in EVENTS:
        raise ValueError(f"long_press_action is one of {EVENTS} or None, not {long_press_action!r}")
