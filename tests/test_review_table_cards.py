"""A game played with physical cards (table mode): the table never knew a hand, so its review
names no better card than the one played (issue 57, the review after a table-mode Sequence)."""

from __future__ import annotations

import random
import re

import pytest

import engines
from review import review_game

CARD = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC]\b")


def card_played(notation: str) -> str:
    found = CARD.search(notation)
    return found.group(0) if found else ""


def table_game(game: str, players: list[str], plays: int, seed: int) -> list[str]:
    """A table-mode game's log: chance by the engine, `plays` random legal plays."""
    state = engines.make_game(game, players, {}, seed, "table").new_state()
    rng, log, played = random.Random(seed), [], 0
    while played < plays and not state.is_over:
        if state.is_chance:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            if not legal:
                break
            action, played = rng.choice(legal), played + 1
        log.append(action.notation)
        state.apply(action.notation)
    return log


@pytest.mark.parametrize("seed", [4, 9])
def test_a_table_sequence_review_names_only_the_card_played(seed):
    players = ["Ana", "Bob", "Cléo"]
    log = table_game("sequence", players, 10, seed)
    review = review_game("sequence", players, log, {}, seed, "table", iterations=8)
    graded = [d for d in review.decisions if d.grade is not None]
    assert all(card_played(d.best) == card_played(d.played) for d in review.decisions)
    assert all(d.best == d.played or d.grade != "best" for d in graded)


def test_a_table_strategix_review_grades_no_move():
    players = ["Ana", "Bob", "Cleo"]
    log = ["first 1", "play D E F + M N O", "pass", "petard", "pass"]
    review = review_game("strategix", players, log, {}, 3, "table", iterations=8)
    assert review.decisions and all(d.grade is None for d in review.decisions)
