"""The kiosk: events in (touch, buttons, camera), a screen model out.

It owns no pygame and no camera: the app loop turns touches into `Tap(target_id)`, GPIO into
`Press("confirm" | "reroll" | "undo")`, settled camera readings into `Settled(reading)`, and
draws `controller.screen()`. The game is a `Session` (companion/session.py); each screen is an
object (`handle_tap`, `draw`) given the controller as its `KioskView`; the screen shown is the
state of a `ScreenMachine`, changed by named transitions (companion/screen_base.py). A touch
`kind:arg` goes to the navigation when its kind is `nav`, else to the screen shown, whose `taps`
table names the handler of each kind it offers; GPIO buttons and readings are the table's.
What is particular to one game is asked of its table in companion/tables.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from companion import diagnostics
from companion.events import CameraImage, Event, Press, Settled, Tap
from companion.examples import ExampleStore
from companion.examples_settings import examples_store
from companion.persistence.store import Store
from companion.review_screen import ReviewScreen
from companion.scorebook import ScoresScreen
from companion.screen_base import NAV_SCREENS, ScreenMachine, ScreenName, ScreenObject
from companion.session import Session, hint_enabled, rebuild_state
from companion.settings_screens import CAMERA_CHOICES, Roi, RulesScreen, SettingsScreen, tray_rect
from companion.setup_screens import GAMES, HomeScreen, SetupScreen
from companion.table_screen import TableScreen
from companion.tables import DiceRequest
from display.i18n import say, text
from display.model import Screen, Target

__all__ = ["CAMERA_CHOICES", "GAMES", "CameraImage", "Controller", "DiceRequest", "Event",
           "Press", "Settled", "Tap", "rebuild_state", "tray_rect"]  # fmt: skip


class Controller:
    """One table's companion. Not thread-safe: feed it from the app's main loop."""

    def __init__(
        self,
        store: Store,
        language: str = "fr",
        moves_per_page: int = 6,
        seed_source: random.Random | None = None,
        status: dict[str, Any] | None = None,
        auto_resume: bool = True,
        tray_roi: Roi | None = None,
    ) -> None:
        self.store = store
        if store.setting("language.configured", "") != language:  # the config file changed
            store.set_setting("language.configured", language)  # it wins over the last pick
            store.set_setting("language", language)
        self.language: str = store.setting("language", language)
        self.seed_source = seed_source or random.Random()
        self.status: dict[str, Any] = {} if status is None else status
        self.image: np.ndarray | None = None
        self.examples: ExampleStore | None = examples_store(store)
        self.message, self.error, self.detail = "", False, ""
        self._session: Session | None = None
        self.home = HomeScreen(self)
        self.setup = SetupScreen(self, self.seed_source)
        self.table = TableScreen(self, moves_per_page)
        self.scores = ScoresScreen(self)
        self.settings = SettingsScreen(self, tray_roi)
        self.rules = RulesScreen(self, lambda: self.setup.draft.game)
        self.review = ReviewScreen(self)
        self.table.review_status = self.review.status
        screens: dict[ScreenName, ScreenObject] = {
            "home": self.home, "setup": self.setup, "table": self.table,
            "scores": self.scores, "settings": self.settings, "rules": self.rules,
            "review": self.review,
        }  # fmt: skip
        self.machine = ScreenMachine(screens)
        if auto_resume:
            self.resume()

    # ----- the KioskView the screens see ----------------------------------------------------

    @property
    def session(self) -> Session | None:
        return self._session

    def say(self, message: str, error: bool = False, detail: str = "") -> None:
        self.message, self.error, self.detail = message, error, detail

    def t(self, key: str, **values: Any) -> str:
        return text(self.language, key, **values)

    def not_here(self, target: str) -> None:
        """A touch or key this screen does not offer (a stale tap, a wrong GPIO mapping): said
        without the target's id ("key:J" is no word of the players')."""
        self.say(self.t("not_here"), True)

    def refuse(self, error: Exception, key: str = "illegal", notation: str = "") -> None:
        """An engine's refusal (a code and its parameters), said through the catalogue, without
        the notation the player typed."""
        refused = diagnostics.refusal(error)
        if {"play", "reason"} <= set(refused.params):  # "<play>: <reason>": the play is on screen
            refused = refused.params["reason"]
        if refused.code.endswith((".not_a_move", ".not_an_action")):  # the command line's syntax
            self.say(self.t(key, reason=self.t("enter_play")), True)
            return
        said = say(self.language, refused)
        if self._session is not None:
            said = self._session.table.plain(said, notation, self.language)
        self.say(self.t(key, reason=said), True)

    def go(self, transition: str, arg: str = "") -> bool:
        return self.machine.go(transition, arg)

    def open_session(self, session: Session) -> None:
        """A game started or loaded: the table shows it."""
        self._session = session
        self.machine.go("open_game")
        self.table.opened()

    # ----- the game -------------------------------------------------------------------------

    def resume(self, label: str | None = None) -> bool:
        """Pick up the game in progress from the store (after a restart or a power cut)."""
        record = self.store.current_game(label)
        if record is None:
            return False
        self.open_session(Session.load(self.store, record))
        return True

    def load(self, record: Any) -> None:
        """Show a stored game (in progress or finished) at its last logged action."""
        self.open_session(Session.load(self.store, record))

    def start_game(
        self,
        game: str,
        players: list[str],
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        mode: str = "table",
        teams: list[int] | None = None,
        label: str = "",
        bots: dict[int, str] | None = None,
    ) -> Session:
        """Create the engine game (checking the set-up) and log it; raises EngineError.

        A game in progress is kept as it is (the home screen lists it, to resume)."""
        seed = self.seed_source.randrange(2**31) if seed is None else seed
        session = Session.start(self.store, game, players, options or {}, seed, mode, teams,
                                label, bots)  # fmt: skip
        self.open_session(session)
        return session

    @property
    def state(self) -> Any:
        return None if self._session is None else self._session.state

    @property
    def screen_name(self) -> ScreenName:
        return self.machine.current

    def dice_request(self) -> DiceRequest | None:
        """The roll the engine waits for (kind and number of dice), or None."""
        return self.table.dice_request()

    def request_number(self) -> int:
        """Changes whenever the game moves on: readings made for an older request are stale."""
        return 0 if self._session is None else self._session.request_number()

    def play(self, notation: str, corrected: int = 0) -> bool:
        return self.table.play(notation, corrected)

    def tick(self, now: float | None = None) -> bool:
        reviewed = self.review.tick()  # a finished game's review, computed in the background
        return self.table.tick(now) or reviewed

    def close(self) -> None:
        """Stop what runs beside the loop (a review under way is computed again next time)."""
        self.review.close()

    def hint_enabled(self, game: str) -> bool:
        return hint_enabled(self.store, game)

    def use_layout(self, layout: Any) -> None:
        self.table.use_layout(layout)

    # ----- what the app reads and sets ------------------------------------------------------

    @property
    def camera_choice(self) -> str:
        return self.settings.camera_choice

    @property
    def profile_path(self) -> str:
        return self.settings.profile_path

    @property
    def tray_roi(self) -> Roi | None:
        return self.settings.tray_roi

    # ----- events ---------------------------------------------------------------------------

    def handle(self, event: Event) -> None:
        if isinstance(event, CameraImage):
            self.image = event.image
        elif isinstance(event, Settled):
            self.table.settled(event)
        elif isinstance(event, Press):
            self.table.press(event.button)  # the buttons are the table's, whatever is shown
        elif isinstance(event, Tap):
            self._tap(event.target)
        else:
            raise TypeError(f"unknown event {event!r}")

    def _tap(self, target: str) -> None:
        """Touches every screen takes (the navigation, the language), else the screen's own."""
        kind, _, arg = target.partition(":")
        if kind == "nav":
            self._navigate(arg)
        elif kind == "lang":
            self.settings.choose_language(arg)
        elif not self.machine.shown.handle_tap(kind, arg):
            self.not_here(target)

    def _navigate(self, name: str) -> None:
        if name not in NAV_SCREENS:
            self.not_here(f"nav:{name}")
        elif self.go(f"to_{name}"):
            self.say("")

    def typing(self) -> bool:
        """A keyboard is open: names on the set-up screen, a typed play on the table."""
        if self.screen_name == "setup":
            return self.setup.draft.editing is not None
        return self.screen_name == "table" and self.table.typing.is_open()

    def type_text(self, typed: str) -> None:
        """Keys of a physical keyboard: into the open keyboard (a name, or a typed play)."""
        if not self.typing():
            return
        if self.screen_name == "setup":
            self.setup.type_text(typed)
        else:
            self.table.typing.type_text(typed)

    def fall_back_home(self) -> None:
        """The screen shown cannot be drawn: the home screen instead."""
        self.go("to_home")

    # ----- the screen model -----------------------------------------------------------------

    def screen(self) -> Screen:
        screen = self.machine.shown.draw()
        screen.language = self.language
        screen.message, screen.error = self.message, self.error
        screen.message_detail = self.detail
        screen.nav = [
            Target(f"nav:{n}", self.t(n), "selected" if n == self.screen_name else "normal")
            for n in NAV_SCREENS
        ]
        return screen
