"""Starlette glue shared by the club server and the table's page: language, HTML, static files."""

from __future__ import annotations

from importlib import resources
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from pages import i18n
from pages.render import render

LANG_COOKIE = "lang"
SECURITY_HEADERS = {
    # Nothing is loaded from elsewhere: no CDN, no font, no script at all.
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self' data:; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def language(request: Request) -> str:
    return i18n.pick_language(
        request.query_params.get("lang"),
        request.cookies.get(LANG_COOKIE),
        request.headers.get("accept-language"),
    )


def page(
    request: Request, template: str, site: str, status: int = 200, **context: Any
) -> HTMLResponse:
    """A rendered page in the reader's language; a ?lang= choice is remembered in a cookie."""
    lang = language(request)
    html = render(lang, template, site=site, request=request, **context)
    response = HTMLResponse(html, status_code=status, headers=SECURITY_HEADERS)
    if request.query_params.get("lang") in i18n.LANGUAGES:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, samesite="lax")
    return response


def gettext(request: Request):
    return i18n.translations(language(request)).gettext


def static_mount() -> Mount:
    directory = resources.files("pages") / "static"
    return Mount("/static", app=StaticFiles(directory=str(directory)), name="static")


def not_found(request: Request, site: str, **context: Any) -> HTMLResponse:
    _ = gettext(request)
    return page(
        request, "error.html", site, status=404, title=_("Not found"),
        message=_("There is no such page here."), **context,
    )  # fmt: skip
