"""One game at the table: its engine position, its record in the store, its table interaction
and who sits where (people and bots).

Every action is written to the store before the position that shows its result is built, so
what the screen shows is always on disk. The session knows no screen: the kiosk's screens ask
it what the engine waits for and hand it the actions the players chose.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import engines
from companion.dice_proposal import DiceProposal
from companion.persistence.store import GameRecord, LoggedAction, Store
from companion.tables import Choice, DiceRequest, Table, table_for

SEAT_KINDS = ("", "simple", "advisor-fast", "advisor")  # "" is a person (companion.bot_choice)
CARD_GAMES = ("strategix", "sequence")  # at a table the companion does not know the hands
PositionKey = tuple[int, int, int]  # game, length of its history, undos so far


@dataclass(frozen=True)
class Drawn:
    """An outcome the kiosk chose itself: drawn as dealer, or the only person who could be the
    answer to a question about people."""

    action: engines.Action
    only_person: int | None = None  # the seat of the only person who could be the answer


class Session:
    """The game shown at the table, kept in step with its log in the store."""

    def __init__(self, store: Store, record: GameRecord, state: engines.State) -> None:
        self.store = store
        self.record = record
        self.state = state
        self.table: Table = table_for(record.game)
        self.bots: dict[int, str] = {}  # seat -> bot level
        self.last_roll: DiceProposal | None = None  # the reading behind the last confirmed roll
        self.hint_on = hint_enabled(store, record.game)  # read once: drawing never reads the store
        self._choices: tuple[tuple[int, str], list[Choice]] | None = None
        self.undos = 0  # a position reached again after an undo is a new one for what was planned

    # ----- life -----------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        store: Store,
        game: str,
        players: list[str],
        options: dict[str, Any],
        seed: int,
        mode: str = "table",
        teams: list[int] | None = None,
        label: str = "",
        bots: dict[int, str] | None = None,
        unnamed: frozenset[int] = frozenset(),
    ) -> Session:
        """Create the engine game (checking the set-up) and log it; raises EngineError.
        `unnamed`: the seats under the name set-up gave them, which no one typed or picked."""
        state = engines.make_game(game, players, options, seed, mode).new_state()
        kinds = [seat_kind(seat, bots or {}, unnamed) for seat in range(len(state.players))]
        game_id = store.start_game(game, list(state.players), dict(state.game.option_values),
                                   seed, mode, teams, label, kinds)  # fmt: skip
        session = cls(store, store.game(game_id), state)
        session.seat_bots(dict(bots or {}))
        saved = json.dumps({str(k): v for k, v in session.bots.items()})
        store.set_setting(f"bots.{game_id}", saved)
        return session

    @classmethod
    def load(cls, store: Store, record: GameRecord) -> Session:
        """A stored game (in progress or finished) at its last logged action."""
        session = cls(store, record, rebuild_state(record, store))
        session.seat_bots(saved_bots(store.setting(f"bots.{record.id}", "{}")))
        if session.state.is_over:  # stopped between the last action and its scoring
            session._finish()
        return session

    # ----- what the engine waits for --------------------------------------------------------

    def dice_request(self) -> DiceRequest | None:
        """The roll the engine waits for (kind and number of dice), or None."""
        return self.table.dice_request(self.state)

    def request_number(self) -> int:
        """Changes whenever the game moves on: readings made for an older request are stale."""
        return self.record.id * 1_000_000 + len(self.state.history)

    def position_key(self) -> PositionKey:
        """Names the position for what is planned for it (a robot's choice, a hint): the same
        length of history reached again after an undo may be another position."""
        return (self.record.id, len(self.state.history), self.undos)

    def seat_bots(self, bots: dict[int, str]) -> None:
        """The bot seats and their levels; the table learns which seats are robots."""
        self.bots = bots
        self.table.robots = frozenset(seat for seat, level in bots.items() if level)

    def bot_level(self, seat: int) -> str:
        return self.bots.get(seat, "")

    def hand(self) -> list[str]:
        return self.table.hand(self.state)

    def choices(self, language: str) -> list[Choice]:
        """The table's moves for this position, kept until the position or language changes."""
        key = (len(self.state.history), language)
        if self._choices is None or self._choices[0] != key:
            found = self.table.choices(self.state, language)
            self._choices = (key, [c for c in found if not self._names_a_bot(c.notation)])
        return self._choices[1]

    def _names_a_bot(self, notation: str) -> bool:
        """An answer only a person can be (the youngest player) that names a bot's seat."""
        seat = self.table.person_named(self.state, notation)
        return seat is not None and bool(self.bot_level(seat))

    def forget_choices(self) -> None:
        self._choices = None

    # ----- actions --------------------------------------------------------------------------

    def check(self, notation: str) -> tuple[engines.State, engines.Action]:
        """The position before and the action `notation` names; raises EngineError if illegal."""
        return self.state.clone(), self.state.clone().apply(notation)

    def commit(self, notation: str, corrected: int = 0) -> None:
        """Store first, then change the position: nothing is shown that is not on disk."""
        self.store.append(self.record.id, notation, corrected)
        self.state.apply(notation)
        self._choices = None
        if self.state.is_over:
            self._finish()

    def advance_automatic(self) -> list[Drawn]:
        """Full mode deals and draws by itself (the engine is the dealer), and an answer only
        one person at the table can be is not asked (the youngest of one person); each
        outcome logged. What was drawn or answered, in order."""
        drawn: list[Drawn] = []
        while self.state.is_chance and self.dice_request() is None:
            alone = self._only_person_answer()
            if alone is not None:
                seat = self.table.person_named(self.state, alone.notation)
                drawn.append(Drawn(alone, only_person=seat))
            elif self.state.game.mode != "full" or self.table.players_say(self.state):
                break  # the players say what happened (e.g. who starts)
            else:
                drawn.append(Drawn(self.state.sample_chance()))
            self.commit(drawn[-1].action.notation)
        return drawn

    def _only_person_answer(self) -> engines.Action | None:
        """The answer, when the players would be asked a question only one person can be."""
        if not self.table.players_say(self.state):
            return None
        people = [action for action in self.state.legal_actions()
                  if self.table.person_named(self.state, action.notation) is not None
                  and not self._names_a_bot(action.notation)]  # fmt: skip
        return people[0] if len(people) == 1 else None

    def undo(self) -> tuple[LoggedAction, engines.Action]:
        """Take back the last action (reopening a finished game); raises StoreError if none."""
        if self.record.status == "over":
            self.store.reopen(self.record.id)
            self.record = self.store.game(self.record.id)
        logged = self.store.undo(self.record.id)
        undone = self.state.undo()
        self._choices = None
        self.undos += 1
        return logged, undone

    def _finish(self) -> None:
        self.store.finish(self.record.id, self.state.scores(), self.table.winners(self.state))
        self.record = self.store.game(self.record.id)


def seat_kind(seat: int, bots: dict[int, str], unnamed: frozenset[int]) -> str:
    """Who sits in a seat, as the store keeps it: only a person becomes a scorebook player."""
    if bots.get(seat):
        return "bot"
    return "unnamed" if seat in unnamed else "person"


def hint_enabled(store: Store, game: str) -> bool:
    """The hint setting of a game: on unless switched off on the set-up screen."""
    return store.setting(f"hint.{game}", "on") == "on"


def saved_bots(saved: str) -> dict[int, str]:
    """The bot seats kept with a game; a damaged entry makes every seat a person again."""
    try:
        return {int(k): v for k, v in json.loads(saved).items() if v in SEAT_KINDS}
    except (ValueError, AttributeError):
        return {}


def rebuild_state(record: GameRecord, store: Store) -> engines.State:
    """Replay a stored game's log through its engine: the position after the last action."""
    state = engines.make_game(
        record.game, list(record.players), record.options, record.seed, record.mode
    ).new_state()
    for logged in store.actions(record.id):
        state.apply(logged.notation)
    return state
