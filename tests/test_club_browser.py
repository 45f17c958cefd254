"""The club's pages in a real headless browser (Debian's chromium and its driver, through
selenium): what a person sees on a phone — standings, a player's charts, a live table."""

from __future__ import annotations

import pytest

pytest.importorskip("psycopg", reason="the club extra is not installed")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.expected_conditions import staleness_of  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from club import league  # noqa: E402
from club.security import hash_password  # noqa: E402
from tests.club_support import (  # noqa: E402
    LiveServer,
    headless_chromium,
    payload,
    postgres,
    random_game,
)

PHONE = (390, 844)
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def browser():
    yield from headless_chromium(PHONE)


@pytest.fixture(scope="module")
def club_url():
    server = LiveServer(postgres().new_database()).start()
    with server.club.pool.connection() as conn:
        token = league.add_table(conn, "Kitchen table")
        league.set_setting(conn, "admin_password", hash_password(PASSWORD))
    finished = [random_game("struggle", ["Ann", "Bob", "Cy"], seed=s) for s in range(3)]
    finished += [random_game("sequence", ["Ann", "Bob", "Cy", "Dee"], seed=s) for s in range(2)]
    games = [payload(state, n + 1) for n, state in enumerate(finished)]
    games.append(payload(random_game("struggle", ["Eve", "Ann"], seed=9, stop_after=15), 99))
    import httpx2

    answer = httpx2.post(f"{server.url}/api/push", json={"games": games},
                        headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    assert {r["outcome"] for r in answer.json()["results"]} == {"stored"}
    server.club.ratings.wait_fresh()
    yield server.url, finished
    server.stop()


def _fits_the_phone(browser) -> bool:
    return browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth + 1"
    )


def test_standings_then_a_player_with_charts(browser, club_url):
    url, finished = club_url
    browser.get(f"{url}/standings/struggle?lang=en")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Standings: Struggle"
    rows = browser.find_elements(By.CSS_SELECTOR, "tbody tr")
    names = [row.find_element(By.CSS_SELECTOR, "th").text for row in rows]
    assert sorted(names) == ["Ann", "Bob", "Cy"]
    ratings = [float(row.find_elements(By.CSS_SELECTOR, "td")[1].text) for row in rows]
    assert ratings == sorted(ratings, reverse=True)  # best rating first
    assert _fits_the_phone(browser)
    browser.find_element(By.LINK_TEXT, names[0]).click()
    assert browser.find_element(By.TAG_NAME, "h1").text == names[0]
    charts = browser.find_elements(By.CSS_SELECTOR, "svg.chart")
    assert len(charts) == 3
    for chart in charts:
        assert chart.is_displayed() and chart.size["width"] > 200 and chart.size["height"] > 100
        assert chart.get_attribute("aria-label")
    captions = [c.text for c in browser.find_elements(By.TAG_NAME, "figcaption")]
    assert captions == ["Running total over time", "Rating over time", "Wins per game"]
    lines = charts[0].find_elements(By.CSS_SELECTOR, "polyline.series")
    assert {line.get_attribute("data-series") for line in lines} == {"struggle", "sequence"}
    assert _fits_the_phone(browser)


def test_a_live_table_shows_who_plays_and_the_scores(browser, club_url):
    url, _ = club_url
    browser.get(f"{url}/live?lang=en")
    card = browser.find_element(By.CSS_SELECTOR, "article.live")
    assert "Kitchen table — Struggle" in card.find_element(By.TAG_NAME, "h2").text
    names = [e.text for e in card.find_elements(By.CSS_SELECTOR, ".scores .name")]
    assert names == ["Eve", "Ann"]
    scores = [e.text for e in card.find_elements(By.CSS_SELECTOR, ".scores .score")]
    assert all(s.lstrip("-").isdigit() for s in scores)
    card.find_element(By.PARTIAL_LINK_TEXT, "move by move").click()
    assert len(browser.find_elements(By.CSS_SELECTOR, "table.moves tbody tr")) == 15


def test_french_words_and_the_keyboard(browser, club_url):
    url, _ = club_url
    browser.get(f"{url}/?lang=fr")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Classement"
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "fr"
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    focused = browser.switch_to.active_element
    assert focused.text == "Aller au contenu" and focused.is_displayed()
    focused.send_keys(Keys.ENTER)
    assert browser.current_url.endswith("#main")
    browser.get(f"{url}/live")  # the language chosen is remembered
    assert browser.find_element(By.TAG_NAME, "h1").text == "Tables en direct"


def test_the_admin_sees_a_merge_before_confirming_it_then_undoes_it(browser, club_url):
    from selenium.webdriver.support.ui import Select

    url, _ = club_url
    _sign_in(browser, url)
    Select(browser.find_element(By.ID, "merge-source")).select_by_visible_text("Eve (1)")
    Select(browser.find_element(By.ID, "merge-target")).select_by_visible_text("Bob (5)")
    _submit(browser, "Merge")
    heading = browser.find_element(By.ID, "h-preview")
    assert heading.text == "Merge Eve into Bob?" and heading.is_displayed()
    assert "1 game of Eve moves to Bob" in browser.find_element(By.CSS_SELECTOR, ".preview").text
    _submit(browser, "Confirm the merge")
    assert browser.find_element(By.CSS_SELECTOR, "p.notice").text == "The two players were merged."
    sources = Select(browser.find_element(By.ID, "merge-source")).options
    assert "Eve (1)" not in [option.text for option in sources]
    _submit(browser, "Undo the merge of Eve")
    assert "undone" in browser.find_element(By.CSS_SELECTOR, "p.notice").text
    sources = Select(browser.find_element(By.ID, "merge-source")).options
    assert "Eve (1)" in [option.text for option in sources]
    assert _fits_the_phone(browser)


def test_the_admin_gives_a_table_a_new_token_shown_once(browser, club_url):
    url, _ = club_url
    _sign_in(browser, url)
    _submit(browser, "New token for Kitchen table")
    notice = browser.find_element(By.CSS_SELECTOR, "p.notice")
    assert notice.text.startswith("New token for Kitchen table") and notice.is_displayed()
    token = notice.find_element(By.TAG_NAME, "code").text
    assert len(token) >= 40
    browser.get(f"{url}/admin?lang=en")
    assert token not in browser.page_source  # shown once


def _sign_in(browser, url: str) -> None:
    browser.get(f"{url}/admin?lang=en")
    if browser.find_elements(By.ID, "password"):
        page = browser.find_element(By.TAG_NAME, "html")
        browser.find_element(By.ID, "password").send_keys(PASSWORD + Keys.ENTER)
        WebDriverWait(browser, 20).until(staleness_of(page))
        _wait_loaded(browser)


def _submit(browser, label: str) -> None:
    """Press the button and wait for the page it brings (not the old one still shown)."""
    _wait_loaded(browser)
    page = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.XPATH, f"//button[text()='{label}']").click()
    WebDriverWait(browser, 20).until(staleness_of(page))
    _wait_loaded(browser)


def _wait_loaded(browser) -> None:
    """The new page is whole: on a loaded machine a button found while it was still being
    parsed could belong to no document by the time it was clicked."""
    ready = 'return document.readyState === "complete"'
    WebDriverWait(browser, 20).until(lambda driver: driver.execute_script(ready))
