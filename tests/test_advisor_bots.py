"""Bot levels: the simple bot and the advisor, as functions of an engine state."""

from __future__ import annotations

import random

import pytest

import engines
from companion.bot_choice import LEVELS, make_player, simple_choice
from companion.bots import Bot
from engines.core import CHANCE


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("name", ["struggle", "roudalon", "sequence"])
def test_every_level_plays_legal_moves(level: str, name: str) -> None:
    count = 4 if name == "roudalon" else 2
    state = engines.make_game(name, [f"P{i}" for i in range(count)], seed=2).new_state()
    player = make_player(level, seed=2)
    rng = random.Random(2)
    for _ in range(6):
        while state.actor == CHANCE:
            state.play_chance()
        if state.is_over:
            break
        state.apply(player(state) if level != "advisor" else make_player("advisor-fast")(state))
        if not state.is_over and state.actor != CHANCE:
            state.apply(rng.choice(state.legal_actions()), validate=False)


def test_the_simple_choice_is_repeatable() -> None:
    state = engines.make_game("traverse", ["A", "B"], seed=5).new_state()
    while state.actor == CHANCE:
        state.play_chance()
    assert simple_choice(state, 5) == simple_choice(state.clone(), 5)


def test_unknown_levels_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot level"):
        make_player("grandmaster")
    with pytest.raises(ValueError, match="unknown bot level"):
        Bot(1, level="grandmaster")
