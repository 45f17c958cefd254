"""Every engine's notation parser answers any text with an action or one of the engines' own
errors, and a refused text leaves the position unchanged (#22: `J+²`, `dealer ²`, `play *=A`)."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines.core import CHANCE, EngineError, State
from tests.conformance import random_game

GAMES = engines.available_games()
CASES = [(name, mode) for name in GAMES for mode in engines.game_class(name).modes]
PARSER = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))

# Characters that look like digits or letters to str methods but are not ASCII notation.
LOOKALIKES = ["²", "³", "¹", "①", "⑶", "፫", "٣", "½", "Ⅻ", "ß", "ﬀ", "İ", "\u0130", "\x00", "\t"]
SYMBOLS = ["*", "=", "+", "-", "@", "x", "/", ":", "!", "*=", "*=A", "*=Z", "#", ",", "'"]
WORDS = [
    "roll", "first", "dealer", "deal", "cut", "shuffle", "dead", "play", "pass", "stake",
    "throw", "offer", "yes", "no", "close", "objective", "rethrow", "star", "done", "pétard",
    "youngest", "out", "0", "1", "2", "9", "10", "12", "99999999999999999999", "-1", "A", "B",
    "J", "Q", "K", "Z", "JH", "7D", "TS", "a1", "j10", "k11", "1+1", "1-1", "J+2", "Q+3",
]  # fmt: skip


def _advance(state: State, rng: random.Random, steps: int) -> State:
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        if state.actor == CHANCE:
            state.apply(state.sample_chance(), validate=False)
        elif legal:
            state.apply(rng.choice(legal), validate=False)
        else:  # a table-mode play too free to list (a Stratégix lead): stop here
            break
    return state


@cache
def positions(name: str, mode: str) -> tuple[State, ...]:
    """A few positions of each game: the start, early, middle and late."""
    found = []
    for seed in range(4):
        rng = random.Random(seed)
        state = random_game(name, rng, mode).new_state()
        found.append(_advance(state, rng, (0, 6, 40, 160)[seed]))
    return tuple(found)


def _words_of(state: State) -> list[str]:
    return [word for action in state.legal_actions()[:20] for word in action.notation.split()]


@st.composite
def texts(draw: st.DrawFn, state: State) -> str:
    """Text near the game's notation: its own words, mangled, with look-alike characters."""
    pool = WORDS + LOOKALIKES + SYMBOLS + _words_of(state)
    parts = draw(st.lists(st.sampled_from(pool) | st.text(max_size=4), max_size=6))
    glue = draw(st.sampled_from([" ", "", "+", " + ", "/"]))
    return glue.join(parts)


def assert_refused_cleanly(state: State, text: str) -> None:
    before = state.clone()
    try:
        state.apply(text)
    except EngineError:
        assert state == before, f"the position changed after refusing {text!r}"
        return
    except Exception as error:  # noqa: BLE001 - the point is that nothing else escapes
        pytest.fail(f"{text!r} raised {type(error).__name__}: {error}")
    state.undo()
    assert state == before


@pytest.mark.parametrize(("name", "mode"), CASES)
@PARSER
@given(data=st.data())
def test_any_text_is_an_action_or_an_engine_error(name: str, mode: str, data) -> None:
    state = data.draw(st.sampled_from(positions(name, mode))).clone()
    text = data.draw(st.text(max_size=30) | texts(state))
    assert_refused_cleanly(state, text)


@pytest.mark.parametrize(("name", "mode"), CASES)
@PARSER
@given(data=st.data())
def test_legal_notations_mangled_are_refused_cleanly(name: str, mode: str, data) -> None:
    state = data.draw(st.sampled_from(positions(name, mode))).clone()
    legal = state.legal_actions()
    if not legal:
        return
    notation = data.draw(st.sampled_from(legal)).notation
    cut = data.draw(st.integers(0, len(notation)))
    odd = data.draw(st.sampled_from(LOOKALIKES + SYMBOLS))
    assert_refused_cleanly(state, notation[:cut] + odd + notation[cut:])


def position_where(name: str, mode: str, wanted) -> State:
    """The first position of a seeded game where `wanted(state)` holds."""
    rng = random.Random(7)
    state = random_game(name, rng, mode).new_state()
    while not wanted(state):
        _advance(state, rng, 1)
    return state


def _lists(word: str):
    return lambda state: any(word in a.notation for a in state.legal_actions())


@pytest.mark.parametrize("odd", ["²", "³", "¹", "①", "⑶", "፫", "٣"])
@pytest.mark.parametrize("mode", ["full", "table"])
def test_superscript_and_other_unicode_digits_are_refused(odd: str, mode: str) -> None:
    struggle = position_where("struggle", mode, _lists("+"))
    assert_refused_cleanly(struggle, f"J+{odd}")
    assert_refused_cleanly(struggle, f"Q+{odd} K+1")
    traverse = position_where("traverse", mode, _lists("+"))
    assert_refused_cleanly(traverse, f"1+{odd}")
    if mode == "table":
        assert_refused_cleanly(position_where("sequence", mode, _lists("dealer")), f"dealer {odd}")
        assert_refused_cleanly(position_where("struggle", mode, _lists("first")), f"first {odd}")


@pytest.mark.parametrize("mode", ["full", "table"])
def test_a_star_for_a_letter_that_does_not_exist_is_refused(mode: str) -> None:
    state = position_where("strategix", mode, lambda s: s.actor not in (None, CHANCE))
    for text in ("play *=A", "*=A", "play *=a", "play B *=A", "play *=É"):
        assert_refused_cleanly(state, text)
