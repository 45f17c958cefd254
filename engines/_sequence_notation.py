"""Reading Sequence text that is not a listed action: a chance outcome (cut, dealer, deal,
shuffle), a play or a dead card checked against the position, or the reason it is illegal."""

from __future__ import annotations

import re
from collections import Counter
from typing import Protocol, runtime_checkable

from engines._sequence_board import (
    BOARD,
    COPIES,
    CORNERS,
    DEAD,
    DECK,
    JACKS,
    ONE_EYED,
    PLACE,
    REMOVE,
    SQUARE_NAMES,
    SQUARES_OF,
    card_message,
    parse_card,
    parse_square,
)
from engines._sequence_lines import CORNER_MARK, EMPTY, TEAM_MARKS
from engines.core import Action, EngineError, IllegalActionError, NotationError, whole_number
from engines.messages import Message, chain, msg


@runtime_checkable
class RulesView(Protocol):
    """What reading text reads of the game's rules (engines.sequence.Sequence has it)."""

    @property
    def hand_size(self) -> int: ...

    def team_of(self, player: int) -> int: ...


@runtime_checkable
class SequenceView(Protocol):
    """What reading text reads of the state (SequenceState has it)."""

    phase: str
    cutters: tuple[int, ...]
    dealer: int | None
    current: int
    board: str

    @property
    def game(self) -> RulesView: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def player_count(self) -> int: ...

    @property
    def full(self) -> bool: ...

    @property
    def hands(self) -> tuple[tuple[str, ...], ...]: ...

    @property
    def discard(self) -> tuple[str, ...]: ...

    def chance_prompt(self) -> Message | None: ...

    def legal_actions(self) -> list[Action]: ...


_PLAY = re.compile(r"((?:10|[2-9tjqka])[shdc])\s*(@|-\s*x|x|-)\s*([a-j](?:10|[1-9]))", re.I)
_PLAY_SHAPE = re.compile(r"(\S+?)\s*(@|-\s*x|x|-)\s*(\S+)", re.I)  # to name a bad card or square


def parse(state: SequenceView, text: str) -> Action:
    """The action `text` names, or the error saying why it is not one now."""
    word = text.split()[0].lower()
    readers = {"cut": parse_cut, "dealer": _parse_dealer, "deal": parse_deal,
               "shuffle": parse_shuffle}  # fmt: skip
    if word in readers:
        if state.phase != {"dealer": "cut"}.get(word, word):
            raise not_now(state, text)
        return readers[word](state, text.split()[1:])
    if word == "dead":
        return _parse_dead(state, text.split()[1:])
    return _parse_play(state, text)


def dealer_action(state: SequenceView, player: int) -> Action:
    said = msg("sequence.said.dealer", name=state.players[player])
    return Action(f"dealer {player}", said, ("dealer", player))


def not_now(state: SequenceView, text: str) -> EngineError:
    """The error for text that is not a legal action now: say who or what is awaited."""
    if state.phase == "play":
        return IllegalActionError(
            "sequence.plays_now", text=text, name=state.players[state.current]
        )
    return IllegalActionError("sequence.waiting", text=text, hint=state.chance_prompt())


# ----- chance outcomes --------------------------------------------------------------------------


def parse_cut(state: SequenceView, words: list[str]) -> Action:
    cards = _parse_cards(words, len(state.cutters), msg("sequence.what.cut"))
    drawn = [msg("sequence.said.cut_card", name=state.players[p], card=card_message(card))
             for p, card in zip(state.cutters, cards, strict=True)]  # fmt: skip
    said = msg("sequence.said.cut", cards=chain(drawn))
    return Action("cut " + " ".join(cards), said, ("cut", cards))


def parse_deal(state: SequenceView, words: list[str]) -> Action:
    cards = _parse_cards(words, len(DECK), msg("sequence.what.deal"))
    if Counter(cards) != Counter(DECK):
        raise IllegalActionError("sequence.deal_decks")
    said = msg("sequence.said.deal", name=state.players[state.dealer], n=state.game.hand_size)
    return Action("deal " + " ".join(cards), said, ("deal", cards))


def parse_shuffle(state: SequenceView, words: list[str]) -> Action:
    cards = _parse_cards(words, len(state.discard), msg("sequence.what.shuffle"))
    if Counter(cards) != Counter(state.discard):
        raise IllegalActionError("sequence.shuffle_discard")
    said = msg("sequence.said.shuffle", n=len(cards))
    return Action("shuffle " + " ".join(cards), said, ("shuffle", cards))


def _parse_cards(words: list[str], count: int, what: Message) -> tuple[str, ...]:
    cards = tuple(parse_card(word) for word in words)
    if len(cards) != count:
        raise IllegalActionError("sequence.card_count", what=what, n=count, got=len(cards))
    extra = [card for card, n in Counter(cards).items() if n > COPIES]
    if extra:
        raise IllegalActionError("sequence.copies", n=COPIES, card=extra[0])
    return cards


def _parse_dealer(state: SequenceView, words: list[str]) -> Action:
    if state.full:
        raise IllegalActionError("sequence.dealer_drawn")
    seats = f"0-{state.player_count - 1}"
    seat = whole_number(words[0]) if len(words) == 1 else None
    if seat is None:
        raise NotationError("sequence.dealer_seat", seats=seats)
    if seat >= state.player_count:
        raise NotationError("sequence.no_player", n=words[0], seats=seats)
    return dealer_action(state, seat)


# ----- plays ------------------------------------------------------------------------------------


def _parse_dead(state: SequenceView, words: list[str]) -> Action:
    if len(words) != 1:
        raise NotationError("sequence.dead_how")
    card = parse_card(words[0])
    return _legal_or_explain(state, DEAD[card], card, None)


def _parse_play(state: SequenceView, text: str) -> Action:
    found = _PLAY.fullmatch(text)
    shaped = None if found else _PLAY_SHAPE.fullmatch(text)
    if shaped:
        parse_card(shaped.group(1))  # each raises a NotationError naming what it cannot read
        parse_square(shaped.group(3))
    if not found:
        raise NotationError("sequence.not_a_move", text=text)
    card, sign, square = parse_card(found.group(1)), found.group(2), found.group(3)
    index = parse_square(square)
    if sign == "@":
        action = PLACE.get((card, index)) or Action(f"{card}@{SQUARE_NAMES[index]}")
    else:
        action = REMOVE.get((card, index)) or Action(f"{card}x{SQUARE_NAMES[index]}")
    return _legal_or_explain(state, action, card, index)


def _legal_or_explain(state: SequenceView, action: Action, card: str, square: int | None) -> Action:
    if state.phase == "play":
        for legal in state.legal_actions():
            if legal == action:
                return legal
    raise _why_not(state, action, card, square)


# ----- why a play is illegal --------------------------------------------------------------------


def _why_not(state: SequenceView, action: Action, card: str, square: int | None) -> EngineError:
    if state.phase != "play":
        return not_now(state, action.notation)
    reason = _card_problem(state, card) or _move_problem(state, action, card, square)
    return IllegalActionError("sequence.refused", play=action.notation, reason=reason)


def _card_problem(state: SequenceView, card: str) -> Message | None:
    if state.full and card not in state.hands[state.current]:
        return msg("sequence.not_in_hand", name=state.players[state.current], card=card)
    if not state.full and Counter(state.discard)[card] >= COPIES:
        return msg("sequence.both_played", card=card)
    return None


def _move_problem(state: SequenceView, action: Action, card: str, square: int | None) -> Message:
    kind = action.notation[len(card)] if square is not None else "dead"
    if kind == "dead":
        return msg("sequence.not_dead", card=card)
    if kind == "x":
        return _removal_problem(state, card, square)
    if card in ONE_EYED:
        return msg("sequence.one_eyed", card=card)
    name = SQUARE_NAMES[square]
    if square in CORNERS:
        return msg("sequence.corner", square=name)
    if card not in JACKS and square not in SQUARES_OF[card]:
        where = [msg("sequence.square", square=SQUARE_NAMES[sq]) for sq in SQUARES_OF[card]]
        return msg("sequence.shows", square=name, shown=BOARD[square], card=card, where=where)
    return msg("sequence.taken", square=name)


def _removal_problem(state: SequenceView, card: str, square: int) -> Message:
    name = SQUARE_NAMES[square]
    if card not in ONE_EYED:
        return msg("sequence.two_eyed_remove")
    mark = state.board[square]
    if mark in (EMPTY, CORNER_MARK):
        return msg("sequence.no_chip", square=name)
    if mark == TEAM_MARKS[state.game.team_of(state.current)]:
        return msg("sequence.own_chip", square=name)
    return msg("sequence.in_sequence", square=name)
