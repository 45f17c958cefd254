"""Bot seats at the table, for solo practice: a seat set up as a bot at a level of
companion.bot_choice.LEVELS makes its own decisions.

When a bot is to choose, its choice is made on the table's `AdviceWorker` (the advisor may think
for 150 ms), then said in words on the screen and shown on the board for BOT_SHOW_SECONDS before
it is played, so the players see what the bot did. Chance stays with the players: a bot's dice
are thrown on the tray by someone at the table and read by the camera like anyone's (the
companion has no hands; the dice are the game). In the card games the companion must hold the
bots' cards: a game with a bot seat is played in full mode there (companion.setup_screens). The
levels are kept in the store with the game (companion.session), so a resumed game keeps its bots.
"""

from __future__ import annotations

from collections.abc import Callable

import engines
from companion.advice import AdviceWorker
from companion.bot_choice import make_player
from companion.bot_words import did_words, without_name
from companion.session import PositionKey, Session
from companion.table_context import TableContext
from display.i18n import text

BOT_SHOW_SECONDS = 1.5  # a bot's choice is shown this long before it is played
MOVES_SAID = 3  # the bots' moves since a person chose, named on the message line


class BotTurns:
    """A bot's turn: its choice asked, shown, then played; a part of the table screen."""

    def __init__(self, table: TableContext, advice: AdviceWorker) -> None:
        self.table = table
        self.view = table.view
        self.advice = advice
        self.shown = False  # the table screen is on screen: bots play only then
        self.turn: tuple[PositionKey, str, float] | None = None  # position, move, since
        self.held: tuple[PositionKey, float | None] | None = None  # position, since; None:
        # a person acknowledged what it shows
        self.since_person: list[tuple[str, bool]] = []  # the bots' moves since a person last
        # chose, each with whether it made a player miss a turn
        self.thinking: PositionKey | None = None  # the position "thinking…" was said for
        self.tries: tuple[PositionKey, int] | None = None  # a position and its refused choices
        self.stuck: PositionKey | None = None  # the bot could not choose: the players choose

    def forget(self) -> None:
        """An undo: what the bot planned (its choice, shown or not, and its timer) belonged to
        the position taken back; it thinks again from the one the undo left."""
        self.turn = self.held = self.thinking = self.tries = self.stuck = None

    def to_act(self) -> tuple[engines.State, str] | None:
        """The position and the level of the bot to choose, if a bot is to choose."""
        session = self.view.session
        if session is None or not self.shown or session.state.is_over:
            return None
        if not self.decides(session) or self.stuck == session.position_key():
            return None
        state = session.state
        return state, session.bot_level(state.actor)

    def decides(self, session: Session) -> bool:
        """The position is a robot's own decision: not its dice (a person throws them) nor a
        card of its that a person turns over and types for it."""
        state = session.state
        if state.is_over or not isinstance(state.actor, int):
            return False
        if self.table.dice_request() is not None:
            return False
        if session.table.robot_entry(state, self.view.language):
            return False
        return bool(session.bot_level(state.actor))

    def choosing(self) -> bool:
        """A bot seat is to choose: the moves on the table are the bot's, not the players'."""
        return self.to_act() is not None

    def refuse(self) -> None:
        """A touch or button that would choose for the bot (its move is shown, then played)."""
        acting = self.to_act()
        if acting is not None:
            state = acting[0]
            self.view.say(self.view.t("bot_busy", name=state.players[state.actor]), True)

    def step(self, now: float) -> bool:
        """Ask the bot, show its choice, then play it: True when the screen changed."""
        acting = self.to_act()
        session = self.view.session
        if acting is None or session is None:
            self.turn = None
            if session is None or self._person_to_choose(session.state):
                self.since_person.clear()
            return False
        state, level = acting
        key = session.position_key()
        if self._held(state, key, now):
            return False
        job = ("bot", key, level, self._refused(key))
        self.advice.ask(job, bot_work(state, level, session.record.seed))
        if self.turn is None or self.turn[0] != key:
            notation = self.advice.result(job)
            if not notation:
                return self._thinking(state, key)
            if not self._legal(state, notation):
                return True
            if self._goes_on(state, notation):  # a step of a formula: said whole at its end
                self.table.play(notation)
                return True
            self.turn = (key, notation, now)
            self._show(state, notation)
            return True
        _, notation, since = self.turn
        if now - since < BOT_SHOW_SECONDS:
            return False
        self.turn = None
        self._play(state, notation)
        return True

    def _refused(self, key: PositionKey) -> int:
        """How many of the bot's choices for this position the engine refused."""
        return self.tries[1] if self.tries and self.tries[0] == key else 0

    def _legal(self, state: engines.State, notation: str) -> bool:
        """A choice the engine accepts here; a refused one makes the bot choose again, then,
        refused again, leaves the move to the players, said in words (never the engine's)."""
        session = self.view.session
        if session is None:
            return False
        try:
            session.check(notation)
            return True
        except engines.EngineError:
            key = session.position_key()
            refused = self._refused(key) + 1
            self.tries = (key, refused)
            if refused > 1:
                self.stuck = key
                name = state.players[state.actor]
                self.view.say(text(self.view.language, "bot_stuck", name=name), True)
            return False

    def _goes_on(self, state: engines.State, notation: str) -> bool:
        session = self.view.session
        return session is not None and session.table.goes_on(state, notation)

    def _thinking(self, state: engines.State, key: PositionKey) -> bool:
        """While the bot chooses, the table says so (once: True when that changed the screen)."""
        if self.thinking == key:
            return False
        self.thinking = key
        self.view.say(text(self.view.language, "bot_thinking", name=state.players[state.actor]))
        return True

    def _play(self, state: engines.State, notation: str) -> None:
        language = self.view.language
        said = did_words(state, notation, self.table.said_move(state, notation), language)
        session = self.view.session
        skips = session is not None and session.table.skips(state, notation)
        if self.table.play(notation):
            self.since_person.append((said, skips))
            if self._announcing():  # a round's end is said instead, and its moves are done
                self.since_person.clear()
            elif len(self.since_person) > 1 and self.to_act() is None:
                self.view.say(text(language, "bots_since", moves=self._moves_said()))

    def _announcing(self) -> bool:
        """What just ended (a round) is on the message line, held for the players to read."""
        session = self.view.session
        return bool(session and session.table.hold_seconds(session.state))

    def _held(self, state: engines.State, key: PositionKey, now: float) -> bool:
        """What just ended (a round) stays on screen before the bot goes on: until a person
        acknowledges it or for the table's time to read it, on the kiosk's clock."""
        hold = self.view.session.table.hold_seconds(state) if self.view.session else 0.0
        if not hold:
            return False
        if self.held is None or self.held[0] != key:
            self.held = (key, now)
        since = self.held[1]
        return since is not None and now - since < hold

    def holding(self) -> bool:
        """The bot waits for the players to read the screen."""
        session = self.view.session
        held = self.held
        return bool(held and session and held[0] == session.position_key() and held[1] is not None)

    def acknowledge(self) -> None:
        if self.held is not None:
            self.held = (self.held[0], None)

    def _moves_said(self) -> str:
        """The bots' moves since a person chose; beyond the last few (a trick the person left
        to the bots), how many came before them. A move that made a player miss a turn is
        always said: it is why the person waited."""
        moves = self.since_person
        last = len(moves) - MOVES_SAID
        said = [words for number, (words, skips) in enumerate(moves) if skips or number >= last]
        if len(said) == len(moves):
            return " · ".join(said)
        earlier = text(self.view.language, "bots_earlier", n=len(moves) - len(said))
        return " · ".join([earlier, *said])

    def _person_to_choose(self, state: engines.State) -> bool:
        session = self.view.session
        actor = state.actor
        return isinstance(actor, int) and session is not None and not session.bot_level(actor)

    def _show(self, state: engines.State, notation: str) -> None:
        name = state.players[state.actor]
        move = self.table.said_move(state, notation)
        if not notation.startswith("rethrow "):
            self.table.turn.guess = notation  # shown on the board as a move to come
        rest = without_name(name, move)
        if rest != move:  # "Robot 2 (robot) passe", not "Robot 2 (robot) choisit : Robot 2 passe"
            self.view.say(text(self.view.language, "bot_does", name=name, move=rest))
        else:
            self.view.say(self.view.t("bot_chooses", name=name, move=move))


def bot_work(state: engines.State, level: str, seed: int) -> Callable[[], str]:
    """The bot's choice, to run on the worker on a copy of the position."""
    copy = state.clone()

    def work() -> str:
        try:
            return make_player(level, seed)(copy)
        except Exception:  # a bot that cannot choose leaves the move to the players
            return ""

    return work
