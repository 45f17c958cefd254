"""The actions a Roudalon player may take now (stake, throw, offer an alliance, answer, close it),
each with what it says."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.core import Action
from engines.messages import msg

if TYPE_CHECKING:
    from engines.roudalon import RoudalonState


def player_actions(state: RoudalonState) -> list[Action]:
    """Every action of the player to act, in the phases where a player acts."""
    if state.phase == "offer":
        return [_answer(state, True), _answer(state, False)]
    if state.phase == "throw":
        return _throw_actions(state, state.alliance[state.next_thrower])
    if state.phase == "turn":
        return _turn_actions(state)
    return _alliance_actions(state)


def left_of(state: RoudalonState, player: int) -> int:
    """The seat on the player's left: whose turn comes next, and who is offered an alliance."""
    return (player + 1) % len(state.players)


def _turn_actions(state: RoudalonState) -> list[Action]:
    player = state.current
    actions = [_stake(state, k) for k in _stake_range(state)]
    if state.must_stake or not state.held[player]:
        return actions  # R2: the first turn of a game is a stake; no die, only a stake
    actions += _throw_actions(state, player)
    if _can_offer(state, player):
        actions.append(_offer(state, player))
    return actions


def _alliance_actions(state: RoudalonState) -> list[Action]:
    """The last ally to say yes may offer on to their left or close the alliance (R5)."""
    ally = state.alliance[-1]
    actions = [_offer(state, ally)] if _can_offer(state, ally) else []
    return actions + [_close(state)]


def _stake_range(state: RoudalonState) -> range:
    return range(state.game.option("stake_min"), state.game.option("stake_max") + 1)


def _can_offer(state: RoudalonState, player: int) -> bool:
    neighbour = left_of(state, player)
    return state.held[neighbour] > 0 and neighbour not in state.alliance + [state.current]


def _stake(state: RoudalonState, amount: int) -> Action:
    name = state.players[state.current]
    pot = state.pot + amount
    return Action(f"stake {amount}", msg("roudalon.said.stake", name=name, amount=amount,
                                         pot=pot), amount)  # fmt: skip


def _throw_actions(state: RoudalonState, player: int) -> list[Action]:
    name, pot = state.players[player], state.pot
    actions = []
    held = state.held[player]
    for count in range(1, held + 1):
        said = msg(f"roudalon.said.throw.{held}.{count}", name=name, pot=pot)
        actions.append(Action(f"throw {count}", said, count))
    return actions


def _offer(state: RoudalonState, player: int) -> Action:
    name, other = state.players[player], state.players[left_of(state, player)]
    return Action("offer", msg("roudalon.said.offer", name=name, other=other), None)


def _answer(state: RoudalonState, accept: bool) -> Action:
    name = state.players[state.offered_to]
    if accept:
        return Action("yes", msg("roudalon.said.yes", name=name), True)
    return Action("no", msg("roudalon.said.no", name=name), False)


def _close(state: RoudalonState) -> Action:
    allies = ", ".join(state.players[p] for p in state.alliance)
    return Action("close", msg("roudalon.said.close", allies=allies), None)
