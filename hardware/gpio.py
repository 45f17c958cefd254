"""Reaching the GPIO pins through gpiozero, or saying in plain words why it can't be done.

On a laptop gpiozero finds no pin factory: it warns (PinFactoryFallback) for each one it tries
and raises BadPinFactory. The app must then run without buttons, so every GPIO device here is
built through `build_or_reason`, which turns those failures into a reason to show.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

# gpiozero's factory names (GPIOZERO_PIN_FACTORY) and the class names they load.
FACTORY_NAMES = {
    "LGPIOFactory": "lgpio",
    "RPiGPIOFactory": "rpigpio",
    "PiGPIOFactory": "pigpio",
    "NativeFactory": "native",
    "MockFactory": "mock",
}


def factory_name(factory: Any) -> str:
    name = type(factory).__name__
    return FACTORY_NAMES.get(name, name)


def build_or_reason(build: Callable[[], T]) -> tuple[T | None, str]:
    """(device, "") when GPIO works, else (None, why) - never raises for a missing GPIO."""
    from gpiozero.exc import GPIOZeroError, PinFactoryFallback

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PinFactoryFallback)
        try:
            return build(), ""
        except (GPIOZeroError, OSError, RuntimeError) as error:
            fallbacks = [
                str(w.message) for w in caught if issubclass(w.category, PinFactoryFallback)
            ]
            detail = f" ({'; '.join(fallbacks)})" if fallbacks else ""
            return None, f"no GPIO: {error}{detail}"


def default_pin_factory() -> tuple[Any | None, str]:
    """gpiozero's default pin factory on this machine, or why there is none."""
    from gpiozero import Device

    if Device.pin_factory is not None:
        return Device.pin_factory, ""
    return build_or_reason(Device._default_pin_factory)
