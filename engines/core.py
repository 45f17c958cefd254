"""The shared engine API: games and their options, states, actions with notation, chance, undo.

A `Game` is the rules plus the table: players, validated rule options, a seed and a mode. A
`State` is everything that happened since the start: the game's action history. Chance (a dice
roll, a deal, a draw) is an actor like the players; its outcomes are actions too, so a saved game
is just its game plus its history and replays exactly.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Literal

from engines.messages import Message, define, msg, said

CHANCE = "chance"
Actor = int | Literal["chance"]
Mode = Literal["full", "table"]
MODES: tuple[str, ...] = ("full", "table")
DiceKind = Literal["d6", "poker"]  # pips 1-6; poker faces 9 10 J Q K A (engines.dice)
MAX_NOTATION_LENGTH = 500


class EngineError(ValueError):
    """Base of every error an engine raises on bad input: the state is never changed by one.

    It carries a message as data (`code`, `params`, see engines.messages); `str()` is the English
    default. Python-chess style: the type says what kind of refusal, the code says which one.
    """

    def __init__(self, code: str, /, **params: Any) -> None:
        self.message = Message(code, params)
        super().__init__(str(self.message))

    @property
    def code(self) -> str:
        return self.message.code

    @property
    def params(self) -> Mapping[str, Any]:
        return self.message.params


class IllegalActionError(EngineError):
    """A well-formed action that the rules do not allow now."""


class NotationError(EngineError):
    """Text that is not an action of this game at all (garbled, empty, too long)."""


class OptionError(EngineError):
    """An unknown rule option, a bad option value, or a bad player list."""


class GameOverError(IllegalActionError):
    """An action tried after the game ended."""


class NothingToUndoError(EngineError):
    """Undo asked for at the start of the game."""


@dataclass(frozen=True)
class Action:
    """One move of a player or one outcome of chance, identified by its canonical notation.

    Two actions are equal when their notation is; its description (a Message: code and
    parameters, said in any language through a catalogue) and the game-specific payload ride
    along for the display and the engine.
    """

    notation: str
    message: Message | None = field(default=None, compare=False, repr=False)
    data: Any = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return self.notation

    def describe(self, language: str | None = None) -> str:
        """The description: its English default, or in `language` when the program registered
        a catalogue (engines.messages.use_catalogue); the notation when there is none. A
        program should rather say `action.message` through its own catalogue."""
        message = self.message
        return self.notation if message is None else said(message, language)


class LazyAction(Action):
    """An action whose message is made only when asked for: `describe(*args)`.

    Engines list many actions in hot paths (advisor search, benchmarks) and a player reads the
    descriptions of a few: building every message up front would cost most of the listing.
    """

    def __init__(self, notation: str, describe: Callable[..., Message], args: tuple,
                 data: Any = None) -> None:  # fmt: skip
        object.__setattr__(self, "notation", notation)
        object.__setattr__(self, "data", data)
        object.__setattr__(self, "_describe", (describe, args))

    @property
    def message(self) -> Message:  # type: ignore[override]
        describe, args = self._describe
        return describe(*args)

    def __deepcopy__(self, memo: dict) -> LazyAction:
        return self  # immutable


@dataclass(frozen=True)
class DiceWanted:
    """The throw chance waits for: how many dice and of which kind. A roll of that many faces
    of that kind (`roll 3 5`, `roll 9 J J K A`) is then a legal action."""

    count: int
    kind: DiceKind


@dataclass(frozen=True)
class Option:
    """A named rule option: its default and how to read and check a value; its help text is the
    message `option_help.<name>` (each game defines its English default)."""

    name: str
    default: Any
    parse: Callable[[str], Any] = str
    check: Callable[[Any], Message | None] = lambda value: None  # returns a problem, or None

    @property
    def help(self) -> Message:
        return msg(f"option_help.{self.name}")

    def from_text(self, text: str) -> Any:
        try:
            value = self.parse(text)
        except (TypeError, ValueError) as error:
            problem = error.args[0] if error.args and isinstance(error.args[0], Message) else None
            raise OptionError(
                "option.unreadable",
                option=self.name,
                value=_shorten(text),
                problem=problem or msg("option.unreadable.why"),
            ) from None
        return value

    def validate(self, value: Any) -> Any:
        if isinstance(value, str):
            value = self.from_text(value)
        if isinstance(self.default, bool) and not isinstance(value, bool):
            raise OptionError("option.not_on_off", option=self.name, value=repr(value))
        if isinstance(self.default, int) and not isinstance(self.default, bool):
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError("option.not_whole", option=self.name, value=repr(value))
        problem = self.check(value)
        if problem:
            raise OptionError("option.bad_value", option=self.name, problem=problem)
        return value


def _shorten(text: str, limit: int = 40) -> str | Message:
    """A bad value as quoted in an error: one line, at most `limit` characters."""
    if "\n" in text.strip() or len(text) > limit:
        return msg("option.long_value", lines=len(text.splitlines()) or 1, chars=len(text))
    return repr(text)


def whole_number(text: str) -> int | None:
    """`text` as a whole number written in ASCII digits, or None.

    Never `str.isdigit()` + `int()`: `isdigit` accepts `²` or `①`, which `int` refuses, and `int`
    accepts `1_0`, ` 7` and other scripts' digits, which are not notation.
    """
    if not text or not text.isascii() or not text.isdecimal():
        return None
    return int(text)


def parse_bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("1", "on", "yes", "true", "oui", "vrai"):
        return True
    if lowered in ("0", "off", "no", "false", "non", "faux"):
        return False
    raise ValueError(msg("option.on_off"))


def int_range(low: int, high: int) -> Callable[[Any], Message | None]:
    def check(value: Any) -> Message | None:
        if not low <= value <= high:
            return msg("option.outside", value=value, low=low, high=high)
        return None

    return check


class Game(ABC):
    """The rules of one game for one table: players, rule options, seed and mode. Immutable."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    modes: ClassVar[tuple[str, ...]] = MODES
    # What a scorebook adds up over several games: the scores (Struggle's points, Stratégix's
    # round points, Le Roudalon's net UM), or the wins where a score only says how a game was won.
    wins_are_the_total: ClassVar[bool] = False

    def __init__(
        self,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        mode: Mode = "full",
    ) -> None:
        self.players: tuple[str, ...] = self._check_players(players)
        self.option_values: Mapping[str, Any] = MappingProxyType(self._check_options(options or {}))
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError("setup.seed", seed=repr(seed))
        self.seed = seed
        if mode not in self.modes:
            raise OptionError("setup.mode", modes=", ".join(self.modes), mode=repr(mode))
        self.mode: Mode = mode
        self._check_setup()

    def _check_players(self, players: Sequence[str]) -> tuple[str, ...]:
        names = tuple(str(p).strip() for p in players)
        if not self.min_players <= len(names) <= self.max_players:
            raise OptionError(
                "setup.player_count", game=self.title, counts=self._player_range(), n=len(names)
            )
        if any(not n for n in names):
            raise OptionError("setup.empty_name")
        if len(set(names)) != len(names):
            raise OptionError("setup.same_name")
        return names

    def _player_range(self) -> str | Message:
        if self.min_players == self.max_players:
            return str(self.min_players)
        return msg("setup.range", low=self.min_players, high=self.max_players)

    def _check_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        known = {option.name: option for option in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            names = ", ".join(known) or "-"
            raise OptionError(
                "option.unknown", option=repr(unknown[0]), game=self.name, known=names
            )
        values = {name: option.default for name, option in known.items()}
        for name, value in given.items():
            values[name] = known[name].validate(value)
        return values

    def _check_setup(self) -> None:
        """Hook for checks that involve several options or the player count together."""

    def option(self, name: str) -> Any:
        return self.option_values[name]

    @classmethod
    def player_counts(cls) -> tuple[int, ...]:
        """The numbers of players the game can be set up for."""
        return tuple(range(cls.min_players, cls.max_players + 1))

    @property
    def num_players(self) -> int:
        return len(self.players)

    @abstractmethod
    def new_state(self) -> State: ...

    def __deepcopy__(self, memo: dict) -> Game:
        return self  # immutable: every copy of a state shares its game

    def __repr__(self) -> str:
        return f"<{type(self).__name__} players={self.players} seed={self.seed} mode={self.mode}>"


class State(ABC):
    """A game in progress. Subclasses keep their mutable position in plain attributes.

    Subclasses implement `actor`, `_legal_actions`, `_parse`, `_apply`, `scores`, `is_over` and
    `_view`; the core provides validation, undo, chance sampling and history.
    """

    # Attributes that belong to the core, not to the game position (not snapshotted for undo).
    _CORE_ATTRIBUTES: ClassVar[frozenset[str]] = frozenset(
        {"game", "_history", "_snapshots", "_legal_cache", "_legal_index"}
    )

    def __init__(self, game: Game) -> None:
        self.game = game
        self._history: list[Action] = []
        self._snapshots: list[dict[str, Any] | None] = []  # None: played not undoable
        self._legal_cache: list[Action] | None = None
        self._legal_index: dict[str, Action] | None = None

    # ----- what subclasses provide -------------------------------------------------------------

    @property
    @abstractmethod
    def actor(self) -> Actor | None:
        """The player index to act, CHANCE, or None when the game is over."""

    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """Every legal action now, in a stable order (for chance: the outcomes, when countable)."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Change the position by an action already known to be legal."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Each player's score as the rule book counts it (so far, or final when over)."""

    @abstractmethod
    def _view(self, player: int | None) -> dict[str, Any]:
        """A JSON-able picture of the position as `player` may see it (None: a spectator)."""

    def _parse(self, text: str) -> Action:
        """Turn text that is not in the legal list into an action, or explain why it is not legal.

        The default knows only the legal list; games with actions too many to list (table-mode
        card plays) override this and check legality themselves.
        """
        raise self._illegal(text)

    def _illegal(self, text: str) -> EngineError:
        """The error for text that is not a legal action now; games override to say why."""
        return IllegalActionError("action.not_legal", text=text)

    def _sample_chance(self, rng: random.Random) -> Action:
        legal = self.legal_actions()
        return rng.choice(legal)

    def check_invariants(self) -> None:
        """Raise AssertionError if the position breaks one of the game's invariants (tests)."""

    def legal_notes(self) -> list[Message]:
        """What the legal list cannot say by itself: what the actor may do beyond it (plays too
        many to list) or why a move one might expect is left out. Empty for most positions."""
        return []

    def equivalent_notations(self) -> dict[str, list[str]]:
        """For listed actions that other notations reach the same position as: those notations
        (they are accepted and mean the listed one). Empty for most games."""
        return {}

    def chance_prompt(self) -> Message | None:
        """What chance outcome the game waits for, as a message (e.g. `roll <5 faces>`)."""
        return None

    def dice_wanted(self) -> DiceWanted | None:
        """The dice chance waits for, or None when no throw is due (a player acts, cards are
        awaited, the game is over). Games with dice override this."""
        return None

    def chance_hint(self) -> str:
        """The chance prompt's English default, or "" when chance is not awaited."""
        prompt = self.chance_prompt()
        return "" if prompt is None else str(prompt)

    # ----- the API ----------------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.players

    @property
    def is_over(self) -> bool:
        return self.actor is None

    @property
    def is_chance(self) -> bool:
        return self.actor == CHANCE

    @property
    def history(self) -> tuple[Action, ...]:
        return tuple(self._history)

    def winners(self) -> list[int]:
        """The players with the best score once the game is over (several when tied)."""
        if not self.is_over:
            return []
        scores = self.scores()
        best = max(scores)
        return [i for i, s in enumerate(scores) if s == best]

    def legal_actions(self) -> list[Action]:
        if self._legal_cache is None:
            self._legal_cache = [] if self.is_over else self._legal_actions()
        return list(self._legal_cache)

    def parse(self, text: str) -> Action:
        """The legal action that `text` names. Raises NotationError or IllegalActionError."""
        if not isinstance(text, str):
            raise NotationError("action.not_text", type=type(text).__name__)
        if len(text) > MAX_NOTATION_LENGTH:
            raise NotationError("action.too_long", n=len(text))
        cleaned = " ".join(text.split())
        if not cleaned:
            raise NotationError("action.empty")
        if self.is_over:
            raise GameOverError("action.game_over")
        for action in self._legal_index_lookup(cleaned):
            return action
        return self._parse(cleaned)

    def _legal_index_lookup(self, cleaned: str) -> Iterator[Action]:
        legal = self._legal_cache if self._legal_cache is not None else self.legal_actions()
        for action in legal:  # a notation as written (a replay, a bot) needs no index
            if action.notation == cleaned:
                yield action
                return
        if self._legal_index is None:
            self._legal_index = {a.notation.lower(): a for a in legal}
        found = self._legal_index.get(cleaned.lower())
        if found is not None:
            yield found

    def apply(self, action: Action | str, validate: bool = True, undoable: bool = True) -> Action:
        """Play an action (object or notation). Illegal input raises and changes nothing.

        `undoable=False` is for a replay that will never take an action back (the club checking
        a pushed game): no snapshot is kept, undo stops there, and should the engine itself
        fail inside the action the state is left as it fell, to be dropped."""
        if validate or isinstance(action, str):
            action = self.parse(action if isinstance(action, str) else action.notation)
        if not undoable:
            self._apply(action)
            self._snapshots.append(None)
            return self._played(action)
        snapshot = self._snapshot()
        try:
            self._apply(action)
        except Exception:
            self._restore(snapshot)
            raise
        self._snapshots.append(snapshot)
        return self._played(action)

    def _played(self, action: Action) -> Action:
        self._history.append(action)
        self._legal_cache = self._legal_index = None
        return action

    push = apply

    def undo(self) -> Action:
        """Take back the last action (a player's or chance's). Repeatable to the start."""
        if not self._history or self._snapshots[-1] is None:  # the start, or a replay's
            raise NothingToUndoError("action.nothing_to_undo")
        self._restore(self._snapshots.pop())
        self._legal_cache = self._legal_index = None
        return self._history.pop()

    pop = undo

    def sample_chance(self, rng: random.Random | None = None) -> Action:
        """A chance outcome drawn from the game's seeded generator (full mode, or dice anywhere).

        The draw depends only on the seed and how many actions were played, so undo and replay
        give the same outcomes again.
        """
        if not self.is_chance:
            raise IllegalActionError("action.not_chance")
        rng = rng or random.Random(f"{self.game.seed}:{len(self._history)}")
        return self._sample_chance(rng)

    def play_chance(self) -> Action:
        return self.apply(self.sample_chance(), validate=False)

    def view(self, player: int | None = None) -> dict[str, Any]:
        """What `player` may see (their own secrets, everyone's public information)."""
        if player is not None and not 0 <= player < len(self.players):
            raise ValueError(f"no player {player}")
        return self._view(player)

    def clone(self) -> State:
        """An independent copy; undo snapshots are shared (they are copied when restored)."""
        twin = copy.copy(self)
        twin.__dict__.update(self._snapshot())
        twin._history = list(self._history)
        twin._snapshots = list(self._snapshots)
        return twin

    def __deepcopy__(self, memo: dict) -> State:
        return self.clone()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State) or type(other) is not type(self):
            return NotImplemented
        return self._position() == other._position() and self.history == other.history

    __hash__ = None  # type: ignore[assignment]

    def _position(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if k not in self._CORE_ATTRIBUTES}

    def _snapshot(self) -> dict[str, Any]:
        return {key: fast_copy(value) for key, value in self._position().items()}

    def _restore(self, snapshot: dict[str, Any]) -> None:
        for key in list(self._position()):
            if key not in snapshot:
                delattr(self, key)
        # clones may share the snapshot
        self.__dict__.update({key: fast_copy(value) for key, value in snapshot.items()})

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.name} after {len(self._history)} actions>"


_IMMUTABLE = (int, float, str, bytes, bool, type(None), frozenset, Action, Message)  # never mutated


def fast_copy(value: Any) -> Any:
    """A deep copy of a position attribute, fast for what positions hold.

    Immutable values are shared, plain lists, dicts and tuples are copied element by element,
    anything else goes to copy.deepcopy. Every action snapshots the position for undo and every
    search copies it, so this is the engines' hottest path. Unlike deepcopy it does not keep
    two attributes aliased to one list: positions never alias.
    """
    kind = type(value)
    if kind in _IMMUTABLE_TYPES:
        return value
    if kind is list:
        return [fast_copy(item) for item in value]
    if kind is dict:
        return {key: fast_copy(item) for key, item in value.items()}
    if kind is tuple:
        items = tuple(fast_copy(item) for item in value)
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    if isinstance(value, _IMMUTABLE):
        return value
    return copy.deepcopy(value)


_IMMUTABLE_TYPES = frozenset(_IMMUTABLE)


define(
    {
        "option.unreadable": "option {option}: cannot read {value}: {problem}",
        "option.unreadable.why": "not a value of this option",
        "option.long_value": "the value ({lines} lines, {chars} characters)",
        "option.on_off": "expected on or off",
        "option.not_on_off": "option {option}: expected on/off, got {value}",
        "option.not_whole": "option {option}: expected a whole number, got {value}",
        "option.bad_value": "option {option}: {problem}",
        "option.outside": "{value} is outside {low}..{high}",
        "option.unknown": "unknown option {option} for {game} (known: {known})",
        "setup.seed": "seed must be a whole number, got {seed}",
        "setup.mode": "mode must be one of {modes}, got {mode}",
        "setup.player_count": "{game} takes {counts} players, got {n}",
        "setup.range": "{low} to {high}",
        "setup.empty_name": "player names must not be empty",
        "setup.same_name": "player names must be different",
        "action.not_legal": "'{text}' is not a legal action now",
        "action.not_text": "an action is text, got {type}",
        "action.too_long": "action text is too long ({n} characters)",
        "action.empty": "empty action",
        "action.game_over": "the game is over",
        "action.nothing_to_undo": "nothing to undo: the game is at its start",
        "action.not_chance": "it is not chance's turn",
    }
)


def current_player_name(state: State) -> str:
    actor = state.actor
    if actor is None:
        return ""
    if actor == CHANCE:
        return CHANCE
    return state.players[actor]
