"""The club's API and pages fuzzed with hypothesis (club.fuzz) against a real PostgreSQL: no
generated request brings a server error. A fixed budget keeps it quick; `tabletop bench club`
sends 10,000 or more to a real server."""

from __future__ import annotations

import pytest

pytest.importorskip("psycopg", reason="the club extra is not installed")
pytest.importorskip("httpx2", reason="httpx2 (Starlette's test client) is not installed")

from starlette.testclient import TestClient  # noqa: E402

from club import league  # noqa: E402
from club.app import Club, create_app  # noqa: E402
from club.db import open_pool  # noqa: E402
from club.fuzz import fuzz  # noqa: E402
from tests.club_support import postgres  # noqa: E402

BUDGET = 300


def test_generated_requests_bring_no_server_error():
    pool = open_pool(postgres().new_database())
    club = Club(pool, site="Fuzzed club")
    club.push_limit.rate = club.address_limit.rate = 1e6  # every request reaches the checks
    with club.pool.connection() as conn:
        token = league.add_table(conn, "Table 1")
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    try:
        with TestClient(create_app(club), raise_server_exceptions=False) as client:

            def send(method: str, path: str, body: bytes) -> int:
                kind = "application/x-www-form-urlencoded" if path.startswith("/admin") else None
                extra = {"Content-Type": kind} if kind else {}
                answer = client.request(method, path, content=body, headers={**headers, **extra})
                return answer.status_code

            report = fuzz(send, BUDGET, seed=58)
    finally:
        club.close()
        pool.close()
    assert report.requests == BUDGET
    assert report.server_errors == 0, report.first_errors
    assert {400, 200} <= set(report.statuses)  # refused bodies and answered ones alike
