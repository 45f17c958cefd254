"""The table's outbox: a revision per change, live games throttled, at-least-once delivery to a
real club server with back-off; and the table's own read-only page."""

from __future__ import annotations

import pytest

from companion.persistence.outbox import BACKOFF_MAX_S, Outbox, Pusher, backoff
from companion.persistence.store import Store
from tests.club_support import play_into_store


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path) as table_store:
        yield table_store


@pytest.fixture
def box(tmp_path, store):
    outbox = Outbox(tmp_path, live_interval_s=10)
    yield outbox
    outbox.close()


def queued(box: Outbox) -> dict[int, tuple[int, dict]]:
    import json

    return {gid: (rev, json.loads(body)) for gid, rev, body in box.due(float("inf"), 1000)}


def test_each_change_of_a_game_is_a_new_revision(store, box):
    game_id = play_into_store(store, "sequence", ["Ann", "Bob"], seed=1)
    assert box.collect(now=100) == 1 and box.collect(now=101) == 0
    revision, snapshot = queued(box)[game_id]
    assert revision == 1 and snapshot["status"] == "over"
    assert snapshot["history"] == [a.notation for a in store.actions(game_id)]
    store.reopen(game_id)  # undo past the end of the game
    store.undo(game_id)
    assert box.collect(now=102) == 1
    revision, snapshot = queued(box)[game_id]  # replaces the snapshot not sent yet
    assert (revision, snapshot["status"]) == (2, "playing")
    store.abandon(game_id)
    box.collect(now=103)
    assert queued(box)[game_id][0] == 3 and queued(box)[game_id][1]["status"] == "abandoned"


def test_a_game_with_a_robot_seat_is_practice_and_never_pushed(store, box):
    """A robot's name would become a league player; a game against one is practice."""
    practice = store.start_game("traverse", ["Ann", "Robot 2"], {}, 1, "full",
                                kinds=["person", "bot"])  # fmt: skip
    store.append(practice, "rolloff 3 4")
    people = play_into_store(store, "sequence", ["Ann", "Bob"], seed=1)
    assert box.collect(now=100) == 1 and set(queued(box)) == {people}
    store.abandon(practice)
    assert box.collect(now=200) == 0


def test_a_game_being_played_is_sent_at_most_once_per_interval(store, box):
    game_id = play_into_store(store, "struggle", ["Ann", "Bob"], seed=2, stop_after=10)
    assert box.collect(now=100) == 1
    store.append(game_id, store.actions(game_id)[-1].notation + "")  # any new row counts
    assert box.collect(now=105) == 0
    assert box.collect(now=111) == 1


def test_backoff_grows_to_a_ceiling():
    import random

    rng = random.Random(1)
    waits = [backoff(attempt, rng) for attempt in range(1, 15)]
    assert waits[0] < 1.3 and waits[3] > 6 and max(waits) <= BACKOFF_MAX_S * 1.2


def test_an_unreachable_club_postpones_and_loses_nothing(store, box):
    play_into_store(store, "sequence", ["Ann", "Bob"], seed=3)
    box.collect()
    now = [1000.0]
    pusher = Pusher(box, "http://127.0.0.1:9", "token", timeout_s=2, clock=lambda: now[0])
    report = pusher.push_due()
    assert report.error.startswith("cannot reach the club") and report.acknowledged == 0
    assert box.pending() == 1 and box.due(now[0], 10) == []  # waits before trying again
    assert len(box.due(now[0] + 2, 10)) == 1


@pytest.fixture
def club():
    """A real club server and a table token for the table 'Kitchen'."""
    pytest.importorskip("psycopg", reason="the club extra is not installed")
    from club import league
    from tests.club_support import LiveServer, postgres

    server = LiveServer(postgres().new_database()).start()
    try:
        with server.club.pool.connection() as conn:
            yield server, league.add_table(conn, "Kitchen")
    finally:
        server.stop()


def test_games_reach_a_real_club_exactly_once(club, store, box):
    from club import league

    server, token = club
    ids = [play_into_store(store, "sequence", ["Ann", "Bob"], seed=s) for s in range(4)]
    box.collect()
    pusher = Pusher(box, server.url, token, batch=3)
    forget = box.acknowledged
    box.acknowledged = lambda *key: None  # the table switched off before noting the ack
    assert pusher.push_due().acknowledged == 4 and box.pending() == 4
    box.acknowledged = forget
    assert pusher.push_due().acknowledged == 4 and box.pending() == 0  # sent again
    with server.club.pool.connection() as conn:
        stored = conn.execute("SELECT local_id FROM games ORDER BY local_id").fetchall()
        outcomes = conn.execute("SELECT outcome FROM pushes").fetchall()
        league.player_id(conn, "Zoé")  # typed at another table
    assert [row[0] for row in stored] == ids and {row[0] for row in outcomes} == {"stored"}
    assert box.offer_players(pusher.club_players()) == 1
    assert "Zoé" in store.known_players()


def test_the_tables_page_shows_its_scorebook_and_its_game(tmp_path, store):
    pytest.importorskip("httpx2", reason="httpx2 (Starlette's test client) is not installed")
    from starlette.testclient import TestClient

    from companion.webpage import create_app

    finished = play_into_store(store, "sequence", ["Ann", "Bob"], seed=4)
    play_into_store(store, "struggle", ["Ann", "Cy"], seed=5, stop_after=8)
    client = TestClient(create_app(tmp_path, "Kitchen"))
    home = client.get("/?lang=en")
    assert home.status_code == 200 and "Kitchen" in home.text and "Admin" not in home.text
    assert "Ann" in client.get("/standings/sequence").text
    assert client.get("/players/Ann").text.count("<svg") == 2  # no rating at a table
    live = client.get("/live").text
    assert "Cy" in live and "Struggle" in live
    assert client.get(f"/games/{finished}").status_code == 200
    assert client.get("/players/Nobody").status_code == 404


def test_the_club_settings_are_checked_and_named_when_wrong(tmp_path, capsys):
    from companion.config import ConfigError, parse_config
    from tabletop.cli import main

    club = parse_config({"club": {"url": "http://club.local:8300", "token": "abc"}}).club
    assert (club.url, club.token) == ("http://club.local:8300", "abc")
    for bad, key in (({"url": "ftp://x"}, "club.url"), ({"url": "http://x"}, "club.token"),
                     ({"port": 1}, "club.port")):  # fmt: skip
        with pytest.raises(ConfigError, match=key):
            parse_config({"club": bad})
    assert main(["sync", "--once", "--state-dir", str(tmp_path)]) == 2
    assert "no [club] url" in capsys.readouterr().out


def test_a_game_the_club_refuses_is_set_aside_shown_and_the_rest_go_on(tmp_path, club, store, box):
    pytest.importorskip("httpx2", reason="httpx2 (Starlette's test client) is not installed")
    from starlette.testclient import TestClient

    from companion.persistence.outbox import refused_games
    from companion.webpage import create_app
    from tabletop.commands.doctor import club_refusals

    server, token = club
    ids = [play_into_store(store, "sequence", ["Ann", "Bob"], seed=s) for s in range(4)]
    box.collect()
    spoil(box, ids[1], lambda body: body.replace('"seed": ', '"seed": NaN, "x": '))
    spoil(box, ids[2], lambda body: body.replace('"Ann"', '"A\\u0000nn"'))
    report = Pusher(box, server.url, token, batch=4).push_due()
    assert report.acknowledged == 2 and box.pending() == 0 and not report.error
    refused = {game_id: reason for game_id, _, reason in refused_games(tmp_path)}
    assert set(refused) == {ids[1], ids[2]} and "control character" in refused[ids[2]]
    assert "NaN" in refused[ids[1]]
    check = club_refusals(tmp_path)
    assert not check.ok and not check.blocking and "2 game(s)" in check.detail
    home = TestClient(create_app(tmp_path, "Kitchen")).get("/?lang=en").text
    assert "Games the club refused" in home and f'href="/games/{ids[2]}"' in home
    assert box.retry_refused() == 2 and box.pending() == 2 and club_refusals(tmp_path).ok


def spoil(box: Outbox, game_id: int, change) -> None:
    (body,) = box.db.execute("SELECT payload FROM club_outbox WHERE game_id = ?", (game_id,))
    box.db.execute(
        "UPDATE club_outbox SET payload = ? WHERE game_id = ?", (change(body[0]), game_id)
    )


def test_a_review_computed_again_is_pushed_again(store, box):
    """A stored review of an older format is computed again; the club's copy must follow."""
    game_id = play_into_store(store, "sequence", ["Ann", "Bob"], seed=1)
    store.save_review(game_id, {"format": 1})
    assert box.collect(now=100) == 1 and box.collect(now=101) == 0
    assert queued(box)[game_id][1]["review"] == {"format": 1}
    store.save_review(game_id, {"format": 2})
    assert box.collect(now=102) == 1
    revision, snapshot = queued(box)[game_id]
    assert revision == 2 and snapshot["review"] == {"format": 2}
    assert box.collect(now=103) == 0
