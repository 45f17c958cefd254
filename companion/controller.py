"""The companion's session state machine: events in (touch, buttons, camera), a screen model out.

It owns no pygame and no camera: the app loop turns touches into `Tap(target_id)`, GPIO into
`Press("confirm" | "reroll" | "undo")`, settled camera readings into `Settled(reading)`, and
draws `controller.screen()`. Every confirmed action is written to the store before the engine
position that shows its result is built, so what the screen shows is always on disk. What is
particular to one game (its dice, its moves, its keys) is asked of its table in
companion/tables. The screens and the table's parts are mixins of their own: the table screen
and its moves (table_screen), typed plays (notation_entry), dice (dice_entry), the hint
(hint_panel), bots (bot_seats), home and set-up (setup_screens), scores (scorebook), settings
(settings_screens) and the examples kept (examples_settings).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

import engines
from companion import diagnostics
from companion.advice import AdviceWorker
from companion.bot_seats import BotSeats
from companion.dice_entry import DiceEntry, DiceProposal
from companion.events import CameraImage, Event, Press, Settled, Tap
from companion.examples_settings import ExamplesSettings, examples_store
from companion.hint_panel import HintPanel
from companion.notation_entry import NotationEntry
from companion.scorebook import ScoresScreens
from companion.settings_screens import CAMERA_CHOICES, Roi, SettingsScreens, tray_rect
from companion.setup_screens import GAMES, SetupDraft, SetupScreens
from companion.store import GameRecord, Store, StoreError
from companion.table_screen import TableScreen
from companion.tables import Choice, DiceRequest, Table, table_for
from display.i18n import say, text
from display.model import DieMark, Screen, Target

__all__ = ["CAMERA_CHOICES", "GAMES", "CameraImage", "Controller", "DiceRequest", "Event",
           "Press", "Settled", "Tap", "rebuild_state", "tray_rect"]  # fmt: skip

# Touches that choose a move: refused while a bot chooses (its move is shown, then played).
CHOOSING_TARGETS = frozenset(
    {"move", "square", "piece", "play", "key", "entry", "hint", "hand", "reroll", "confirm"}
)
TABLE_TARGETS = frozenset(
    {"move", "page", "die", "face", "confirm", "hand", "reroll", "square", "play", "undo",
     "piece", "throw", "hint"}
)  # fmt: skip


@dataclass
class Session:
    record: GameRecord
    state: engines.State
    table: Table


class Controller(
    TableScreen,
    NotationEntry,
    DiceEntry,
    SetupScreens,
    ScoresScreens,
    SettingsScreens,
    ExamplesSettings,
    HintPanel,
    BotSeats,
):
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
        self.language = store.setting("language", language)
        self.moves_per_page = moves_per_page  # moves beside the camera (dice games)
        self.side_moves_per_page = max(1, moves_per_page - 1)  # beside the board (card games)
        self.seed_source = seed_source or random.Random()
        self.status = status or {}  # camera / buttons / tray lines for the settings screen
        self.screen_name = "home"
        self.draft = SetupDraft()
        self.session: Session | None = None
        self.proposal: DiceProposal | None = None
        self.picking: int | None = None  # die being corrected (index, or len() to add one)
        self.rethrow: set[int] = set()
        self.selected: set[str] = set()  # pieces touched on the board: the moves narrowed
        self.entry = ""
        self.page = 0
        self.message = ""
        self.error = False
        self.detail = ""  # an engine's own words when they could not be translated
        self.image: np.ndarray | None = None
        self.seen: list[DieMark] = []
        self.rules_game = ""
        self.last_roll: DiceProposal | None = None  # the reading behind the last confirmed roll
        self.examples = examples_store(store)  # each confirmed roll's dice, for the reader
        self.examples_open = False
        self.scores_player = ""  # whose history the scores screen shows ("" = the totals)
        self.teaching: int | None = None  # index of the poker face being taught
        self.taught: dict[str, list[np.ndarray]] = {}
        self.profile_path = store.setting("poker_profile")  # the app loads it into the reader
        self.camera_choice = store.setting("camera")  # the app reopens the camera on change
        self.tray_roi = tray_roi  # the app saves it to the config file and the reader on change
        self.tray_points: list[tuple[int, int]] | None = None  # corners touched (None: not editing)
        self._choices: tuple[tuple, list[Choice]] | None = None
        self.can_throw = False  # the camera throws dice itself (the simulated one)
        self.throw_wanted: DiceRequest | None = None  # the app asks the camera to throw these
        self.advice = AdviceWorker()  # the advisor's searches, off the loop that draws
        self.hint_open = False
        self.hint_on = False  # the hint setting of the game shown
        self.hint_seen: tuple[int, int] | None = None
        self.bots: dict[int, str] = {}  # seat -> bot level, for the game shown
        self.bot_turn: tuple[tuple[int, int], str, float] | None = None
        if auto_resume:
            self.resume()

    # ----- session life ---------------------------------------------------------------------

    def resume(self, label: str | None = None) -> bool:
        """Pick up the game in progress from the store (after a restart or a power cut)."""
        record = self.store.current_game(label)
        if record is None:
            return False
        self.load(record)
        return True

    def load(self, record: GameRecord) -> None:
        """Show a stored game (in progress or finished) at its last logged action."""
        self.session = Session(record, rebuild_state(record, self.store), table_for(record.game))
        self.load_bots()
        self.read_hint_setting()
        if self.session.state.is_over:  # stopped between the last action and its scoring
            state = self.session.state
            self.store.finish(record.id, state.scores(), state.winners())
            self.session.record = self.store.game(record.id)
        self.screen_name = "table"
        self._reset_turn()
        self._advance_automatic()  # a kill between the set-up and the deal

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
        state = engines.make_game(game, players, options or {}, seed, mode).new_state()
        game_id = self.store.start_game(
            game, list(state.players), dict(state.game.option_values), seed, mode, teams, label
        )
        self.session = Session(self.store.game(game_id), state, table_for(game))
        self.keep_bots(bots or {})
        self.read_hint_setting()
        self._reset_turn()
        self.screen_name = "table"
        self._advance_automatic()
        return self.session

    @property
    def state(self) -> engines.State | None:
        return None if self.session is None else self.session.state

    @property
    def table(self) -> Table:
        return self.session.table if self.session is not None else Table()

    def _reset_turn(self) -> None:
        self.proposal, self.picking, self.rethrow = None, None, set()
        self.entry, self.page, self.selected = "", 0, set()
        self.guess = ""  # a play guessed (a Sequence square, a hint, a bot's move), to confirm
        self.hint_open = False
        self.seen = []  # the dice on the camera view were for the turn just played

    # ----- what the engine waits for --------------------------------------------------------

    def dice_request(self) -> DiceRequest | None:
        """The roll the engine waits for (kind and number of dice), or None."""
        state = self.state
        return None if state is None else self.table.dice_request(state)

    def request_number(self) -> int:
        """Changes whenever the game moves on: readings made for an older request are stale."""
        session = self.session
        if session is None:
            return 0
        return session.record.id * 1_000_000 + len(session.state.history)

    def _advance_automatic(self) -> None:
        """Full mode deals and draws by itself (the engine is the dealer); log each outcome."""
        state = self.state
        while state is not None and state.is_chance and self.dice_request() is None:
            if state.game.mode != "full":
                return  # table mode: the players say what happened (e.g. who starts)
            action = state.sample_chance()
            self._commit(action.notation)
            self.message = text(self.language, "chance_auto", what=say(self.language, action))

    # ----- events ---------------------------------------------------------------------------

    def handle(self, event: Event) -> None:
        if isinstance(event, CameraImage):
            self.image = event.image
        elif isinstance(event, Settled):
            self._settled(event)
        elif isinstance(event, Press):
            self._press(event.button)
        elif isinstance(event, Tap):
            self._tap(event.target)
        else:
            raise TypeError(f"unknown event {event!r}")

    def _say(self, message: str, error: bool = False, detail: str = "") -> None:
        self.message, self.error, self.detail = message, error, detail

    def _not_here(self, target: str) -> None:
        """A touch or key this screen does not offer (a stale tap, a wrong GPIO mapping)."""
        self._say(self._t("not_here", what=target), True)

    def _refuse(
        self, error: Exception, game: str, key: str = "illegal", notation: str = ""
    ) -> None:
        """An engine's refusal (a code and its parameters), said through the catalogue, without
        the notation the player typed."""
        said = say(self.language, diagnostics.refusal(error))
        reason = self.table.plain(said, notation, self.language)
        self._say(self._t(key, reason=reason), True)

    def _press(self, button: str) -> None:
        if button in ("confirm", "reroll") and self.bot_choosing():
            self.refuse_for_bot()
        elif button == "confirm":
            self._confirm()
        elif button == "reroll":
            self._reroll()
        elif button == "undo":
            self.undo()
        else:
            self._not_here(f"button:{button}")

    def _tap(self, target: str) -> None:
        kind, _, arg = target.partition(":")
        handler = getattr(self, f"_tap_{kind}", None)
        if handler is None:
            self._not_here(target)
            return
        if kind in TABLE_TARGETS and self.screen_name != "table":
            self._not_here(target)
            return
        if kind in CHOOSING_TARGETS and self.bot_choosing():
            self.refuse_for_bot()
            return
        handler(arg)

    # ----- navigation -----------------------------------------------------------------------

    def _tap_nav(self, name: str) -> None:
        if name not in ("home", "table", "scores", "settings", "rules"):
            self._not_here(f"nav:{name}")
            return
        if name == "table" and self.session is None:
            self._say(text(self.language, "no_game"), True)
            return
        self.screen_name = name
        self.tray_points = None
        self.examples_open = False
        self._say("")

    # ----- playing --------------------------------------------------------------------------

    def play(self, notation: str, corrected: int = 0) -> bool:
        """Check an action with the engine; if legal, log it, then apply it. Else say why."""
        state = self.state
        if state is None:
            self._say(text(self.language, "no_game"), True)
            return False
        try:
            action = state.clone().apply(notation)
        except engines.EngineError as error:
            self._refuse(error, state.game.name, notation=notation)
            return False
        before = state.clone()
        self._commit(action.notation, corrected)
        self._reset_turn()
        self._say(self.table.outcome(before, action, state, self.language))
        self._advance_automatic()
        return True

    def _commit(self, notation: str, corrected: int = 0) -> None:
        """Store first, then change the position: nothing is shown that is not on disk."""
        session = self.session
        assert session is not None
        self.store.append(session.record.id, notation, corrected)
        session.state.apply(notation)
        self._choices = None
        if session.state.is_over:
            self.store.finish(session.record.id, session.state.scores(), session.state.winners())
            session.record = self.store.game(session.record.id)

    def undo(self) -> bool:
        session = self.session
        if session is None:
            self._say(text(self.language, "nothing_undo"), True)
            return False
        if session.record.status == "over":
            self.store.reopen(session.record.id)
            session.record = self.store.game(session.record.id)
        try:
            logged = self.store.undo(session.record.id)
        except StoreError:
            self._say(text(self.language, "nothing_undo"), True)
            return False
        undone = session.state.undo()
        self._choices = None
        self._reset_turn()
        self._say(text(self.language, "undone", what=say(self.language, undone)))
        if logged.notation.startswith("roll ") and self.last_roll is not None:
            # the dice are still on the tray: show the undone reading again, to fix and confirm
            self.proposal, self.last_roll = self.last_roll, None
        return True

    # ----- the screen model -----------------------------------------------------------------

    def screen(self) -> Screen:
        builder = getattr(self, f"_screen_{self.screen_name}")
        screen: Screen = builder()
        screen.language = self.language
        screen.message, screen.error = self.message, self.error
        screen.message_detail = self.detail
        screen.nav = self._nav()
        return screen

    def _t(self, key: str, **values: Any) -> str:
        return text(self.language, key, **values)

    def _nav(self) -> list[Target]:
        names = ["home", "table", "scores", "settings", "rules"]
        return [
            Target(f"nav:{n}", self._t(n), "selected" if n == self.screen_name else "quiet")
            for n in names
        ]


def rebuild_state(record: GameRecord, store: Store) -> engines.State:
    """Replay a stored game's log through its engine: the position after the last action."""
    state = engines.make_game(
        record.game, list(record.players), record.options, record.seed, record.mode
    ).new_state()
    for logged in store.actions(record.id):
        state.apply(logged.notation)
    return state
