"""What every game's table interaction has in common, and the interface each game's file fills.

A `Table` answers, for one game and a position: which dice the engine waits for and whose they
are, what the table waits for in words, the moves to offer (merged when they reach the same
position, each naming the pieces it involves so a touch on a piece narrows the list), and, for
games whose plays are typed, the keyboard. The controller holds no per-game knowledge.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

import engines
from display.i18n import names_list, say, text
from display.model import Target
from engines.messages import from_data

SHORT_GUESS = 24  # characters a guessed play's words may take on its button (one of three);
# a hint's Traverse play in words overflowed it

TRANSIENT_VIEW_KEYS = ("last", "last_said", "last_play", "last_play_said", "last_action",
                       "last_square")  # fmt: skip


@dataclass(frozen=True)
class DiceRequest:
    kind: str  # d6 or poker
    count: int


@dataclass(frozen=True)
class Choice:
    """One move to offer: what it plays, what it says, the pieces it involves, what it shows."""

    notation: str
    label: str
    pieces: frozenset[str] = frozenset()  # piece ids touchable on the board ("pawn:K"), and
    # the marks of where they go ("at:pawn:K@6")
    preview: dict[str, Any] = field(default_factory=dict, compare=False)  # marks for the board


class Table:
    """The default table: moves picked from the engine's legal list, dice read by the camera."""

    game: ClassVar[str] = ""
    moves_beside_board: ClassVar[bool] = False  # card games: the board is the large picture
    always_listed: ClassVar[tuple[str, ...]] = ()  # listed even before a card is touched
    robots: frozenset[int] = frozenset()  # the robot seats (Session sets them)

    # ----- dice -----------------------------------------------------------------------------

    def dice_request(self, state: engines.State) -> DiceRequest | None:
        """The roll the engine waits for (kind and number of dice), or None."""
        wanted = None if state is None else state.dice_wanted()
        return None if wanted is None else DiceRequest(wanted.kind, wanted.count)

    def roller(self, state: engines.State) -> int | None:
        """The seat whose dice are awaited (the player to act when not a roll-off)."""
        current = state.view(None).get("current")
        return current if isinstance(current, int) else None

    def rolloff(self, state: engines.State) -> bool:
        return state.view(None).get("phase") == "rolloff"

    # ----- whose turn and what next ---------------------------------------------------------

    def seat(self, state: engines.State) -> int | None:
        """The seat to highlight: the player to act, or whose dice are awaited."""
        if state.is_over:
            return None
        if isinstance(state.actor, int):
            return state.actor
        return self.roller(state)

    def check_roll(self, state: engines.State, name: str, language: str) -> str:
        """What a reading shown waits for: its check, then Confirm."""
        return text(language, "check_roll", name=name)

    def pick_face(self, state: engines.State, language: str) -> str:
        """What a die touched on a reading shown asks: the face it shows."""
        return text(language, "pick_face")

    def warning(self, state: engines.State, notation: str, language: str) -> str:
        """What a move does beyond its own words that the players must know before it."""
        return ""

    def winners(self, state: engines.State) -> list[int]:
        """The seats that won the finished game (none when nobody did)."""
        return state.winners()

    def waiting(self, state: engines.State, language: str) -> str:
        """What the table waits for, with the name of who does it."""
        if state.is_over:
            winners = [state.players[i] for i in self.winners(state)]
            names = names_list(language, winners)
            said = (text(language, "winner", names=names, count=len(winners)) if winners
                    else text(language, "void_nobody_wins"))  # fmt: skip
            return f"{text(language, 'game_over')} — {said}"
        request = self.dice_request(state)
        if request is not None:
            return self.waiting_dice(state, request, language)
        if state.is_chance:
            return self.waiting_chance(state, language)
        name = state.players[state.actor]
        return text(language, "turn_name", name=name) + self.turn_detail(state, language)

    def dice_detail(self, state: engines.State, language: str) -> str:
        """Said after the line asking for dice, whoever throws them (a bot's too)."""
        return ""

    def waiting_dice(self, state: engines.State, request: DiceRequest, language: str) -> str:
        return self._dice_wanted(state, request, language) + self.dice_detail(state, language)

    def _dice_wanted(self, state: engines.State, request: DiceRequest, language: str) -> str:
        seat = self.roller(state)
        if seat is None:
            return text(language, "roll_wait", n=request.count)
        name = state.players[seat]
        if self.rolloff(state):
            return text(language, "rolloff_wait", name=name, n=request.count)
        return text(language, "roll_wait_name", name=name, n=request.count)

    def waiting_chance(self, state: engines.State, language: str) -> str:
        """A chance outcome the players say (who starts, who deals): a question, not notation."""
        return text(language, "who_starts")

    def hold_seconds(self, state: engines.State) -> float:
        """How long a bot waits here before it plays, so the players read what just ended."""
        return 0.0

    def goes_on(self, state: engines.State, notation: str) -> bool:
        """The step is a part of a move still under way (a group of a formula): a bot plays it
        at once and its whole move is shown at the end."""
        return False

    def skips(self, state: engines.State, notation: str) -> bool:
        """The move makes a player miss a turn: a bot's such move is always said (it is why
        the person waited)."""
        return False

    def players_say(self, state: engines.State) -> bool:
        """A chance outcome the players say even when the kiosk deals (full mode)."""
        return False

    def person_named(self, state: engines.State, notation: str) -> int | None:
        """The seat an answer names where only a person can be the answer (Stratégix: the
        youngest player), or None: a bot's seat is not offered there."""
        return None

    def turn_detail(self, state: engines.State, language: str) -> str:
        return ""

    def waiting_keeping(self, state: engines.State, keep: list[str], language: str) -> str:
        """What the table waits for while dice of the hand are chosen to throw again, `keep`
        being the others (Struggle)."""
        return self.waiting(state, language)

    def outcome(
        self, before: engines.State, action: engines.Action, after: engines.State, language: str
    ) -> str:
        """What just happened, in words (a roll-off says who won, or who throws again)."""
        said = self.said(action, language)
        if not self.rolloff(before):
            return said
        if not self.rolloff(after):
            seat = self.seat(after)
            won = "" if seat is None else text(language, "rolloff_won", name=after.players[seat])
            return f"{said} — {won}" if won else said
        if self._restarted(before, after):
            return f"{said} — {text(language, 'rolloff_tie')}"
        return said

    def _restarted(self, before: engines.State, after: engines.State) -> bool:
        """A roll-off begun again among the tied players."""
        return self.roller(after) is not None and self.roller(after) <= (self.roller(before) or 0)

    def plain(self, reason: str, notation: str, language: str) -> str:
        """An engine's words without the notation they quote (the play is on screen already)."""
        for prefix in (f"{notation} : ", f"{notation}: ", f"« {notation} » ", f"'{notation}' "):
            if notation and reason.startswith(prefix):
                return reason[len(prefix) :]
        return reason

    # ----- moves ----------------------------------------------------------------------------

    def offered(self, state: engines.State) -> list[engines.Action]:
        """The legal actions offered as moves (not the ones made another way)."""
        return [a for a in state.legal_actions() if not a.notation.startswith("roll ")]

    def choices(self, state: engines.State, language: str) -> list[Choice]:
        """The moves, one per position reached (the first notation found stands for it)."""
        found: dict[str, Choice] = {}
        for action in self.offered(state):
            key = self.reached(state, action) if not state.is_chance else action.notation
            if key not in found:
                preview = self.preview(state, action.notation)
                pieces = self.pieces(state, action.notation) | self.marks(preview)
                found[key] = Choice(action.notation, self.label(action, language), pieces,
                                    preview)  # fmt: skip
        return list(found.values())

    def reached(self, state: engines.State, action: engines.Action) -> str:
        """The position after `action`, as a key: moves with the same key are one choice. What
        chance waits for next is part of it: a view may not show it (Le Roudalon's "throw one
        die" and "throw both" leave the same view, and wait for one die or two)."""
        after = state.clone()
        after.apply(action, validate=False)
        view = {k: v for k, v in after.view(None).items() if k not in TRANSIENT_VIEW_KEYS}
        view["chance awaited"] = after.chance_hint() if after.is_chance else ""
        return json.dumps(view, sort_keys=True, default=str)

    def label(self, action: engines.Action, language: str) -> str:
        """A move's words on its button."""
        return self.said(action, language)

    def said(self, action: engines.Action, language: str) -> str:
        """What an action does, in the players' words."""
        return say(language, action)

    def pieces(self, state: engines.State, notation: str) -> frozenset[str]:
        return frozenset()

    def preview(self, state: engines.State, notation: str) -> dict[str, Any]:
        return {}

    def marks(self, preview: dict[str, Any]) -> frozenset[str]:
        """The marks a move's preview puts on the board (display.model.mark_id), each touchable:
        a move's pieces include them, so a touch on one narrows the moves as a piece does."""
        return frozenset()

    def seat_words(self, state: engines.State, seat: int, language: str) -> str:
        """A player as the score line names them: by default their name."""
        return state.players[seat]

    def piece_name(self, state: engines.State, piece: str, language: str) -> str:
        """A piece as the players call it ("Red 6", "Queen")."""
        return piece.removeprefix("pawn:")

    def group_keys(self, choice: Choice, selected: set[str]) -> list[str]:
        """The pieces a long list groups this move under (one line per piece: a move of two
        pieces under each), none to list it as it is: by default no game groups its moves."""
        return []

    def group_label(
        self, state: engines.State, piece: str, choices: list[Choice], language: str
    ) -> str:
        """The words of a group's line: the piece and what its moves do with it."""
        return piece

    def hand_cards(self, state: engines.State, seat: int) -> list[str]:
        """`seat`'s cards as the kiosk dealt them (full mode), each touchable as the piece
        `card:X`; empty where the hand is unknown (table mode) or the game has none."""
        return []

    def plays_on_touch(self, piece: str) -> bool:
        """A touch on this piece, with a card chosen, plays the one move left (a marked square)."""
        return False

    def robot_entry(self, state: engines.State, language: str) -> str:
        """What a person types for the robot to act here, in words (a real card dealt to the
        robot, turned over at the end: Struggle's objective), or "" when the robot chooses."""
        return ""

    def marked(self, state: engines.State) -> dict[str, Any]:
        """What the last play made, marked on the board while nothing is chosen (a preview)."""
        return {}

    def result(self, state: engines.State, language: str) -> tuple[str, dict[str, Any]]:
        """A finished game's result in words for the panel beside the board, and its marks on
        the board ("" and none: the board and the scores say it)."""
        return "", {}

    def preview_of(self, preview: dict[str, Any], pieces: set[str]) -> dict[str, Any]:
        """A move's marks for the board narrowed to `pieces` (the ones touched)."""
        return preview

    def rethrowing(self, state: engines.State) -> bool:
        """Whether the dice awaited are some thrown again within a turn (Relancer, not Lancer)."""
        return False

    def held_back(self, choice: Choice, pieces: frozenset[str]) -> int:
        """How many of `pieces` the move leaves where they stand: listed after the moves that
        play them."""
        return 0

    # ----- typed plays (card games, Struggle's objectives) ----------------------------------

    def keyboard(self, state: engines.State, mode: str) -> bool:
        return False

    def keys(self, state: engines.State, language: str) -> list[Target]:
        return []

    def spent_keys(self, entry: str) -> set[str]:
        """The keys `entry` has used up: drawn disabled and refused until it is cleared."""
        return set()

    def type_key(self, state: engines.State, entry: str, key: str) -> tuple[str, str]:
        """The entry after `key`, and the text key of a hint to show ("" for none)."""
        return (entry + " " + key).strip(), ""

    def entry_notation(self, state: engines.State, entry: str) -> str:
        return " ".join(entry.split()).strip(" +")

    def entry_missing(self, state: engines.State, entry: str, language: str) -> str:
        """What an entry that is not a play yet still needs, said when Enter is touched."""
        return ""

    def entry_words(self, state: engines.State, entry: str, language: str) -> str:
        """The entry as the players read it (no notation)."""
        return entry

    def square_play(self, entry: str, square: str) -> str:
        return ""

    def square_guess(self, state: engines.State, square: str) -> str:
        """The play a touch on this square most likely means (none by default)."""
        return ""

    def square_refusal(self, state: engines.State, square: str, language: str) -> str:
        """Why a touch on this square guessed no play, in words."""
        return text(language, "enter_play")

    def choice_label(self, state: engines.State, notation: str, language: str) -> str:
        """A play's words, as the engine describes it."""
        try:
            return self.said(state.clone().apply(notation), language)
        except engines.EngineError:
            return notation

    def guess_label(self, state: engines.State, notation: str, language: str) -> str:
        """A play guessed (a square touched, a hint picked) on its button, one of three: its
        words when short, else Confirm (the board shows the play)."""
        label = self.choice_label(state, notation, language)
        return label if len(label) <= SHORT_GUESS else text(language, "confirm")

    # ----- Struggle's re-throws (a hand of dice kept between throws) ------------------------

    def hand(self, state: engines.State) -> list[str]:
        return []

    def face_name(self, face: str, language: str) -> str:
        return face


def spoken_view(view: dict[str, Any], language: str) -> dict[str, Any]:
    """The engine's view with what the last action did said in `language`, under the keys the
    board drawing reads (`last_play_words`, `last_words`): the engine gives a message, not
    words."""
    shown = dict(view)
    if shown.get("last_play_said"):
        shown["last_play_words"] = say(language, from_data(shown["last_play_said"]))
    if shown.get("last_said"):
        shown["last_words"] = say(language, from_data(shown["last_said"]))
    return shown
