"""The push body's schema (club.body): nesting measured on the raw bytes, finite numbers only,
text PostgreSQL can keep; properties over generated JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from club.body import MAX_DEPTH, BadBody, games, text_problem, too_deep

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=4),
    max_leaves=30,
)  # fmt: skip


def depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    return 0


@given(JSON, st.integers(min_value=0, max_value=8))
def test_depth_is_measured_on_the_raw_text_as_decoding_would(value, limit):
    raw = json.dumps(value).encode()
    assert too_deep(raw, limit) == (depth(value) > limit)


@given(st.text(alphabet='[]{}"\\ab,:', max_size=40))
def test_any_text_is_measured_or_refused_without_error(text):
    raw = text.encode()
    if not too_deep(raw, MAX_DEPTH):
        try:
            games(raw)
        except BadBody as error:
            assert error.status == 400


def test_deep_json_is_refused_before_decoding():
    deep = b'{"games": [' + b"[" * 100_000 + b"]" * 100_000 + b"]}"
    with pytest.raises(BadBody, match="nested deeper"):
        games(deep)


@pytest.mark.parametrize(
    "raw",
    [b'{"games": [{"game_id": 1e400}]}', b'{"games": [NaN]}', b'{"games": [-Infinity]}',
     b"\xff\xfe", b"[]", b'{"games": []}', b'{"games": {}}', b"{" ],
)  # fmt: skip
def test_bodies_that_are_not_a_push_are_refused_whole(raw):
    with pytest.raises(BadBody) as refused:
        games(raw)
    assert refused.value.status == 400


def test_a_body_too_large_is_413():
    with pytest.raises(BadBody) as refused:
        games(b" " * (8 * 1024 * 1024 + 1))
    assert refused.value.status == 413


@pytest.mark.parametrize("bad", ["A\x00nn", "tab\there", "\x9b", "\ud800", "x" * 2001])
def test_text_the_database_cannot_keep_is_named(bad):
    assert text_problem({"players": ["Bob", bad]}).startswith("game.players[1]")
    assert text_problem({bad: 1})
    assert text_problem({"players": ["Zoé", "Ann"], "options": {"n": [1, 2.5]}}) == ""
