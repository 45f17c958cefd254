"""Buttons and status LED on gpiozero's real MockFactory pins: bounce, long press, no GPIO."""

from __future__ import annotations

import queue
import time

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.buttons import Buttons, InactiveButtons
from hardware.led import InactiveLed, StatusLed

BOUNCE = 0.02
LONG = 0.25
QUIET = 0.15  # how long "no further event" is waited for


@pytest.fixture
def factory():
    pins = MockFactory()
    yield pins
    pins.close()


@pytest.fixture
def buttons(factory):
    with Buttons(
        confirm_pin=17, reroll_pin=27, long_press_s=LONG, bounce_s=BOUNCE, pin_factory=factory
    ) as made:
        yield made


def next_event(buttons: Buttons, timeout: float = 2.0) -> str:
    return buttons.events.get(timeout=timeout)


def assert_quiet(buttons: Buttons) -> None:
    with pytest.raises(queue.Empty):
        buttons.events.get(timeout=QUIET)


def tap(pin) -> None:
    pin.drive_low()
    time.sleep(BOUNCE * 3)  # held long enough to settle, far shorter than a long press
    pin.drive_high()


def test_short_presses_give_confirm_and_reroll(factory, buttons) -> None:
    assert buttons.available
    tap(factory.pin(17))
    assert next_event(buttons) == "confirm"
    tap(factory.pin(27))
    assert next_event(buttons) == "reroll"
    assert_quiet(buttons)


def test_bouncing_contacts_give_one_event(factory, buttons) -> None:
    pin = factory.pin(17)
    for _ in range(6):  # contacts chattering on the way down
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    time.sleep(BOUNCE * 3)
    for _ in range(4):  # and on the way up
        pin.drive_high()
        pin.drive_low()
    pin.drive_high()
    assert next_event(buttons) == "confirm"
    assert_quiet(buttons)


def test_glitch_shorter_than_bounce_time_is_ignored(factory, buttons) -> None:
    pin = factory.pin(27)
    pin.drive_low()
    pin.drive_high()
    assert_quiet(buttons)


def test_long_press_on_confirm_is_undo_only(factory, buttons) -> None:
    pin = factory.pin(17)
    pin.drive_low()
    assert next_event(buttons, timeout=LONG + 2) == "undo"  # fires while still held
    pin.drive_high()
    assert_quiet(buttons)
    tap(pin)  # the next short press confirms again
    assert next_event(buttons) == "confirm"


def test_long_press_on_reroll_is_still_a_reroll(factory, buttons) -> None:
    pin = factory.pin(27)
    pin.drive_low()
    time.sleep(LONG + 0.1)
    pin.drive_high()
    assert next_event(buttons) == "reroll"
    assert_quiet(buttons)


def test_callback_receives_events_too(factory) -> None:
    received: list[str] = []
    with Buttons(
        long_press_s=LONG, bounce_s=BOUNCE, pin_factory=factory, on_event=received.append
    ) as made:
        tap(factory.pin(27))
        assert next_event(made) == "reroll"
    assert received == ["reroll"]


def test_bad_settings_are_refused_not_hidden(factory) -> None:
    with pytest.raises(ValueError, match="different pins"):
        Buttons.open(confirm_pin=5, reroll_pin=5, pin_factory=factory)
    with pytest.raises(ValueError, match="bounce_s"):
        Buttons.open(bounce_s=2.0, long_press_s=1.0, pin_factory=factory)
    with pytest.raises(ValueError, match="long_press_action"):
        Buttons.open(long_press_action="explode", pin_factory=factory)


def test_without_gpio_the_app_gets_inactive_buttons_and_led() -> None:
    # this machine has no Raspberry Pi pins: gpiozero finds no pin factory
    buttons = Buttons.open(confirm_pin=17, reroll_pin=27)
    assert isinstance(buttons, InactiveButtons) and not buttons.available
    assert "no GPIO" in buttons.reason and "lgpio" in buttons.reason
    assert buttons.events.empty()
    led = StatusLed.open(22)
    assert isinstance(led, InactiveLed) and not led.available
    led.show("error")
    assert led.state == "error"


def test_status_led_patterns(factory) -> None:
    led = StatusLed.open(22, pin_factory=factory)
    assert isinstance(led, StatusLed)
    pin = factory.pin(22)
    led.show("ready")
    assert pin.state is True or pin.state == 1
    led.show("error")
    deadline = time.monotonic() + 2
    while len(pin.states) < 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    changes = [state.state for state in pin.states[-4:]]
    assert len(set(changes)) == 2  # blinking: on and off
    led.show("off")
    assert not led.is_lit
    with pytest.raises(ValueError, match="LED state"):
        led.show("disco")
    led.close()


class HeldBackTimer:
    """Stands in for threading.Timer: runs only when the test says (a busy machine)."""

    made: list[HeldBackTimer] = []

    def __init__(self, interval: float, function, args=()) -> None:
        self.function, self.args, self.cancelled = function, args, False
        self.daemon = True
        HeldBackTimer.made.append(self)

    def start(self) -> None:
        pass

    def cancel(self) -> None:
        self.cancelled = True

    def run_late(self) -> None:
        self.function(*self.args)  # a late timer runs even after cancel() lost the race


def test_settle_timers_running_late_still_give_one_event(factory, buttons, monkeypatch) -> None:
    monkeypatch.setattr("hardware.buttons.threading.Timer", HeldBackTimer)
    HeldBackTimer.made = []
    pin = factory.pin(17)
    pin.drive_low()
    time.sleep(BOUNCE * 2)  # held still long enough, but its timer has not run
    pin.drive_high()  # this edge counts the press that held still
    press_timer, release_timer = HeldBackTimer.made
    press_timer.run_late()  # stale: a newer edge restarted the settle period
    assert buttons.events.empty()
    release_timer.run_late()
    assert buttons.events.get_nowait() == "confirm"
    assert buttons.events.empty()
