"""The club server against a real PostgreSQL: pushes replayed and stored once, tokens, admin
actions behind a password and CSRF tokens, ratings recomputed from the games, the pages."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("psycopg", reason="the club extra is not installed")
pytest.importorskip("httpx2", reason="httpx2 (Starlette's test client) is not installed")

from starlette.testclient import TestClient  # noqa: E402

from club import league, reads  # noqa: E402
from club.app import Club, create_app  # noqa: E402
from club.db import migrate, migrations, open_pool  # noqa: E402
from club.ratings import compute  # noqa: E402
from club.security import hash_password  # noqa: E402
from tests.club_support import payload, postgres, random_game  # noqa: E402

PASSWORD = "correct horse battery"


@pytest.fixture
def club():
    pool = open_pool(postgres().new_database())
    club = Club(pool, site="Test club")
    yield club
    club.close()
    pool.close()


@pytest.fixture
def client(club):
    with TestClient(create_app(club)) as test_client:
        yield test_client


@pytest.fixture
def token(club) -> str:
    with club.pool.connection() as conn:
        return league.add_table(conn, "Table 1")


def push(client, token, *games, status=200):
    body = json.dumps({"games": list(games)}).encode()  # \u escapes: lone surrogates too
    response = _raw_push(client, token, body)
    assert response.status_code == status, response.text
    return response.json().get("results")


def test_migrations_are_applied_once_and_recorded(club):
    with club.pool.connection() as conn:
        assert migrate(conn) == []  # open_pool applied them
        versions = [row[0] for row in conn.execute("SELECT version FROM schema_migrations")]
    assert versions == [version for version, _, _ in migrations()]


def test_a_pushed_game_is_stored_once_whatever_the_resends(client, club, token):
    state = random_game("sequence", ["Ann", "Bob"], seed=1)
    first = push(client, token, payload(state, 7))
    again = push(client, token, payload(state, 7))
    assert first[0]["outcome"] == "stored" and again[0]["outcome"] == "duplicate"
    with club.pool.connection() as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
        seats = conn.execute("SELECT score, winner FROM seats ORDER BY seat").fetchall()
    assert [s for s, _ in seats] == state.scores()
    assert [i for i, (_, w) in enumerate(seats) if w] == state.winners()


def test_an_older_revision_never_replaces_a_newer_one(client, club, token):
    full = random_game("struggle", ["Ann", "Bob", "Cy"], seed=2)
    part = random_game("struggle", ["Ann", "Bob", "Cy"], seed=2, stop_after=20)
    assert push(client, token, payload(full, 3, revision=5))[0]["outcome"] == "stored"
    assert push(client, token, payload(part, 3, revision=4))[0]["outcome"] == "older"
    with club.pool.connection() as conn:
        status, moves = conn.execute(
            "SELECT status, jsonb_array_length(history) FROM games"
        ).fetchone()
    assert (status, moves) == ("over", len(full.history))


def test_undo_past_the_end_and_abandon_are_reflected(client, club, token):
    full = random_game("sequence", ["Ann", "Bob"], seed=3)
    push(client, token, payload(full, 1, revision=1))
    reopened = payload(full, 1, revision=2, status="playing")
    reopened["history"] = reopened["history"][:-1]
    reopened["ended"] = None
    push(client, token, reopened)
    abandoned = {**reopened, "revision": 3, "status": "abandoned"}
    push(client, token, abandoned)
    with club.pool.connection() as conn:
        assert reads.overall(conn) == []
        assert reads.live(conn) == []
        assert conn.execute("SELECT status FROM games").fetchone()[0] == "abandoned"


def test_an_illegal_game_is_refused_and_nothing_is_stored(client, club, token):
    state = random_game("struggle", ["Ann", "Bob"], seed=4)
    forged = payload(state, 9)
    forged["history"][3] = "move 5"
    result = push(client, token, forged)[0]
    assert result["outcome"] == "refused" and "action 4" in result["error"]
    claimed = payload(random_game("struggle", ["Ann", "Bob"], seed=4, stop_after=10), 10)
    claimed["status"] = "over"
    assert push(client, token, claimed)[0]["outcome"] == "refused"
    assert push(client, token, {"game_id": "x"})[0]["outcome"] == "refused"
    with club.pool.connection() as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0


def test_tokens_are_stored_hashed_and_can_be_revoked(client, club, token):
    with club.pool.connection() as conn:
        stored = conn.execute("SELECT token_hash FROM club_tables").fetchone()[0]
        assert token not in stored and stored == league.hash_token(token)
        state = random_game("sequence", ["Ann", "Bob"], seed=5)
        push(client, token, payload(state, 1))
        league.revoke_table(conn, league.table_for_token(conn, token))
    push(client, token, payload(state, 2), status=401)
    push(client, "made-up", payload(state, 2), status=401)
    assert client.post("/api/push", json={"games": []}).status_code == 401


def test_the_push_endpoint_is_rate_limited(client, club, token):
    club.push_limit.burst = 3
    club.push_limit.rate = 0.01
    codes = [
        client.post("/api/push", content=b"{}", headers={"Authorization": f"Bearer {token}"})
        for _ in range(5)
    ]
    assert [c.status_code for c in codes] == [400, 400, 400, 429, 429]
    assert int(codes[-1].headers["Retry-After"]) >= 1


def test_names_are_kept_as_typed_and_merges_keep_them(client, club, token):
    with club.pool.connection() as conn:
        other = league.add_table(conn, "Table 2")
    push(client, token, payload(random_game("sequence", ["Ann", "Bob"], seed=6), 1))
    push(client, other, payload(random_game("sequence", ["ann", "Robert"], seed=7), 1))
    push(client, other, payload(random_game("sequence", ["Zoé", "Zoe"], seed=8), 2))
    with club.pool.connection() as conn:
        names = {name: pid for pid, name, _ in reads.players(conn)}
        assert set(names) == {"Ann", "ann", "Bob", "Robert", "Zoé", "Zoe"}
        league.merge_players(conn, names["Robert"], names["Bob"])
        assert "Robert" not in {name for _, name, _ in reads.players(conn)}
        assert league.player_id(conn, "Robert") == names["Bob"]
        games = {row.player: row.games for row in reads.overall(conn)}
    assert games["Bob"] == 2 and games["Ann"] == 1 and games["ann"] == 1


def test_two_seats_of_one_game_are_never_one_person(client, club, token):
    with club.pool.connection() as conn:
        bob, robert = league.player_id(conn, "Bob"), league.player_id(conn, "Robert")
        league.merge_players(conn, robert, bob)
    both = random_game("sequence", ["Bob", "Cy", "Robert", "Dee"], seed=9)
    assert push(client, token, payload(both, 1))[0]["outcome"] == "stored"
    twice = {**payload(random_game("struggle", ["Ann", "Bo"], seed=9), 2), "players": ["A", "A"]}
    assert "must be different" in push(client, token, twice)[0]["error"]
    with club.pool.connection() as conn:
        seats = conn.execute("SELECT player_id FROM seats ORDER BY seat").fetchall()
        with pytest.raises(league.LeagueError, match="two people"):
            league.merge_players(conn, seats[2][0], bob)
    assert len({row[0] for row in seats}) == 4


def test_a_merge_is_previewed_and_can_be_undone(client, club, token):
    push(client, token, payload(random_game("sequence", ["Ann", "Bob"], seed=10), 1))
    push(client, token, payload(random_game("sequence", ["Rob", "Cy"], seed=11), 2))
    with club.pool.connection() as conn:
        ids = {name: pid for pid, name, _ in reads.players(conn)}
        preview = league.merge_preview(conn, ids["Rob"], ids["Bob"])
        assert (preview.source_name, preview.target_name, preview.games) == ("Rob", "Bob", 1)
        merge = league.merge_players(conn, ids["Rob"], ids["Bob"])
    push(client, token, payload(random_game("sequence", ["Rob", "Dee"], seed=12), 3))
    with club.pool.connection() as conn:
        assert {r.player: r.games for r in reads.overall(conn)}["Bob"] == 3
        league.undo_merge(conn, merge)
        games = {r.player: r.games for r in reads.overall(conn)}
        with pytest.raises(league.LeagueError):
            league.undo_merge(conn, merge)
    assert games["Bob"] == 1 and games["Rob"] == 2  # the later push went back too


def test_ratings_are_recomputed_the_same_from_the_same_games(client, club, token):
    for seed in range(6):
        players = ["Ann", "Bob", "Cy", "Dee"] if seed % 2 else ["Ann", "Cy"]
        push(client, token, payload(random_game("sequence", players, seed=seed), seed + 1))
    with club.pool.connection() as conn:
        rows = reads.rating_rows(conn)
    first, second = compute(rows), compute(list(rows))
    assert first.current == second.current and first.games == 6
    assert club.ratings.wait_fresh()
    assert club.ratings.book().current == first.current


def _everything(club) -> dict:
    with club.pool.connection() as conn:
        return compute(reads.rating_rows(conn)).current


def test_ratings_are_updated_game_by_game_and_rebuilt_when_needed(client, club, token):
    club.ratings.wait_fresh()
    rebuilds = club.ratings.rebuilds
    for seed in range(5):  # in the order they ended: each push only rates its game
        push(client, token, payload(random_game("struggle", ["Ann", "Bob", "Cy"], seed), seed + 1))
        assert club.ratings.wait_fresh() and club.ratings.book().games == seed + 1
    assert club.ratings.rebuilds == rebuilds
    assert club.ratings.book().current == _everything(club)
    late = payload(random_game("struggle", ["Ann", "Cy"], seed=9), 9)
    late["ended"] = late["updated"] = 1_600_000_000.0  # ended before all the others
    push(client, token, late)
    assert club.ratings.wait_fresh() and club.ratings.rebuilds == rebuilds
    club.ratings.rebuild()  # the admin's action: the late game in its place
    assert club.ratings.wait_fresh() and club.ratings.rebuilds == rebuilds + 1
    assert club.ratings.book().current == _everything(club)
    with club.pool.connection() as conn:
        league.void_game(conn, conn.execute("SELECT max(id) FROM games").fetchone()[0])
    club.ratings.changed()  # a rated game gone: rebuilt without being asked
    assert club.ratings.wait_fresh() and club.ratings.book().games == 5
    assert club.ratings.book().current == _everything(club)


def _sign_in(client, club) -> str:
    with club.pool.connection() as conn:
        league.set_setting(conn, "admin_password", hash_password(PASSWORD))
    page = client.get("/admin")
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    assert client.post("/admin/login", data={"csrf": csrf, "password": "wrong"}).status_code == 403
    answer = client.post("/admin/login", data={"csrf": csrf, "password": PASSWORD})
    assert answer.status_code == 200 and "Merge" in answer.text or "Fusionner" in answer.text
    return re.search(r'name="csrf" value="([^"]+)"', answer.text).group(1)


def test_admin_actions_need_the_password_and_the_csrf_token(client, club, token):
    push(client, token, payload(random_game("sequence", ["Ann", "Bob"], seed=8), 1))
    with club.pool.connection() as conn:
        game_id = conn.execute("SELECT id FROM games").fetchone()[0]
    assert client.post("/admin/void", data={"game": game_id, "csrf": "x"}).status_code == 403
    csrf = _sign_in(client, club)
    forged = client.post("/admin/void", data={"game": game_id, "csrf": "forged"})
    assert forged.status_code == 403
    done = client.post("/admin/void", data={"game": game_id, "csrf": csrf, "voided": "1"})
    assert done.status_code == 200
    with club.pool.connection() as conn:
        assert reads.overall(conn) == []
    added = client.post("/admin/tables", data={"name": "Table 9", "csrf": csrf})
    new_token = re.search(r"<code>([^<]+)</code>", added.text).group(1)
    push(client, new_token, payload(random_game("sequence", ["Ann", "Bob"], seed=9), 1))


def test_pages_show_standings_players_live_tables_and_records(client, club, token):
    finished = random_game("struggle", ["Ann", "Bob", "Cy"], seed=10)
    live = random_game("struggle", ["Ann", "Dee"], seed=11, stop_after=12)
    push(client, token, payload(finished, 1), payload(live, 2))
    club.ratings.wait_fresh()
    home = client.get("/?lang=en")
    assert home.status_code == 200 and "Standings" in home.text
    assert client.cookies.get("lang") == "en"
    winner = finished.players[finished.winners()[0]]
    assert winner in client.get("/standings/struggle").text
    with club.pool.connection() as conn:
        pid = league.player_id(conn, "Ann")
        gid = conn.execute("SELECT id FROM games WHERE local_id = 1").fetchone()[0]
    player = client.get(f"/players/{pid}?lang=fr")
    assert player.status_code == 200 and player.text.count("<svg") == 3
    assert "Classement" in player.text  # French words
    assert "Dee" in client.get("/live").text
    record = client.get(f"/games/{gid}")
    assert record.text.count('class="notation"') == len(finished.history)
    assert client.get("/players/99999").status_code == 404
    assert client.get("/standings/chess").status_code == 404
    assert "default-src 'none'" in home.headers["content-security-policy"]


def test_replays_in_worker_processes_store_and_refuse_alike():
    pool = open_pool(postgres().new_database())
    club = Club(pool, replay_workers=1)
    try:
        with club.pool.connection() as conn:
            token = league.add_table(conn, "Table 1")
        good = payload(random_game("sequence", ["Ann", "Bob"], seed=12), 1)
        bad = {**good, "game_id": 2, "history": ["nonsense"]}
        with TestClient(create_app(club)) as client:
            results = push(client, token, good, bad, good)
        assert [r["outcome"] for r in results] == ["stored", "refused", "duplicate"]
    finally:
        club.close()
        pool.close()


def _raw_push(client, token, body: bytes):
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    return client.post("/api/push", content=body, headers=headers)


@pytest.mark.parametrize(
    "spoil, reason",
    [
        (lambda game: game["players"].__setitem__(0, "A\x00nn"), "control character"),
        (lambda game: game.__setitem__("seed", 2**63), "seed"),
        (lambda game: game["history"].__setitem__(0, "\ud800"), "surrogate"),
    ],
)
def test_an_unfit_game_is_refused_alone_and_the_rest_of_its_batch_stored(
    client, club, token, spoil, reason
):
    games = [payload(random_game("sequence", ["Ann", "Bob"], seed=s), s) for s in (1, 2, 3)]
    spoil(games[1])
    results = push(client, token, *games)
    assert [r["outcome"] for r in results] == ["stored", "refused", "stored"]
    assert reason in results[1]["error"] and results[1]["game_id"] == 2
    with club.pool.connection() as conn:
        stored = [row[0] for row in conn.execute("SELECT local_id FROM games ORDER BY local_id")]
    assert stored == [1, 3]


@pytest.mark.parametrize(
    "body",
    [
        b'{"games": [' + b"[" * 100_000 + b"]" * 100_000 + b"]}",  # RecursionError once
        b'{"games": [{"game_id": 1e400, "revision": 1}]}',  # an infinite float echoed once
        b'{"games": [{"game_id": 1, "revision": NaN}]}',
    ],
)
def test_a_hostile_body_is_a_400_and_changes_nothing(client, club, token, body):
    answer = _raw_push(client, token, body)
    assert answer.status_code == 400 and answer.json()["error"]
    with club.pool.connection() as conn:
        assert conn.execute("SELECT COUNT(*) FROM pushes").fetchone()[0] == 0


def test_the_admin_previews_a_merge_before_doing_it_and_can_undo_it(client, club, token):
    push(client, token, payload(random_game("sequence", ["Ann", "Bob"], seed=13), 1))
    push(client, token, payload(random_game("sequence", ["Rob", "Cy"], seed=14), 2))
    with club.pool.connection() as conn:
        ids = {name: pid for pid, name, _ in reads.players(conn)}
    csrf = _sign_in(client, club)
    form = {"csrf": csrf, "source": ids["Rob"], "target": ids["Bob"]}
    preview = client.post("/admin/merge?lang=en", data=form)
    assert preview.status_code == 200 and "Merge Rob into Bob?" in preview.text
    assert "1 game of Rob moves to Bob" in preview.text
    with club.pool.connection() as conn:
        assert "Rob" in {name for _, name, _ in reads.players(conn)}  # nothing done yet
    done = client.post("/admin/merge?lang=en", data={**form, "confirm": "1"})
    assert "The two players were merged." in done.text
    with club.pool.connection() as conn:
        (merge,) = [mid for mid, *_ in league.merges(conn)]
    undone = client.post("/admin/unmerge?lang=en", data={"csrf": csrf, "merge": merge})
    assert "The merge was undone" in undone.text
    with club.pool.connection() as conn:
        assert "Rob" in {name for _, name, _ in reads.players(conn)}
    clash = client.post("/admin/merge?lang=en", data={**form, "target": ids["Cy"]})
    assert clash.status_code == 400 and "two people" in clash.text


def test_a_new_token_from_the_command_line_stops_the_old_one_at_once(club, client, token, capsys):
    from tabletop.cli import main

    db = club.pool.conninfo  # the postgresql:// URL the pool was opened on
    game = payload(random_game("sequence", ["Ann", "Bob"], seed=15), 1)
    with club.pool.connection() as conn:
        league.revoke_table(conn, league.table_for_token(conn, token))
    push(client, token, game, status=401)
    assert main(["club", "new-token", "Table 1", "--db", db]) == 0
    renewed = re.search(r'token = "([^"]+)"', capsys.readouterr().out).group(1)
    assert push(client, renewed, game)[0]["outcome"] == "stored"  # a revoked table is back
    assert main(["club", "new-token", "Table 9", "--db", db]) == 1
    assert "no table named 'Table 9'" in capsys.readouterr().out


def test_the_admin_gives_a_table_a_new_token_and_the_old_one_stops(client, club, token):
    game = payload(random_game("sequence", ["Ann", "Bob"], seed=16), 1)
    csrf = _sign_in(client, club)
    with club.pool.connection() as conn:
        (table,) = [t.id for t in league.tables(conn)]
    page = client.post("/admin/token?lang=en", data={"csrf": csrf, "table": table})
    assert page.status_code == 200 and "New token for Table 1" in page.text
    renewed = re.search(r"<code>([^<]+)</code>", page.text).group(1)
    push(client, token, game, status=401)
    assert push(client, renewed, game)[0]["outcome"] == "stored"
    assert client.post("/admin/token", data={"csrf": "forged", "table": table}).status_code == 403


def test_only_failed_sign_ins_count_against_the_limit(client, club):
    club.failure_limit.burst, club.failure_limit.rate = 3, 0.001
    with club.pool.connection() as conn:
        league.set_setting(conn, "admin_password", hash_password(PASSWORD))
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.get("/admin").text).group(1)
    for _ in range(5):  # successful sign-ins use nothing up
        answer = client.post("/admin/login", data={"csrf": csrf, "password": PASSWORD})
        assert answer.status_code == 200
        client.cookies.delete("club_admin", path="/admin")
    codes = [
        client.post("/admin/login", data={"csrf": csrf, "password": "wrong"}).status_code
        for _ in range(4)
    ]
    assert codes == [403, 403, 403, 429]
    right = client.post("/admin/login", data={"csrf": csrf, "password": PASSWORD})
    assert right.status_code == 429  # once limited, the right password waits too


def test_an_admin_session_survives_a_restart_and_expires(client, club):
    _sign_in(client, club)
    cookie = client.cookies.get("club_admin")
    restarted = Club(club.pool, site="Test club")  # a new server on the same database
    try:
        with TestClient(create_app(restarted)) as again:
            again.cookies.set("club_admin", cookie, path="/admin")
            assert "Merge two players" in again.get("/admin?lang=en").text
            key = cookie.partition(".")[0]
            again.cookies.set("club_admin", key + ".forged", path="/admin")
            assert "Admin password" in again.get("/admin?lang=en").text
            with club.pool.connection() as conn:
                stored = conn.execute("SELECT key_hash FROM admin_sessions").fetchone()[0]
                assert key not in stored  # only its hash is kept
                conn.execute("UPDATE admin_sessions SET expires = now() - interval '1 s'")
            again.cookies.set("club_admin", cookie, path="/admin")
            assert "Admin password" in again.get("/admin?lang=en").text
    finally:
        restarted.close()


def test_the_admin_rebuilds_the_ratings(client, club, token):
    push(client, token, payload(random_game("sequence", ["Ann", "Bob"], seed=17), 1))
    club.ratings.wait_fresh()
    rebuilds = club.ratings.rebuilds
    csrf = _sign_in(client, club)
    done = client.post("/admin/ratings", data={"csrf": csrf})
    assert done.status_code == 200 and str(done.url).endswith("/admin?done=rebuilt")
    assert 'role="status"' in done.text  # the notice, in the page's language
    assert club.ratings.wait_fresh() and club.ratings.rebuilds == rebuilds + 1
    assert client.post("/admin/ratings", data={"csrf": "forged"}).status_code == 403
