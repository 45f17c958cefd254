"""What every kiosk screen is and sees: a `ScreenObject` handles the touches routed to it and
draws its screen model from a `KioskView`, the small typed view of the session it is given.

The current screen is one state of `ScreenMachine`; screens change only by the named
transitions of TRANSITIONS, each with the screens it may leave from and the one it leads to.
The screen entered is asked first (`enter`): it may refuse, saying why, and nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np

from companion.examples import ExampleStore
from companion.persistence.store import Store
from companion.session import Session
from display.model import Screen

ScreenName = Literal["home", "setup", "table", "scores", "settings", "rules", "review"]
NAV_SCREENS: tuple[ScreenName, ...] = ("home", "table", "scores", "settings", "rules")
Handler = Callable[[str], None]


class KioskView(Protocol):
    """What a screen may read and ask of the kiosk: the store, the language, the game shown,
    the camera's last picture, the message line and the transitions."""

    store: Store
    language: str
    image: np.ndarray | None
    status: dict[str, Any]  # camera / buttons / tray lines for the settings screen
    examples: ExampleStore | None  # each confirmed roll's dice, for the reader

    @property
    def session(self) -> Session | None: ...

    def say(self, message: str, error: bool = False, detail: str = "") -> None: ...

    def t(self, key: str, **values: Any) -> str: ...

    def not_here(self, target: str) -> None: ...

    def refuse(self, error: Exception, key: str = "illegal", notation: str = "") -> None: ...

    def go(self, transition: str, arg: str = "") -> bool: ...

    def open_session(self, session: Session) -> None: ...


class ScreenObject:
    """A screen: the touches it takes (`taps`, kind -> handler), its model (`draw`), and hooks
    run when it is entered and left."""

    name: ScreenName

    def __init__(self, view: KioskView) -> None:
        self.view = view

    @property
    def taps(self) -> Mapping[str, Handler]:
        return {}

    def handle_tap(self, kind: str, arg: str) -> bool:
        """Route a touch by its kind; False when this screen offers no such touch."""
        handler = self.taps.get(kind)
        if handler is None:
            return False
        handler(arg)
        return True

    def enter(self, arg: str) -> bool:
        """Get ready to be shown (`arg` from the transition); False (having said why) to stay."""
        return True

    def leave(self) -> None:
        """Another screen is shown instead."""

    def draw(self) -> Screen:
        raise NotImplementedError

    def t(self, key: str, **values: Any) -> str:
        return self.view.t(key, **values)


@dataclass(frozen=True)
class Transition:
    sources: frozenset[ScreenName]  # the screens it may leave from (empty: any)
    target: ScreenName


ANY: frozenset[ScreenName] = frozenset()
TRANSITIONS: dict[str, Transition] = {
    "choose_game": Transition(frozenset({"home", "table"}), "setup"),
    "open_game": Transition(ANY, "table"),  # a game started, resumed or loaded
    "to_home": Transition(ANY, "home"),
    "to_table": Transition(ANY, "table"),
    "to_scores": Transition(ANY, "scores"),
    "to_settings": Transition(ANY, "settings"),
    "to_rules": Transition(ANY, "rules"),
    "to_review": Transition(frozenset({"table"}), "review"),  # a finished game's review
}


class ScreenMachine:
    """The screen shown, changed by named transitions only."""

    def __init__(self, screens: Mapping[ScreenName, ScreenObject]) -> None:
        self.screens = screens
        self.current: ScreenName = "home"

    @property
    def shown(self) -> ScreenObject:
        return self.screens[self.current]

    def go(self, transition: str, arg: str = "") -> bool:
        """Take `transition` if it leaves from the screen shown and its target agrees."""
        step = TRANSITIONS[transition]
        if step.sources and self.current not in step.sources:
            return False
        if not self.screens[step.target].enter(arg):
            return False
        if step.target != self.current:
            self.shown.leave()
        self.current = step.target
        return True
