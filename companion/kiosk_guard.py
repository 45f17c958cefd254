"""The kiosk's error boundary: an unexpected error is logged, shown on the table, and play goes on.

The controller logs an action before it changes the position, so an error while handling a tap
or a reading (a full disk refusing the write, a bug) leaves the game where it was on screen.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from companion.diagnostics import problem as problem_of
from display.i18n import DEFAULT, text
from engines.messages import Message

log = logging.getLogger(__name__)
T = TypeVar("T")


def describe(error: BaseException) -> Message:
    """The error in one line for the table, in the catalogue's words (a full disk, a database
    that cannot be written, a bug): the log keeps the system's own words and the traceback."""
    return problem_of(error)


def show_problem(controller: Any, problem: Message | str) -> None:
    language = getattr(controller, "language", DEFAULT)
    controller.message = text(language, "problem_shown", problem=problem)
    controller.error = True


def guarded(controller: Any, what: str, action: Callable[[], T], default: T) -> T:
    """`action()`, or `default` after showing what went wrong when it raises."""
    try:
        return action()
    except Exception as error:  # the boundary: the kiosk never exits on a recoverable error
        log.error("kiosk: %s failed", what, exc_info=True)
        show_problem(controller, describe(error))
        return default


def screen_or_home(controller: Any) -> Any:
    """The controller's screen; when drawing it fails, the home screen with the problem."""
    try:
        return controller.screen()
    except Exception as error:
        log.error("kiosk: the %s screen failed", controller.screen_name, exc_info=True)
        controller.fall_back_home()
        show_problem(controller, describe(error))
        return controller.screen()
