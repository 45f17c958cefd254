"""Every engine passes the conformance kit (see tests/conformance.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from tests.conformance import (
    check_step,
    check_unchanged_on_bad_input,
    check_undo_and_json,
    play_out,
    random_game,
)

GAMES = engines.available_games()
KIT = settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("name", GAMES)
@KIT
@given(seed=st.integers(0, 2**32 - 1))
def test_random_full_games_keep_invariants(name: str, seed: int) -> None:
    rng = random.Random(seed)
    state = random_game(name, rng).new_state()
    check_step(state)
    play_out(state, rng, on_step=check_step)
    assert state.is_over and state.winners()


@pytest.mark.parametrize("name", GAMES)
@KIT
@given(seed=st.integers(0, 2**32 - 1))
def test_json_undo_and_bad_input_at_random_points(name: str, seed: int) -> None:
    rng = random.Random(seed)
    state = random_game(name, rng).new_state()
    checkpoints = sorted(rng.sample(range(1, 400), 4))

    def at_checkpoints(s) -> None:
        if len(s.history) in checkpoints:
            check_undo_and_json(s, rng)
            check_unchanged_on_bad_input(s, rng)

    play_out(state, rng, on_step=at_checkpoints)
    check_undo_and_json(state, rng)
    check_unchanged_on_bad_input(state, rng)


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_game(name: str) -> None:
    def history(seed: int) -> list[str]:
        rng = random.Random(seed)
        state = play_out(random_game(name, rng).new_state(), rng)
        return [a.notation for a in state.history]

    assert history(11) == history(11)
    assert history(11) != history(12)


@pytest.mark.parametrize("name", GAMES)
def test_undo_back_to_the_start(name: str) -> None:
    rng = random.Random(5)
    game = random_game(name, rng)
    state = play_out(game.new_state(), rng)
    while state.history:
        state.undo()
    assert state == game.new_state()
    with pytest.raises(engines.NothingToUndoError):
        state.undo()


@pytest.mark.parametrize("name", GAMES)
def test_tampered_save_is_refused(name: str) -> None:
    import json

    rng = random.Random(9)
    state = play_out(random_game(name, rng).new_state(), rng)
    data = json.loads(engines.dumps(state))
    data["history"] = data["history"][:-1]
    with pytest.raises(engines.SaveFileError, match="altered"):
        engines.loads(json.dumps(data))
    with pytest.raises(engines.SaveFileError):
        engines.loads(engines.dumps(state)[:-20])


@pytest.mark.parametrize("name", GAMES)
def test_unknown_option_and_bad_players_are_clear_errors(name: str) -> None:
    cls = engines.game_class(name)
    players = [f"P{i}" for i in range(cls.player_counts()[0])]
    with pytest.raises(engines.OptionError, match="unknown option"):
        cls(players, {"no_such_option": 1})
    with pytest.raises(engines.OptionError, match="players"):
        cls(players[:1])
    with pytest.raises(engines.OptionError, match="different"):
        cls(["A"] * len(players))


@pytest.mark.parametrize("name", GAMES)
@KIT
@given(seed=st.integers(0, 2**32 - 1))
def test_a_replay_without_undo_reaches_the_same_position(name: str, seed: int) -> None:
    """`apply(..., undoable=False)` (the club's check of a pushed game) plays exactly as `apply`,
    and undo then refuses rather than take back what it kept no snapshot of."""
    rng = random.Random(seed)
    game = random_game(name, rng)
    played = play_out(game.new_state(), rng)
    replay = game.new_state()
    for action in played.history:
        replay.apply(action.notation, undoable=False)
    assert replay == played and replay.scores() == played.scores()
    assert [a.notation for a in replay.history] == [a.notation for a in played.history]
    with pytest.raises(engines.NothingToUndoError):
        replay.undo()
