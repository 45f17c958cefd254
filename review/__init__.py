"""The review of a finished game: each decision replayed through its engine, compared with the
advisor's best at that moment, graded, and summed up per player (docs/review.md).

Imports the engines and the advisor only. The advisor sees a position as the acting player
saw it, so a decision's grade depends on nothing that player could not see.
"""

from __future__ import annotations

from review.grades import GRADES, Decision, GameReview, grade_of, review_game

__all__ = ["GRADES", "Decision", "GameReview", "grade_of", "review_game"]
