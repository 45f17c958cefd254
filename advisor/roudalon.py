"""Le Roudalon's advisor: exact chances of hitting the pot, alone or allied, and when a stake is
worth more than a throw.

Le Roudalon hides nothing; the only uncertainty is the dice, and their chances are computed
exactly. A throw is worth its chance of hitting; a stake is preferred when no throw reaches
THROW_AT (1 in 9: a pot of 5 or 9 with two dice); an alliance is offered when the pot is out of
the player's own reach and the allies' dice make it at least OFFER_AT. (A Monte-Carlo search
over playouts was tried and lost to this rule: its few hundred playouts a decision were too
noisy for a game decided by one-in-six shots.)
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from advisor.core import Choice, Deadline, Reason, ranked
from engines.core import State

MAX_FACE = 6
THROW_AT = Fraction(1, 9)
OFFER_AT = Fraction(1, 20)


@cache
def sum_chance(dice: int, total: int) -> Fraction:
    """The exact chance that `dice` fair six-sided dice show `total` (0 dice: total 0)."""
    if dice == 0:
        return Fraction(int(total == 0))
    if not dice <= total <= MAX_FACE * dice:
        return Fraction(0)
    return sum((sum_chance(dice - 1, total - face) for face in range(1, MAX_FACE + 1)),
               Fraction(0)) / MAX_FACE  # fmt: skip


def alliance_chance(held: tuple[int, ...], pot: int) -> Fraction:
    """The chance that allies holding `held` dice (in throwing order) end exactly on `pot`.

    Each ally, seeing the running total, throws the number of dice (1 .. what they hold) that
    gives the best chance; an exact total before the last ally is a miss (the next ally must
    throw and overshoots), as is any total past the pot.
    """
    return _best_from(held, pot)


@cache
def _best_from(held: tuple[int, ...], left: int) -> Fraction:
    if not held or left <= 0:
        return Fraction(0)
    if len(held) == 1:
        return max(sum_chance(n, left) for n in range(1, held[0] + 1))
    rest = held[1:]
    best = Fraction(0)
    for n in range(1, held[0] + 1):
        chance = sum(
            (sum_chance(n, s) * _best_from(rest, left - s) for s in range(n, left)), Fraction(0)
        )
        best = max(best, chance)
    return best


def advise(state: State, deadline: Deadline) -> list[Choice]:
    view = state.view(None)
    return ranked([_choice(view, state.actor, action.notation) for action in state.legal_actions()])


def _choice(view: dict, player: int, notation: str) -> Choice:
    word, *rest = notation.split()
    pot, held = view["pot"], view["held"]
    left = pot - view["running_total"]
    if word == "throw":
        dice = int(rest[0])
        chance = _throw_chance(view, player, dice, left)
        alone = sum_chance(dice, left)
        params = {"dice": dice, "ways": int(alone * MAX_FACE**dice), "outcomes": MAX_FACE**dice,
                  "pot": left, "chance": round(float(chance), 4)}  # fmt: skip
        return Choice(notation, float(chance), "chance", Reason("roudalon.throw", params))
    if word == "stake":
        amount = int(rest[0])
        figure = float(THROW_AT) - 0.001 * amount  # what a throw must beat; the least stake first
        params = {"amount": amount, "pot": pot + amount}
        return Choice(notation, figure, "chance", Reason("roudalon.stake", params))
    allies = view["alliance"] or [view["current"]]
    if word in ("offer", "yes"):
        allies = allies + [(allies[-1] + 1) % len(held)]
    chance = alliance_chance(tuple(held[p] for p in allies), pot)
    figure = float(chance)
    if word == "offer" and (pot <= MAX_FACE * held[player] or chance < OFFER_AT):
        figure = 0.0  # within one's own reach, a throw alone keeps the whole pot
    params = {"pot": pot, "chance": round(float(chance), 4)}
    if word in ("yes", "no"):
        params["answer"] = word
        figure = figure if word == "yes" else float(OFFER_AT)
        return Choice(notation, figure, "chance", Reason("roudalon.answer", params))
    code = "roudalon.offer" if word == "offer" else "roudalon.close"
    return Choice(notation, figure, "chance", Reason(code, params))


def _throw_chance(view: dict, player: int, dice: int, left: int) -> Fraction:
    """The chance that this throw ends in a hit: alone, or with the allies still to throw."""
    alliance = view["alliance"]
    rest = alliance[alliance.index(player) + 1 :] if player in alliance else []
    if not rest:
        return sum_chance(dice, left)
    after = tuple(view["held"][p] for p in rest)
    return sum(
        (sum_chance(dice, s) * alliance_chance(after, left - s) for s in range(dice, left)),
        Fraction(0),
    )
