"""Jinja2 templates with the i18n extension: one environment per language, autoescaped."""

from __future__ import annotations

import time
from functools import cache, partial
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from pages import charts, i18n


@cache
def environment(language: str) -> Environment:
    env = Environment(
        loader=PackageLoader("pages", "templates"),
        autoescape=select_autoescape(["html", "svg"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(i18n.translations(language), newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(
        lang=language,
        languages=i18n.LANGUAGES,
        game_title=partial(i18n.game_title, language=language),
        game_titles=i18n.game_titles(language),
        when=when,
        line_chart=charts.line_chart,
        bar_chart=charts.bar_chart,
    )
    env.filters["rating"] = lambda value: "–" if value is None else f"{value:.1f}"
    env.filters["percent"] = lambda value: f"{100 * value:.0f} %"
    return env


def render(language: str, template: str, **context: Any) -> str:
    return environment(language).get_template(template).render(**context)


def when(stamp: float | None) -> str:
    if stamp is None:
        return ""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))
