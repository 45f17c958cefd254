"""What a Struggle hand can do: every distinct play, each move resolved on the track (RULINGS
Struggle 6), and every re-throw, each with what it says."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import permutations, product
from typing import Any

from engines._struggle_board import ACE, BLACK, BOXES, DICE, PAWNS, YELLOW
from engines.core import Action, LazyAction
from engines.dice import POKER_FACES, counted_faces
from engines.messages import Message, chain, msg

Move = tuple[str, int]  # a pawn and the squares it moves
Squares = dict[str, int]  # pawn -> square, for the pawns on the track
Boxes = dict[str, str]  # pawn -> arrival box letter, for the pawns arrived
Hand = tuple[str, ...]  # the faces thrown


class Result:
    """The position after a candidate play, what each move did, and the aces added to each
    pawn moved (a play's words say where each die went)."""

    __slots__ = ("squares", "boxes", "outcomes", "aces")

    def __init__(self, squares: Squares, boxes: Boxes, outcomes: list) -> None:
        self.squares, self.boxes, self.outcomes = squares, boxes, outcomes
        self.aces: dict[str, int] = {}

    def __deepcopy__(self, memo: dict) -> Result:
        return self  # never mutated once its play is listed


def hand_plays(track: str, squares: Squares, boxes: Boxes, hand: Hand) -> list[Action]:
    """One play per distinct resulting position, found depth-first over move orders.

    Orders that reach the same intermediate position with the same moves left are explored
    once: independent moves commute, so five figures cost 32 positions instead of 600 moves.
    """
    plays: list[Action] = []
    seen: set[tuple] = set()
    visited: set[tuple] = set()
    start = Result(dict(squares), dict(boxes), [])
    for steps in _attachments(hand, boxes):
        _explore(track, start, steps, (), visited, seen, plays)
    counts = Counter(hand)
    for play in plays:
        moves, result = play.data
        result.aces = {pawn: n - counts[pawn] for pawn, n in moves if n > counts[pawn]}
    return plays


def move_lists(hand: Hand, boxes: Boxes) -> Iterator[tuple[Move, ...]]:
    """Every (ace attachment, move order) pair for the hand, as ordered (pawn, count) moves."""
    for steps in _attachments(hand, boxes):
        yield from permutations(steps)


def simulate(track: str, squares: Squares, boxes: Boxes, moves: Sequence[Move]) -> Result:
    """The position after `moves` in that order; moves after the race ends are void."""
    result = Result(dict(squares), dict(boxes), [])
    for pawn, steps in moves:
        if len(result.boxes) == len(PAWNS):
            break
        result.outcomes.append((pawn, steps, _move(track, result, pawn, steps)))
    return result


def _attachments(hand: Hand, boxes: Boxes) -> Iterator[tuple[Move, ...]]:
    """Each distinct way to attach the aces: the (pawn, steps) moves it gives, in pawn order."""
    counts = Counter(hand)
    figures = [p for p in PAWNS if counts[p] and p not in boxes]
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


def _explore(track: str, result: Result, remaining: tuple[Move, ...], moves: tuple[Move, ...],
             visited: set[tuple], seen: set[tuple], plays: list[Action]) -> None:  # fmt: skip
    # squares keep the pawns' order (moves change values, arrivals delete): no sort needed
    position = (tuple(result.squares.items()), tuple(sorted(result.boxes.items())))
    key = (position, remaining)
    if key in visited:
        return
    visited.add(key)
    if not remaining or len(result.boxes) == len(PAWNS):
        if position not in seen:
            seen.add(position)
            plays.append(_play_action(moves, result))
        return
    for i, (pawn, steps) in enumerate(remaining):
        child = Result(dict(result.squares), dict(result.boxes), list(result.outcomes))
        child.outcomes.append((pawn, steps, _move(track, child, pawn, steps)))
        rest = remaining[:i] + remaining[i + 1 :]
        _explore(track, child, rest, moves + ((pawn, steps),), visited, seen, plays)


def _move(track: str, result: Result, pawn: str, steps: int) -> tuple[str, Any]:
    """Resolve one move on `result` (RULINGS Struggle 6); returns what happened."""
    start = result.squares[pawn]
    target = start + steps
    if target > len(track):
        return _arrive(result, pawn)
    colour = track[target - 1]
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


def _arrive(result: Result, pawn: str) -> tuple[str, Any]:
    box = BOXES[len(result.boxes)]
    result.boxes[pawn] = box
    del result.squares[pawn]
    if len(result.boxes) == len(PAWNS) - 1:
        last = next(iter(result.squares))
        result.boxes[last] = BOXES[-1]
        del result.squares[last]
        return ("arrive-last", (box, last))
    return ("arrive", box)


def _play_action(moves: tuple[Move, ...], result: Result) -> Action:
    if not moves:
        return Action("pass", msg("struggle.said.pass"), ((), result))
    notation = " ".join(f"{pawn}+{steps}" for pawn, steps in moves)
    return LazyAction(notation, play_message, (result.outcomes,), (moves, result))


# ----- re-throws --------------------------------------------------------------------------------


@cache
def rethrow_actions(hand: tuple[str, ...]) -> tuple[Action, ...]:
    """Every non-empty choice of dice to throw again: 252 hands at most, so kept."""
    counts = Counter(hand)
    faces = [face for face in POKER_FACES if counts[face]]
    actions = []
    for taken in product(*(range(counts[face] + 1) for face in faces)):
        chosen = [face for face, n in zip(faces, taken, strict=True) for _ in range(n)]
        if chosen:
            actions.append(rethrow_action(tuple(chosen)))
    return tuple(actions)


def rethrow_action(faces: tuple[str, ...]) -> Action:
    if len(faces) == DICE:
        said = msg("struggle.said.rethrow_all", n=DICE)
    else:
        said = msg("struggle.said.rethrow", faces=counted_faces(faces))
    return Action("rethrow " + " ".join(faces), said, faces)


# ----- what a play says -------------------------------------------------------------------------


def play_message(outcomes: list) -> Message:
    """What a play does, move by move, in words (`the Jack cannot move 2: a black square; the
    Queen moves 3 …`)."""
    return chain([outcome_message(o) for o in outcomes], "list.semicolon")


def outcome_message(outcome: tuple[str, int, tuple[str, Any]]) -> Message:
    """What one move of a play does, as a message."""
    pawn, steps, (kind, detail) = outcome
    said = {"pawn": the_pawn(pawn), "steps": steps}
    if kind == "move":
        return msg("struggle.said.move", square=detail, **said)
    if kind in ("black", "occupied"):
        return msg(f"struggle.said.{kind}", **said)
    if kind == "take":
        square, victim, back = detail
        return msg("struggle.said.take", square=square, victim=the_pawn(victim),
                   back=square_message(back), **said)  # fmt: skip
    if kind == "arrive":
        return msg("struggle.said.arrive", box=detail, **said)
    box, last = detail
    return msg("struggle.said.arrive_last", box=box, last=the_pawn(last), **said)


def the_pawn(pawn: str) -> Message:
    """A pawn named inside a sentence, with its article ("la Dame avance de 3")."""
    return msg(f"struggle.the.{pawn}")


def square_message(square: int) -> Message:
    """Where a pawn sent back goes: the start or a square (`the start`, `square 4`)."""
    if square == 0:
        return msg("struggle.said.to_start")
    return msg("struggle.said.to_square", n=square)
