"""The store: durable settings (WAL, FULL sync), the action log, undo, the scorebook and CSV."""

from __future__ import annotations

import csv
import sqlite3

import pytest

from companion.persistence.store import Store, StoreError


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "state") as opened:
        yield opened


def test_database_is_wal_with_full_sync(store):
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_log_survives_a_new_connection_and_undo_removes_the_last(store, tmp_path):
    game_id = store.start_game("struggle", ["Ann", "Bob"], {}, seed=4, mode="table")
    store.append(game_id, "first 0")
    store.append(game_id, "roll 9 9 J Q A", corrected=2)
    with Store(tmp_path / "state") as again:
        logged = again.actions(game_id)
        assert [a.notation for a in logged] == ["first 0", "roll 9 9 J Q A"]
        assert logged[1].corrected == 2
        assert again.current_game().players == ("Ann", "Bob")
    assert store.undo(game_id).notation == "roll 9 9 J Q A"
    assert store.undo(game_id).notation == "first 0"
    with pytest.raises(StoreError, match="nothing to undo"):
        store.undo(game_id)


def test_finished_game_closes_its_log_until_reopened(store):
    game_id = store.start_game("traverse", ["Ann", "Bob"])
    store.append(game_id, "roll 3 4")
    store.finish(game_id, [10, 4], [0])
    with pytest.raises(StoreError, match="over"):
        store.append(game_id, "roll 1 1")
    assert store.current_game() is None
    store.reopen(game_id)
    assert store.results(game_id) == []
    assert store.undo(game_id).notation == "roll 3 4"


def test_bad_requests_change_nothing(store):
    with pytest.raises(StoreError):
        store.append(999, "roll 1 1")
    with pytest.raises(StoreError):
        store.start_game("struggle", ["Ann", "Bob"], teams=[0])
    game_id = store.start_game("struggle", ["Ann", "Bob"])
    with pytest.raises(StoreError, match="one score per seat"):
        store.finish(game_id, [10], [0])
    assert store.game(game_id).status == "playing"


def test_scorebook_totals_history_stats_and_csv(store, tmp_path):
    for scores, winners in (([20, 10], [0]), ([0, 30], [1]), ([10, 10], [0, 1])):
        game_id = store.start_game("struggle", ["Ann", "Bob"])
        store.finish(game_id, scores, winners)
    game_id = store.start_game("roudalon", ["Ann", "Bob", "Cid", "Dee"])
    store.finish(game_id, [5, -2, -3, 0], [0])
    totals = {(row.game, row.player): row for row in store.totals()}
    assert totals[("struggle", "Ann")].total == 30 and totals[("struggle", "Ann")].wins == 2
    assert totals[("struggle", "Bob")].total == 50 and totals[("struggle", "Bob")].games == 3
    assert totals[("roudalon", "Cid")].total == -3
    history = store.history("Ann")
    assert [row.score for row in history] == [20, 0, 10, 5]
    assert history[-1].opponents == ("Bob", "Cid", "Dee")
    stats = store.stats("Ann")
    assert stats["games"] == 4 and stats["wins"] == 3
    assert stats["by_game"]["struggle"]["average"] == 10.0
    path = tmp_path / "scores.csv"
    assert store.export_csv(path) == 10
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert rows[0]["player"] == "Ann" and rows[0]["score"] == "20"


def test_settings_round_trip(store):
    assert store.setting("language", "fr") == "fr"
    store.set_setting("language", "en")
    store.set_setting("language", "en")
    assert store.setting("language") == "en"


def test_unwritable_state_dir_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="state directory"):
        Store(blocker / "state")


def test_concurrent_reader_sees_committed_rows(store):
    game_id = store.start_game("traverse", ["Ann", "Bob"])
    store.append(game_id, "roll 6 5")
    other = sqlite3.connect(store.path)
    try:
        assert other.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 1
    finally:
        other.close()
