"""The home and set-up screens: a game chosen (or one in progress resumed), its players named,
counted and seated as people or bots, its options set, then started."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import engines
from companion.name_keyboard import NameKeyboard, type_keys
from companion.persistence.store import StoreError
from companion.screen_base import Handler, KioskView, ScreenName, ScreenObject
from companion.session import CARD_GAMES, SEAT_KINDS, Session, hint_enabled
from display.i18n import game_title, option_help, option_title, say, text
from display.model import Screen, Target
from engines.traverse import COLOURS as TRAVERSE_COLOURS

GAMES = ("struggle", "traverse", "strategix", "sequence", "roudalon")
SUGGESTED = 4  # the scorebook's names offered above the name keyboard (one row)


@dataclass
class SetupDraft:
    game: str = ""
    players: list[str] = field(default_factory=list)
    teams: list[int] = field(default_factory=list)
    team_count: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    editing: int | None = None  # seat whose name is being typed
    bots: dict[int, str] = field(default_factory=dict)  # seat -> bot level (companion.bot_choice)
    person_names: dict[int, str] = field(default_factory=dict)  # a bot seat's name as a person
    unnamed: set[int] = field(default_factory=set)  # seats under set-up's "Player N": no one's

    def add_seat(self, name: str, placeholder: bool) -> None:
        if placeholder:
            self.unnamed.add(len(self.players))
        self.players.append(name)

    def keep_seats(self, count: int) -> None:
        """The first `count` seats; what set-up knew of the others is forgotten."""
        del self.players[count:]
        self.bots = {seat: level for seat, level in self.bots.items() if seat < count}
        self.person_names = {s: name for s, name in self.person_names.items() if s < count}
        self.unnamed = {seat for seat in self.unnamed if seat < count}


class HomeScreen(ScreenObject):
    """The games to choose from, and the games in progress to resume."""

    name: ScreenName = "home"

    @property
    def taps(self) -> Mapping[str, Handler]:
        return {"game": self.choose, "resume": self.resume}

    def choose(self, game: str) -> None:
        self.view.go("choose_game", game)

    def resume(self, game_id: str) -> None:
        """Go back to an unfinished game, where it was left."""
        store = self.view.store
        wanted = next((r for r in store.unfinished() if str(r.id) == game_id), None)
        if wanted is None:
            self.view.not_here(f"resume:{game_id}")
            return
        self.view.open_session(Session.load(store, wanted))
        self.view.say(self.t("resumed", game=game_title(wanted.game, self.view.language)))

    def draw(self) -> Screen:
        language = self.view.language
        available = set(engines.available_games())
        options = [
            Target(f"game:{g}", game_title(g, language), "normal" if g in available else "quiet")
            for g in GAMES
        ]
        actions = [
            Target(
                f"resume:{record.id}",
                self.t(
                    "resume_game",
                    game=game_title(record.game, language),
                    players=", ".join(record.players),
                ),
                "primary",
            )  # fmt: skip
            for record in self.view.store.unfinished()
        ]
        return Screen("home", self.t("choose_game"), options=options, actions=actions)


class SetupScreen(ScreenObject):
    """A game's players, seats, teams and options, then Start."""

    name: ScreenName = "setup"

    def __init__(self, view: KioskView, seed_source: random.Random) -> None:
        super().__init__(view)
        self.seed_source = seed_source
        self.draft = SetupDraft()
        self.keyboard = NameKeyboard(view)
        self.start_confirmed = False  # a game is in progress: the next touch on Start starts

    @property
    def taps(self) -> Mapping[str, Handler]:
        return {
            "count": self.count, "teams": self.teams, "name": self.name_seat,
            "seat": self.seat, "option": self.option, "hintset": self.hint_setting,
            "start": self.start, "key": self.key, "keys": self.keyboard.switch,
            "entry": self.entry, "suggest": self.suggest,
        }  # fmt: skip

    def enter(self, arg: str) -> bool:
        """A game chosen: a fresh draft with its fewest players (known names first)."""
        if arg not in GAMES:
            self.view.not_here(f"game:{arg}")
            return False
        try:
            game_class = engines.game_class(arg)
        except engines.EngineError:
            self.view.say(self.t("not_built", game=game_title(arg, self.view.language)), True)
            return False
        self.draft = SetupDraft(game=arg)
        for _ in range(game_class.player_counts()[0]):
            self.draft.add_seat(*self._new_seat_name(self.draft.players))
        self._fit_teams()
        self.start_confirmed = False
        self.view.say("")
        return True

    # ----- touches --------------------------------------------------------------------------

    def count(self, delta: str) -> None:
        if delta not in ("+", "-"):
            return
        draft = self.draft
        counts = engines.game_class(draft.game).player_counts()
        step = 1 if delta == "+" else -1
        allowed = [n for n in counts if (n - len(draft.players)) * step > 0]
        if not allowed:
            self.view.say(self._count_limit(counts), True)
            return
        wanted = min(allowed) if step > 0 else max(allowed)
        while len(draft.players) < wanted:
            draft.add_seat(*self._new_seat_name(draft.players))
        draft.keep_seats(wanted)
        self._fit_teams()

    def _new_seat_name(self, seated: list[str]) -> tuple[str, bool]:
        """A known person not seated yet, else "Player N" numbered from the seats present, and
        whether it is such a placeholder (no one's: it never becomes a scorebook player). A
        placeholder skips the names of known people (their scores would merge), and a known
        name that is itself a placeholder (kept by an older table) is not offered."""
        language, known, seat = self.view.language, self.view.store.known_players(), len(seated)
        defaults = {text(language, "player_n", n=n) for n in range(1, len(known) + seat + 2)}
        for name in known:
            if name not in seated and name not in defaults:
                return name, False
        taken, number = set(known) | set(seated), seat + 1
        while text(language, "player_n", n=number) in taken:
            number += 1
        return text(language, "player_n", n=number), True

    def _count_limit(self, counts: tuple[int, ...]) -> str:
        game = game_title(self.draft.game, self.view.language)
        if len(counts) == 1:
            return self.t("count_only", game=game, n=counts[0])
        if list(counts) == list(range(min(counts), max(counts) + 1)):
            return self.t("count_limit", game=game, low=min(counts), high=max(counts))
        # Not a range (Le Roudalon: 4 or 6): "4 to 6" would promise a game of 5.
        listed = ", ".join(str(n) for n in counts[:-1])
        return self.t("count_choices", game=game, listed=listed, last=counts[-1])

    def _team_counts(self) -> list[int]:
        """The numbers of equal teams these players can make (Sequence)."""
        return [n for n in (2, 3) if len(self.draft.players) % n == 0]

    def _fit_teams(self) -> None:
        """Teams the players can make: the one chosen while it still fits, else the engine's
        own choice (3 teams for 3 or 9 players, else 2)."""
        draft = self.draft
        if draft.game != "sequence":
            draft.teams = [i % 2 for i in range(len(draft.players))]
            return
        fitting = self._team_counts()
        if draft.options.get("teams") not in fitting:
            draft.options.pop("teams", None)
            draft.team_count = 3 if len(draft.players) in (3, 9) else 2
        draft.teams = [i % draft.team_count for i in range(len(draft.players))]

    def teams(self, count: str) -> None:
        if not count.isdigit() or int(count) not in self._team_counts():
            self.view.not_here(f"teams:{count}")
            return
        self.draft.team_count = int(count)
        self.draft.options["teams"] = int(count)  # players sit alternately: seat % teams
        self._fit_teams()

    def name_seat(self, seat: str) -> None:
        if not seat.isdigit() or int(seat) >= len(self.draft.players):
            self.view.not_here(f"name:{seat}")
            return
        self.draft.editing = int(seat)
        self.keyboard.open()

    def seat(self, seat: str) -> None:
        """The next kind for this seat: person, then each bot level, then person again."""
        draft = self.draft
        if not seat.isdigit() or int(seat) >= len(draft.players):
            self.view.not_here(f"seat:{seat}")
            return
        index = int(seat)
        if draft.editing == index and self.keyboard.name():
            self._name_ok()  # the name being typed is the seat's before its kind changes
        kind = SEAT_KINDS[(SEAT_KINDS.index(draft.bots.get(index, "")) + 1) % len(SEAT_KINDS)]
        if kind:
            draft.bots[index] = kind
            if index not in draft.person_names:
                draft.person_names[index] = draft.players[index]
                draft.players[index] = self._unique_bot_name(index)
        else:
            draft.bots.pop(index, None)
            self._person_again(index)
        if len(draft.bots) == len(draft.players):
            draft.bots.pop(index, None)  # someone must be at the table
            self._person_again(index)
            self.view.say(self.t("bots_all"), True)

    def _person_again(self, seat: int) -> None:
        """A seat back to a person gets the name it had before it was a bot."""
        name = self.draft.person_names.pop(seat, None)
        others = {n for i, n in enumerate(self.draft.players) if i != seat}
        if name is not None and name not in others:
            self.draft.players[seat] = name

    def _unique_bot_name(self, seat: int) -> str:
        others = {n for i, n in enumerate(self.draft.players) if i != seat}
        number = seat + 1
        while self.t("bot_name", n=number) in others:
            number += 10
        return self.t("bot_name", n=number)

    def option(self, touched: str) -> None:
        """A yes/no option switched, or a number option stepped ("name", "name:+", "name:-")
        within what the engine allows."""
        name, _, step = touched.partition(":")
        option = next((o for o in self._options() if o.name == name), None)
        yes_no = option is not None and type(option.default) is bool
        if option is None or step not in ("", "+", "-") or (step and yes_no):
            self.view.not_here(f"option:{touched}")
            return
        current = self.draft.options.get(name, option.default)
        wanted = (not current) if yes_no else current + (-1 if step == "-" else 1)
        problem = option.check(wanted)
        if problem is not None:
            self.view.say(say(self.view.language, problem), True)
            return
        self.draft.options[name] = wanted
        value = self._option_label(name, wanted)
        explained = option_help(name, self.view.language)
        self.view.say(f"{value} — {explained}" if explained else value)

    def _options(self) -> list[engines.Option]:
        """The rule options set-up offers: yes/no and numbers (Sequence's teams have their own
        buttons)."""
        found = engines.game_class(self.draft.game).options
        return [o for o in found if type(o.default) in (bool, int) and o.name != "teams"]

    def _option_label(self, name: str, value: object) -> str:
        shown = self.t("yes" if value else "no") if isinstance(value, bool) else str(value)
        return self.t("field", name=option_title(name, self.view.language), value=shown)

    def hint_setting(self, _: str) -> None:
        """Switch the hint on or off for the game being set up (kept for its next games)."""
        game, store = self.draft.game, self.view.store
        store.set_setting(f"hint.{game}", "off" if hint_enabled(store, game) else "on")

    def start(self, _: str) -> None:
        draft = self.draft
        session = self.view.session
        if session is not None and session.record.status == "playing" and not self.start_confirmed:
            self.start_confirmed = True  # the next touch on Start starts it
            title = game_title(session.record.game, self.view.language)
            self.view.say(self.t("start_ask", game=title))
            return
        self.start_confirmed = False
        teams = draft.teams if draft.game == "sequence" else None
        mode = start_mode(draft.game, draft.bots)
        seed = self.seed_source.randrange(2**31)
        try:
            started = Session.start(self.view.store, draft.game, list(draft.players),
                                    dict(draft.options), seed, mode, teams,
                                    bots=dict(draft.bots),
                                    unnamed=frozenset(draft.unnamed))  # fmt: skip
        except (engines.EngineError, StoreError) as error:
            self.view.refuse(error, "start_error")
            return
        self.view.open_session(started)
        self.view.say("")

    # ----- the name keyboard ----------------------------------------------------------------

    def key(self, key: str) -> None:
        if self.draft.editing is None:
            self.view.not_here("key")
            return
        self.keyboard.type(key)

    def entry(self, command: str) -> None:
        if self.draft.editing is None:
            self.view.not_here("key")
        elif command == "ok":
            self._name_ok()
        elif not self.keyboard.edit(command):
            self.view.not_here(f"entry:{command}")

    def suggest(self, name: str) -> None:
        """A name from the scorebook touched above the keyboard: it fills the entry."""
        if self.draft.editing is None or name not in self._suggestions():
            self.view.not_here(f"suggest:{name}")
            return
        self.keyboard.entry = name

    def _suggestions(self) -> list[str]:
        """People's names not seated elsewhere that begin as the entry does, the first few."""
        typed, editing = self.keyboard.name().casefold(), self.draft.editing
        seated = {n for i, n in enumerate(self.draft.players) if i != editing}
        known = [n for n in self.view.store.known_players() if n not in seated]
        return [n for n in known if n.casefold().startswith(typed)][:SUGGESTED]

    def _name_ok(self) -> None:
        name = self.keyboard.name()
        others = [n for i, n in enumerate(self.draft.players) if i != self.draft.editing]
        if not name or name in others or self.draft.editing is None:
            self.view.say(self.t("illegal", reason=self.t("name_taken")), True)
            return
        self.draft.players[self.draft.editing] = name
        self.draft.unnamed.discard(self.draft.editing)  # typed: a person's name
        if self.draft.editing in self.draft.bots:  # the seat's name as a person too
            self.draft.person_names[self.draft.editing] = name
        self.draft.editing, self.keyboard.entry = None, ""

    def type_text(self, typed: str) -> None:
        """Keys of a physical keyboard into the name being typed."""
        type_keys(typed, self.entry, self.keyboard.type)

    # ----- the screen -----------------------------------------------------------------------

    def draw(self) -> Screen:
        draft = self.draft
        title = self.t("setup", game=game_title(draft.game, self.view.language))
        screen = Screen("setup", title, game=draft.game)
        counts = engines.game_class(draft.game).player_counts()
        fewer = any(n < len(draft.players) for n in counts)
        more = any(n > len(draft.players) for n in counts)
        screen.options = [  # dim where no count is left that way (touched, they say the counts)
            Target("count:-", self.t("fewer_players"), "normal" if fewer else "disabled"),
            Target("count:+", self.t("more_players"), "normal" if more else "disabled"),
        ]
        for seat, name in enumerate(draft.players):
            style = "selected" if draft.editing == seat else "normal"
            label = name
            if draft.game == "sequence":
                label += f" ({self.t('team', n=draft.teams[seat] + 1)})"
            if draft.game == "traverse":  # the colour each seat moves, as the score line says
                label += f" ({self.t(f'traverse.{TRAVERSE_COLOURS[seat]}')})"
            screen.options.append(Target(f"name:{seat}", label, style))
            screen.options.append(self._seat_target(seat))
        team_counts = self._team_counts() if draft.game == "sequence" else []
        if len(team_counts) > 1:
            screen.options += [
                Target(
                    f"teams:{n}",
                    self.t("teams", n=n),
                    "selected" if draft.team_count == n else "normal",
                )  # fmt: skip
                for n in team_counts
            ]
        screen.options += self._option_targets()
        screen.lines = [self.t("players", n=len(draft.players))]
        if len(team_counts) == 1:  # no choice: a value, not a button that looks pressed
            screen.lines.append(self.t("teams", n=draft.team_count))
        if draft.game in CARD_GAMES:
            dealt = start_mode(draft.game, draft.bots) == "full"
            screen.lines.append(text(self.view.language, "cards_dealt" if dealt else "cards_own"))
        if draft.game == "struggle":  # its objective cards are real ones, a robot's too
            screen.lines.append(text(self.view.language, "struggle.cards_robot" if draft.bots
                                     else "struggle.cards_own"))  # fmt: skip
        if draft.editing is not None:
            screen.lines = [self.t("typing_name", n=draft.editing + 1)]
            screen.entry = self.keyboard.name()
            screen.keys = self.keyboard.keys()
            screen.options = [Target(f"suggest:{n}", n) for n in self._suggestions()]
        start = self.t("start_anyway" if self.start_confirmed else "start")
        screen.actions = [Target("start:", start, "primary")]
        return screen

    def _seat_target(self, seat: int) -> Target:
        kind = self.draft.bots.get(seat, "")
        if not kind:
            return Target(f"seat:{seat}", self.t("seat_person"))
        level = self.t("bot_level." + kind.replace("-", "_"))
        return Target(f"seat:{seat}", self.t("seat_bot", level=level), "selected")

    def _option_targets(self) -> list[Target]:
        targets = []
        for option in self._options():
            value = self.draft.options.get(option.name, option.default)
            targets.append(Target(f"option:{option.name}", self._option_label(option.name, value)))
            if type(option.default) is int:
                targets += [Target(f"option:{option.name}:-", "−"),
                            Target(f"option:{option.name}:+", "+")]  # fmt: skip
        if self.draft.game in CARD_GAMES and not self.draft.bots:
            return targets  # no hint at a table where the hands are not entered
        hint = self.t("yes" if hint_enabled(self.view.store, self.draft.game) else "no")
        targets.append(Target("hintset:", self.t("field", name=self.t("hint"), value=hint)))
        return targets


def start_mode(game: str, bots: dict[int, str]) -> str:
    """Table mode, but full mode for a card game with a bot (the companion holds its cards)."""
    return "full" if bots and game in CARD_GAMES else "table"
