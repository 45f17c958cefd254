"""Traverse: ten red pawns on columns and ten white pawns on rows race across each other.

The book's figures are lost; RULINGS (Traverse) fixes the board: red pawn c moves along column c,
white pawn r along row r, and the two stand on the same square exactly when red's position is
r and white's is c (T1). A turn is a roll of two dice and one play: one pawn by the sum, or one
move per die (T3). Positions are bytes, one number per pawn: `positions[0]` red, `positions[1]`
white.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from engines._traverse_plays import (
    BLOCKED,
    EveryPlay,
    Play,
    PlayAction,
    Positions,
    Step,
    notation,
    one_die_plays,
    play_out,
    reach,
    step,
    step_problem,
    two_dice_plays,
)
from engines.core import (
    CHANCE,
    Action,
    Actor,
    DiceWanted,
    EngineError,
    Game,
    IllegalActionError,
    NotationError,
    Option,
    State,
    int_range,
    parse_bool,
)
from engines.dice import D6_FACES, all_rolls, parse_roll, random_roll, roll_action
from engines.messages import Message, as_data, define, msg

RED, WHITE = 0, 1
COLOURS = ("red", "white")
_MOVE = re.compile(r"([0-9]{1,2})([+-])([0-9]{1,2})")  # ASCII digits only
DEFAULT_AXIS = 11
NOT_ROLLED = bytes(4)


class Traverse(Game):
    name = "traverse"
    wins_are_the_total = True  # the pawns home only say how a game was won
    title = "Traverse"
    min_players = 2
    max_players = 2
    options = (
        Option(
            "axis_length",
            DEFAULT_AXIS,
            parse=int,
            check=int_range(3, 21),
        ),
        Option(
            "compulsory_dice",
            True,
            parse=parse_bool,
        ),
    )

    def new_state(self) -> TraverseState:
        return TraverseState(self)


class TraverseState(State):
    def __init__(self, game: Traverse) -> None:
        super().__init__(game)
        pawns = self.end - 1
        self.positions: list[Positions] = [bytes(pawns), bytes(pawns)]
        self.phase: str = "rolloff"
        # Position attributes are immutable and mostly atomic (bytes, str, int): every action
        # snapshots them for undo, and long games are cloned with all their snapshots.
        self.rolloff: bytes = NOT_ROLLED  # red's two dice then white's, 0 = not rolled yet
        self.current: int | None = None
        self.dice: bytes = b""
        self.last_play: Action | None = None

    @property
    def end(self) -> int:
        """The position of the arrival box (option axis_length)."""
        return self.game.option("axis_length")

    @property
    def winner(self) -> int | None:
        return self.current if self.phase == "over" else None

    # ----- whose turn ---------------------------------------------------------------------------

    @property
    def actor(self) -> Actor | None:
        if self.phase in ("rolloff", "roll"):
            return CHANCE
        if self.phase == "play":
            return self.current
        return None

    def dice_wanted(self) -> DiceWanted | None:
        """Two dice, for the roll-off (each side in turn) and every turn (T3, T7)."""
        return DiceWanted(2, "d6") if self.phase in ("rolloff", "roll") else None

    def chance_prompt(self) -> Message | None:
        if self.phase == "rolloff":
            who = self.players[0 if not self.rolloff[0] else 1]
            return msg("traverse.expect.rolloff", name=who)
        if self.phase == "roll":
            return msg("traverse.expect.roll")
        return None

    # ----- legal plays --------------------------------------------------------------------------

    def _legal_actions(self) -> list[Action]:
        if self.phase in ("rolloff", "roll"):
            return all_rolls(2, D6_FACES)
        sides, colour, end = self._sides(), self.current, self.end  # looked up once, not per play
        return [PlayAction(notation(play), play, sides, colour, end) for play in self._plays()]

    def _plays(self) -> list[Play]:
        """The legal plays, one per resulting position, in a stable order (T3, T4)."""
        return list(self._find_plays({}).values())

    def equivalent_notations(self) -> dict[str, list[str]]:
        """Each listed play that other plays reach the same position as: those plays' notations
        (`1+1 1-1` and `2+1 2-1` move a pawn and bring it back; `3+5` is `3+2 3+3`)."""
        if self.phase != "play":
            return {}
        every = self._find_plays(EveryPlay())
        return {notation(plays[0]): [notation(p) for p in plays[1:]]
                for plays in every.values() if len(plays) > 1}  # fmt: skip

    def legal_notes(self) -> list[Message]:
        """A listed play that brings a pawn straight back changes nothing: say so."""
        if self.phase != "play" or not self.game.option("compulsory_dice"):
            return []
        unchanged = self._find_plays(EveryPlay()).get(0)
        return [msg("traverse.no_change", play=notation(unchanged[0]))] if unchanged else []

    def _find_plays(self, found: dict) -> dict:
        """`found` filled with the plays by the change they make (the first one kept first)."""
        mine, theirs = self._sides()
        d1, d2 = self.dice
        if self.game.option("compulsory_dice"):
            two_dice_plays(mine, theirs, d1, d2, self.end, found)
            if not found:
                one_die_plays(mine, theirs, (d1, d2), self.end, found)
            if not found:
                found.setdefault(0, ())  # no move at all: pass
            return found
        found.setdefault(0, ())  # passing changes nothing: code 0
        one_die_plays(mine, theirs, (d1, d2), self.end, found)
        two_dice_plays(mine, theirs, d1, d2, self.end, found)
        return found

    def _sides(self) -> tuple[Positions, Positions]:
        return self.positions[self.current], self.positions[1 - self.current]

    def _sample_chance(self, rng: random.Random) -> Action:
        # Two dice thrown independently: the 21 listed outcomes are not equally likely.
        return random_roll(rng, 2)

    # ----- reading text -------------------------------------------------------------------------

    def _parse(self, text: str) -> Action:
        if self.is_chance and text.split()[0].lower() != "roll":
            raise self._illegal(text)
        if self.phase in ("rolloff", "roll"):
            return roll_action(parse_roll(text, D6_FACES, 2), D6_FACES)
        if self.phase != "play":  # pragma: no cover - the core refuses actions once over
            raise self._illegal(text)
        words = text.lower().split()
        if words[0] == "roll":
            colour = msg(("traverse.red", "traverse.white")[self.current])
            raise IllegalActionError("traverse.rolled", dice=self._shown_dice(), colour=colour)
        if words == ["pass"]:
            raise self._must_play()
        return self._match_play([_read_move(word, self.end - 1) for word in words])

    def _match_play(self, requested: list[Step]) -> Action:
        """The listed play with the same result as `requested`, or why there is none."""
        self._check_dice_use(requested)
        try:
            mine, theirs = self._play_steps(requested)
        except IllegalActionError as refusal:
            # Out of the arrival box by one die then on by the other to hit: the first step
            # alone hits nothing, but the pawn's one move by the sum is the same legal play.
            joined = _as_one_move(requested)
            if joined is None:
                raise
            try:
                return self._match_play([joined])
            except IllegalActionError:
                raise refusal from None
        for action in self.legal_actions():
            if play_out(*self._sides(), action.data[0], self.end)[:2] == (mine, theirs):
                return action
        raise self._must_play()

    def _play_steps(self, requested: list[Step]) -> tuple[Positions, Positions]:
        """The positions after the requested moves one by one, or why one of them is refused."""
        mine, theirs = self._sides()
        for pawn, delta in requested:
            if reach(mine, theirs, pawn, delta, self.end) == BLOCKED:
                problem = step_problem(mine, theirs, pawn, delta, self.end, self.current)
                raise IllegalActionError(problem.code, **problem.params)
            mine, theirs, _ = step(mine, theirs, pawn, delta, self.end)
        return mine, theirs

    def _shown_dice(self) -> list[Message]:
        return [msg("number", n=die) for die in self.dice]

    def _check_dice_use(self, requested: list[Step]) -> None:
        steps = sorted(abs(delta) for _, delta in requested)
        d1, d2 = self.dice
        if steps in ([d1 + d2], sorted((d1, d2)), [d1], [d2]):
            return
        shown = [msg("number", n=n) for n in steps]
        raise IllegalActionError("traverse.dice_use", a=d1, b=d2, total=d1 + d2, steps=shown)

    def _must_play(self) -> IllegalActionError:
        plays = [a.data[0] for a in self.legal_actions() if a.data[0]]
        example = notation(plays[0])
        if any(_uses_both_dice(play, self.dice) for play in plays):
            return IllegalActionError("traverse.use_both", example=example)
        return IllegalActionError("traverse.use_one", example=example)

    def _illegal(self, text: str) -> EngineError:
        if self.phase in ("rolloff", "roll"):
            return IllegalActionError("traverse.waiting", hint=self.chance_prompt())
        return IllegalActionError("action.not_legal", text=text)

    # ----- applying -----------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        if self.phase == "rolloff":
            self._apply_rolloff(action.data)
        elif self.phase == "roll":
            self.dice = bytes(int(face) for face in action.data)
            self.phase = "play"
        else:
            self._apply_play(action)

    def _apply_rolloff(self, faces: Sequence[str]) -> None:
        dice = bytes((int(faces[0]), int(faces[1])))
        if not self.rolloff[0]:
            self.rolloff = dice + self.rolloff[2:]
            return
        self.rolloff = self.rolloff[:2] + dice
        red, white = sum(self.rolloff[:2]), sum(self.rolloff[2:])
        if red == white:
            self.rolloff = NOT_ROLLED  # tie: both roll again (T7)
            return
        self.current = RED if red > white else WHITE
        self.phase = "roll"

    def _apply_play(self, action: Action) -> None:
        mine, theirs, _ = play_out(*self._sides(), action.data[0], self.end)
        self.positions[self.current] = mine
        self.positions[1 - self.current] = theirs
        self.last_play = action
        if all(position == self.end for position in mine):
            self.phase = "over"  # the current player won
            return
        self.current = 1 - self.current
        self.phase = "roll"

    # ----- scores and views ---------------------------------------------------------------------

    def home(self) -> list[int]:
        return [sum(1 for p in pawns if p == self.end) for pawns in self.positions]

    def scores(self) -> list[int]:
        return self.home()

    def _view(self, player: int | None) -> dict[str, Any]:
        pawns = self.end - 1
        return {
            "game": "traverse",
            "phase": self.phase,
            "axis_length": self.end,
            "pawns": pawns,
            "colours": list(COLOURS),
            "red": list(self.positions[RED]),
            "white": list(self.positions[WHITE]),
            "squares": self._squares(),
            "current": self.current,
            "dice": list(self.dice),
            "rolloff": [list(self.rolloff[i : i + 2]) if self.rolloff[i] else None for i in (0, 2)],
            "last_play": self.last_play.notation if self.last_play else "",
            "last_play_said": as_data(self.last_play.message) if self.last_play else None,
            "home": self.home(),
            "scores": self.scores(),
            "winner": self.winner,
        }

    def _squares(self) -> list[dict[str, Any]]:
        squares = []
        for colour, pawns in enumerate(self.positions):
            for index, position in enumerate(pawns):
                if 0 < position < self.end:
                    column, row = (index + 1, position) if colour == RED else (position, index + 1)
                    squares.append({"colour": COLOURS[colour], "pawn": index + 1,
                                    "column": column, "row": row})  # fmt: skip
        return squares

    def check_invariants(self) -> None:
        for pawns in self.positions:
            assert len(pawns) == self.end - 1
            assert all(0 <= p <= self.end for p in pawns)
        occupied = [(s["column"], s["row"]) for s in self._squares()]
        assert len(occupied) == len(set(occupied)), "two pawns on one square"
        assert (self.phase == "over") == (self.winner is not None)
        if self.winner is not None:
            assert all(p == self.end for p in self.positions[self.winner])
        assert (self.current is None) == (self.phase == "rolloff")
        if self.phase == "play":
            assert len(self.dice) == 2 and all(1 <= d <= 6 for d in self.dice)


def _read_move(word: str, pawns: int) -> Step:
    match = _MOVE.fullmatch(word)
    if not match:
        raise NotationError("traverse.not_a_move", text=word)
    pawn, sign, count = int(match[1]), match[2], int(match[3])
    if not 1 <= pawn <= pawns:
        raise IllegalActionError("traverse.no_pawn", pawn=pawn, n=pawns)
    if count == 0:
        raise IllegalActionError("traverse.zero")
    return pawn - 1, count if sign == "+" else -count


def _uses_both_dice(play: Play, dice: tuple[int, ...]) -> bool:
    return len(play) == 2 or (len(play) == 1 and abs(play[0][1]) == sum(dice))


def _as_one_move(requested: list[Step]) -> Step | None:
    """Two moves of one pawn in one direction as its single move by their sum, else None."""
    if len(requested) != 2:
        return None
    (pawn, first), (other, second) = requested
    if pawn != other or (first > 0) != (second > 0):
        return None
    return pawn, first + second


define(
    {
        "option_help.axis_length": "Squares from a pawn's start to its arrival box (T1); each "
        "side has one pawn fewer than that, and the crossing zone is as many squares across. "
        "Default 11 (10 pawns).",
        "option_help.compulsory_dice": "Compulsory use (T4): a play must use both dice when some "
        "play can, else one die when it can, else the player passes. Off: the player may use "
        "fewer dice or pass.",
        "number": "{n}",
        "traverse.red": "Red",
        "traverse.white": "White",
        "traverse.pawn.red": "Red {n}",
        "traverse.said.pass": "{side} passes",
        "traverse.said.forward": "{pawn} moves forward {n}",
        "traverse.said.back": "{pawn} moves back {n}",
        "traverse.said.hit": "{move} and sends {other} back to start",
        "traverse.said.home": "{move} and enters its arrival box",
        "traverse.said.then": "{first}, then {rest}",
        "traverse.no_change": "{play} moves a pawn and brings it straight back: legal (both dice "
        "are used), and no pawn ends anywhere new",
        "traverse.pawn.white": "White {n}",
        "traverse.expect.rolloff": "roll <2 faces 1-6> (roll-off: {name}'s dice)",
        "traverse.expect.roll": "roll <2 faces 1-6>",
        "traverse.rolled": "the dice are rolled ({dice}): {colour} plays",
        "traverse.dice_use": "with dice {a} and {b} a play moves one pawn {total}, or {a} and {b} "
        "(two pawns or one pawn twice), not {steps}",
        "traverse.use_both": "both dice must be used when a play can use them, e.g. {example}",
        "traverse.use_one": "a die must be used when one can be, e.g. {example}",
        "traverse.waiting": "waiting for the dice: {hint}",
        "traverse.not_a_move": "'{text}' is not a move: write pawn, + or -, squares (e.g. 3+5 or "
        "3-5), or pass",
        "traverse.no_pawn": "there is no pawn {pawn}: pawns are numbered 1 to {n}",
        "traverse.zero": "a move goes at least one square",
        "traverse.at_start": "{pawn} is at its start and cannot go back {n}",
        "traverse.back_too_far": "{pawn} is {squares:count.squares} from its start and cannot go "
        "back {n}",
        "traverse.overshoot": "{pawn} needs exactly {need} to enter its arrival box, not {n} (no "
        "overshooting)",
        "traverse.no_jump": "{pawn} may not pass over {other} (column {column}, row {row})",
        "traverse.leave_box": "{pawn} leaves its arrival box only to hit an opponent pawn",
    }
)
