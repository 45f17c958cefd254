"""An optional status LED: steady when ready, blinking while reading dice, fast on an error."""

from __future__ import annotations

import logging
from typing import Any

from hardware.gpio import build_or_reason

log = logging.getLogger(__name__)

# state: (on seconds, off seconds); None means steady on
PATTERNS: dict[str, tuple[float, float] | None] = {
    "ready": None,
    "reading": (0.5, 0.5),
    "error": (0.1, 0.1),
}
STATES = (*PATTERNS, "off")


class StatusLed:
    available = True
    reason = ""

    def __init__(self, pin: int | str, pin_factory: Any | None = None) -> None:
        from gpiozero import LED

        self._led = LED(pin, pin_factory=pin_factory)
        self.state = "off"

    @classmethod
    def open(cls, pin: int | str, pin_factory: Any | None = None) -> StatusLed | InactiveLed:
        led, reason = build_or_reason(lambda: cls(pin, pin_factory))
        if led is None:
            log.warning("status LED disabled: %s", reason)
            return InactiveLed(reason)
        return led

    def show(self, state: str) -> None:
        if state not in STATES:
            raise ValueError(f"LED state is one of {STATES}, not {state!r}")
        if state == self.state:
            return  # restarting a blink would make it stutter
        self.state = state
        if state == "off":
            self._led.off()
            return
        pattern = PATTERNS[state]
        if pattern is None:
            self._led.on()
        else:
            self._led.blink(on_time=pattern[0], off_time=pattern[1], background=True)

    @property
    def is_lit(self) -> bool:
        return bool(self._led.is_lit)

    def close(self) -> None:
        self._led.close()


class InactiveLed:
    available = False

    def __init__(self, reason: str) -> None:
        self.reason = reason
        self.state = "off"

    def show(self, state: str) -> None:
        if state not in STATES:
            raise ValueError(f"LED state is one of {STATES}, not {state!r}")
        self.state = state

    def close(self) -> None:
        pass
