"""The advisor: ranked, explained choices for the acting player, from what that player may see.

`advise(state)` returns the legal actions best first, each with a figure and a coded reason
(see advisor.core). It imports the engines only; the engines never import it.
"""

from __future__ import annotations

import importlib

from advisor.core import DEFAULT_BUDGET_MS, REASONS, Choice, Deadline, Reason
from engines.core import State

__all__ = ["DEFAULT_BUDGET_MS", "REASONS", "Choice", "Reason", "advise", "best_action"]


def advise(
    state: State, budget_ms: float = DEFAULT_BUDGET_MS, iterations: int | None = None
) -> list[Choice]:
    """The acting player's legal actions, best first, within about `budget_ms` milliseconds
    (or, when `iterations` is given, after exactly that many search iterations: repeatable).

    Empty when no player is to act (chance's turn, or the game is over).
    """
    if not isinstance(state.actor, int) or state.is_over:
        return []
    module = importlib.import_module(f"advisor.{state.game.name}")
    return module.advise(state, Deadline(budget_ms, iterations))


def best_action(
    state: State, budget_ms: float = DEFAULT_BUDGET_MS, iterations: int | None = None
) -> str:
    """The notation of the advisor's first choice."""
    choices = advise(state, budget_ms, iterations)
    if not choices:
        raise ValueError("no player is to act")
    return choices[0].notation
