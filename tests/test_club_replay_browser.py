"""A game's replay and review at the club, in a real headless browser (Debian's chromium through
selenium): the board steps with the keys and the buttons, the review the table pushed is shown,
and a player's page shows their accuracy over their games. Set TABLETOP_SCREENSHOTS to a
directory to keep a screenshot of the page (docs/screens/club-replay.png is made so)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("psycopg", reason="the club extra is not installed")
pytest.importorskip("selenium.webdriver", reason="selenium is not installed")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from club import league  # noqa: E402
from companion.review_worker import review_data  # noqa: E402
from review import review_game  # noqa: E402
from tests.club_support import (  # noqa: E402
    LiveServer,
    headless_chromium,
    payload,
    postgres,
    random_game,
)

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


@pytest.fixture(scope="module")
def chromium():
    yield from headless_chromium((390, 844))  # a phone


def reviewed_payload(seed: int, game_id: int) -> dict:
    state = random_game("roudalon", PLAYERS, seed=seed)
    notations = [action.notation for action in state.history]
    review = review_game("roudalon", PLAYERS, notations, seed=state.game.seed, mode="full")
    return {**payload(state, game_id), "review": review_data("roudalon", PLAYERS, len(notations),
                                                             review)}  # fmt: skip


@pytest.fixture(scope="module")
def club():
    import httpx2

    server = LiveServer(postgres().new_database()).start()
    with server.club.pool.connection() as conn:
        token = league.add_table(conn, "Kitchen table")
    games = [reviewed_payload(seed, seed) for seed in (1, 2)]
    answer = httpx2.post(f"{server.url}/api/push", json={"games": games},
                         headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    assert [r["outcome"] for r in answer.json()["results"]] == ["stored", "stored"]
    with server.club.pool.connection() as conn:
        ids = [row[0] for row in conn.execute("SELECT id FROM games ORDER BY local_id")]
    yield server.url, ids, games
    server.stop()


def _board(driver) -> tuple[str, bytes]:
    """The board's picture once loaded: its address and how it looks."""
    image = driver.find_element(By.ID, "replay-board")
    WebDriverWait(driver, 10).until(
        lambda b: b.execute_script(
            "const i = arguments[0]; return i.complete && i.naturalWidth", image
        )  # fmt: skip
    )
    return image.get_attribute("src"), image.screenshot_as_png


def test_the_replay_steps_with_the_keys_and_the_buttons(chromium, club):
    url, ids, games = club
    total = len(games[0]["history"])
    chromium.get(f"{url}/games/{ids[0]}?lang=en")
    src, last = _board(chromium)
    assert src.endswith(f"/board/{total}.png?lang=en")
    body = chromium.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    src, start = _board(chromium)
    assert src.endswith("/board/0.png?lang=en") and start != last  # the board changed
    assert chromium.find_element(By.ID, "replay-caption").text == "The set-up, before any action"
    seen = {start}
    for move in range(1, 11):  # Le Roudalon's roll-off is not on its board: 6 on are
        body.send_keys(Keys.ARROW_RIGHT)
        src, picture = _board(chromium)
        assert src.endswith(f"/board/{move}.png?lang=en")
        seen.add(picture)
        caption = chromium.find_element(By.ID, "replay-caption").text
        assert caption.startswith(f"Action {move} of {total}: ")
        current = chromium.find_element(By.CSS_SELECTOR, "tr.current")
        assert current.get_attribute("data-move") == str(move)
    assert len(seen) > 2  # the position changes as the actions are stepped through
    body.send_keys(Keys.ARROW_LEFT)
    assert _board(chromium)[0].endswith("/board/9.png?lang=en")
    chromium.find_element(By.ID, "replay-next").click()  # a touch on the button
    assert _board(chromium)[0].endswith("/board/10.png?lang=en")
    assert chromium.current_url.endswith("move=10")
    chromium.find_element(By.ID, "replay-last").click()
    assert _board(chromium)[0].endswith(f"/board/{total}.png?lang=en")


def test_the_review_the_table_pushed_is_shown(chromium, club):
    url, ids, games = club
    review = games[0]["review"]
    chromium.get(f"{url}/games/{ids[0]}?lang=en")
    section = chromium.find_element(By.CSS_SELECTOR, "section.review")
    chart = section.find_element(By.CSS_SELECTOR, "svg.chart")
    lines = chart.find_elements(By.CSS_SELECTOR, "polyline.series")
    assert {line.get_attribute("data-series") for line in lines} == set(PLAYERS)  # every seat
    for line in lines:  # every position of the game, the last at the chart's right end
        points = line.get_attribute("points").split()
        assert len(points) == len(review["chances"]) and points[-1].startswith("310.0,")
    rows = section.find_elements(By.CSS_SELECTOR, "table.grades tbody tr")
    assert [row.find_element(By.TAG_NAME, "th").text for row in rows] == PLAYERS
    for row, accuracy in zip(rows, review["accuracy"], strict=True):
        shown = row.find_elements(By.TAG_NAME, "td")[0].text
        assert shown == ("too few graded moves" if accuracy is None else f"{100 * accuracy:.0f} %")
    moments = section.find_elements(By.CSS_SELECTOR, ".moments li")
    lost = [d for d in review["decisions"] if d["grade"] in ("inaccuracy", "mistake", "blunder")
            and d["chance_best"] - d["chance_played"] >= 0.005]  # fmt: skip
    assert len(moments) == len(lost) and lost  # good moves with chance given are left out
    assert any(d["grade"] == "good" and d["chance_best"] - d["chance_played"] >= 0.005
               for d in review["decisions"])  # fmt: skip
    assert all("played " in m.text and "better: " in m.text for m in moments)
    assert not any(", good (" in m.text or ", best (" in m.text for m in moments)
    moments[0].find_element(By.TAG_NAME, "a").click()  # to that position on the board
    move = chromium.current_url.split("move=")[1].split("#")[0]
    assert _board(chromium)[0].endswith(f"/board/{move}.png?lang=en")
    folder = os.environ.get("TABLETOP_SCREENSHOTS")
    if folder:
        chromium.set_window_size(1000, 2300)
        chromium.get(f"{url}/games/{ids[0]}?lang=en&move=12")
        _board(chromium)
        Path(folder, "club-replay.png").write_bytes(chromium.get_screenshot_as_png())
        chromium.set_window_size(390, 844)


def test_a_players_page_shows_their_accuracy_over_their_games(chromium, club):
    url, ids, games = club
    chromium.get(f"{url}/games/{ids[0]}?lang=en")
    chromium.find_element(By.LINK_TEXT, "Ann").click()
    captions = [c.text for c in chromium.find_elements(By.TAG_NAME, "figcaption")]
    assert "Accuracy over the games (%)" in captions
    cells = chromium.find_elements(By.XPATH, "//table[caption='Games played']//tbody/tr/td[last()]")
    figures = [game["review"]["accuracy"][0] for game in games]  # Ann sits first
    wanted = ["–" if a is None else f"{100 * a:.0f} %" for a in figures]
    assert sorted(cell.text for cell in cells) == sorted(wanted)


def test_a_board_past_the_game_or_an_odd_move_asked_is_answered_plainly(club):
    import httpx2

    url, ids, games = club
    total = len(games[0]["history"])
    board = httpx2.get(f"{url}/games/{ids[0]}/board/{total}.png")
    assert board.status_code == 200 and board.headers["content-type"] == "image/png"
    assert httpx2.get(f"{url}/games/{ids[0]}/board/{total + 1}.png").status_code == 404
    assert httpx2.get(f"{url}/games/999999/board/0.png").status_code == 404
    for asked in ("abc", "-3", "99999999999", ""):
        page = httpx2.get(f"{url}/games/{ids[0]}", params={"move": asked, "lang": "en"})
        assert page.status_code == 200 and f"/board/{total}.png" in page.text  # the last
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert "script-src" not in httpx2.get(f"{url}/?lang=en").headers["content-security-policy"]
