"""`tabletop bench club`'s own machinery: the pool of played games kept between runs, and the
threads the festival's tables are spread over."""

from __future__ import annotations

import threading

import pytest

from bench import club as bench

POOL = {kind: [(7, ["a", "b"], [1, 0], [0])] for kind in bench.KINDS}


@pytest.fixture
def played(monkeypatch):
    calls = []

    def game_pool(seed: int) -> dict:
        calls.append(seed)
        return POOL

    monkeypatch.setattr(bench, "game_pool", game_pool)
    return calls


def test_the_pool_is_played_once_then_read_from_the_cache(tmp_path, played):
    first = bench.cached_pool(3, tmp_path)
    again = bench.cached_pool(3, tmp_path)
    assert first == again == POOL
    assert played == [3]
    assert bench.cached_pool(4, tmp_path) == POOL  # another seed is another pool
    assert played == [3, 4]


def test_a_spoiled_cache_is_played_again_and_replaced(tmp_path, played):
    bench.cached_pool(3, tmp_path)
    (kept,) = tmp_path.glob("bench-club-pool-3-*.json")
    kept.write_text('{"struggle": [')
    assert bench.cached_pool(3, tmp_path) == POOL
    assert played == [3, 3]
    assert bench.cached_pool(3, tmp_path) == POOL
    assert played == [3, 3]


def test_a_pool_played_with_other_code_is_not_read_and_is_removed(tmp_path, played):
    stale = tmp_path / "bench-club-pool-3-0123456789abcdef.json"
    stale.write_text("{}")
    bench.cached_pool(3, tmp_path)
    assert played == [3]
    assert not stale.exists()


def test_without_a_writable_cache_the_pool_is_still_played(tmp_path, played):
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert bench.cached_pool(3, blocked / "cache") == POOL
    assert played == [3]


def test_each_table_is_always_served_by_the_same_thread():
    lanes = bench.Lanes(3)
    try:
        first = lanes.each(lambda n: (n, threading.get_ident()), range(10))
        again = lanes.each(lambda n: (n, threading.get_ident()), range(10))
    finally:
        lanes.close()
    assert first == again
    assert [n for n, _ in first] == list(range(10))
    assert len({thread for _, thread in first}) == 3
