"""The admin pages: sign in with the club's password, then add or revoke tables or give them a
new token, merge players (previewed, undoable) and void games. Every form carries a CSRF token
(the session's; before sign-in a cookie's twin), the session cookie is HttpOnly and
SameSite=Strict, and sign-in failures are rate limited.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from club import league, reads
from club.security import SESSION_S, check_password, same_token
from pages.web import gettext, page

SESSION_COOKIE = "club_admin"
LOGIN_COOKIE = "club_login_csrf"
PASSWORD_KEY = "admin_password"


def routes() -> list[Route]:
    return [
        Route("/admin", show),
        Route("/admin/login", login, methods=["POST"]),
        Route("/admin/logout", logout, methods=["POST"]),
        Route("/admin/tables", add_table, methods=["POST"]),
        Route("/admin/revoke", revoke, methods=["POST"]),
        Route("/admin/token", renew_token, methods=["POST"]),
        Route("/admin/merge", merge, methods=["POST"]),
        Route("/admin/unmerge", unmerge, methods=["POST"]),
        Route("/admin/void", void, methods=["POST"]),
        Route("/admin/ratings", rebuild_ratings, methods=["POST"]),
    ]


def _club(request: Request) -> Any:
    return request.app.state.club


def _render(request: Request, template: str, status: int = 200, **context: Any) -> Response:
    return page(request, template, _club(request).site, status=status, is_club=True, **context)


def show(
    request: Request, error: str = "", token: str = "", status: int = 200,
    preview: league.MergePreview | None = None, token_table: str = "",
) -> Response:  # fmt: skip
    club = _club(request)
    session = club.sessions.get(request.cookies.get(SESSION_COOKIE))
    if session is None:
        return _login_page(request, error, status)
    _ = gettext(request)
    notices = {
        "table_added": _("The table was added."),
        "revoked": _("The table's token was revoked."),
        "merged": _("The two players were merged."),
        "unmerged": _("The merge was undone: they are two players again."),
        "voided": _("The game was voided."),
        "restored": _("The game counts again."),
        "rebuilt": _("The ratings are being rebuilt from every game, in the order they ended."),
    }
    with club.pool.connection() as conn:
        context = {
            "tables": league.tables(conn),
            "players": reads.players(conn),
            "games": reads.recent_games(conn),
            "merges": league.merges(conn),
        }
    notice = notices.get(request.query_params.get("done", ""), "")
    return _render(
        request, "admin.html", status=status, csrf=session.csrf, notice=notice, error=error,
        token=token, token_table=token_table, preview=preview, **context,
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


def posted(handler: Callable[[Request, dict[str, str]], Response]) -> Callable:
    """An endpoint reading the posted form, then running `handler` (database calls) in
    Starlette's thread pool rather than in the event loop."""

    async def endpoint(request: Request) -> Response:
        form = {key: str(value) for key, value in (await request.form()).items()}
        return await run_in_threadpool(handler, request, form)

    return endpoint


@posted
def login(request: Request, form: dict[str, str]) -> Response:
    club = _club(request)
    _ = gettext(request)
    if not same_token(form.get("csrf"), request.cookies.get(LOGIN_COOKIE)):
        return _login_page(request, _("The form has expired: please try again."), 403)
    address = request.client.host if request.client else "?"
    if club.failure_limit.wait(f"login:{address}"):  # only failures count, see below
        return _login_page(request, _("Too many attempts: wait a minute."), 429)
    with club.pool.connection() as conn:
        stored = league.setting(conn, PASSWORD_KEY)
    if not check_password(form.get("password", ""), stored):
        club.failure_limit.allow(f"login:{address}")
        return _login_page(request, _("Wrong password."), 403)
    key, _session = club.sessions.open()
    response = RedirectResponse("/admin", status_code=303)
    response.set_cookie(SESSION_COOKIE, key, max_age=SESSION_S, httponly=True, samesite="strict",
                        path="/admin")  # fmt: skip
    return response


def _signed_in(request: Request, form: dict[str, str]) -> bool:
    """Whether the session is open and the form carries its CSRF token."""
    session = _club(request).sessions.get(request.cookies.get(SESSION_COOKIE))
    return session is not None and same_token(form.get("csrf"), session.csrf)


def _refused(request: Request) -> Response:
    _ = gettext(request)
    return show(request, error=_("Sign in again: the form was not accepted."), status=403)


@posted
def logout(request: Request, form: dict[str, str]) -> Response:
    if not _signed_in(request, form):
        return _refused(request)
    _club(request).sessions.close(request.cookies.get(SESSION_COOKIE))
    response = RedirectResponse("/admin", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/admin")
    return response


@posted
def add_table(request: Request, form: dict[str, str]) -> Response:
    return _answer(
        request, form, lambda conn: {"token": league.add_table(conn, form.get("name", ""))}
    )


@posted
def revoke(request: Request, form: dict[str, str]) -> Response:
    return _act(request, form, lambda conn: league.revoke_table(conn, _id(form, "table")),
                done="revoked")  # fmt: skip


@posted
def renew_token(request: Request, form: dict[str, str]) -> Response:
    """A new token for a table (shown once); the old one stops working at once."""

    def renew(conn: Any) -> dict[str, Any]:
        table = _id(form, "table")
        name = next((t.name for t in league.tables(conn) if t.id == table), "")
        return {"token": league.new_token(conn, table), "token_table": name}

    return _answer(request, form, renew)


@posted
def merge(request: Request, form: dict[str, str]) -> Response:
    """First a preview of what the merge does; the merge itself once confirmed."""
    if form.get("confirm") == "1":

        def act(conn: Any) -> None:
            league.merge_players(conn, _id(form, "source"), _id(form, "target"))

        return _act(request, form, act, done="merged")

    def preview(conn: Any) -> dict[str, Any]:
        return {"preview": league.merge_preview(conn, _id(form, "source"), _id(form, "target"))}

    return _answer(request, form, preview)


@posted
def unmerge(request: Request, form: dict[str, str]) -> Response:
    return _act(request, form, lambda conn: league.undo_merge(conn, _id(form, "merge")),
                done="unmerged")  # fmt: skip


@posted
def void(request: Request, form: dict[str, str]) -> Response:
    voided = form.get("voided", "1") != "0"
    return _act(request, form, lambda conn: league.void_game(conn, _id(form, "game"), voided),
                done="voided" if voided else "restored")  # fmt: skip


@posted
def rebuild_ratings(request: Request, form: dict[str, str]) -> Response:
    """Every game rated again from the start, in end-time order (late pushes in their place)."""
    return _act(request, form, lambda conn: None, done="rebuilt")


def _answer(request: Request, form: dict[str, str], make: Callable) -> Response:
    """A form answered by the admin page showing what `make(conn)` returns (a new token, a
    merge's preview), or the league's reason for refusing it."""
    if not _signed_in(request, form):
        return _refused(request)
    try:
        with _club(request).pool.connection() as conn:
            shown = make(conn)
    except league.LeagueError as error:
        return show(request, error=str(error), status=400)
    return show(request, **shown)


def _act(request: Request, form: dict[str, str], act: Callable, done: str) -> Response:
    if not _signed_in(request, form):
        return _refused(request)
    club = _club(request)
    try:
        with club.pool.connection() as conn:
            act(conn)
    except league.LeagueError as error:
        return show(request, error=str(error), status=400)
    club.ratings.rebuild()  # a merge, an undo or a void: every game rated again
    return RedirectResponse(f"/admin?done={done}", status_code=303)


def _id(form: dict[str, str], key: str) -> int:
    value = form.get(key, "")
    if not value.isdigit() or len(value) > 12:
        raise league.LeagueError(f"{key}: expected a number")
    return int(value)
