"""Reading Roudalon text that is not a listed action (the dice thrown), and saying in a player's
words why an action is not legal now."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from engines._roudalon_actions import TurnView, left_of
from engines.core import Action, Actor, EngineError, IllegalActionError, NotationError
from engines.dice import D6_FACES, parse_roll, roll_action
from engines.messages import Message, msg


@runtime_checkable
class ReadingView(TurnView, Protocol):
    """What reading text reads of the state beyond a turn's actions (RoudalonState has it)."""

    dice_to_roll: int

    @property
    def actor(self) -> Actor | None: ...

    @property
    def is_chance(self) -> bool: ...

    def chance_prompt(self) -> Message | None: ...

    def legal_actions(self) -> list[Action]: ...


def parse(state: ReadingView, text: str) -> Action:
    """The dice `text` names, or the error saying why it is not legal now."""
    if state.is_chance and text.split()[0].lower() != "roll":
        raise not_now(state, text)
    if state.phase == "rolloff":
        return roll_action(parse_roll(text, D6_FACES, 2), D6_FACES)
    if state.phase == "roll":
        return roll_action(parse_roll(text, D6_FACES, _dice_count(state, text)), D6_FACES)
    raise not_now(state, text)


def not_now(state: ReadingView, text: str) -> EngineError:
    """The error for text that is not a legal action now, with the reason when one is known."""
    word = text.split()[0].lower()
    if state.phase in ("rolloff", "roll"):
        return IllegalActionError("roudalon.waiting", hint=state.chance_prompt())
    reason = _reason(state, word)
    if reason is None:
        reason = msg("roudalon.not_legal", text=text, expected=_expected(state))
    return IllegalActionError(reason.code, **reason.params)


def _dice_count(state: ReadingView, text: str) -> int:
    """The number of dice thrown, or a NotationError saying it in a player's words."""
    count = state.dice_to_roll
    if len(text.split()) - 1 != count:
        thrower = state.players[state.alliance[state.next_thrower]]
        raise NotationError("roudalon.threw", name=thrower, n=count)
    return count


def _reason(state: ReadingView, word: str) -> Message | None:
    if state.phase == "offer":
        return msg("roudalon.answer", name=state.players[state.offered_to])
    if word == "roll":
        name = state.players[state.actor]
        return msg("roudalon.no_dice_awaited", name=name, expected=_expected(state))
    if word == "stake":
        if state.phase != "turn":
            return msg("roudalon.stake_when")
        low, high = state.game.option("stake_min"), state.game.option("stake_max")
        return msg("roudalon.stake_amount", low=low, high=high)
    if word == "throw":
        return _throw_reason(state)
    if word == "offer":
        return _offer_reason(state)
    return None


def _throw_reason(state: ReadingView) -> Message:
    if state.phase == "turn" and state.must_stake:
        return msg("roudalon.stake_first")
    if state.phase not in ("turn", "throw"):
        return msg("roudalon.close_first")
    player = state.actor
    held = state.held[player]
    if not held:
        return msg("roudalon.no_die", name=state.players[player])
    return msg(f"roudalon.holds.{held}", name=state.players[player])


def _offer_reason(state: ReadingView) -> Message:
    if state.phase == "turn" and state.must_stake:
        return msg("roudalon.stake_first")
    if state.phase == "throw":
        return msg("roudalon.closed")
    player = state.actor
    if not state.held[player]:
        return msg("roudalon.no_die", name=state.players[player])
    neighbour = left_of(player, len(state.players))
    if neighbour == state.current or neighbour in state.alliance:
        return msg("roudalon.all_allied")
    return msg("roudalon.left_no_die", name=state.players[neighbour])


def _expected(state: ReadingView) -> str:
    return ", ".join(a.notation for a in state.legal_actions()[:8])
