"""A finished game's review travels with it to the club: the table's outbox pushes it once it is
stored, the club checks it like every push field (club/reviews.py) and refuses, in one line, a
review that does not fit the game's own log; any JSON at all is checked without an error."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from club.replay import RefusedGame, check
from club.reviews import BadReview, checked
from companion.persistence.outbox import Outbox
from companion.persistence.store import Store
from companion.review_worker import review_data
from review import review_game
from tests.club_support import payload, random_game

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


@pytest.fixture(scope="module")
def reviewed() -> dict:
    state = random_game("roudalon", PLAYERS, seed=3)
    notations = [action.notation for action in state.history]
    review = review_game("roudalon", PLAYERS, notations, seed=state.game.seed, mode="full")
    return {**payload(state, 1), "review": review_data("roudalon", PLAYERS, len(notations),
                                                       review)}  # fmt: skip


def test_a_tables_review_is_kept_with_its_game(reviewed):
    game = check(reviewed)
    assert game.review["decisions"] == reviewed["review"]["decisions"]
    assert game.review["accuracy"] == reviewed["review"]["accuracy"]
    assert game.review["chances"] == reviewed["review"]["chances"]
    assert game.review["graded"] == reviewed["review"]["graded"]
    assert check({**reviewed, "review": None}).review is None


SPOILED = {
    "not an object": lambda r: ["decisions"],
    "another game": lambda r: {**r, "game": "traverse"},
    "an unknown key": lambda r: {**r, "extra": 1},
    "an action not in the log": lambda r: _first(r, played="stake 99"),
    "an index past the log": lambda r: _first(r, index=10_000),
    "a seat not in the game": lambda r: _first(r, player=7),
    "a chance above 1": lambda r: _first(r, chance_best=1.5),
    "a chance that is text": lambda r: _first(r, chance_played="0.5"),
    "an unknown grade": lambda r: _first(r, grade="brilliant"),
    "accuracy per seat": lambda r: {**r, "accuracy": [0.5]},
    "more decisions than actions": lambda r: {**r, "decisions": r["decisions"] * 1000},
    "a chance per seat": lambda r: {**r, "chances": [[0, [0.5]]]},
    "a position past the game": lambda r: {**r, "chances": [[10_000, [0.25] * 4]]},
    "positions not rising": lambda r: {**r, "chances": [r["chances"][1], r["chances"][0]]},
    "a seat's chance above 1": lambda r: {**r, "chances": [[0, [2, 0, 0, 0]]]},
    "graded per seat": lambda r: {**r, "graded": [1]},
    "a graded count below 0": lambda r: {**r, "graded": [-1, 0, 0, 0]},
}


def _first(review: dict, **changed) -> dict:
    spoiled = copy.deepcopy(review)
    spoiled["decisions"][0].update(changed)
    return spoiled


@pytest.mark.parametrize("what", sorted(SPOILED))
def test_a_review_that_does_not_fit_its_game_refuses_the_push_in_one_line(reviewed, what):
    with pytest.raises(RefusedGame) as refused:
        check({**reviewed, "review": SPOILED[what](reviewed["review"])})
    assert "\n" not in str(refused.value) and "review" in str(refused.value)


def test_a_game_being_played_has_no_review(reviewed):
    playing = {**reviewed, "history": reviewed["history"][:10], "status": "playing"}
    with pytest.raises(RefusedGame, match="only a finished game"):
        check(playing)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),  # fmt: skip
    max_leaves=20,
)
DECISION = st.fixed_dictionaries({
    "index": st.integers(-2, 12), "player": st.integers(-1, 4),
    "played": st.sampled_from(["a", "b", "stake 1"]), "best": st.text(max_size=3),
    "chance_best": st.floats(-1, 2), "chance_played": st.floats(-1, 2) | st.none(),
    "grade": st.sampled_from(["best", "good", "blunder", "meh"]),
})  # fmt: skip


CHANCES = st.lists(
    st.tuples(st.integers(-1, 11), st.lists(st.floats(-0.5, 1.5), max_size=5)).map(list),
    max_size=5,
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(review=JSON | st.fixed_dictionaries({"decisions": st.lists(DECISION, max_size=5)},
                                           optional={"accuracy": JSON, "graded": JSON,
                                                     "chances": JSON | CHANCES}))  # fmt: skip
def test_any_json_is_a_review_or_refused_with_a_reason(review):
    history = ["a", "b", "stake 1", "a", "b", "a", "b", "a", "b", "a"]
    try:
        kept = checked(review, "roudalon", history, 4)
    except BadReview as error:
        assert str(error) and "\n" not in str(error)
        return
    assert kept is None or all(history[d["index"]] == d["played"] for d in kept["decisions"])


def test_the_outbox_pushes_a_review_once_it_is_stored(tmp_path, reviewed):
    with Store(tmp_path) as store:
        game_id = store.start_game("roudalon", PLAYERS, {}, reviewed["seed"], "full")
        for notation in reviewed["history"]:
            store.append(game_id, notation)
        store.finish(game_id, [0, 0, 0, 0], [0])
        box = Outbox(tmp_path)
        try:
            assert box.collect(now=100) == 1
            assert "review" not in _queued(box)[game_id]
            store.save_review(game_id, reviewed["review"])
            assert box.collect(now=101) == 1  # queued again, with its review
            assert _queued(box)[game_id]["review"] == reviewed["review"]
            assert box.collect(now=102) == 0
        finally:
            box.close()


def _queued(box: Outbox) -> dict[int, dict]:
    return {gid: json.loads(body) for gid, _, body in box.due(float("inf"), 100)}
