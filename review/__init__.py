"""The review of a finished game: every seat's chance to win at every position, and each decision
replayed through its engine, compared with the advisor's best at that moment, graded, and summed
up per player (docs/review.md).

Imports the engines and the advisor only. A seat's chance and a decision's grade come from what
that player saw, so they depend on nothing that player could not see.
"""

from __future__ import annotations

from review.chances import win_chance, win_chances
from review.grades import GRADES, REVIEW_ITERATIONS, Decision, GameReview, grade_of, review_game

__all__ = [
    "GRADES",
    "REVIEW_ITERATIONS",
    "Decision",
    "GameReview",
    "grade_of",
    "review_game",
    "win_chance",
    "win_chances",
]
