"""Grades: each decision of a finished game compared with the advisor's best at that moment.

A decision is graded by the chance it gave away: the advisor's figure for its best choice less
its figure for the choice made, both from one search of the position (a fixed number of
iterations, seeded by what the acting player saw, so a review is repeatable and blind to what
that player could not see). Only games whose advisor figures are on the scale of a chance to
win are graded (`CHANCE_KINDS`: Stratégix and Le Roudalon, a chance to win; Sequence, a
squashed evaluation); Traverse's figures are an unbounded worth and Struggle's one pawn's
chance of its box, so their decisions are not graded yet. A decision with one legal action is
forced and not graded, nor is one the advisor ranked below its search (no chance of its own:
the advisor lists the choices it did not search after those it did, with figures below 0).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import advisor
import engines

# The largest chance given away for each grade, best first (provisional: see docs/review.md).
GRADES: tuple[tuple[str, float], ...] = (
    ("best", 0.0),
    ("good", 0.02),
    ("inaccuracy", 0.05),
    ("mistake", 0.10),
    ("blunder", 1.0),
)
CHANCE_KINDS = {"strategix": ("win",), "roudalon": ("win",), "sequence": ("value",)}
# Games whose hands the table never enters (table mode: physical cards). A better move must be
# one the player could have made from what the table knows: in Sequence, the card they played
# on another square; in Stratégix every choice depends on the hand, so nothing is graded.
SAME_CARD_AT_TABLE = {"sequence"}
UNGRADED_AT_TABLE = {"strategix"}
CARD_PLAYED = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC]\b")
REVIEW_ITERATIONS = 40


@dataclass(frozen=True)
class Decision:
    """One action of the log by a player: what was played, the advisor's best, the grade."""

    index: int  # position in the action log
    player: int
    played: str
    best: str
    chance_best: float | None
    chance_played: float | None
    grade: str | None  # None: forced, or figures that are not chances

    @property
    def given_away(self) -> float | None:
        if self.chance_best is None or self.chance_played is None:
            return None
        return max(0.0, self.chance_best - self.chance_played)


@dataclass
class GameReview:
    game: str
    players: tuple[str, ...]
    decisions: list[Decision] = field(default_factory=list)

    def graded(self, player: int) -> list[Decision]:
        return [d for d in self.decisions if d.player == player and d.grade is not None]

    def accuracy(self, player: int) -> float | None:
        """The share of a player's graded decisions that were best or good, 0..1."""
        graded = self.graded(player)
        if not graded:
            return None
        return sum(d.grade in ("best", "good") for d in graded) / len(graded)

    def counts(self, player: int) -> dict[str, int]:
        found = {name: 0 for name, _ in GRADES}
        for decision in self.graded(player):
            found[decision.grade] += 1
        return found


def grade_of(given_away: float, was_best: bool) -> str:
    if was_best:
        return "best"
    for name, most in GRADES[1:]:
        if given_away <= most:
            return name
    return GRADES[-1][0]


def review_game(name: str, players: Sequence[str], notations: Sequence[str],
                options: dict[str, Any] | None = None, seed: int | None = None,
                mode: str = "full", iterations: int = REVIEW_ITERATIONS) -> GameReview:  # fmt: skip
    """Replay `notations` through the engine and grade every decision a player made."""
    state = engines.make_game(name, list(players), options or {}, seed, mode).new_state()
    review = GameReview(name, tuple(players))
    for index, notation in enumerate(notations):
        actor = state.actor
        if isinstance(actor, int) and not state.is_over:
            review.decisions.append(_decision(state, index, actor, notation, iterations))
        state.apply(notation)
    return review


def _decision(state: engines.State, index: int, actor: int, notation: str,
              iterations: int) -> Decision:  # fmt: skip
    played = state.parse(notation).notation
    legal = state.legal_actions()
    kinds = CHANCE_KINDS.get(state.game.name, ())
    table_blind = state.game.mode == "table" and state.game.name in UNGRADED_AT_TABLE
    if len(legal) == 1 or not kinds or table_blind:  # forced, not chances, or hands unknown
        return Decision(index, actor, played, played, None, None, None)
    choices = _comparable(state, played, advisor.advise(state, iterations=iterations))
    if len(choices) < 2:  # nothing the table knows the player could have done instead
        return Decision(index, actor, played, played, None, None, None)
    best = choices[0]
    figures = {choice.notation: choice for choice in choices}
    chosen = figures.get(played)
    unsearched = chosen is None or chosen.figure < 0  # ranked below the search: no chance known
    if unsearched or best.kind not in kinds or chosen.kind != best.kind:
        return Decision(index, actor, played, best.notation, None, None, None)
    best_figure, chosen_figure = _chance(best.figure), _chance(chosen.figure)
    given = max(0.0, best_figure - chosen_figure)
    grade = grade_of(given, played == best.notation)
    return Decision(index, actor, played, best.notation, best_figure, chosen_figure, grade)


def _comparable(state: engines.State, played: str,
                choices: list[advisor.Choice]) -> list[advisor.Choice]:  # fmt: skip
    """The choices the player could have made from what the table knows, best first."""
    if state.game.mode != "table" or state.game.name not in SAME_CARD_AT_TABLE:
        return choices
    card = card_played(played)
    return [choice for choice in choices if card and card_played(choice.notation) == card]


def card_played(notation: str) -> str:
    found = CARD_PLAYED.search(notation)
    return found.group(0) if found else ""


def _chance(figure: float) -> float:
    return min(1.0, max(0.0, figure))
