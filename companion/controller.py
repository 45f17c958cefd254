"""The companion's session state machine: events in (touch, buttons, camera), a screen model out.

It owns no pygame and no camera: the app loop turns touches into `Tap(target_id)`, GPIO into
`Press("confirm" | "reroll" | "undo")`, settled camera readings into `Settled(reading)`, and
draws `controller.screen()`. Every confirmed action is written to the store before the engine
position that shows its result is built, so what the screen shows is always on disk.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import engines
from companion.store import GameRecord, Store, StoreError
from display.i18n import RULES, game_title, option_title, say, text
from display.model import DieMark, Screen, Target

GAMES = ("struggle", "traverse", "strategix", "sequence", "roudalon")
CARD_GAMES = ("strategix", "sequence")
POKER_FACES = ("9", "10", "J", "Q", "K", "A")
D6_FACES = ("1", "2", "3", "4", "5", "6")
STRATEGIX_KEYS = tuple("BCDEFGHIJKLMNOPQRSTUVWXYZ") + ("*", "+")
SEQUENCE_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SEQUENCE_SUITS = ("S", "H", "D", "C")
MAX_NAME = 12
CAMERA_CHOICES = ("auto", "picamera2", "webcam:0", "sim")
TABLE_TARGETS = frozenset(
    {"move", "page", "die", "face", "confirm", "hand", "reroll", "square", "play", "undo"}
)
NAME_KEYS = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
STRUGGLE_PAWNS = ("K", "Q", "J", "10", "9")
MIN_TRAY_SIDE = 40  # px of camera image: a smaller tray region is surely a slip of the finger
Roi = tuple[int, int, int, int]  # x, y, w, h in camera image pixels


# ----- events ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tap:
    target: str


@dataclass(frozen=True)
class Press:
    button: str  # confirm, reroll, undo


@dataclass(frozen=True)
class Settled:
    """A camera reading taken once the dice stopped moving."""

    reading: Any  # vision.types.Reading
    image: np.ndarray | None = None


@dataclass(frozen=True)
class CameraImage:
    image: np.ndarray


Event = Tap | Press | Settled | CameraImage


# ----- working data ------------------------------------------------------------------------


@dataclass
class SetupDraft:
    game: str = ""
    players: list[str] = field(default_factory=list)
    teams: list[int] = field(default_factory=list)
    team_count: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    editing: int | None = None  # seat whose name is being typed


@dataclass
class DiceProposal:
    """The faces read for the roll the engine waits for, as the players correct them."""

    faces: list[str | None]
    centers: list[tuple[float, float] | None]  # None: a die entered by hand
    quads: list[tuple[tuple[float, float], ...] | None]
    corrected: set[int] = field(default_factory=set)

    def complete(self, wanted: int) -> bool:
        return len(self.faces) == wanted and all(f is not None for f in self.faces)


@dataclass
class Session:
    record: GameRecord
    state: engines.State


@dataclass(frozen=True)
class DiceRequest:
    kind: str  # d6 or poker
    count: int


def face_text(value: Any) -> str:
    return str(value)


class Controller:
    """One table's companion. Not thread-safe: feed it from the app's main loop."""

    def __init__(
        self,
        store: Store,
        language: str = "fr",
        moves_per_page: int = 6,
        seed_source: random.Random | None = None,
        status: dict[str, str] | None = None,
        auto_resume: bool = True,
        tray_roi: Roi | None = None,
    ) -> None:
        self.store = store
        self.language = store.setting("language", language)
        self.moves_per_page = moves_per_page
        self.seed_source = seed_source or random.Random()
        self.status = status or {}  # camera / buttons / tray lines for the settings screen
        self.screen_name = "home"
        self.draft = SetupDraft()
        self.session: Session | None = None
        self.proposal: DiceProposal | None = None
        self.picking: int | None = None  # die being corrected (index, or len() to add one)
        self.rethrow: set[int] = set()
        self.entry = ""
        self.page = 0
        self.message = ""
        self.error = False
        self.detail = ""  # an engine's own words when they could not be translated
        self.image: np.ndarray | None = None
        self.seen: list[DieMark] = []
        self.rules_game = ""
        self.last_roll: DiceProposal | None = None  # the reading behind the last confirmed roll
        self.scores_player = ""  # whose history the scores screen shows ("" = the totals)
        self.teaching: int | None = None  # index of the poker face being taught
        self.taught: dict[str, list[np.ndarray]] = {}
        self.profile_path = store.setting("poker_profile")  # the app loads it into the reader
        self.camera_choice = store.setting("camera")  # the app reopens the camera on change
        self.tray_roi = tray_roi  # the app saves it to the config file and the reader on change
        self.tray_points: list[tuple[int, int]] | None = None  # corners touched (None: not editing)
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
        self.session = Session(record, rebuild_state(record, self.store))
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
    ) -> Session:
        """Create the engine game (checking the set-up) and log it; raises EngineError."""
        seed = self.seed_source.randrange(2**31) if seed is None else seed
        state = engines.make_game(game, players, options or {}, seed, mode).new_state()
        if self.session is not None and self.session.record.status == "playing":
            self.store.abandon(self.session.record.id)
        game_id = self.store.start_game(
            game, list(state.players), dict(state.game.option_values), seed, mode, teams, label
        )
        self.session = Session(self.store.game(game_id), state)
        self._reset_turn()
        self.screen_name = "table"
        self._advance_automatic()
        return self.session

    @property
    def state(self) -> engines.State | None:
        return None if self.session is None else self.session.state

    def _reset_turn(self) -> None:
        self.proposal, self.picking, self.rethrow = None, None, set()
        self.entry, self.page = "", 0

    # ----- what the engine waits for --------------------------------------------------------

    def dice_request(self) -> DiceRequest | None:
        """The roll the engine waits for (kind and number of dice), or None."""
        state = self.state
        if state is None or not state.is_chance:
            return None
        legal = state.legal_actions()
        if legal and all(a.notation.startswith("roll ") for a in legal):
            faces = legal[-1].notation.split()[1:]
            return DiceRequest(dice_kind(faces), len(faces))
        hint = state.chance_hint()
        match = re.match(r"roll <(\d+)", hint)
        if match:
            kind = "poker" if re.search(r"\b(J|Q|K|A)\b", hint) else "d6"
            return DiceRequest(kind, int(match.group(1)))
        return None

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
            if state.game.mode != "full" and state.legal_actions():
                return  # table mode: the players say what happened (e.g. who starts)
            if state.game.mode != "full":
                return
            action = state.sample_chance()
            self._commit(action.notation)
            self.message = text(self.language, "chance_auto", what=action.describe(self.language))

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

    def _refuse(self, error: Exception, game: str, key: str = "illegal") -> None:
        """An engine's refusal (a code and its parameters), said through the catalogue."""
        self._say(self._t(key, reason=say(self.language, error)), True)

    def _settled(self, event: Settled) -> None:
        if event.image is not None:
            self.image = event.image
        dice = list(getattr(event.reading, "dice", ()))
        self.seen = [
            DieMark(i, _center(d.center), _quad(d.quad), _label(d.value))
            for i, d in enumerate(dice)
        ]
        request = self.dice_request()
        if request is None:
            return
        self.proposal = DiceProposal(
            faces=[None if d.value is None else face_text(d.value) for d in dice],
            centers=[_center(d.center) for d in dice],
            quads=[_quad(d.quad) for d in dice],
        )
        self.picking = None
        self._describe_proposal(request)

    def _describe_proposal(self, request: DiceRequest) -> None:
        proposal = self.proposal
        assert proposal is not None
        if len(proposal.faces) != request.count:
            self._say(
                text(self.language, "roll_count", want=request.count, seen=len(proposal.faces)),
                True,
            )
        elif None in proposal.faces:
            self._say(text(self.language, "roll_unread"), True)
        else:
            self._say(text(self.language, "roll_seen", faces=" ".join(proposal.faces)))

    def _press(self, button: str) -> None:
        if button == "confirm":
            self._confirm()
        elif button == "reroll":
            self._reroll()
        elif button == "undo":
            self.undo()
        else:
            self._say(f"unknown button {button!r}", True)

    def _tap(self, target: str) -> None:
        kind, _, arg = target.partition(":")
        handler = getattr(self, f"_tap_{kind}", None)
        if handler is None:
            self._say(f"unknown target {target!r}", True)
            return
        if kind in TABLE_TARGETS and self.screen_name != "table":
            self._say(f"{target!r} is not on this screen", True)
            return
        handler(arg)

    # ----- navigation -----------------------------------------------------------------------

    def _tap_nav(self, name: str) -> None:
        if name not in ("home", "table", "scores", "settings", "rules"):
            self._say(f"unknown screen {name!r}", True)
            return
        if name == "table" and self.session is None:
            self._say(text(self.language, "no_game"), True)
            return
        self.screen_name = name
        self.tray_points = None
        self._say("")

    def _tap_lang(self, language: str) -> None:
        if language not in ("fr", "en"):
            self._say(f"unknown language {language!r}", True)
            return
        self.language = language
        self.store.set_setting("language", language)

    def _tap_export(self, _: str) -> None:
        path = self.store.state_dir / "scores.csv"
        rows = self.store.export_csv(path)
        self._say(text(self.language, "exported", n=rows, path=path))

    # ----- set-up ---------------------------------------------------------------------------

    def _tap_game(self, name: str) -> None:
        if name not in GAMES:
            self._say(f"unknown game {name!r}", True)
            return
        try:
            game_class = engines.game_class(name)
        except engines.EngineError:
            self._say(text(self.language, "not_built", game=game_title(name)), True)
            return
        count = game_class.player_counts()[0]
        known = self.store.known_players()
        names = [
            known[i] if i < len(known) else text(self.language, "player_n", n=i + 1)
            for i in range(count)
        ]
        self.draft = SetupDraft(game=name, players=names, teams=[i % 2 for i in range(count)])
        self.screen_name = "setup"
        self._say("")

    def _in_setup(self) -> bool:
        if self.screen_name == "setup" and self.draft.game:
            return True
        self._say("not on the set-up screen", True)
        return False

    def _tap_count(self, delta: str) -> None:
        if not self._in_setup() or delta not in ("+", "-"):
            return
        draft = self.draft
        counts = engines.game_class(draft.game).player_counts()
        step = 1 if delta == "+" else -1
        allowed = [n for n in counts if (n - len(draft.players)) * step > 0]
        if not allowed:
            return
        wanted = min(allowed) if step > 0 else max(allowed)
        known = [n for n in self.store.known_players() if n not in draft.players]
        while len(draft.players) < wanted:
            seat = len(draft.players)
            draft.players.append(
                known.pop(0) if known else text(self.language, "player_n", n=seat + 1)
            )
        del draft.players[wanted:]
        draft.teams = [i % draft.team_count for i in range(wanted)]

    def _tap_teams(self, count: str) -> None:
        if not self._in_setup() or count not in ("2", "3"):
            return
        self.draft.team_count = int(count)
        self.draft.options["teams"] = int(count)  # players sit alternately: seat % teams
        self.draft.teams = [i % int(count) for i in range(len(self.draft.players))]

    def _tap_name(self, seat: str) -> None:
        if not self._in_setup():
            return
        if not seat.isdigit() or int(seat) >= len(self.draft.players):
            self._say(f"no seat {seat!r}", True)
            return
        self.draft.editing = int(seat)
        self.entry = ""

    def _tap_option(self, name: str) -> None:
        if not self._in_setup():
            return
        option = next(
            (o for o in engines.game_class(self.draft.game).options if o.name == name), None
        )
        if option is None or not isinstance(option.default, bool):
            self._say(f"option {name!r} cannot be switched here", True)
            return
        current = self.draft.options.get(name, option.default)
        self.draft.options[name] = not current

    def _tap_start(self, _: str) -> None:
        if not self._in_setup():
            return
        draft = self.draft
        teams = draft.teams if draft.game == "sequence" else None
        try:
            self.start_game(draft.game, list(draft.players), dict(draft.options), teams=teams)
        except (engines.EngineError, StoreError) as error:
            self._refuse(error, draft.game, "start_error")
            return
        self._say("")

    # ----- keyboard (names and card plays) --------------------------------------------------

    def _typing_ok(self) -> bool:
        if self.screen_name == "setup" and self.draft.editing is not None:
            return True
        state = self.state
        if self.screen_name == "table" and state is not None and self._uses_keyboard(state):
            return True
        self._say("no text is being entered here", True)
        return False

    def _tap_key(self, key: str) -> None:
        if not self._typing_ok():
            return
        if self.screen_name == "setup":
            if key in NAME_KEYS and len(self.entry) < MAX_NAME:
                self.entry += key
            return
        allowed = {t.id.removeprefix("key:") for t in self._card_keys(self.state)}
        if key not in allowed:
            self._say(f"no key {key!r} here", True)
            return
        if key == "+":
            self.entry = (self.entry + " + ").replace("  ", " ")
        elif self.session.record.game == "sequence" and _is_card(key):
            self.entry = key
            self._say(self._t("pick_square"))
        elif self.session.record.game == "sequence":
            self.entry = key if _is_card(key) else self.entry + key
        elif self.entry.endswith("*") and key.isalpha():
            self.entry += "=" + key  # a star declared as this letter
        else:
            self.entry = (self.entry + " " + key).strip()

    def _tap_entry(self, command: str) -> None:
        if not self._typing_ok():
            return
        if command == "clear":
            self.entry = ""
        elif command == "back":
            self.entry = self.entry[:-1].rstrip(" +") if self.entry else ""
        elif command == "ok":
            self._entry_ok()
        elif command == "dead" and self.entry:
            self.play(f"dead {self.entry}")
        else:
            self._say(f"unknown entry command {command!r}", True)

    def _entry_ok(self) -> None:
        if self.draft.editing is not None and self.screen_name == "setup":
            name = self.entry.strip().title()
            others = [n for i, n in enumerate(self.draft.players) if i != self.draft.editing]
            if not name or name in others:
                self._say(self._t("illegal", reason=self._t("name_taken")), True)
                return
            self.draft.players[self.draft.editing] = name
            self.draft.editing, self.entry = None, ""
            return
        notation = self._entry_notation()
        if notation:
            self.play(notation)

    def _entry_notation(self) -> str:
        entry = " ".join(self.entry.split()).strip(" +")
        game = self.session.record.game if self.session else ""
        if self.state is not None and self._revealing(self.state):
            return "objective " + entry
        if game == "strategix" and entry and entry not in ("pass", "petard"):
            return "play " + entry
        return entry

    def _tap_square(self, square: str) -> None:
        """A touch on a Sequence board square completes the card entry (`7D@c3`, `JH-x f2`)."""
        if not self._typing_ok():
            return
        if not self.entry:
            self._say(text(self.language, "enter_play"), True)
            return
        if self.entry[:2] in ("JH", "JS"):
            self.play(f"{self.entry}-x {square}")
        else:
            self.play(f"{self.entry}@{square}")

    def _tap_play(self, word: str) -> None:
        """Whole-word plays with their own key (pass, pétard)."""
        self.play(word)

    # ----- moves ----------------------------------------------------------------------------

    def _tap_move(self, notation: str) -> None:
        self.play(notation)

    def _tap_page(self, where: str) -> None:
        pages = self._page_count()
        self.page = (self.page + (1 if where == "next" else -1)) % pages

    def play(self, notation: str, corrected: int = 0) -> bool:
        """Check an action with the engine; if legal, log it, then apply it. Else say why."""
        state = self.state
        if state is None:
            self._say(text(self.language, "no_game"), True)
            return False
        try:
            action = state.clone().apply(notation)
        except engines.EngineError as error:
            self._refuse(error, state.game.name)
            return False
        self._commit(action.notation, corrected)
        self._reset_turn()
        self._say(action.describe(self.language))
        self._advance_automatic()
        return True

    def _commit(self, notation: str, corrected: int = 0) -> None:
        """Store first, then change the position: nothing is shown that is not on disk."""
        session = self.session
        assert session is not None
        self.store.append(session.record.id, notation, corrected)
        session.state.apply(notation)
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
        session.state.undo()
        self._reset_turn()
        self._say(text(self.language, "undone", what=logged.notation))
        if logged.notation.startswith("roll ") and self.last_roll is not None:
            # the dice are still on the tray: show the undone reading again, to fix and confirm
            self.proposal, self.last_roll = self.last_roll, None
        return True

    # ----- dice -----------------------------------------------------------------------------

    def _tap_die(self, arg: str) -> None:
        if self.proposal is None and arg == "add" and self.dice_request() is not None:
            self.proposal = DiceProposal([], [], [])  # no reading: enter the dice by hand
        if self.proposal is None:
            self._say(text(self.language, "need_roll_first"), True)
            return
        if arg == "add":
            self.picking = len(self.proposal.faces)
        elif arg == "remove":
            self._remove_die()
        elif arg.isdigit() and int(arg) < len(self.proposal.faces):
            self.picking = int(arg)
        else:
            self._say(f"no die {arg!r}", True)
            return
        if self.picking is not None:
            self._say(text(self.language, "pick_face", n=self.picking + 1))

    def _remove_die(self) -> None:
        proposal = self.proposal
        assert proposal is not None
        index = self.picking if self.picking is not None else len(proposal.faces) - 1
        if not 0 <= index < len(proposal.faces):
            return
        for values in (proposal.faces, proposal.centers, proposal.quads):
            del values[index]
        proposal.corrected = {i - (i > index) for i in proposal.corrected if i != index} | {-1}
        self.picking = None
        self._describe_proposal(self.dice_request() or DiceRequest("d6", 0))

    def _tap_face(self, face: str) -> None:
        request = self.dice_request()
        if self.proposal is None or self.picking is None or request is None:
            self._say(text(self.language, "need_roll_first"), True)
            return
        allowed = POKER_FACES if request.kind == "poker" else D6_FACES
        if face not in allowed:
            self._say(f"{face!r} is not a face of these dice", True)
            return
        proposal, index = self.proposal, self.picking
        if index == len(proposal.faces):
            proposal.faces.append(face)
            proposal.centers.append(None)
            proposal.quads.append(None)
        else:
            proposal.faces[index] = face
        proposal.corrected.add(index)
        self.picking = None
        self._describe_proposal(request)

    def _tap_confirm(self, _: str) -> None:
        self._confirm()

    def _confirm(self) -> None:
        request = self.dice_request()
        if request is None:
            return
        if self.proposal is None or not self.proposal.complete(request.count):
            self._say(text(self.language, "need_roll_first"), True)
            return
        corrected = len(self.proposal.corrected)
        confirmed = self.proposal
        if self.play("roll " + " ".join(self.proposal.faces), corrected):
            self.last_roll = confirmed

    # ----- Struggle re-throws ---------------------------------------------------------------

    def _tap_hand(self, index: str) -> None:
        hand = self.hand()
        if not index.isdigit() or int(index) >= len(hand):
            self._say(f"no die {index!r} in the hand", True)
            return
        self.rethrow ^= {int(index)}

    def _tap_reroll(self, _: str) -> None:
        self._reroll()

    def _reroll(self) -> None:
        hand = self.hand()
        if not hand:
            self._say(text(self.language, "need_roll_first"), True)
            return
        if not self.rethrow:
            self._say(text(self.language, "rethrow_pick"), True)
            return
        faces = [hand[i] for i in sorted(self.rethrow)]
        self.play("rethrow " + " ".join(faces))

    def hand(self) -> list[str]:
        state = self.state
        if state is None or state.is_chance or state.is_over:
            return []
        if not any(a.notation.startswith("rethrow") for a in state.legal_actions()):
            return []
        return list(state.view(None).get("hand", []))

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

    def _screen_home(self) -> Screen:
        available = set(engines.available_games())
        options = [
            Target(f"game:{g}", game_title(g), "normal" if g in available else "quiet")
            for g in GAMES
        ]
        actions = []
        if self.session is not None and self.session.record.status == "playing":
            title = game_title(self.session.record.game)
            actions.append(Target("nav:table", self._t("resume", game=title), "primary"))
        return Screen("home", self._t("choose_game"), options=options, actions=actions)

    def _screen_setup(self) -> Screen:
        draft = self.draft
        screen = Screen("setup", self._t("setup", game=game_title(draft.game)), game=draft.game)
        screen.options = [
            Target("count:-", self._t("fewer_players")),
            Target("count:+", self._t("more_players")),
        ]
        for seat, name in enumerate(draft.players):
            style = "selected" if draft.editing == seat else "normal"
            label = name
            if draft.game == "sequence":
                label += f" ({self._t('team', n=draft.teams[seat] + 1)})"
            screen.options.append(Target(f"name:{seat}", label, style))
        if draft.game == "sequence":
            screen.options += [
                Target(
                    f"teams:{n}",
                    self._t("teams", n=n),
                    "selected" if draft.team_count == n else "quiet",
                )  # fmt: skip
                for n in (2, 3)
            ]
        for option in engines.game_class(draft.game).options:
            if isinstance(option.default, bool):
                value = draft.options.get(option.name, option.default)
                name = option_title(option.name, self.language)
                label = f"{name} : {self._t('yes' if value else 'no')}"
                screen.options.append(Target(f"option:{option.name}", label))
        screen.lines = [self._t("players", n=len(draft.players))]
        if draft.editing is not None:
            screen.entry = self.entry
            screen.keys = self._name_keys()
        screen.actions = [Target("start:", self._t("start"), "primary")]
        return screen

    def _name_keys(self) -> list[Target]:
        keys = [Target(f"key:{k}", k) for k in NAME_KEYS]
        return keys + self._entry_controls()

    def _entry_controls(self) -> list[Target]:
        return [
            Target("entry:back", self._t("back"), "quiet"),
            Target("entry:clear", self._t("clear"), "quiet"),
            Target("entry:ok", self._t("ok"), "primary"),
        ]

    def _screen_table(self) -> Screen:
        session = self.session
        if session is None:
            return Screen("table", self._t("no_game"))
        state = session.state
        record = session.record
        viewer = state.actor if isinstance(state.actor, int) and record.mode == "full" else None
        screen = Screen(
            "table",
            game_title(record.game),
            game=record.game,
            board=state.view(viewer),
            camera=self.image,
            turn=self._turn_text(state),
            scores=[(n, str(s)) for n, s in zip(state.players, state.scores(), strict=True)],
        )
        screen.dice = self._dice_marks()
        screen.actions = self._table_actions(state)
        self._add_moves(screen, state)
        return screen

    def _turn_text(self, state: engines.State) -> str:
        if state.is_over:
            names = ", ".join(state.players[i] for i in state.winners())
            return f"{self._t('game_over')} — {self._t('winner', names=names)}"
        request = self.dice_request()
        if request is not None:
            return self._t("roll_wait", n=request.count)
        if state.is_chance:
            return state.chance_hint()
        turn = self._t("turn", name=state.players[state.actor])
        view = state.view(None)
        if self.hand() and "throws" in view:
            kept = " ".join(view.get("kept", [])) or self._t("kept_none")
            turn += " — " + self._t("throw_count", n=view["throws"], kept=kept)
        return turn

    def _dice_marks(self) -> list[DieMark]:
        proposal = self.proposal
        if proposal is None:
            return list(self.seen)
        return [
            DieMark(
                i,
                proposal.centers[i],
                proposal.quads[i],
                _label(face),
                i in proposal.corrected,
                i == self.picking,
            )  # fmt: skip
            for i, face in enumerate(proposal.faces)
        ]

    def _table_actions(self, state: engines.State) -> list[Target]:
        actions = []
        request = self.dice_request()
        if request is not None and self.proposal is not None:
            style = "primary" if self.proposal.complete(request.count) else "quiet"
            actions.append(Target("confirm:", self._t("confirm"), style))
            actions.append(Target("die:add", self._t("add_die"), "quiet"))
            actions.append(Target("die:remove", self._t("remove_die"), "quiet"))
        elif request is not None:  # nothing read (no camera, or not settled): enter by hand
            actions.append(Target("die:add", self._t("add_die"), "quiet"))
        if self.hand():
            style = "primary" if self.rethrow else "quiet"
            actions.append(Target("reroll:", self._t("reroll"), style))
        actions.append(Target("undo:", self._t("undo"), "danger"))
        if state.is_over:
            actions.append(
                Target(f"game:{self.session.record.game}", self._t("new_game"), "primary")
            )
        return actions

    def _tap_undo(self, _: str) -> None:
        self.undo()

    def _add_moves(self, screen: Screen, state: engines.State) -> None:
        request = self.dice_request()
        if self.picking is not None and request is not None:
            faces = POKER_FACES if request.kind == "poker" else D6_FACES
            screen.options = [Target(f"face:{f}", f, "primary") for f in faces]
            return
        hand = self.hand()
        if hand:
            screen.options = [
                Target(f"hand:{i}", face, "selected" if i in self.rethrow else "normal")
                for i, face in enumerate(hand)
            ]
        moves = self.move_targets(state)
        pages = max(1, -(-len(moves) // self.moves_per_page))
        self.page = min(self.page, pages - 1)
        start = self.page * self.moves_per_page
        screen.moves = moves[start : start + self.moves_per_page]
        screen.page = (self.page, pages)
        if self._uses_keyboard(state):
            screen.keys = self._card_keys(state)
            screen.entry = self.entry
            screen.board_targets = self.session.record.game == "sequence"

    def move_targets(self, state: engines.State) -> list[Target]:
        if state.is_over or self.dice_request() is not None:
            return []
        if self._uses_keyboard(state) and (self._revealing(state) or self._board_entry(state)):
            return []  # entered on the keyboard / board, not picked from hundreds of moves
        return [
            Target(f"move:{a.notation}", a.describe(self.language))
            for a in state.legal_actions()
            if not a.notation.startswith("rethrow")
        ]

    def _board_entry(self, state: engines.State) -> bool:
        return state.game.name == "sequence"

    def _page_count(self) -> int:
        state = self.state
        if state is None:
            return 1
        return max(1, -(-len(self.move_targets(state)) // self.moves_per_page))

    def _uses_keyboard(self, state: engines.State) -> bool:
        record = self.session.record if self.session else None
        if record is None or record.mode != "table" or not isinstance(state.actor, int):
            return False
        return record.game in CARD_GAMES or self._revealing(state)

    @staticmethod
    def _revealing(state: engines.State) -> bool:
        """Struggle at the table: each player says the arrival order on their objective card."""
        return state.game.name == "struggle" and state.view(None).get("phase") == "reveal"

    def _card_keys(self, state: engines.State) -> list[Target]:
        game = self.session.record.game
        if self._revealing(state):
            return [Target(f"key:{p}", p) for p in STRUGGLE_PAWNS] + self._entry_controls()
        if game == "strategix":
            keys = [Target(f"key:{k}", k) for k in STRATEGIX_KEYS]
            keys += [Target("play:pass", self._t("pass")), Target("play:petard", "Pétard")]
        else:
            keys = [Target(f"key:{r}", "10" if r == "T" else r) for r in SEQUENCE_RANKS]
            keys += [Target(f"key:{s}", _suit_symbol(s)) for s in SEQUENCE_SUITS]
            keys.append(Target("entry:dead", self._t("dead_card"), "quiet"))
        return keys + self._entry_controls()

    def _screen_scores(self) -> Screen:
        screen = Screen("scores", self._t("scores"))
        players = self.store.known_players()
        screen.options = [
            Target(f"player:{name}", name, "selected" if name == self.scores_player else "quiet")
            for name in players[:10]
        ]
        screen.actions = [Target("export:", self._t("export"))]
        if self.scores_player:
            screen.lines = self._player_lines(self.scores_player)
            return screen
        rows = self.store.totals()
        screen.lines = [
            self._t(
                "totals",
                game=game_title(r.game),
                player=r.player,
                total=r.total,
                games=r.games,
                wins=r.wins,
            )  # fmt: skip
            for r in rows
        ] or [self._t("no_scores")]
        return screen

    def _player_lines(self, player: str) -> list[str]:
        stats = self.store.stats(player)
        lines = [self._t("player_stats", player=player, games=stats["games"], wins=stats["wins"])]
        for game, entry in stats["by_game"].items():
            average = f"{entry['average']:.1f}"
            if self.language == "fr":
                average = average.replace(".", ",")
            lines.append(
                self._t("player_game", game=game_title(game), **{**entry, "average": average})
            )
        for row in reversed(self.store.history(player)[-6:]):
            result = self._t("won" if row.winner else "lost")
            lines.append(f"#{row.game_id} {game_title(row.game)} : {row.score} ({result}) — "
                         + ", ".join(row.opponents))  # fmt: skip
        return lines

    def _tap_player(self, name: str) -> None:
        if name not in self.store.known_players():
            self._say(f"no player {name!r}", True)
            return
        self.scores_player = "" if name == self.scores_player else name

    def _screen_settings(self) -> Screen:
        screen = Screen("settings", self._t("settings"))
        screen.options = [
            Target("lang:fr", "Français", "selected" if self.language == "fr" else "normal"),
            Target("lang:en", "English", "selected" if self.language == "en" else "normal"),
        ] + [
            Target(f"camera:{spec}", spec, "selected" if spec == self.camera_choice else "quiet")
            for spec in CAMERA_CHOICES
        ]
        if self.tray_points is not None:
            return self._screen_tray(screen)
        if self.teaching is None:
            screen.actions = [
                Target("tray:edit", self._t("tray_edit"), "normal"),
                Target("teach:start", self._t("teach"), "primary"),
            ]
        else:
            face = POKER_FACES[self.teaching]
            screen.actions = [
                Target("teach:capture", self._t("teach_capture", face=face), "primary"),
                Target("teach:cancel", self._t("cancel"), "quiet"),
            ]
            screen.camera = self.image
        screen.lines = [
            self._t("camera", status=self.status.get("camera", "?")),
            self._t("tray", roi=self._roi_text(self.tray_roi)),
            *([self.status["tray_problem"]] if self.status.get("tray_problem") else []),
            self._t("buttons", status=self.status.get("buttons", "?")),
            self._t("state_dir", path=self.store.state_dir),
            self._t("profile", path=self.profile_path or self._t("profile_default")),
        ]
        return screen

    def _roi_text(self, roi: Roi | None) -> str:
        if roi is None:
            return self._t("tray_all")
        return f"x={roi[0]} y={roi[1]}, {roi[2]}×{roi[3]}"

    def _screen_tray(self, screen: Screen) -> Screen:
        """The live camera view to touch two opposite corners of the tray on."""
        points = self.tray_points or []
        screen.camera = self.image
        screen.point_target = "trayat:"
        screen.tray_points = list(points)
        screen.tray = tray_rect(points) if len(points) == 2 else self.tray_roi
        screen.actions = [
            Target("tray:ok", self._t("ok"), "primary" if len(points) == 2 else "quiet"),
            Target("tray:reset", self._t("tray_reset"), "danger"),
            Target("tray:cancel", self._t("cancel"), "quiet"),
        ]
        shown = tray_rect(points) if len(points) == 2 else self.tray_roi
        screen.lines = [self._t("tray_help"), self._t("tray", roi=self._roi_text(shown))]
        return screen

    # ----- settings: tray region ------------------------------------------------------------

    def _tap_tray(self, step: str) -> None:
        if self.screen_name != "settings":
            self._say(f"tray:{step} is not on this screen", True)
        elif step == "edit":
            self.teaching, self.taught = None, {}
            self.tray_points = []
            self._say(self._t("tray_touch") if self.image is not None
                      else self._t("no_camera_frame"), self.image is None)  # fmt: skip
        elif step in ("ok", "reset", "cancel") and self.tray_points is not None:
            getattr(self, f"_tray_{step}")()
        else:
            self._say(f"unknown tray step {step!r}", True)

    def _tray_ok(self) -> None:
        points = self.tray_points or []
        if len(points) != 2:
            self._say(self._t("tray_two", n=len(points)), True)
            return
        roi = tray_rect(points)
        if min(roi[2], roi[3]) < MIN_TRAY_SIDE:
            self._say(self._t("tray_small", side=MIN_TRAY_SIDE), True)
            return
        self.tray_roi, self.tray_points = roi, None
        self._say(self._t("tray_saved", roi=self._roi_text(roi)))

    def _tray_reset(self) -> None:
        self.tray_roi, self.tray_points = None, None
        self._say(self._t("tray_saved", roi=self._t("tray_all")))

    def _tray_cancel(self) -> None:
        self.tray_points = None
        self._say("")

    def _tap_trayat(self, where: str) -> None:
        """A touch on the camera view while choosing the tray: `x,y` in camera image pixels."""
        if self.tray_points is None or self.screen_name != "settings":
            self._say("the tray region is not being chosen", True)
            return
        if self.image is None:
            self._say(self._t("no_camera_frame"), True)
            return
        match = re.fullmatch(r"(-?\d+),(-?\d+)", where)
        height, width = self.image.shape[:2]
        if match is None:
            self._say(f"bad tray point {where!r}", True)
            return
        x = min(max(int(match.group(1)), 0), width)
        y = min(max(int(match.group(2)), 0), height)
        if len(self.tray_points) == 2:
            self.tray_points = []  # a third touch starts a new rectangle
        self.tray_points.append((x, y))
        self._say(self._t("tray_touch_second") if len(self.tray_points) == 1
                  else self._t("tray_confirm"))  # fmt: skip

    # ----- settings: camera, teaching poker dice --------------------------------------------

    def _tap_camera(self, spec: str) -> None:
        if spec not in CAMERA_CHOICES:
            self._say(f"unknown camera {spec!r}", True)
            return
        self.camera_choice = spec
        self.store.set_setting("camera", spec)
        self._say(self._t("camera", status=spec))

    def _tap_teach(self, step: str) -> None:
        if self.screen_name != "settings":
            self._say(f"teach:{step} is not on this screen", True)
        elif step == "start":
            self.teaching, self.taught, self.tray_points = 0, {}, None
            self._say(self._t("teach_show", face=POKER_FACES[0]))
        elif step == "cancel":
            self.teaching, self.taught = None, {}
            self._say("")
        elif step == "capture" and self.teaching is not None:
            self._teach_capture()
        else:
            self._say(f"unknown teaching step {step!r}", True)

    def _teach_capture(self) -> None:
        from companion import teach

        assert self.teaching is not None
        if self.image is None:
            self._say(self._t("no_camera_frame"), True)
            return
        crops = teach.crop_dice(self.image)
        if not crops:
            self._say(self._t("teach_none"), True)
            return
        face = POKER_FACES[self.teaching]
        self.taught[face] = crops
        if self.teaching + 1 < len(POKER_FACES):
            self.teaching += 1
            self._say(self._t("teach_got", n=len(crops), face=face,
                              next=POKER_FACES[self.teaching]))  # fmt: skip
            return
        try:
            path = teach.learn_profile(self.taught, self.store.state_dir)
        except ValueError as error:
            self._say(self._t("illegal", reason=error), True)
            return
        finally:
            self.teaching = None
        self.profile_path = str(path)
        self.store.set_setting("poker_profile", self.profile_path)
        self._say(self._t("teach_done", path=path))

    def _screen_rules(self) -> Screen:
        game = self.rules_game or (self.session.record.game if self.session else self.draft.game)
        game = game or "struggle"
        screen = Screen("rules", f"{self._t('rules')} : {game_title(game)}", game=game)
        screen.lines = RULES[game][self.language]
        screen.options = [
            Target(f"rules:{g}", game_title(g), "selected" if g == game else "normal")
            for g in GAMES
        ]
        return screen

    def _tap_rules(self, game: str) -> None:
        if game not in GAMES:
            self._say(f"unknown game {game!r}", True)
            return
        self.rules_game = game


def rebuild_state(record: GameRecord, store: Store) -> engines.State:
    """Replay a stored game's log through its engine: the position after the last action."""
    state = engines.make_game(
        record.game, list(record.players), record.options, record.seed, record.mode
    ).new_state()
    for logged in store.actions(record.id):
        state.apply(logged.notation)
    return state


def tray_rect(corners: list[tuple[int, int]]) -> Roi:
    """The x, y, w, h rectangle with these two opposite corners."""
    (x1, y1), (x2, y2) = corners
    return (min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1))


def dice_kind(faces: list[str]) -> str:
    return "d6" if all(f in D6_FACES for f in faces) else "poker"


def _is_card(key: str) -> bool:
    return key in SEQUENCE_RANKS


def _suit_symbol(suit: str) -> str:
    return {"S": "♠\u00a0S", "H": "♥\u00a0H", "D": "♦\u00a0D", "C": "♣\u00a0C"}[suit]  # one line


def _label(value: Any) -> str:
    return "?" if value is None else str(value)


def _center(center: Any) -> tuple[float, float]:
    return (float(center[0]), float(center[1]))


def _quad(quad: Any) -> tuple[tuple[float, float], ...] | None:
    if quad is None:
        return None
    return tuple((float(x), float(y)) for x, y in np.asarray(quad).reshape(-1, 2))
