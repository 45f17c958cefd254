"""Sparring partners for the three dice games, written from the rules (one style each).

- Traverse `runner`: each whole play weighed by the position it leaves: pawns forward and home,
  opponent pawns sent back, its own pawns an opponent pawn could hit next turn counted against.
- Struggle `objective`: plays for its objective card: pawns it wants early moved on, pawns it
  wants late held back, a pawn in the box the card names counted at once; re-throws the dice of
  pawns it wants late on its first throw.
- Roudalon `odds`: throws the dice with the best chance of making the pot when that chance is
  at least 5 in 36, else stakes the amount that leaves the next player the worst chance.
"""

from __future__ import annotations

import random
from fractions import Fraction

from advisor.roudalon import sum_chance
from engines.core import Action, State

HIT_REACH = 12  # the farthest one turn's two dice carry a pawn
HOME_BONUS = 12.0
EXPOSED_COST = 0.35  # per square of progress a hittable pawn stands to lose
THROW_AT = Fraction(5, 36)
BOX_POINTS = 10.0


def _best_after(state: State, worth) -> Action:
    mover = state.actor
    best, best_value = None, float("-inf")
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action, validate=False)
        value = worth(after, mover)
        if value > best_value:
            best, best_value = action, value
    assert best is not None
    return best


# ----- Traverse ---------------------------------------------------------------------------------


def traverse_worth(state: State, mover: int) -> float:
    view = state.view(None)
    end = view["axis_length"]
    own, other = (view["red"], view["white"]) if mover == 0 else (view["white"], view["red"])
    value = sum(own) - sum(other) + HOME_BONUS * (own.count(end) - other.count(end))
    for axis, position in enumerate(own, start=1):
        if 1 <= position < end:  # on the crossing square (axis, position), as its crosser sees it
            crosser = other[position - 1]
            if 1 <= abs(crosser - axis) <= HIT_REACH:
                value -= EXPOSED_COST * position
    return value


def traverse_runner(state: State, rng: random.Random) -> Action:
    return _best_after(state, traverse_worth)


# ----- Struggle ---------------------------------------------------------------------------------


def _wants(view: dict, mover: int) -> dict[str, float]:
    """How much the player wants each pawn to go ahead: +2 for its card's first box to -2."""
    order = view["objectives"][mover]
    middle = (len(order) - 1) / 2
    return {pawn: middle - place for place, pawn in enumerate(order)}


def struggle_worth(state: State, mover: int) -> float:
    view = state.view(mover)
    order = view["objectives"][mover]
    wants = _wants(view, mover)
    value = sum(wants[pawn] * square for pawn, square in view["squares"].items())
    for pawn, box in view["boxes"].items():
        if "ABCDE".index(box) == order.index(pawn):
            value += BOX_POINTS * 10
    return value


def struggle_objective(state: State, rng: random.Random) -> Action:
    legal = state.legal_actions()
    view = state.view(state.actor)
    if view.get("throws") == 1:
        unwanted = [f for f in view["hand"] if f != "A" and _wants(view, state.actor).get(f, 0) < 0]
        wanted = "rethrow " + " ".join(unwanted)
        for action in legal:
            if unwanted and action.notation == wanted:
                return action
    plays = [a for a in legal if not a.notation.startswith("rethrow")]
    if not plays:
        return legal[0]
    best, best_value = plays[0], float("-inf")
    for action in plays:
        after = state.clone()
        after.apply(action, validate=False)
        value = struggle_worth(after, state.actor)
        if value > best_value:
            best, best_value = action, value
    return best


# ----- Le Roudalon ------------------------------------------------------------------------------


def roudalon_odds(state: State, rng: random.Random) -> Action:
    legal = {action.notation: action for action in state.legal_actions()}
    view = state.view(None)
    pot, held, me = view["pot"], view["held"], state.actor
    throws = [n for n in legal if n.startswith("throw ")]
    if throws:
        best = max(throws, key=lambda n: sum_chance(int(n.split()[1]), pot))
        if sum_chance(int(best.split()[1]), pot) >= THROW_AT:
            return legal[best]
    stakes = [n for n in legal if n.startswith("stake ")]
    if stakes:
        after = (me + 1) % len(held)
        dice = max(1, held[after])

        def next_chance(notation: str) -> Fraction:
            amount = int(notation.split()[1])
            return max(sum_chance(n, pot + amount) for n in range(1, dice + 1))

        return legal[min(stakes, key=lambda n: (next_chance(n), int(n.split()[1])))]
    for word in ("no", "close"):
        if word in legal:
            return legal[word]
    return legal[throws[0]] if throws else next(iter(legal.values()))
