"""review/: decisions graded against the advisor: a known blunder is a blunder, forced moves
are not graded, a hidden card the player could not see changes none of their grades nor their
chance; every seat has a chance at every position; the chance model's fit keeps its map
non-decreasing; and `tabletop review GAME_ID` prints a stored game's review."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from bench.review import calibration
from bench.review_fit import logistic_fit, step_map
from companion.persistence.store import Store
from engines.core import CHANCE
from review import grade_of, review_game, win_chance
from review.chances import mapped
from review.grades import _decision
from tabletop.cli import main


def _dealt(seed: int = 3) -> engines.State:
    state = engines.make_game("sequence", ["A", "B"], seed=seed).new_state()
    while state.actor == CHANCE:
        state.play_chance()
    return state


def _one_card_left() -> engines.State:
    """Stratégix, two players, round 1: the other holds one card, a letter (every star, pétard
    and Z is laid); the player to act leads holding C C D. A pair or the run C D keeps the lead
    (one card cannot follow them) and the last card goes out next; a single lets the other
    beat it with their letter and go out first, as Dubolix."""
    state = engines.make_game("strategix", ["A", "B"], seed=1).new_state()
    state.apply("first 0")
    state.apply("deal !***BCDGHJLMNOPQRSUV / !!****CDEFGHIJKLMNZZ / out BEFIKOPQSTTUVWWXXYYR")
    state.hands = ["CCD", "T"]
    state.counts = [3, 1]
    state.played = "*******!!!ZZ"
    return state


def test_a_single_that_lets_the_other_go_out_is_a_blunder() -> None:
    state = _one_card_left()
    assert _decision(state, 0, 0, "play C D", 30).grade in ("best", "good")
    assert _decision(state, 0, 0, "play D", 30).grade == "blunder"


def test_forced_moves_are_not_graded() -> None:
    state = engines.make_game("roudalon", ["A", "B", "C", "D"], seed=2).new_state()
    notations, rng = [], random.Random(2)
    while not state.is_over and len(notations) < 60:
        if state.actor == CHANCE:
            action = state.sample_chance(rng)
        else:
            action = rng.choice(state.legal_actions())
        notations.append(action.notation)
        state.apply(action)
    review = review_game("roudalon", ["A", "B", "C", "D"], notations, seed=2)
    replay = engines.make_game("roudalon", ["A", "B", "C", "D"], seed=2).new_state()
    forced = 0
    for index, notation in enumerate(notations):
        if isinstance(replay.actor, int) and len(replay.legal_actions()) == 1:
            decision = next(d for d in review.decisions if d.index == index)
            assert decision.grade is None
            forced += 1
        replay.apply(notation)
    assert forced


def _twin_with_a_hidden_card_swapped(state: engines.State) -> engines.State:
    """The same Sequence position but for one card of the other player's hand, swapped with the
    stock's first (the card the player to act draws next): nothing that player can see."""
    me = state.current
    me = state.current
    other = 1 - me
    twin = state.clone()
    hand = list(twin.hands[other])
    swap = next(card for card in twin.stock if card not in hand)
    stock = list(twin.stock)
    assert stock.index(swap) == 0
    stock[0], hand[0] = hand[0], swap
    twin.stock = type(twin.stock)(stock)
    hands = list(twin.hands)
    hands[other] = type(twin.hands[other])(hand)
    twin.hands = type(twin.hands)(hands)
    assert twin.view(me) == state.view(me) and twin.hands != state.hands
    return twin


def test_a_hidden_card_changes_no_grade_of_the_player() -> None:
    state = _dealt(4)
    me = state.current
    twin = _twin_with_a_hidden_card_swapped(state)
    for action in state.legal_actions()[:5]:
        first = _decision(state, 0, me, action.notation, 20)
        second = _decision(twin, 0, me, action.notation, 20)
        assert first == second


def test_a_hidden_card_changes_not_the_players_chance() -> None:
    state = _dealt(4)
    twin = _twin_with_a_hidden_card_swapped(state)
    assert win_chance(twin, state.current) == win_chance(state, state.current)


def test_an_objective_card_entered_at_the_table_is_not_graded() -> None:
    """Round 3 (D1): the entry of a player's printed objective card was graded a blunder, with
    "better: another card": a card dealt is not a choice."""
    rng = random.Random(4)
    state = engines.make_game("struggle", ["A", "B"], seed=4, mode="table").new_state()
    while state.phase != "reveal":
        state.apply(rng.choice(state.legal_actions()).notation)
    entered = rng.choice(state.legal_actions()).notation
    decision = _decision(state, len(state.history), state.actor, entered, 6)
    assert decision.grade is None and decision.best == entered


def test_a_struggle_objective_card_changes_not_the_other_seats_chance() -> None:
    state = engines.make_game("struggle", ["A", "B"], seed=5).new_state()
    while state.actor == CHANCE:
        state.play_chance()
    twin = state.clone()
    objectives = list(twin.objectives)
    objectives[1] = tuple(reversed(objectives[1]))
    twin.objectives = objectives
    assert win_chance(twin, 0) == win_chance(state, 0)


def test_every_seat_has_a_chance_at_every_position_and_the_result_at_the_end() -> None:
    state = engines.make_game("roudalon", ["A", "B", "C", "D"], seed=4).new_state()
    notations, rng = [], random.Random(4)
    while not state.is_over:
        action = state.sample_chance(rng) if state.actor == CHANCE else rng.choice(
            state.legal_actions())  # fmt: skip
        notations.append(action.notation)
        state.apply(action)
    review = review_game("roudalon", ["A", "B", "C", "D"], notations, seed=4)
    acted = [d.index for d in review.decisions]
    assert [index for index, _ in review.chances[:-1]] == sorted({0, *acted})  # the start too
    assert all(len(chances) == 4 and all(0 <= c <= 1 for c in chances)
               for _, chances in review.chances)  # fmt: skip
    winners = state.winners()
    assert review.chances[-1][1] == tuple(
        1 / len(winners) if seat in winners else 0.0 for seat in range(4)
    )


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.sampled_from([0.0, 0.5, 1.0])), min_size=1,
                max_size=900))  # fmt: skip
def test_a_fitted_step_map_never_goes_down_and_stays_a_chance(pairs) -> None:
    fitted = step_map([raw for raw, _ in pairs], [won for _, won in pairs])
    assert fitted["raws"] == sorted(fitted["raws"]) and fitted["raws"][0] == 0.0
    assert fitted["chances"] == sorted(fitted["chances"])
    assert all(0 <= c <= 1 for c in fitted["chances"])
    raws = sorted(raw for raw, _ in pairs)
    assert [mapped(fitted, r) for r in raws] == sorted(mapped(fitted, r) for r in raws)


def test_the_logistic_fit_finds_the_chance_it_was_given() -> None:
    rng = random.Random(3)
    rows, wins = [], []
    for _ in range(4000):
        x = rng.uniform(-2, 2)
        rows.append([1.0, x])
        wins.append(float(rng.random() < 1 / (1 + 2.718281828 ** -(0.5 + 1.5 * x))))
    import numpy as np

    bias, slope = logistic_fit(np.array(rows), np.array(wins))
    assert abs(bias - 0.5) < 0.15 and abs(slope - 1.5) < 0.2


def test_grades_by_chance_given_away() -> None:
    assert grade_of(0.0, True) == "best"
    assert grade_of(0.0, False) == "good"
    assert grade_of(0.01, False) == "good"
    assert grade_of(0.02, False) == "inaccuracy"
    assert grade_of(0.08, False) == "mistake"
    assert grade_of(0.1, False) == "blunder"


def test_review_command_prints_a_stored_game(tmp_path, capsys) -> None:
    state = engines.make_game("traverse", ["Ann", "Bob"], seed=7).new_state()
    rng = random.Random(7)
    with Store(tmp_path) as store:
        game_id = store.start_game("traverse", ["Ann", "Bob"], seed=7, mode="full")
        for _ in range(12):
            action = state.sample_chance(rng) if state.actor == CHANCE else rng.choice(
                state.legal_actions())  # fmt: skip
            state.apply(action)
            store.append(game_id, action.notation)
        store.finish(game_id, [0, 0], [0])
    assert main(["review", str(game_id), "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("traverse:") and "Ann: accuracy" in out and "Bob: accuracy" in out


def test_review_of_a_missing_game_is_one_line(tmp_path, capsys) -> None:
    Store(tmp_path).close()
    assert main(["review", "99", "--state-dir", str(tmp_path)]) == 1
    assert capsys.readouterr().err.count("\n") == 1


def test_bench_review_prints_one_line_per_game_with_its_figures(capsys) -> None:
    assert main(["bench", "review", "--only", "sequence", "--games", "1", "--timed", "1",
                 "--json"]) == 0  # fmt: skip
    line = json.loads(capsys.readouterr().out)
    assert set(line) == {"game", "games", "unended", "ece", "brier", "review_s_median",
                         "review_s_p95"}  # fmt: skip
    assert line["game"] == "sequence" and line["games"] == 1 and line["unended"] == 0
    assert 0 <= line["ece"] <= 1 and 0 <= line["brier"] <= 1


def test_calibration_of_perfect_and_wrong_chances() -> None:
    assert calibration([(1.0, 1.0), (0.0, 0.0)]) == (0.0, 0.0)
    assert calibration([(1.0, 0.0), (0.0, 1.0)]) == (1.0, 1.0)
    assert calibration([]) == (None, None)


def test_a_bot_game_that_never_ends_is_left_out_and_counted(monkeypatch, capsys) -> None:
    """Issue 60: Sequence's 2,000 games never finished: two partners changed dead cards for ever
    on a full board (game 537 of seed 1), and the bench waited on it."""
    import bench.review_games

    monkeypatch.setattr(bench.review_games, "MAX_ACTIONS", 10)  # no game ends this soon
    assert main(["bench", "review", "--only", "sequence", "--games", "2", "--timed", "0",
                 "--json"]) == 0  # fmt: skip
    line = json.loads(capsys.readouterr().out)
    assert line["games"] == 0 and line["unended"] == 2 and line["ece"] is None
