"""Small SVG charts drawn on the server: lines over time and bars, with text for screen readers.

No script and no external file: an <svg> with a <title> and <desc>, sized by its viewBox so it
fits a phone's width.
"""

from __future__ import annotations

from html import escape

from markupsafe import Markup

WIDTH, HEIGHT = 320, 180
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 40, 10, 10, 24
# Colour-blind-safe palette (Okabe-Ito), dark enough on white for lines and bars.
LEGEND_PER_ROW = 3  # legend entries side by side within the chart's width
_LABEL = 'text-anchor="end" font-size="10"'
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#8C6D00", "#56B4E9")


def line_chart(
    series: dict[str, list[tuple[float, float]]],
    title: str,
    desc: str,
    labels: dict[str, str],
    by_x: bool = False,
) -> Markup:
    """One line per series, a legend under it. x: the order of the points (games), or with
    `by_x` each point's own x (an action's index: every series spans the same game); y: the
    value."""
    values = [y for points in series.values() for _, y in points]
    if not values:
        return Markup("")
    low, high = min(values + [0.0]), max(values + [0.0])
    high = high if high > low else low + 1
    longest = max(len(points) for points in series.values())
    span = max((px for points in series.values() for px, _ in points), default=0) if by_x else 0
    width = WIDTH - PAD_LEFT - PAD_RIGHT
    height = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(index: int, point_x: float = 0.0) -> float:
        if by_x:
            return PAD_LEFT + width * point_x / max(span, 1)
        return PAD_LEFT + (width * index / max(longest - 1, 1))

    def y(value: float) -> float:
        return PAD_TOP + height * (high - value) / (high - low)

    parts = [_axes(low, high, y)]
    for colour, (kind, points) in zip(_cycle(), sorted(series.items()), strict=False):
        coords = " ".join(f"{x(i, px):.1f},{y(v):.1f}" for i, (px, v) in enumerate(points))
        parts.append(
            f'<polyline class="series" data-series="{escape(kind)}" fill="none" '
            f'stroke="{colour}" stroke-width="2" points="{coords}"/>'
        )
        if len(points) == 1:
            parts.append(f'<circle cx="{x(0, points[0][0]):.1f}" cy="{y(points[0][1]):.1f}" r="3" '
                         f'fill="{colour}"/>')  # fmt: skip
    legend = _legend([labels.get(kind, kind) for kind in sorted(series)])
    return _svg(title, desc, "".join(parts) + legend, legend_rows=_rows(len(series)))


def bar_chart(values: dict[str, int], title: str, desc: str, labels: dict[str, str]) -> Markup:
    """One bar per entry, its value written above it."""
    if not values:
        return Markup("")
    high = max(max(values.values()), 1)
    names = sorted(values)
    slot = (WIDTH - PAD_LEFT - PAD_RIGHT) / len(names)
    height = HEIGHT - PAD_TOP - PAD_BOTTOM
    parts = [_axes(0, high, lambda v: PAD_TOP + height * (high - v) / high)]
    for index, (colour, name) in enumerate(zip(_cycle(), names, strict=False)):
        bar = height * values[name] / high
        left = PAD_LEFT + index * slot + slot * 0.15
        top = PAD_TOP + height - bar
        parts.append(
            f'<rect class="bar" data-series="{escape(name)}" x="{left:.1f}" y="{top:.1f}" '
            f'width="{slot * 0.7:.1f}" height="{bar:.1f}" fill="{colour}"/>'
            f'<text x="{left + slot * 0.35:.1f}" y="{top - 2:.1f}" text-anchor="middle" '
            f'font-size="11">{values[name]}</text>'
            f'<text x="{left + slot * 0.35:.1f}" y="{HEIGHT - 8}" text-anchor="middle" '
            f'font-size="10">{escape(labels.get(name, name))}</text>'
        )
    return _svg(title, desc, "".join(parts))


def _svg(title: str, desc: str, body: str, legend_rows: int = 1) -> Markup:
    legend_room = 18 * legend_rows
    return Markup(
        f'<svg class="chart" role="img" viewBox="0 0 {WIDTH} {HEIGHT + legend_room}" '
        f'xmlns="http://www.w3.org/2000/svg" aria-label="{escape(title)}">'
        f"<title>{escape(title)}</title><desc>{escape(desc)}</desc>{body}</svg>"
    )


def _axes(low: float, high: float, y) -> str:
    bottom, top = HEIGHT - PAD_BOTTOM, PAD_TOP
    return (
        f'<line x1="{PAD_LEFT}" y1="{top}" x2="{PAD_LEFT}" y2="{bottom}" stroke="#444"/>'
        f'<line x1="{PAD_LEFT}" y1="{y(0) if low <= 0 <= high else bottom:.1f}" '
        f'x2="{WIDTH - PAD_RIGHT}" y2="{y(0) if low <= 0 <= high else bottom:.1f}" stroke="#444"/>'
        f'<text x="{PAD_LEFT - 4}" y="{top + 8}" {_LABEL}>{_num(high)}</text>'
        f'<text x="{PAD_LEFT - 4}" y="{bottom}" {_LABEL}>{_num(low)}</text>'
    )


def _legend(names: list[str]) -> str:
    parts = []
    for index, (colour, name) in enumerate(zip(_cycle(), names, strict=False)):
        left = PAD_LEFT + (index % LEGEND_PER_ROW) * 90
        top = HEIGHT + 4 + 18 * (index // LEGEND_PER_ROW)
        parts.append(
            f'<rect x="{left}" y="{top}" width="10" height="10" fill="{colour}"/>'
            f'<text x="{left + 14}" y="{top + 9}" font-size="10">{escape(name)}</text>'
        )
    return "".join(parts)


def _rows(entries: int) -> int:
    return max(1, -(-entries // LEGEND_PER_ROW))


def _cycle():
    while True:
        yield from COLOURS


def _num(value: float) -> str:
    return f"{value:.0f}" if abs(value) >= 10 or value == int(value) else f"{value:.1f}"
