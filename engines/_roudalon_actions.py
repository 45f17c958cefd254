"""The actions a Roudalon player may take now (stake, throw, offer an alliance, answer, close it),
each with what it says."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from engines.core import Action, Game
from engines.messages import msg


@runtime_checkable
class TurnView(Protocol):
    """What the listing of a player's actions reads of the state (RoudalonState has it)."""

    game: Game
    phase: str
    current: int | None
    held: list[int]
    pot: int
    must_stake: bool
    alliance: list[int]
    offered_to: int | None
    next_thrower: int

    @property
    def players(self) -> tuple[str, ...]: ...


def player_actions(state: TurnView) -> list[Action]:
    """Every action of the player to act, in the phases where a player acts."""
    if state.phase == "offer":
        return [_answer(state, True), _answer(state, False)]
    if state.phase == "throw":
        return _throw_actions(state, state.alliance[state.next_thrower])
    if state.phase == "turn":
        return _turn_actions(state)
    return _alliance_actions(state)


def left_of(player: int, seats: int) -> int:
    """The seat on the player's left: whose turn comes next, and who is offered an alliance."""
    return (player + 1) % seats


def _turn_actions(state: TurnView) -> list[Action]:
    player = state.current
    actions = [_stake(state, k) for k in _stake_range(state)]
    if state.must_stake or not state.held[player]:
        return actions  # R2: the first turn of a game is a stake; no die, only a stake
    actions += _throw_actions(state, player)
    if _can_offer(state, player):
        actions.append(_offer(state, player))
    return actions


def _alliance_actions(state: TurnView) -> list[Action]:
    """The last ally to say yes may offer on to their left or close the alliance (R5)."""
    ally = state.alliance[-1]
    actions = [_offer(state, ally)] if _can_offer(state, ally) else []
    return actions + [_close(state)]


def _stake_range(state: TurnView) -> range:
    return range(state.game.option("stake_min"), state.game.option("stake_max") + 1)


def _can_offer(state: TurnView, player: int) -> bool:
    neighbour = left_of(player, len(state.players))
    return state.held[neighbour] > 0 and neighbour not in state.alliance + [state.current]


def _stake(state: TurnView, amount: int) -> Action:
    name = state.players[state.current]
    pot = state.pot + amount
    return Action(f"stake {amount}", msg("roudalon.said.stake", name=name, amount=amount,
                                         pot=pot), amount)  # fmt: skip


def _throw_actions(state: TurnView, player: int) -> list[Action]:
    name, pot = state.players[player], state.pot
    actions = []
    held = state.held[player]
    for count in range(1, held + 1):
        said = msg(f"roudalon.said.throw.{held}.{count}", name=name, pot=pot)
        actions.append(Action(f"throw {count}", said, count))
    return actions


def _offer(state: TurnView, player: int) -> Action:
    name, other = state.players[player], state.players[left_of(player, len(state.players))]
    return Action("offer", msg("roudalon.said.offer", name=name, other=other), None)


def _answer(state: TurnView, accept: bool) -> Action:
    name = state.players[state.offered_to]
    if accept:
        return Action("yes", msg("roudalon.said.yes", name=name), True)
    return Action("no", msg("roudalon.said.no", name=name), False)


def _close(state: TurnView) -> Action:
    allies = ", ".join(state.players[p] for p in state.alliance)
    return Action("close", msg("roudalon.said.close", allies=allies), None)
