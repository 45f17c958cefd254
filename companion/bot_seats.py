"""Bot seats in the kiosk, for solo practice: a seat set up as a bot at a level of
companion.bot_choice.LEVELS makes its own decisions.

A mixin of the controller. On the set-up screen each seat's kind is touched through person,
then the bot levels. At the table, when a bot is to choose, its choice is made on the
controller's `AdviceWorker` (the advisor may think for 150 ms), then said in words on the screen
and shown on the board for BOT_SHOW_SECONDS before it is played, so the players see what the
bot did. Chance stays with the players: a bot's dice are thrown on the tray by someone at the
table and read by the camera like anyone's (the companion has no hands; the dice are the
game). In the card games the companion must hold the bots' cards: a game with a bot seat is
played in full mode there (the companion deals; each person's hand is shown on their turn).
The levels are kept in the store with the game, so a resumed game keeps its bots.
"""

from __future__ import annotations

import json
import time
from typing import Any

import engines
from companion.advice import AdviceWorker
from companion.bot_choice import make_player
from display.model import Target

BOT_SHOW_SECONDS = 1.5  # a bot's choice is shown this long before it is played
SEAT_KINDS = ("", "simple", "advisor-fast", "advisor")  # "" is a person
CARD_GAMES = ("strategix", "sequence")


class BotSeats:
    """Bot seats: their set-up and their turns (mixed into the Controller)."""

    store: Any
    session: Any
    language: str
    advice: AdviceWorker
    bots: dict[int, str]
    bot_turn: tuple[tuple[int, int], str, float] | None
    guess: str

    # ----- set-up ---------------------------------------------------------------------------

    def _tap_seat(self, seat: str) -> None:
        """The next kind for this seat: person, then each bot level, then person again."""
        if not self._in_setup():
            return
        draft = self.draft
        if not seat.isdigit() or int(seat) >= len(draft.players):
            self._say(self._t("not_here", what=f"seat:{seat}"), True)
            return
        index = int(seat)
        kind = SEAT_KINDS[(SEAT_KINDS.index(draft.bots.get(index, "")) + 1) % len(SEAT_KINDS)]
        if kind:
            draft.bots[index] = kind
            if not draft.bots_named.get(index):
                draft.players[index] = self._unique_bot_name(index)
                draft.bots_named[index] = True
        else:
            draft.bots.pop(index, None)
        if len(draft.bots) == len(draft.players):
            draft.bots.pop(index, None)  # someone must be at the table
            self._say(self._t("bots_all"), True)

    def _unique_bot_name(self, seat: int) -> str:
        others = {n for i, n in enumerate(self.draft.players) if i != seat}
        number = seat + 1
        while self._t("bot_name", n=number) in others:
            number += 10
        return self._t("bot_name", n=number)

    def _seat_target(self, seat: int) -> Target:
        kind = self.draft.bots.get(seat, "")
        if not kind:
            return Target(f"seat:{seat}", self._t("seat_person"), "quiet")
        level = self._t("bot_level." + kind.replace("-", "_"))
        return Target(f"seat:{seat}", self._t("seat_bot", level=level), "selected")

    def start_mode(self, game: str, bots: dict[int, str]) -> str:
        """Table mode, but full mode for a card game with a bot (the companion holds its cards)."""
        return "full" if bots and game in CARD_GAMES else "table"

    def keep_bots(self, bots: dict[int, str]) -> None:
        """The bot seats of the game just started, kept with it in the store."""
        self.bots = dict(bots)
        if self.session is not None:
            key = f"bots.{self.session.record.id}"
            self.store.set_setting(key, json.dumps({str(k): v for k, v in bots.items()}))

    def load_bots(self) -> None:
        """The bot seats of the game shown (none for a game set up without them)."""
        self.bots, self.bot_turn = {}, None
        if self.session is None:
            return
        saved = self.store.setting(f"bots.{self.session.record.id}", "{}")
        try:
            self.bots = {int(k): v for k, v in json.loads(saved).items() if v in SEAT_KINDS}
        except (ValueError, AttributeError):
            self.bots = {}  # a damaged entry: every seat is a person again

    def bot_level(self, seat: int) -> str:
        return self.bots.get(seat, "")

    def bot_choosing(self) -> bool:
        """A bot seat is to choose: the moves on the table are the bot's, not the players'."""
        return self._bot_to_act() is not None

    def refuse_for_bot(self) -> None:
        """A touch or button that would choose for the bot (its move is shown, then played)."""
        state = self.state
        self._say(self._t("bot_busy", name=state.players[state.actor]), True)

    # ----- a bot's turn ---------------------------------------------------------------------

    def tick(self, now: float | None = None) -> bool:
        """Let time pass: a hint's choices arriving, a bot choosing, then playing. True when
        the screen changed."""
        now = time.monotonic() if now is None else now
        arrived = self.hint_arrived()
        return self._bot_step(now) or arrived

    def _bot_to_act(self) -> tuple[engines.State, str] | None:
        state = self.state
        if self.session is None or self.screen_name != "table" or state.is_over:
            return None
        if not isinstance(state.actor, int) or self.dice_request() is not None:
            return None
        level = self.bot_level(state.actor)
        return (state, level) if level else None

    def _bot_step(self, now: float) -> bool:
        acting = self._bot_to_act()
        if acting is None:
            self.bot_turn = None
            return False
        state, level = acting
        key = self._position_key()
        job = ("bot", key, level)
        self.advice.ask(job, bot_work(state, level, self.session.record.seed))
        if self.bot_turn is None or self.bot_turn[0] != key:
            notation = self.advice.result(job)
            if not notation:
                return False
            self.bot_turn = (key, notation, now)
            self._show_bot_choice(state, notation)
            return True
        _, notation, since = self.bot_turn
        if now - since < BOT_SHOW_SECONDS:
            return False
        self.bot_turn = None
        self.play(notation)
        return True

    def _show_bot_choice(self, state: engines.State, notation: str) -> None:
        name = state.players[state.actor]
        move = self.said_move(state, notation)
        if not notation.startswith("rethrow "):
            self.guess = notation  # shown on the board as a move to come
        self._say(self._t("bot_chooses", name=name, move=move))


def bot_work(state: engines.State, level: str, seed: int):
    """The bot's choice, to run on the worker on a copy of the position."""
    copy = state.clone()

    def work() -> str:
        try:
            return make_player(level, seed)(copy)
        except Exception:  # a bot that cannot choose leaves the move to the players
            return ""

    return work
