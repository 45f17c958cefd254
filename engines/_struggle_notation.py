"""Reading Struggle text that is not a listed action: a deal, a roll, a re-throw or a play in
any spelling, or the reason in the player's words why it cannot be played now."""

from __future__ import annotations

from collections import Counter
from typing import Protocol, runtime_checkable

from engines._struggle_board import ACE, DICE, FIGURES, MAX_THROWS, OBJECTIVE_DECK, PAWNS
from engines._struggle_plays import (
    Boxes,
    Hand,
    Move,
    Result,
    Squares,
    hand_plays,
    move_lists,
    rethrow_action,
    simulate,
)
from engines.core import Action, EngineError, IllegalActionError, NotationError, whole_number
from engines.dice import (
    POKER_FACES,
    counted_faces,
    face_message,
    parse_roll,
    roll_action,
    sort_faces,
)
from engines.messages import Message, msg


@runtime_checkable
class StruggleView(Protocol):
    """What reading text reads of the state (StruggleState has it)."""

    track: str
    squares: Squares
    boxes: Boxes
    objectives: list[tuple[str, ...] | None]
    current: int
    throws: int
    hand: Hand
    awaiting_roll: int

    @property
    def phase(self) -> str: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    def chance_prompt(self) -> Message | None: ...


def parse(state: StruggleView, text: str) -> Action:
    """The action `text` names, or the error saying why it is not one now."""
    phase = state.phase
    if phase == "deal":
        return parse_deal(state, text)
    if phase == "roll":
        return _parse_roll(state, text)
    if phase == "choose":
        return _parse_choice(state, text)
    if phase == "first":
        raise _first_error(state, text)
    if phase == "reveal":
        raise _reveal_error(state, text)
    raise not_now(state, text)


def parse_deal(state: StruggleView, text: str) -> Action:
    words = text.split()
    if not words or words[0].lower() != "deal":
        raise IllegalActionError("struggle.deal_first", hint=state.chance_prompt())
    cards = tuple(whole_number(word) for word in words[1:])
    if None in cards:
        raise NotationError("struggle.card_numbers", text=text)
    if len(cards) != len(state.players):
        raise IllegalActionError("struggle.deal_count", n=len(state.players), got=len(cards))
    if any(not 1 <= card <= len(OBJECTIVE_DECK) for card in cards):
        raise IllegalActionError("struggle.card_range")
    if len(set(cards)) != len(cards):
        raise IllegalActionError("struggle.card_twice")
    return Action("deal " + " ".join(map(str, cards)), msg("struggle.said.deal"), cards)


def not_now(state: StruggleView, text: str) -> EngineError:
    """The error for text that is not a legal action now: in play, whose hand it is."""
    if state.phase == "choose":
        thrown = text.split()[0].lower() == "roll"
        may_rethrow = state.throws < MAX_THROWS
        code = "struggle.thrown_already" if thrown else "struggle.not_now"
        return IllegalActionError(
            code + (".or_rethrow" if may_rethrow else ""),
            name=state.players[state.current],
            hand=_hand(state),
        )
    return IllegalActionError("struggle.not_legal", text=text, phase=state.phase)


# ----- rolls, the first player and objectives ---------------------------------------------------


def _parse_roll(state: StruggleView, text: str) -> Action:
    words = text.split()
    if words[0].lower() != "roll":
        raise IllegalActionError(
            "struggle.dice_first", wait=_waiting_for_dice(state), hint=state.chance_prompt()
        )
    if len(words) > 1 and len(words) - 1 != state.awaiting_roll:
        raise NotationError(
            "struggle.roll_count", wait=_waiting_for_dice(state), got=len(words) - 1
        )
    return roll_action(parse_roll(text, POKER_FACES, state.awaiting_roll), POKER_FACES)


def _waiting_for_dice(state: StruggleView) -> Message:
    if not state.throws:
        return msg("struggle.wait.throw", n=DICE)
    return msg("struggle.wait.rethrown", n=state.awaiting_roll)


def _first_error(state: StruggleView, text: str) -> EngineError:
    players = ", ".join(f"{i} {name}" for i, name in enumerate(state.players))
    words = text.split()
    if words[0].lower() == "first" and len(words) == 2:
        return IllegalActionError("struggle.no_player", n=words[1], players=players)
    return IllegalActionError("struggle.first_draw", last=len(state.players) - 1, players=players)


def _reveal_error(state: StruggleView, text: str) -> EngineError:
    name = state.players[state.objectives.index(None)]
    words = text.upper().split()
    if words[0] != "OBJECTIVE":
        return IllegalActionError("struggle.reveal", name=name)
    order = tuple(words[1:])
    if sorted(order) != sorted(PAWNS):
        return IllegalActionError("struggle.objective_order")
    if order not in state.objectives:
        return not_now(state, text)
    holder = state.players[state.objectives.index(order)]
    return IllegalActionError("struggle.objective_taken", name=holder, order=" ".join(order))


# ----- a play or a re-throw ---------------------------------------------------------------------


def _parse_choice(state: StruggleView, text: str) -> Action:
    """Accept any spelling of a legal choice: faces in any order, any equivalent play."""
    words = text.upper().split()
    if words[0] == "RETHROW":
        return _parse_rethrow(state, words[1:])
    if words[0] in ("ROLL", "FIRST", "DEAL", "OBJECTIVE"):
        raise not_now(state, text)
    moves = tuple(_parse_move(word) for word in words)
    if None in moves or not _is_move_list(state, moves):  # type: ignore[arg-type]
        problem = _explain_play(state, text.split())
        raise IllegalActionError(problem.code, **problem.params)
    result = _simulated(state, moves)  # type: ignore[arg-type]
    for action in _plays(state):
        other: Result = action.data[1]
        if (other.squares, other.boxes) == (result.squares, result.boxes):
            return action
    raise not_now(state, text)  # pragma: no cover - every move list has a listed twin


def _is_move_list(state: StruggleView, moves: tuple[Move, ...]) -> bool:
    """A full (attachment, order) list, or the start of one that ends the race (RULINGS 8)."""
    full = set(move_lists(state.hand, state.boxes))
    if moves in full:
        return True
    if not any(candidate[: len(moves)] == moves for candidate in full):
        return False
    return len(_simulated(state, moves).boxes) == len(PAWNS)  # the rest would be void


def _plays(state: StruggleView) -> list[Action]:
    return hand_plays(state.track, state.squares, state.boxes, state.hand)


def _simulated(state: StruggleView, moves: tuple[Move, ...]) -> Result:
    return simulate(state.track, state.squares, state.boxes, moves)


def _parse_rethrow(state: StruggleView, words: list[str]) -> Action:
    if state.throws >= MAX_THROWS:
        raise IllegalActionError("struggle.no_more_throws")
    if not words:
        raise IllegalActionError("struggle.rethrow_what")
    unknown = [word for word in words if word not in POKER_FACES]
    if unknown:
        raise NotationError("struggle.not_a_face", face=unknown[0])
    held, wanted = Counter(state.hand), Counter(words)
    for face, count in wanted.items():
        if held[face] < count:
            problem = _missing_dice(state, face, held[face])
            raise IllegalActionError(problem.code, **problem.params)
    return rethrow_action(sort_faces(words, POKER_FACES))


def _missing_dice(state: StruggleView, face: str, held: int) -> Message:
    if not held:
        return msg("struggle.no_such_die", figure=face_message(face), hand=_hand(state))
    return msg("struggle.too_few_dice", hand=_hand(state), figures=counted_faces([face] * held))


def _parse_move(word: str) -> Move | None:
    pawn, _, steps = word.partition("+")
    count = whole_number(steps)
    if pawn in FIGURES and count is not None:
        return (pawn, count)
    return None


# ----- why a play is not one --------------------------------------------------------------------


def _explain_play(state: StruggleView, words: list[str]) -> Message:
    """Why a line is not a play of the hand, in the player's words (RULINGS 4-5)."""
    if [word.upper() for word in words] == ["PASS"]:
        return msg("struggle.no_decline", hand=_hand(state), example=_example(state))
    moves = []
    for word in words:
        move = _parse_move(word.upper())
        if move is None:
            return msg("struggle.not_a_move", text=word, example=_example(state))
        moves.append(move)
    return _explain_moves(state, moves) or msg(
        "struggle.not_a_play", text=" ".join(words), hand=_hand(state)
    )


def _explain_moves(state: StruggleView, moves: list[Move]) -> Message | None:
    counts, pawns = Counter(state.hand), [pawn for pawn, _ in moves]
    for pawn, steps in moves:
        problem = _explain_move(state, pawn, steps, counts, pawns.count(pawn))
        if problem:
            return problem
    aces, used = counts[ACE], sum(steps - counts[pawn] for pawn, steps in moves)
    if used > aces:
        return msg("struggle.too_many_aces", used=used, hand=_hand(state), aces=aces)
    missing = [face_message(p) for p in _movers(state, counts) if p not in pawns]
    if missing:
        return msg("struggle.must_move", figures=missing)
    if used < aces:
        movers = ", ".join(_movers(state, counts))
        return msg("struggle.aces_left", n=aces - used, figures=movers)
    return None


def _explain_move(
    state: StruggleView, pawn: str, steps: int, counts: Counter, times: int
) -> Message | None:
    name, dice, aces = face_message(pawn), counts[pawn], counts[ACE]
    if pawn in state.boxes:
        return msg("struggle.arrived", figure=name)
    if not dice:
        return msg("struggle.not_in_hand", figure=name, hand=_hand(state))
    if times > 1:
        return msg("struggle.moves_once", figure=name)
    if steps < dice or steps > dice + aces:
        if not aces:
            return msg("struggle.no_ace", figure=name, n=dice, example=f"{pawn}+{dice}")
        low, high = f"{pawn}+{dice}", f"{pawn}+{dice + aces}"
        return msg("struggle.few_aces", figure=name, n=dice, aces=aces, low=low, high=high)
    return None


def _movers(state: StruggleView, counts: Counter) -> list[str]:
    return [p for p in PAWNS if counts[p] and p not in state.boxes]


def _example(state: StruggleView) -> str:
    plays = _plays(state)
    return plays[0].notation if plays else "pass"


def _hand(state: StruggleView) -> str:
    return " ".join(state.hand) or "-"
