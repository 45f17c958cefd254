"""The home and set-up screens: a game chosen, its players named and counted, its options set.

A mixin of the controller (it keeps the draft and the name being typed on the controller).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engines
from companion.store import StoreError
from display.i18n import game_title, option_title, text
from display.model import Screen, Target

GAMES = ("struggle", "traverse", "strategix", "sequence", "roudalon")
LETTERS = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + (" ",)
MORE = tuple("ÉÈÊËÀÂÄÇÎÏÔÖÙÛÜÑ") + tuple("0123456789") + ("-", "'")
NAME_KEYS = LETTERS + MORE
MAX_NAME = 12


@dataclass
class SetupDraft:
    game: str = ""
    players: list[str] = field(default_factory=list)
    teams: list[int] = field(default_factory=list)
    team_count: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    editing: int | None = None  # seat whose name is being typed
    bots: dict[int, str] = field(default_factory=dict)  # seat -> bot level (companion.bot_choice)
    bots_named: dict[int, bool] = field(default_factory=dict)  # seats given a bot's name


class SetupScreens:
    """Home and set-up: screens and touches (mixed into the Controller)."""

    language: str
    store: Any
    draft: SetupDraft
    entry: str
    screen_name: str

    def _tap_game(self, name: str) -> None:
        if name not in GAMES:
            self._not_here(f"game:{name}")
            return
        try:
            game_class = engines.game_class(name)
        except engines.EngineError:
            self._say(self._t("not_built", game=game_title(name, self.language)), True)
            return
        count = game_class.player_counts()[0]
        known = self.store.known_players()
        names = [
            known[i] if i < len(known) else text(self.language, "player_n", n=i + 1)
            for i in range(count)
        ]
        self.draft = SetupDraft(game=name, players=names, teams=[i % 2 for i in range(count)])
        self.start_confirmed = False
        self.screen_name = "setup"
        self._say("")

    def _in_setup(self) -> bool:
        if self.screen_name == "setup" and self.draft.game:
            return True
        self._not_here("setup")
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
        draft.bots = {seat: level for seat, level in draft.bots.items() if seat < wanted}
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
            self._not_here(f"name:{seat}")
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
            self._not_here(f"option:{name}")
            return
        current = self.draft.options.get(name, option.default)
        self.draft.options[name] = not current

    def _tap_start(self, _: str) -> None:
        if not self._in_setup():
            return
        draft = self.draft
        if self._in_progress() and not getattr(self, "start_confirmed", False):
            self.start_confirmed = True  # the next touch on Start starts it
            title = game_title(self.session.record.game, self.language)
            self._say(self._t("start_ask", game=title))
            return
        self.start_confirmed = False
        teams = draft.teams if draft.game == "sequence" else None
        mode = self.start_mode(draft.game, draft.bots)
        try:
            self.start_game(draft.game, list(draft.players), dict(draft.options), mode=mode,
                            teams=teams, bots=dict(draft.bots))  # fmt: skip
        except (engines.EngineError, StoreError) as error:
            self._refuse(error, draft.game, "start_error")
            return
        self._say("")

    def _screen_home(self) -> Screen:
        available = set(engines.available_games())
        options = [
            Target(
                f"game:{g}", game_title(g, self.language), "normal" if g in available else "quiet"
            )  # fmt: skip
            for g in GAMES
        ]
        actions = [
            Target(
                f"resume:{record.id}",
                self._t(
                    "resume_game",
                    game=game_title(record.game, self.language),
                    players=", ".join(record.players),
                ),
                "primary",
            )  # fmt: skip
            for record in self.store.unfinished()
        ]
        return Screen("home", self._t("choose_game"), options=options, actions=actions)

    def _in_progress(self) -> bool:
        return self.session is not None and self.session.record.status == "playing"

    def _tap_resume(self, game_id: str) -> None:
        """Go back to an unfinished game, where it was left."""
        wanted = next((r for r in self.store.unfinished() if str(r.id) == game_id), None)
        if wanted is None:
            self._not_here(f"resume:{game_id}")
            return
        self.load(wanted)
        self._say(self._t("resumed", game=game_title(wanted.game, self.language)))

    def _screen_setup(self) -> Screen:
        draft = self.draft
        title = self._t("setup", game=game_title(draft.game, self.language))
        screen = Screen("setup", title, game=draft.game)
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
            screen.options.append(self._seat_target(seat))
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
                label = self._t("field", name=name, value=self._t("yes" if value else "no"))
                screen.options.append(Target(f"option:{option.name}", label))
        screen.options.append(self._hint_option(draft.game))
        screen.lines = [self._t("players", n=len(draft.players))]
        if draft.editing is not None:
            screen.lines = [self._t("typing_name", n=draft.editing + 1)]
            screen.entry = self.entry
            screen.keys = self._name_keys()
        again = getattr(self, "start_confirmed", False)
        start = self._t("start_anyway" if again else "start")
        screen.actions = [Target("start:", start, "primary")]
        return screen

    def _name_keys(self) -> list[Target]:
        """Letters and space, or accented letters, digits and signs; a key switches them."""
        more = getattr(self, "key_layer", "") == "more"
        shown = MORE if more else LETTERS
        keys = [Target(f"key:{k}", self._t("space") if k == " " else k) for k in shown]
        keys.append(Target("keys:letters" if more else "keys:more",
                           "ABC" if more else "ÉÇ1", "quiet"))  # fmt: skip
        return keys + self._entry_controls()

    def _tap_keys(self, layer: str) -> None:
        self.key_layer = "more" if layer == "more" else ""

    def _entry_controls(self) -> list[Target]:
        return [
            Target("entry:back", self._t("back"), "quiet"),
            Target("entry:clear", self._t("clear"), "quiet"),
            Target("entry:ok", self._t("ok"), "primary"),
        ]

    def _type_name(self, key: str) -> None:
        if key.upper() in NAME_KEYS and len(self.entry) < MAX_NAME:
            self.entry += key

    def _name_ok(self) -> None:
        name = self.entry.strip().title()
        others = [n for i, n in enumerate(self.draft.players) if i != self.draft.editing]
        if not name or name in others:
            self._say(self._t("illegal", reason=self._t("name_taken")), True)
            return
        self.draft.players[self.draft.editing] = name
        self.draft.editing, self.entry = None, ""

    def type_text(self, typed: str) -> None:
        """Keys of a physical keyboard: into the open keyboard (a name, or a typed play)."""
        if not self.typing():
            return
        for char in typed:
            if char == "\b":
                self._tap_entry("back")
            elif char in "\r\n":
                self._tap_entry("ok")
            elif self.screen_name == "setup":
                self._type_name(char)
            else:
                self._type_play_key(char)
