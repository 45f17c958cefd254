"""Le Roudalon's advisor: exact chances of hitting the pot (alone or allied), and each choice's
chance of winning the game estimated by playing it out many times.

Le Roudalon hides nothing, so the only uncertainty is the dice: the search plays each legal
choice on against seats that all throw when the dice can hit the pot and stake otherwise.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

from advisor.core import Choice, Deadline, Reason, determinised_search, ranked, view_rng
from engines.core import Action, State

MAX_FACE = 6


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


def best_dice(held: int, pot: int) -> tuple[int, Fraction]:
    """How many of the dice held to throw alone at `pot`, and the chance it hits."""
    options = [(sum_chance(n, pot), n) for n in range(1, held + 1)]
    chance, count = max(options)
    return count, chance


def advise(state: State, deadline: Deadline) -> list[Choice]:
    player = state.actor
    assert isinstance(player, int)
    rng = view_rng(state, player)
    legal = state.legal_actions()
    candidates = [(action, 0.5) for action in legal]
    results = determinised_search(
        state, player, candidates, _same_world, policy, _won, deadline, rng, depth=60
    )
    return ranked([_choice(state, r.action, r.mean) for r in results])


def _same_world(state: State, player: int, rng: random.Random) -> State:
    return state.clone()  # nothing is hidden in Le Roudalon


def _won(state: State, player: int) -> float:
    scores = state.scores()
    best = max(scores)
    if scores[player] != best:
        return 0.0
    return 1.0 / scores.count(best)


def policy(state: State, rng: random.Random) -> Action:
    """What every seat does in a playout: throw when the dice can hit, else stake a little."""
    legal = {action.notation: action for action in state.legal_actions()}
    view = state.view(None)
    pot, player = view["pot"], state.actor
    if "yes" in legal:
        return legal["yes" if rng.random() < 0.5 else "no"]
    stakes = [n for n in legal if n.startswith("stake ")]
    if any(n.startswith("throw ") for n in legal):
        count, chance = best_dice(view["held"][player], pot - view["running_total"])
        if chance >= Fraction(1, 9) or not stakes:
            return legal[f"throw {count}"]
    if "close" in legal:
        return legal["close"]
    if stakes:
        return legal[stakes[min(len(stakes) - 1, int(rng.random() * 3))]]
    return rng.choice(list(legal.values()))


def _choice(state: State, action: Action, win: float) -> Choice:
    view = state.view(None)
    word = action.notation.split()[0]
    pot = view["pot"]
    if word == "throw":
        dice = int(action.notation.split()[1])
        chance = sum_chance(dice, pot - view["running_total"])
        ways = chance * MAX_FACE**dice
        params = {"dice": dice, "ways": int(ways), "outcomes": MAX_FACE**dice, "pot": pot,
                  "chance": float(chance), "win": round(win, 3)}  # fmt: skip
        return Choice(action.notation, win, "win", Reason("roudalon.throw", params))
    if word == "stake":
        amount = int(action.notation.split()[1])
        params = {"amount": amount, "pot": pot + amount, "win": round(win, 3)}
        return Choice(action.notation, win, "win", Reason("roudalon.stake", params))
    if word in ("offer", "close", "yes"):
        allies = view["alliance"] or [view["current"]]
        if word == "offer" or word == "yes":
            allies = allies + [(allies[-1] + 1) % len(view["held"])]
        chance = alliance_chance(tuple(view["held"][p] for p in allies), pot)
        code = {"offer": "roudalon.offer", "close": "roudalon.close"}.get(word, "roudalon.answer")
        params = {"pot": pot, "chance": float(chance), "win": round(win, 3)}
        if word == "yes":
            params.update(answer="yes")
        return Choice(action.notation, win, "win", Reason(code, params))
    params = {"answer": word, "win": round(win, 3)}
    return Choice(action.notation, win, "win", Reason("roudalon.answer", params))
