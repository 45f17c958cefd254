"""Struggle: five shared pawns raced along a coloured track by poker-dice hands.

The state here keeps the turn, plays the actions out and shows the position; the plays and
re-throws of a hand are found in `_struggle_plays`, text is read in `_struggle_notation`, and the
pawns, dice, track and objective cards are `_struggle_board`'s.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import permutations
from typing import Any

from engines._struggle_board import (
    BLACK,
    BOXES,
    DEFAULT_TRACK,
    DICE,
    FIGURES,
    MAX_THROWS,
    OBJECTIVE_DECK,
    PAWNS,
    check_track,
    parse_track,
)
from engines._struggle_notation import not_now, parse, parse_deal
from engines._struggle_plays import Move, Result, hand_plays, move_lists, rethrow_actions, simulate
from engines.core import CHANCE, Action, Actor, DiceWanted, EngineError, Game, Option, State
from engines.dice import POKER_FACES, all_rolls, face_message, random_roll, sort_faces
from engines.messages import Message, chain, define, msg


class Struggle(Game):
    name = "struggle"
    title = "Struggle"
    min_players = 2
    max_players = 4
    options = (
        Option(
            "track",
            DEFAULT_TRACK,
            parse=parse_track,
            check=check_track,
        ),
    )

    def new_state(self) -> StruggleState:
        return StruggleState(self)


class StruggleState(State):
    def __init__(self, game: Struggle) -> None:
        super().__init__(game)
        self.track: str = game.option("track")
        self.squares: dict[str, int] = {pawn: 0 for pawn in PAWNS}
        self.boxes: dict[str, str] = {}  # pawn -> arrival box letter
        self.objectives: list[tuple[str, ...] | None] = [None] * game.num_players
        self.first_player: int | None = None
        self.current: int = 0
        self.throws: int = 0
        self.hand: tuple[str, ...] = ()
        self.kept: tuple[str, ...] = ()
        self.awaiting_roll: int = 0  # how many dice chance must roll next
        self.last_play: str = ""

    # ----- whose turn ---------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        if self.game.mode == "full" and self.objectives[0] is None:
            return "deal"
        if self.first_player is None:
            return "first"
        if not self._race_over():
            return "roll" if self.awaiting_roll else "choose"
        if self.game.mode == "table" and None in self.objectives:
            return "reveal"
        return "over"

    @property
    def actor(self) -> Actor | None:
        phase = self.phase
        if phase in ("deal", "first", "roll"):
            return CHANCE
        if phase == "choose":
            return self.current
        if phase == "reveal":
            return self.objectives.index(None)
        return None

    def _race_over(self) -> bool:
        return len(self.boxes) == len(PAWNS)

    # ----- legal actions ------------------------------------------------------------------------

    def _legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == "deal":
            return []  # 116 280 deals for four players: too many to list; see chance_hint
        if phase == "first":
            return [self._first_action(i) for i in range(len(self.players))]
        if phase == "roll":
            return all_rolls(self.awaiting_roll, POKER_FACES)
        if phase == "reveal":
            return [self._objective_action(order) for order in self._unrevealed_orders()]
        return self._plays() + self._rethrows()

    def dice_wanted(self) -> DiceWanted | None:
        """The five poker dice of a turn's first throw, or those the player chose to re-throw."""
        return DiceWanted(self.awaiting_roll, "poker") if self.phase == "roll" else None

    def chance_prompt(self) -> Message | None:
        phase = self.phase
        if phase == "deal":
            return msg("struggle.expect.deal", n=len(self.players))
        if phase == "first":
            return msg("struggle.expect.first", last=len(self.players) - 1)
        if phase == "roll":
            return msg("struggle.expect.roll", n=self.awaiting_roll)
        return None

    def _first_action(self, player: int) -> Action:
        name = self.players[player]
        return Action(f"first {player}", msg("struggle.said.first", name=name), player)

    def _objective_action(self, order: tuple[str, ...]) -> Action:
        shown = " ".join(order)
        said = msg("struggle.said.objective", order=chain([face_message(p) for p in order]))
        return Action(f"objective {shown}", said, order)

    def legal_notes(self) -> list[Message]:
        """Table mode, revealing: why an order already revealed is not listed again."""
        if self.phase != "reveal":
            return []
        return [msg("struggle.left_out", name=self.players[seat], order=" ".join(order))
                for seat, order in enumerate(self.objectives) if order is not None]  # fmt: skip

    def _unrevealed_orders(self) -> Iterator[tuple[str, ...]]:
        taken = {order for order in self.objectives if order is not None}
        return (order for order in permutations(PAWNS) if order not in taken)

    def _rethrows(self) -> list[Action]:
        if self.throws >= MAX_THROWS:
            return []
        return list(rethrow_actions(self.hand))

    # The advisor and tests call these three.
    def _plays(self) -> list[Action]:
        return hand_plays(self.track, self.squares, self.boxes, self.hand)

    def _move_lists(self) -> Iterator[tuple[Move, ...]]:
        return move_lists(self.hand, self.boxes)

    def _simulate(self, moves: Sequence[Move]) -> Result:
        return simulate(self.track, self.squares, self.boxes, moves)

    # ----- reading text and applying ------------------------------------------------------------

    def _parse(self, text: str) -> Action:
        return parse(self, text)

    def _illegal(self, text: str) -> EngineError:
        return not_now(self, text)

    def _sample_chance(self, rng: random.Random) -> Action:
        phase = self.phase
        if phase == "deal":
            cards = rng.sample(range(1, len(OBJECTIVE_DECK) + 1), len(self.players))
            return parse_deal(self, "deal " + " ".join(map(str, cards)))
        if phase == "roll":
            return random_roll(rng, self.awaiting_roll, POKER_FACES)
        return rng.choice(self.legal_actions())

    def _apply(self, action: Action) -> None:
        word = action.notation.split()[0]
        if word == "deal":
            self.objectives = [OBJECTIVE_DECK[card - 1] for card in action.data]
        elif word == "first":
            self.first_player = self.current = action.data
            self._start_turn()
        elif word == "roll":
            self.hand = sort_faces(self.kept + action.data, POKER_FACES)
            self.throws += 1
            self.awaiting_roll = 0
        elif word == "rethrow":
            kept = Counter(self.hand) - Counter(action.data)
            self.kept = sort_faces(list(kept.elements()), POKER_FACES)
            self.awaiting_roll = len(action.data)
        elif word == "objective":
            self.objectives[self.objectives.index(None)] = action.data
        else:
            self._apply_play(action)

    def _apply_play(self, action: Action) -> None:
        result: Result = action.data[1]
        self.squares, self.boxes = dict(result.squares), dict(result.boxes)
        self.last_play = action.notation
        if not self._race_over():
            self.current = (self.current + 1) % len(self.players)
            self._start_turn()

    def _start_turn(self) -> None:
        self.throws, self.hand, self.kept, self.awaiting_roll = 0, (), (), DICE

    # ----- scores and views ---------------------------------------------------------------------

    def scores(self) -> list[int]:
        if not self.is_over:
            return [0] * len(self.players)
        return [self._points(order) for order in self.objectives]

    def _points(self, order: tuple[str, ...] | None) -> int:
        if order is None:
            return 0
        return sum(10 for place, pawn in enumerate(order) if self.boxes.get(pawn) == BOXES[place])

    def _view(self, player: int | None) -> dict[str, Any]:
        show_all = self.is_over or self.game.mode == "table"  # table: a revealed card is face up
        return {
            "game": "struggle",
            "phase": self.phase,
            "track": self.track,
            "squares": dict(self.squares),
            "boxes": dict(self.boxes),
            "current": self.current if self.first_player is not None else None,
            "throws": self.throws,
            "hand": list(self.hand),
            "kept": list(self.kept),
            "last_play": self.last_play,
            "objectives": [
                list(order) if order is not None and (show_all or i == player) else None
                for i, order in enumerate(self.objectives)
            ],
            "scores": self.scores(),
        }

    def check_invariants(self) -> None:
        on_track = [square for square in self.squares.values() if square > 0]
        assert len(on_track) == len(set(on_track)), f"two pawns share a square: {self.squares}"
        assert all(0 <= sq <= len(self.track) for sq in self.squares.values()), self.squares
        assert all(self.track[sq - 1] != BLACK for sq in on_track), f"on black: {self.squares}"
        assert not set(self.squares) & set(self.boxes), "a pawn both on the track and arrived"
        assert set(self.squares) | set(self.boxes) == FIGURES, "a pawn went missing"
        assert sorted(self.boxes.values()) == list(BOXES[: len(self.boxes)]), self.boxes
        assert len(self.boxes) != len(PAWNS) - 1, "the fifth pawn must go to E with the fourth"
        assert 0 <= self.throws <= MAX_THROWS and len(self.hand) in (0, DICE), self.hand


define(
    {
        "option_help.track": "Board: one colour per square 1..N (Y yellow, R red, B black); "
        "default 32 squares.",
        "struggle.left_out": "objective {order} is not listed: {name} already revealed it, and no "
        "two cards show the same order",
        "struggle.said.first": "{name} starts",
        "struggle.said.objective": "Objective: {order}",
        "struggle.said.deal": "Objective cards dealt",
        "struggle.said.pass": "The hand moves nothing",
        "struggle.said.rethrow_all": "Re-throw all {n} dice",
        "struggle.said.rethrow": "Re-throw {faces}",
        "struggle.said.move": "{pawn} moves {steps} to square {square}",
        "struggle.said.black": "{pawn} cannot move {steps}: a black square",
        "struggle.said.occupied": "{pawn} cannot move {steps}: the square is taken",
        "struggle.said.take": "{pawn} moves {steps} onto red square {square} and sends {victim} "
        "back to {back}",
        "struggle.said.arrive": "{pawn} moves {steps} and reaches box {box}",
        "struggle.said.arrive_last": "{pawn} moves {steps} and reaches box {box}, and {last} goes "
        "to box E",
        "struggle.the.K": "the King",
        "struggle.the.Q": "the Queen",
        "struggle.the.J": "the Jack",
        "struggle.the.10": "the Ten",
        "struggle.the.9": "the Nine",
        "struggle.said.to_start": "the start",
        "struggle.said.to_square": "square {n}",
        "struggle.track.colour": "line {line}: '{letter}' is not a square colour (Y/J yellow, "
        "R red, B/N black)",
        "struggle.track.length": "a track has 5 to 200 squares, this one has {n}",
        "struggle.track.colours": "a track is made of Y, R and B squares",
        "struggle.track.wall": "squares {first} to {last} are five black squares in a row: no "
        "pawn moves more than five squares, so no pawn could ever pass them",
        "struggle.expect.deal": "deal <{n} distinct objective card numbers 1-20>",
        "struggle.expect.first": "first <player 0-{last}>",
        "struggle.expect.roll": "roll <{n} faces among 9 10 J Q K A>",
        "struggle.wait.throw": "throw the {n} dice",
        "struggle.wait.rethrown": "{n:plural.struggle.rethrown}",
        "plural.struggle.rethrown": (
            "1 die was re-thrown: give its new face",
            "{n} dice were re-thrown: give their {n} new faces",
        ),
        "struggle.dice_first": "{wait} first: {hint}",
        "struggle.roll_count": "{wait}, got {got:count.faces}",
        "struggle.no_player": "there is no player {n}: the players are {players}",
        "struggle.first_draw": "first draw who starts: first 0 to first {last} ({players})",
        "struggle.reveal": "{name} reveals the order on their objective card, e.g. objective "
        "K Q J 10 9",
        "struggle.objective_order": "an objective names each of the five pawns once, in arrival "
        "order, e.g. objective K Q J 10 9",
        "struggle.objective_taken": "{name} already revealed {order}: no two cards show the "
        "same order",
        "struggle.no_more_throws": "no more throws: three throws were made, play the hand",
        "struggle.rethrow_what": "name the dice to re-throw, e.g. rethrow J Q",
        "struggle.not_a_face": "'{face}' is not a face of the dice (9 10 J Q K A)",
        "struggle.no_such_die": "there is no {figure} in the hand {hand}",
        "struggle.too_few_dice": "the hand {hand} has only {figures}",
        "struggle.no_decline": "the hand {hand} cannot be declined: play it, e.g. {example}",
        "struggle.not_a_move": "'{text}' is not a move: a play lists each pawn with its squares, "
        "e.g. {example} (or rethrow and the dice to throw again)",
        "struggle.not_a_play": "{text} is not a play of the hand {hand}: each figure's pawn moves "
        "once, by its count plus the aces attached to it",
        "struggle.too_many_aces": "these moves use {used} aces, the hand {hand} has {aces}",
        "struggle.must_move": "{figures} must move too: every figure of the hand is played",
        "struggle.aces_left": "{n:count.aces} left over: every ace is added to one figure of the "
        "hand ({figures})",
        "struggle.arrived": "{figure} has already arrived: its dice are void",
        "struggle.not_in_hand": "{figure} is not in the hand {hand}: only the figures thrown move",
        "struggle.moves_once": "{figure} moves once, by all its dice and the aces added to it",
        "struggle.no_ace": "{figure} has {n:count.dice} and the hand no ace: {example}",
        "struggle.few_aces": "{figure} has {n:count.dice} and the hand only {aces:count.aces}: "
        "{low} to {high}",
        "struggle.deal_first": "the objective cards are dealt first: {hint}",
        "struggle.card_numbers": "'{text}': card numbers are whole numbers 1-20",
        "struggle.deal_count": "deal one card per player: {n} card numbers, got {got}",
        "struggle.card_range": "objective cards are numbered 1 to 20",
        "struggle.card_twice": "each player gets a different objective card",
        "struggle.not_now": "not now: {name} plays the hand {hand}",
        "struggle.not_now.or_rethrow": "not now: {name} plays the hand {hand} or re-throws some "
        "dice",
        "struggle.thrown_already": "the dice are already thrown: {name} plays the hand {hand}",
        "struggle.thrown_already.or_rethrow": "the dice are already thrown: {name} plays the "
        "hand {hand} or re-throws some dice",
        "struggle.not_legal": "'{text}' is not legal now ({phase})",
    }
)
