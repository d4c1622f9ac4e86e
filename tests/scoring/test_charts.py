"""Server-drawn SVG charts: a sheet's score progression (one path per player or team, from 0, deal by
deal) and a group's wins per player, each with its title and text alternative."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import charts
from scoring.services.deals import add_deal
from scoring.services.state import sheet_state
from tests.scoring.conftest import hand, make_sheet, void

pytestmark = pytest.mark.django_db


def test_the_score_progression_has_one_path_per_player_through_every_running_total(group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina"])
    add_deal(sheet, by=owner, facts=hand(0, [True] * 3, [None, 20, 30]))
    add_deal(sheet, by=owner, facts=void(3))
    add_deal(sheet, by=owner, facts=hand(2, [True] * 3, [50, 10, None]))
    chart = charts.score_progression(sheet_state(sheet))
    assert [s.name for s in chart.series] == ["Olivia Owner", "Mona Member", "Gina"]
    assert [s.values for s in chart.series] == [[0, -30, 20], [0, 20, 30], [0, 30, 0]]
    assert chart.labels == ["0", "1", "2"]  # the void deal is not a point
    for s in chart.series:
        assert s.path.startswith("M")
        assert s.path.count("L") == 2
    assert chart.summary == "Running totals after 2 deals. In the lead: Gina (0)."
    assert chart.rows[1] == ["1", -30, 20, 30]


def test_the_sheet_page_draws_the_chart_with_its_text_alternative(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina", "Hadi"], options={"teams": True})
    client.force_login(owner)
    assert 'data-testid="chart"' not in client.get(sheet.get_absolute_url()).content.decode()
    add_deal(sheet, by=owner, facts=hand(0, [True] * 4, [None, 20, 5, 30]))
    page = client.get(sheet.get_absolute_url()).content.decode()
    svg = page.split('data-testid="chart"')[1].split("</svg>")[0]
    assert len(re.findall(r'<path class="chart-line', svg)) == 2  # one per team
    assert 'data-series="Olivia Owner &amp; Gina"' in svg
    assert "<title" in svg
    assert "<desc" in svg
    assert "Running totals after 1 deal." in svg


def test_the_standings_page_draws_the_wins_per_player(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina"])
    for _ in range(5):
        add_deal(sheet, by=owner, facts=hand(1, [True] * 3, [20, None, 30]))
    client.force_login(owner)
    page = client.get(reverse("scoring:standings", args=[group.slug])).content.decode()
    svg = page.split('data-testid="bar-chart"')[1].split("</svg>")[0]
    assert len(re.findall(r'<path class="chart-bar', svg)) == 3  # one per player
    assert "Mona Member 1 win; Gina 0 wins; Olivia Owner 0 wins" in svg


def test_the_rating_over_time_is_one_path_from_1500_on_its_own_range_with_its_text_alternative():
    import datetime as dt

    when = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)
    chart = charts.rating_over_time("Olivia Owner", [(when, 1530), (when, 1510), (when, 1562)])
    assert [s.values for s in chart.series] == [[1500, 1530, 1510, 1562]]
    assert chart.series[0].path.count("L") == 3
    assert chart.zero_y is None  # no zero line: the range is the ratings' own (1500 to 1562)
    ys = [float(point.split()[1]) for point in chart.series[0].path[1:].split(" L")]
    assert min(ys) == charts.PAD
    assert max(ys) == charts.HEIGHT - charts.PAD
    assert chart.summary == "Rating after 3 games: 1562 (lowest 1500, highest 1562)."
    assert chart.axis == "Game"
    assert chart.rows[-1] == ["3", 1562]
    assert charts.rating_over_time("Olivia Owner", []) is None


def _ticks(svg, axis):
    return re.findall(rf'direction="ltr" data-tick="{axis}">([^<]*)</text>', svg)


def test_axis_values_are_round_numbers_spanning_the_values():
    assert charts.nice_ticks(-30, 30) == [-20, 0, 20]
    assert charts.nice_ticks(0, 1) == [0, 1]
    assert charts.nice_ticks(1490, 1562) == [1500, 1520, 1540, 1560]
    assert charts.nice_ticks(0, 845) == [0, 200, 400, 600, 800]


def test_the_arabic_sheet_page_draws_the_value_and_deal_axes_left_to_right(client, group, owner, member):
    owner.language = "ar"
    owner.save(update_fields=["language"])
    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina"])
    for _ in range(5):
        add_deal(sheet, by=owner, facts=hand(0, [True] * 3, [None, 20, 45]))
    client.force_login(owner)
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert '<html lang="ar" dir="rtl">' in page
    svg = page.split('data-testid="chart"')[1].split("</svg>")[0]
    values = [int(label) for label in _ticks(svg, "y")]
    assert len(values) >= 3
    assert min(values) <= 0 <= max(values)
    assert values == [-100, 0, 100, 200]  # the running totals span -150 (5 × -30) to 225 (5 × 45)
    assert values == sorted(values)
    assert _ticks(svg, "x") == ["0", "1", "2", "3", "4", "5"]  # deal numbers
    assert 'viewBox="-34 0 354 196"' in svg


def test_a_long_game_numbers_at_most_six_deals_first_and_last_included():
    labels = [str(number) for number in range(21)]
    chart = charts.line_chart("t", labels, [("A", list(range(21)))], "s")
    assert [tick.label for tick in chart.x_ticks] == ["0", "4", "8", "12", "16", "20"]
    assert [tick.label for tick in chart.y_ticks] == ["0", "5", "10", "15", "20"]
    assert chart.y_ticks[0].y == charts.HEIGHT - charts.PAD  # 0 at the bottom of the plot


def test_the_wins_chart_has_a_numbered_value_axis(client, group, owner, member):
    for _ in range(3):
        sheet = make_sheet(group, owner, "classic", [owner, member])
        for _ in range(5):
            add_deal(sheet, by=owner, facts=hand(1, [True] * 2, [20, None]))
    client.force_login(owner)
    page = client.get(reverse("scoring:standings", args=[group.slug])).content.decode()
    svg = page.split('data-testid="bar-chart"')[1].split("</svg>")[0]
    assert _ticks(svg, "x") == ["0", "1", "2", "3"]
