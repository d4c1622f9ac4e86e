"""Server-drawn SVG charts (no JavaScript): the numbers are laid out here, the template draws them.

Each chart has one ``<path>`` per series (a player or a team), a title and a text alternative (a
sentence, plus the figures as a table for screen readers and for anyone who prefers numbers). Colours
come from CSS classes (``series-0`` …), so dark mode and high contrast are the stylesheet's business;
the SVG scales to its container (``viewBox``), readable from 360 px up."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

WIDTH, HEIGHT, PAD = 320, 180, 14
AXIS_X, AXIS_Y = 34, 16
"""Room outside the plot for the value axis's numbers (before it) and the deals' numbers (below it):
the viewBox grows by these, so the plot's own coordinates stay the same."""


@dataclass(frozen=True)
class Tick:
    label: str
    x: float
    y: float


def nice_ticks(low: int, high: int, most: int = 5) -> list[int]:
    """Round values from ``low`` to ``high`` for an axis: steps of 1, 2 or 5 times a power of ten,
    at most ``most`` of them."""
    raw = max((high - low) / max(1, most - 1), 1)
    power = 10 ** math.floor(math.log10(raw))
    for step in (max(1, int(m * power)) for m in (1, 2, 5, 10, 20, 50)):
        first = math.ceil(low / step) * step
        ticks = list(range(first, high + 1, step))
        if len(ticks) <= most:
            return ticks
    return [low, high]


@dataclass
class Series:
    name: str
    values: list[int]
    path: str = ""
    index: int = 0
    last_x: float = 0.0
    last_y: float = 0.0


@dataclass
class LineChart:
    title: str
    summary: str
    labels: list[str]  # one per point (x axis)
    series: list[Series]
    zero_y: float | None = None
    width: int = WIDTH
    height: int = HEIGHT
    rows: list[list] = field(default_factory=list)  # the text alternative's table: label, values…
    axis: str = ""  # the heading of the table's first column ("Deal" when empty)
    y_ticks: list[Tick] = field(default_factory=list)  # the value axis: numbers at round values
    x_ticks: list[Tick] = field(default_factory=list)  # the deals (or games): at most 6 numbers
    view_x: int = -AXIS_X
    view_width: int = WIDTH + AXIS_X
    view_height: int = HEIGHT + AXIS_Y


def _scale(values: list[list[int]], zero: bool = True) -> tuple[int, int]:
    flat = [*([0] if zero else []), *(v for series in values for v in series)]
    low, high = min(flat), max(flat)
    return (low, high) if high != low else (low - 1, high + 1)


def line_chart(
    title: str, labels: list[str], named: list[tuple[str, list[int]]], summary: str, *, zero: bool = True
) -> LineChart:
    """A line per series over the same points; the y axis spans the values (and zero, unless not
    ``zero``: a rating near 1500 is drawn on its own range)."""
    low, high = _scale([values for _name, values in named], zero)
    steps = max(1, len(labels) - 1)

    def x(i: int) -> float:
        return round(PAD + i * (WIDTH - 2 * PAD) / steps, 1)

    def y(v: int) -> float:
        return round(PAD + (high - v) * (HEIGHT - 2 * PAD) / (high - low), 1)

    series = []
    for index, (name, values) in enumerate(named):
        points = [(x(i), y(v)) for i, v in enumerate(values)]
        path = "M" + " L".join(f"{px} {py}" for px, py in points) if points else ""
        last = points[-1] if points else (0.0, 0.0)
        series.append(Series(name, values, path, index % 8, last[0], last[1]))
    rows = [[label, *(values[i] for _name, values in named)] for i, label in enumerate(labels)]
    y_ticks = [Tick(str(value), PAD - 4, y(value)) for value in nice_ticks(low, high)]
    shown = (
        sorted({round(i * (len(labels) - 1) / 5) for i in range(6)})
        if len(labels) > 6
        else range(len(labels))
    )
    x_ticks = [Tick(labels[i], x(i), HEIGHT + AXIS_Y - 4) for i in shown]
    chart = LineChart(title, summary, labels, series, y(0) if low <= 0 <= high else None, rows=rows)
    chart.y_ticks, chart.x_ticks = y_ticks, x_ticks
    return chart


def score_progression(state) -> LineChart | None:
    """A sheet's running totals deal by deal, one line per player or team (from 0 before deal 1)."""
    names = state.side_names
    running = [[0] for _ in names]
    labels = ["0"]
    for row in state.rows:
        if row.score is None or row.number is None:
            continue  # a void deal or facts that no longer score
        labels.append(str(row.number))
        for index, total in enumerate(row.totals):
            running[index].append(total)
    if len(labels) < 2:
        return None
    totals = [values[-1] for values in running]
    leader = min(totals) if state.status and state.status.lower_is_better else max(totals)
    leaders = [name for name, total in zip(names, totals, strict=True) if total == leader]
    played = len(labels) - 1
    summary = ngettext(
        "Running totals after %(count)s deal. In the lead: %(names)s (%(total)s).",
        "Running totals after %(count)s deals. In the lead: %(names)s (%(total)s).",
        played,
    ) % {"count": played, "names": pgettext("list separator", ", ").join(leaders), "total": leader}
    return line_chart(_("Score, deal by deal"), labels, list(zip(names, running, strict=True)), summary)


@dataclass
class Bar:
    name: str
    value: int
    x: float
    width: float
    y: float
    height: float
    index: int


@dataclass
class BarChart:
    title: str
    summary: str
    bars: list[Bar]
    width: int = WIDTH
    height: int = 0
    ticks: list[Tick] = field(default_factory=list)  # the value axis (wins) below the bars
    axis_y: float = 0.0  # where the value axis's line runs


BAR, GAP, LABEL = 22, 8, 110


def wins_bars(rows) -> BarChart | None:
    """The group's wins per player (the leaderboard's rows), one horizontal bar each, most first."""
    rows = sorted((r for r in rows if r.games), key=lambda r: (-r.wins, r.name.casefold()))
    if not rows:
        return None
    most = max(r.wins for r in rows) or 1
    span = WIDTH - LABEL - PAD - 30
    bars = [
        Bar(r.name, r.wins, LABEL, round(span * r.wins / most, 1), i * (BAR + GAP) + GAP, BAR, i % 8)
        for i, r in enumerate(rows)
    ]
    summary = "; ".join(
        ngettext("%(name)s %(count)s win", "%(name)s %(count)s wins", r.wins)
        % {"name": r.name, "count": r.wins}
        for r in rows
    )
    bottom = len(bars) * (BAR + GAP) + GAP
    ticks = [
        Tick(str(value), round(LABEL + span * value / most, 1), bottom + 12) for value in nice_ticks(0, most)
    ]
    return BarChart(_("Wins per player"), summary, bars, height=bottom + AXIS_Y, ticks=ticks, axis_y=bottom)


def rating_over_time(name: str, history: list[tuple[object, int]]) -> LineChart | None:
    """A player's rating after each rated game, one line from 1500 (before the first game)."""
    if not history:
        return None
    values = [1500, *(rating for _when, rating in history)]
    labels = [str(number) for number in range(len(values))]
    low, high = min(values), max(values)
    summary = ngettext(
        "Rating after %(count)s game: %(rating)s (lowest %(low)s, highest %(high)s).",
        "Rating after %(count)s games: %(rating)s (lowest %(low)s, highest %(high)s).",
        len(history),
    ) % {"count": len(history), "rating": values[-1], "low": low, "high": high}
    chart = line_chart(_("Rating over time"), labels, [(name, values)], summary, zero=False)
    chart.axis = _("Game")
    return chart


UNDRAWABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Control characters (C0, DEL, C1) and bidi controls: not allowed in an SVG (XML) or they reorder the
text around them; a name drawn on a picture goes without them."""


def drawable(text: str) -> str:
    """``text`` safe to draw in an SVG: without control or bidi-control characters."""
    return UNDRAWABLE.sub("", str(text))


def svg_to_png(svg: str) -> bytes:
    """An SVG drawn here as PNG bytes (resvg, with the system's fonts: Arabic is shaped), cached by the
    SVG's content for a week, so the same picture is drawn once."""
    import hashlib

    import resvg_py
    from django.core.cache import cache

    key = "svg-png:" + hashlib.sha256(svg.encode()).hexdigest()
    png = cache.get(key)
    if png is None:
        png = bytes(resvg_py.svg_to_bytes(svg_string=svg))
        cache.set(key, png, 7 * 24 * 3600)
    return png
