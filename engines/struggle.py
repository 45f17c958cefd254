"""Struggle: five shared pawns raced along a coloured track by poker-dice hands."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import permutations, product
from typing import Any

from engines.core import (
    CHANCE,
    Action,
    Actor,
    EngineError,
    Game,
    IllegalActionError,
    LazyAction,
    NotationError,
    Option,
    State,
    whole_number,
)
from engines.dice import (
    POKER_FACES,
    all_rolls,
    counted_faces,
    face_message,
    parse_roll,
    random_roll,
    roll_action,
    sort_faces,
)
from engines.messages import Message, chain, define, msg

PAWNS: tuple[str, ...] = ("K", "Q", "J", "10", "9")  # Roi, Dame, Valet, Dix, Neuf
FIGURES = frozenset(PAWNS)
ACE = "A"
BOXES = "ABCDE"
MAX_THROWS = 3
DICE = 5
YELLOW, RED, BLACK = "Y", "R", "B"
# Default 32-square track (RULINGS Struggle 1: colours are our choice). Square 1 is yellow so the
# book's opening example holds; each red square has a black square two further on, as in the
# book's worked example.
DEFAULT_TRACK = "YYYYYRYBYYYYRYBYYYYRYBYYYYRYBYYY"
_COLOUR_WORDS = {
    "Y": YELLOW, "J": YELLOW, "YELLOW": YELLOW, "JAUNE": YELLOW,
    "R": RED, "RED": RED, "ROUGE": RED,
    "B": BLACK, "N": BLACK, "BLACK": BLACK, "NOIR": BLACK, "NOIRE": BLACK,
}  # fmt: skip


def parse_track(text: str) -> str:
    """Read a board description: one colour per square, as letters or words, `#` comments.

    Letters: Y/J yellow (jaune), R red (rouge), B/N black (noir). Words may be separated by
    spaces, commas or new lines; a run of letters like `YYRYB` also works.
    """
    squares: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].replace(",", " ")
        for word in line.split():
            squares.extend(_read_colours(word.upper(), number))
    return "".join(squares)


def _read_colours(word: str, line: int) -> list[str]:
    singular = word.removesuffix("S") if len(word) > 2 else word  # "rouges", "noires"
    for spelling in (word, singular):
        if len(spelling) > 1 and spelling in _COLOUR_WORDS:
            return [_COLOUR_WORDS[spelling]]
    colours = []
    for letter in word:
        if letter not in _COLOUR_WORDS:
            raise ValueError(msg("struggle.track.colour", line=line, letter=letter))
        colours.append(_COLOUR_WORDS[letter])
    return colours


def _check_track(track: str) -> Message | None:
    if not 5 <= len(track) <= 200:
        return msg("struggle.track.length", n=len(track))
    if set(track) - {YELLOW, RED, BLACK}:
        return msg("struggle.track.colours")
    wall = track.find(BLACK * DICE)
    if wall >= 0:
        return msg("struggle.track.wall", first=wall + 1, last=wall + DICE)
    return None


def default_objective_deck() -> tuple[tuple[str, ...], ...]:
    """Twenty distinct arrival orders; every pawn stands four times in each arrival position.

    Four base orders and their five rotations each: a rotation class puts every pawn once in
    every position, and the four classes are disjoint (each has one member starting with K).
    """
    bases = [("K", "Q", "J", "10", "9"), ("K", "J", "9", "Q", "10"),
             ("K", "10", "Q", "9", "J"), ("K", "9", "10", "J", "Q")]  # fmt: skip
    return tuple(base[i:] + base[:i] for base in bases for i in range(5))


OBJECTIVE_DECK = default_objective_deck()


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
            check=_check_track,
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
        return list(_rethrow_actions(self.hand))

    def _plays(self) -> list[Action]:
        """One play per distinct resulting position, found depth-first over move orders.

        Orders that reach the same intermediate position with the same moves left are explored
        once: independent moves commute, so five figures cost 32 positions instead of 600 moves.
        """
        plays: list[Action] = []
        seen: set[tuple] = set()
        visited: set[tuple] = set()
        start = _Result(dict(self.squares), dict(self.boxes), [])
        for steps in self._attachments():
            self._explore(start, steps, (), visited, seen, plays)
        return plays

    def _attachments(self) -> Iterator[tuple[tuple[str, int], ...]]:
        """Each distinct way to attach the aces: the (pawn, steps) moves it gives, in pawn order."""
        counts = Counter(self.hand)
        figures = [p for p in PAWNS if counts[p] and p not in self.boxes]
        if not figures:
            yield ()
            return
        done = set()
        for attachment in product(figures, repeat=counts[ACE]):
            extra = Counter(attachment)
            steps = tuple((p, counts[p] + extra[p]) for p in figures)
            if steps not in done:
                done.add(steps)
                yield steps

    def _explore(self, result, remaining, moves, visited, seen, plays) -> None:
        # squares keep the pawns' order (moves change values, arrivals delete): no sort needed
        position = (tuple(result.squares.items()), tuple(sorted(result.boxes.items())))
        key = (position, remaining)
        if key in visited:
            return
        visited.add(key)
        if not remaining or len(result.boxes) == len(PAWNS):
            if position not in seen:
                seen.add(position)
                plays.append(self._play_action(moves, result))
            return
        for i, (pawn, steps) in enumerate(remaining):
            child = _Result(dict(result.squares), dict(result.boxes), list(result.outcomes))
            child.outcomes.append((pawn, steps, self._move(child, pawn, steps)))
            rest = remaining[:i] + remaining[i + 1 :]
            self._explore(child, rest, moves + ((pawn, steps),), visited, seen, plays)

    def _move_lists(self) -> Iterator[tuple[tuple[str, int], ...]]:
        """Every (ace attachment, move order) pair for the hand, as ordered (pawn, count) moves."""
        for steps in self._attachments():
            yield from permutations(steps)

    # ----- applying -----------------------------------------------------------------------------

    def _parse(self, text: str) -> Action:
        phase = self.phase
        if phase == "deal":
            return self._parse_deal(text)
        if phase == "roll":
            return self._parse_roll(text)
        if phase == "choose":
            return self._parse_choice(text)
        if phase == "first":
            raise self._first_error(text)
        if phase == "reveal":
            raise self._reveal_error(text)
        raise self._illegal(text)

    def _parse_roll(self, text: str) -> Action:
        words = text.split()
        if words[0].lower() != "roll":
            raise IllegalActionError(
                "struggle.dice_first", wait=self._waiting_for_dice(), hint=self.chance_prompt()
            )
        if len(words) > 1 and len(words) - 1 != self.awaiting_roll:
            raise NotationError(
                "struggle.roll_count", wait=self._waiting_for_dice(), got=len(words) - 1
            )
        return roll_action(parse_roll(text, POKER_FACES, self.awaiting_roll), POKER_FACES)

    def _waiting_for_dice(self) -> Message:
        if not self.throws:
            return msg("struggle.wait.throw", n=DICE)
        return msg("struggle.wait.rethrown", n=self.awaiting_roll)

    def _first_error(self, text: str) -> EngineError:
        players = ", ".join(f"{i} {name}" for i, name in enumerate(self.players))
        words = text.split()
        if words[0].lower() == "first" and len(words) == 2:
            return IllegalActionError("struggle.no_player", n=words[1], players=players)
        return IllegalActionError(
            "struggle.first_draw", last=len(self.players) - 1, players=players
        )

    def _reveal_error(self, text: str) -> EngineError:
        name = self.players[self.objectives.index(None)]
        words = text.upper().split()
        if words[0] != "OBJECTIVE":
            return IllegalActionError("struggle.reveal", name=name)
        order = tuple(words[1:])
        if sorted(order) != sorted(PAWNS):
            return IllegalActionError("struggle.objective_order")
        if order not in self.objectives:
            return self._illegal(text)
        holder = self.players[self.objectives.index(order)]
        return IllegalActionError("struggle.objective_taken", name=holder, order=" ".join(order))

    def _parse_choice(self, text: str) -> Action:
        """Accept any spelling of a legal choice: faces in any order, any equivalent play."""
        words = text.upper().split()
        if words[0] == "RETHROW":
            return self._parse_rethrow(words[1:])
        if words[0] in ("ROLL", "FIRST", "DEAL", "OBJECTIVE"):
            raise self._illegal(text)
        moves = tuple(_parse_move(word) for word in words)
        if None in moves or not self._is_move_list(moves):  # type: ignore[arg-type]
            problem = self._explain_play(text.split())
            raise IllegalActionError(problem.code, **problem.params)
        result = self._simulate(moves)  # type: ignore[arg-type]
        for action in self._plays():
            other: _Result = action.data[1]
            if (other.squares, other.boxes) == (result.squares, result.boxes):
                return action
        raise self._illegal(text)  # pragma: no cover - every move list has a listed twin

    def _is_move_list(self, moves: tuple[tuple[str, int], ...]) -> bool:
        """A full (attachment, order) list, or the start of one that ends the race (RULINGS 8)."""
        full = set(self._move_lists())
        if moves in full:
            return True
        if not any(candidate[: len(moves)] == moves for candidate in full):
            return False
        return len(self._simulate(moves).boxes) == len(PAWNS)  # the rest would be void

    def _parse_rethrow(self, words: list[str]) -> Action:
        if self.throws >= MAX_THROWS:
            raise IllegalActionError("struggle.no_more_throws")
        if not words:
            raise IllegalActionError("struggle.rethrow_what")
        unknown = [word for word in words if word not in POKER_FACES]
        if unknown:
            raise NotationError("struggle.not_a_face", face=unknown[0])
        held, wanted = Counter(self.hand), Counter(words)
        for face, count in wanted.items():
            if held[face] < count:
                problem = self._missing_dice(face, held[face])
                raise IllegalActionError(problem.code, **problem.params)
        return _rethrow_action(sort_faces(words, POKER_FACES))

    def _missing_dice(self, face: str, held: int) -> Message:
        if not held:
            return msg("struggle.no_such_die", figure=face_message(face), hand=self._hand())
        return msg("struggle.too_few_dice", hand=self._hand(), figures=counted_faces([face] * held))

    def _explain_play(self, words: list[str]) -> Message:
        """Why a line is not a play of the hand, in the player's words (RULINGS 4-5)."""
        if [word.upper() for word in words] == ["PASS"]:
            return msg("struggle.no_decline", hand=self._hand(), example=self._example())
        moves = []
        for word in words:
            move = _parse_move(word.upper())
            if move is None:
                return msg("struggle.not_a_move", text=word, example=self._example())
            moves.append(move)
        return self._explain_moves(moves) or msg(
            "struggle.not_a_play", text=" ".join(words), hand=self._hand()
        )

    def _explain_moves(self, moves: list[tuple[str, int]]) -> Message | None:
        counts, pawns = Counter(self.hand), [pawn for pawn, _ in moves]
        for pawn, steps in moves:
            problem = self._explain_move(pawn, steps, counts, pawns.count(pawn))
            if problem:
                return problem
        aces, used = counts[ACE], sum(steps - counts[pawn] for pawn, steps in moves)
        if used > aces:
            return msg("struggle.too_many_aces", used=used, hand=self._hand(), aces=aces)
        missing = [face_message(p) for p in self._movers(counts) if p not in pawns]
        if missing:
            return msg("struggle.must_move", figures=missing)
        if used < aces:
            movers = ", ".join(self._movers(counts))
            return msg("struggle.aces_left", n=aces - used, figures=movers)
        return None

    def _explain_move(self, pawn: str, steps: int, counts: Counter, times: int) -> Message | None:
        name, dice, aces = face_message(pawn), counts[pawn], counts[ACE]
        if pawn in self.boxes:
            return msg("struggle.arrived", figure=name)
        if not dice:
            return msg("struggle.not_in_hand", figure=name, hand=self._hand())
        if times > 1:
            return msg("struggle.moves_once", figure=name)
        if steps < dice or steps > dice + aces:
            if not aces:
                return msg("struggle.no_ace", figure=name, n=dice, example=f"{pawn}+{dice}")
            low, high = f"{pawn}+{dice}", f"{pawn}+{dice + aces}"
            return msg("struggle.few_aces", figure=name, n=dice, aces=aces, low=low, high=high)
        return None

    def _movers(self, counts: Counter) -> list[str]:
        return [p for p in PAWNS if counts[p] and p not in self.boxes]

    def _example(self) -> str:
        plays = self._plays()
        return plays[0].notation if plays else "pass"

    def _parse_deal(self, text: str) -> Action:
        words = text.split()
        if not words or words[0].lower() != "deal":
            raise IllegalActionError("struggle.deal_first", hint=self.chance_prompt())
        cards = tuple(whole_number(word) for word in words[1:])
        if None in cards:
            raise NotationError("struggle.card_numbers", text=text)
        if len(cards) != len(self.players):
            raise IllegalActionError("struggle.deal_count", n=len(self.players), got=len(cards))
        if any(not 1 <= card <= len(OBJECTIVE_DECK) for card in cards):
            raise IllegalActionError("struggle.card_range")
        if len(set(cards)) != len(cards):
            raise IllegalActionError("struggle.card_twice")
        return Action("deal " + " ".join(map(str, cards)), msg("struggle.said.deal"), cards)

    def _illegal(self, text: str) -> EngineError:
        if self.phase == "choose":
            thrown = text.split()[0].lower() == "roll"
            may_rethrow = self.throws < MAX_THROWS
            code = "struggle.thrown_already" if thrown else "struggle.not_now"
            return IllegalActionError(
                code + (".or_rethrow" if may_rethrow else ""),
                name=self.players[self.current],
                hand=self._hand(),
            )
        return IllegalActionError("struggle.not_legal", text=text, phase=self.phase)

    def _hand(self) -> str:
        return " ".join(self.hand) or "-"

    def _sample_chance(self, rng: random.Random) -> Action:
        phase = self.phase
        if phase == "deal":
            cards = rng.sample(range(1, len(OBJECTIVE_DECK) + 1), len(self.players))
            return self._parse_deal("deal " + " ".join(map(str, cards)))
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
        result: _Result = action.data[1]
        self.squares, self.boxes = dict(result.squares), dict(result.boxes)
        self.last_play = action.notation
        if not self._race_over():
            self.current = (self.current + 1) % len(self.players)
            self._start_turn()

    def _start_turn(self) -> None:
        self.throws, self.hand, self.kept, self.awaiting_roll = 0, (), (), DICE

    # ----- moves --------------------------------------------------------------------------------

    def _simulate(self, moves: Sequence[tuple[str, int]]) -> _Result:
        result = _Result(dict(self.squares), dict(self.boxes), [])
        for pawn, steps in moves:
            if len(result.boxes) == len(PAWNS):
                break
            result.outcomes.append((pawn, steps, self._move(result, pawn, steps)))
        return result

    def _move(self, result: _Result, pawn: str, steps: int) -> tuple[str, Any]:
        """Resolve one move on `result` (RULINGS Struggle 6); returns what happened."""
        start = result.squares[pawn]
        target = start + steps
        if target > len(self.track):
            return self._arrive(result, pawn)
        colour = self.track[target - 1]
        occupant = next((p for p, sq in result.squares.items() if sq == target), None)
        if colour == BLACK:
            return ("black", target)
        if occupant is not None and colour == YELLOW:
            return ("occupied", target)
        result.squares[pawn] = target
        if occupant is not None:
            result.squares[occupant] = start
            return ("take", (target, occupant, start))
        return ("move", target)

    def _arrive(self, result: _Result, pawn: str) -> tuple[str, Any]:
        box = BOXES[len(result.boxes)]
        result.boxes[pawn] = box
        del result.squares[pawn]
        if len(result.boxes) == len(PAWNS) - 1:
            last = next(iter(result.squares))
            result.boxes[last] = BOXES[-1]
            del result.squares[last]
            return ("arrive-last", (box, last))
        return ("arrive", box)

    def _play_action(self, moves: tuple[tuple[str, int], ...], result: _Result) -> Action:
        if not moves:
            return Action("pass", msg("struggle.said.pass"), ((), result))
        notation = " ".join(f"{pawn}+{steps}" for pawn, steps in moves)
        return LazyAction(notation, play_message, (result.outcomes,), (moves, result))

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


@cache
def _rethrow_actions(hand: tuple[str, ...]) -> tuple[Action, ...]:
    """Every non-empty choice of dice to throw again: 252 hands at most, so kept."""
    counts = Counter(hand)
    faces = [face for face in POKER_FACES if counts[face]]
    actions = []
    for taken in product(*(range(counts[face] + 1) for face in faces)):
        chosen = [face for face, n in zip(faces, taken, strict=True) for _ in range(n)]
        if chosen:
            actions.append(_rethrow_action(tuple(chosen)))
    return tuple(actions)


def _rethrow_action(faces: tuple[str, ...]) -> Action:
    if len(faces) == DICE:
        said = msg("struggle.said.rethrow_all", n=DICE)
    else:
        said = msg("struggle.said.rethrow", faces=counted_faces(faces))
    return Action("rethrow " + " ".join(faces), said, faces)


def _parse_move(word: str) -> tuple[str, int] | None:
    pawn, _, steps = word.partition("+")
    count = whole_number(steps)
    if pawn in FIGURES and count is not None:
        return (pawn, count)
    return None


class _Result:
    """The position after a candidate play, and what each move did."""

    __slots__ = ("squares", "boxes", "outcomes")

    def __init__(self, squares: dict[str, int], boxes: dict[str, str], outcomes: list) -> None:
        self.squares, self.boxes, self.outcomes = squares, boxes, outcomes

    def __deepcopy__(self, memo: dict) -> _Result:
        return self  # never mutated once its play is listed


def play_message(outcomes: list) -> Message:
    """What a play does, move by move (`Jack +2: blocked (black square); Queen +3: …`)."""
    return chain([outcome_message(o) for o in outcomes], "list.semicolon")


def outcome_message(outcome: tuple[str, int, tuple[str, Any]]) -> Message:
    """What one move of a play does, as a message."""
    pawn, steps, (kind, detail) = outcome
    said = {"pawn": face_message(pawn), "steps": steps}
    if kind == "move":
        return msg("struggle.said.move", square=detail, **said)
    if kind in ("black", "occupied"):
        return msg(f"struggle.said.{kind}", **said)
    if kind == "take":
        square, victim, back = detail
        return msg("struggle.said.take", square=square, victim=face_message(victim),
                   back=square_message(back), **said)  # fmt: skip
    if kind == "arrive":
        return msg("struggle.said.arrive", box=detail, **said)
    box, last = detail
    return msg("struggle.said.arrive_last", box=box, last=face_message(last), **said)


def square_message(square: int) -> Message:
    """Where a pawn sent back goes: the start or a square (`the start`, `square 4`)."""
    if square == 0:
        return msg("struggle.said.to_start")
    return msg("struggle.said.to_square", n=square)


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
        "struggle.said.move": "{pawn} +{steps}: square {square}",
        "struggle.said.black": "{pawn} +{steps}: blocked (black square)",
        "struggle.said.occupied": "{pawn} +{steps}: blocked (square occupied)",
        "struggle.said.take": "{pawn} +{steps} takes red square {square}, {victim} goes back to "
        "{back}",
        "struggle.said.arrive": "{pawn} +{steps}: reaches box {box}",
        "struggle.said.arrive_last": "{pawn} +{steps}: reaches box {box}, {last} goes to box E",
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
        "dice (rethrow …)",
        "struggle.thrown_already": "the dice are already thrown: {name} plays the hand {hand}",
        "struggle.thrown_already.or_rethrow": "the dice are already thrown: {name} plays the "
        "hand {hand} or re-throws some dice (rethrow …)",
        "struggle.not_legal": "'{text}' is not legal now ({phase})",
    }
)
