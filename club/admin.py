"""The admin pages: sign in with the club's password, then add or revoke tables, merge players
and void games. Every form carries a CSRF token (the session's; before sign-in a cookie's twin),
the session cookie is HttpOnly and SameSite=Strict, and sign-in failures are rate limited.
"""

from __future__ import annotations

import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from club import league, reads
from club.security import check_password, same_token
from pages.web import gettext, page

SESSION_COOKIE = "club_admin"
LOGIN_COOKIE = "club_login_csrf"
PASSWORD_KEY = "admin_password"
DONE = ("table_added", "revoked", "merged", "voided", "restored")


def routes() -> list[Route]:
    return [
        Route("/admin", show),
        Route("/admin/login", login, methods=["POST"]),
        Route("/admin/logout", logout, methods=["POST"]),
        Route("/admin/tables", add_table, methods=["POST"]),
        Route("/admin/revoke", revoke, methods=["POST"]),
        Route("/admin/merge", merge, methods=["POST"]),
        Route("/admin/void", void, methods=["POST"]),
    ]


def _club(request: Request) -> Any:
    return request.app.state.club


def _render(request: Request, template: str, status: int = 200, **context: Any) -> Response:
    return page(request, template, _club(request).site, status=status, is_club=True, **context)


def show(request: Request, error: str = "", token: str = "", status: int = 200) -> Response:
    club = _club(request)
    session = club.sessions.get(request.cookies.get(SESSION_COOKIE))
    if session is None:
        return _login_page(request, error, status)
    _ = gettext(request)
    notices = {
        "table_added": _("The table was added."),
        "revoked": _("The table's token was revoked."),
        "merged": _("The two players were merged."),
        "voided": _("The game was voided."),
        "restored": _("The game counts again."),
    }
    with club.pool.connection() as conn:
        context = {
            "tables": league.tables(conn),
            "players": reads.players(conn),
            "games": reads.recent_games(conn),
        }
    notice = notices.get(request.query_params.get("done", ""), "")
    return _render(
        request, "admin.html", status=status, csrf=session.csrf, notice=notice, error=error,
        token=token, **context,
    )  # fmt: skip


def _login_page(request: Request, error: str = "", status: int = 200) -> Response:
    _ = gettext(request)
    with _club(request).pool.connection() as conn:
        if league.setting(conn, PASSWORD_KEY) is None:
            error = error or _(
                "No admin password is set yet: run 'tabletop club set-password' on the server."
            )
    csrf = request.cookies.get(LOGIN_COOKIE) or secrets.token_urlsafe(32)
    response = _render(request, "login.html", status=status, csrf=csrf, error=error)
    response.set_cookie(LOGIN_COOKIE, csrf, httponly=True, samesite="strict", path="/admin")
    return response


async def login(request: Request) -> Response:
    club = _club(request)
    _ = gettext(request)
    form = await request.form()
    if not same_token(form.get("csrf"), request.cookies.get(LOGIN_COOKIE)):
        return _login_page(request, _("The form has expired: please try again."), 403)
    address = request.client.host if request.client else "?"
    if club.failure_limit.allow(f"login:{address}"):
        return _login_page(request, _("Too many attempts: wait a minute."), 429)
    with club.pool.connection() as conn:
        stored = league.setting(conn, PASSWORD_KEY)
    if not check_password(str(form.get("password", "")), stored):
        return _login_page(request, _("Wrong password."), 403)
    key, _session = club.sessions.open()
    response = RedirectResponse("/admin", status_code=303)
    response.set_cookie(SESSION_COOKIE, key, httponly=True, samesite="strict", path="/admin")
    return response


async def _checked_form(request: Request) -> dict[str, str] | None:
    """The posted form when the session and its CSRF token are right, else None."""
    session = _club(request).sessions.get(request.cookies.get(SESSION_COOKIE))
    form = await request.form()
    if session is None or not same_token(form.get("csrf"), session.csrf):
        return None
    return {key: str(value) for key, value in form.items()}


def _refused(request: Request) -> Response:
    _ = gettext(request)
    return show(request, error=_("Sign in again: the form was not accepted."), status=403)


def _done(what: str) -> Response:
    return RedirectResponse(f"/admin?done={what}", status_code=303)


async def logout(request: Request) -> Response:
    if await _checked_form(request) is None:
        return _refused(request)
    _club(request).sessions.close(request.cookies.get(SESSION_COOKIE))
    response = RedirectResponse("/admin", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/admin")
    return response


async def add_table(request: Request) -> Response:
    form = await _checked_form(request)
    if form is None:
        return _refused(request)
    try:
        with _club(request).pool.connection() as conn:
            token = league.add_table(conn, form.get("name", ""))
    except league.LeagueError as error:
        return show(request, error=str(error), status=400)
    return show(request, token=token)


async def revoke(request: Request) -> Response:
    return await _act(
        request, "revoked", lambda conn, f: league.revoke_table(conn, _id(f, "table"))
    )


async def merge(request: Request) -> Response:
    def act(conn: Any, form: dict[str, str]) -> None:
        league.merge_players(conn, _id(form, "source"), _id(form, "target"))

    return await _act(request, "merged", act)


async def void(request: Request) -> Response:
    form_voided = {"1": True, "0": False}

    def act(conn: Any, form: dict[str, str]) -> str:
        voided = form_voided.get(form.get("voided", "1"), True)
        league.void_game(conn, _id(form, "game"), voided)
        return "voided" if voided else "restored"

    return await _act(request, "voided", act)


async def _act(request: Request, done: str, act: Any) -> Response:
    form = await _checked_form(request)
    if form is None:
        return _refused(request)
    club = _club(request)
    try:
        with club.pool.connection() as conn:
            outcome = act(conn, form)
    except league.LeagueError as error:
        return show(request, error=str(error), status=400)
    club.ratings.changed()
    return _done(outcome if outcome in DONE else done)


def _id(form: dict[str, str], key: str) -> int:
    value = form.get(key, "")
    if not value.isdigit() or len(value) > 12:
        raise league.LeagueError(f"{key}: expected a number")
    return int(value)
