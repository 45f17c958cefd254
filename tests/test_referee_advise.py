"""The referee's `advise` line: the advisor's ranked choices, the game unchanged."""

from __future__ import annotations

import engines
from companion.referee import Referee


def test_advise_lists_every_legal_action_best_first_and_changes_nothing() -> None:
    state = engines.make_game("traverse", ["Ana", "Bob"], seed=4).new_state()
    referee = Referee(state, auto_chance=True)
    before = referee.state.clone()
    reply = referee.handle("advise")
    assert reply["ok"]
    notations = [choice["notation"] for choice in reply["choices"]]
    assert sorted(notations) == sorted(reply["legal"])
    figures = [choice["figure"] for choice in reply["choices"]]
    assert figures == sorted(figures, reverse=True)
    assert {"notation", "figure", "kind", "reason"} <= set(reply["choices"][0])
    assert referee.state == before
    assert referee.handle(notations[0])["ok"]


def test_advise_when_chance_is_to_act_is_refused() -> None:
    referee = Referee(engines.make_game("roudalon", ["A", "B", "C", "D"]).new_state())
    reply = referee.handle("advise")
    assert not reply["ok"] and "no player" in reply["error"]
