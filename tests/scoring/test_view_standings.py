"""The group's standings page: a leaderboard per rule-set family (games, wins, win rate, points per
deal, rating), sortable, this year or all time; practice games never ranked."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from games.engine.match import MatchStatus
from scoring.services.deals import add_deal, edit_deal
from scoring.services.online import record_online_game
from scoring.services.standings import leaderboard
from tests.scoring.conftest import hand, make_sheet

pytestmark = pytest.mark.django_db


def _finish(sheet, by, winner, held=10):
    players = sheet.players.count()
    for _ in range(5):
        facts = hand(winner, [True] * players, [None if seat == winner else held for seat in range(players)])
        add_deal(sheet, by=by, facts=facts)


def _rows(page):
    table = page.split('data-testid="leaderboard"')[1].split("</table>")[0]
    return [row.split("</tr>")[0] for row in table.split("<tr data-key=")[1:]]


def _names(page):
    cells = [row.split('<th scope="row">')[1].split('<span class="second-line')[0] for row in _rows(page)]
    return [re.sub(r"<[^>]+>", "", cell).split("(")[0].strip() for cell in cells]


def test_the_leaderboard_counts_games_wins_rate_and_points_per_deal(client, group, owner, member):
    _finish(make_sheet(group, owner, "classic", [owner, member, "Gina"]), owner, winner=1)
    _finish(make_sheet(group, owner, "classic", [owner, member]), owner, winner=0, held=20)
    client.force_login(owner)
    page = client.get(reverse("scoring:standings", args=[group.slug])).content.decode()
    rows = dict(zip(_names(page), _rows(page), strict=True))
    # Mona: won game 1 (5 × -30), lost game 2 (5 × 20): 2 games, 1 win, 50%, (-150 + 100) / 10 = -5.0.
    mona = rows["Mona Member"]
    flat = mona.replace("\n", "").replace("  ", "")
    assert '<td class="num col-games">2</td><td class="num col-wins">1</td>' in flat
    assert "50%" in mona
    assert '<bdi dir="ltr">-5.0</bdi>' in mona
    # On a phone the wins and points per deal are a second line under the name.
    assert "1 win · -5.0 points per deal" in mona.split('data-testid="second-line">')[1]
    # Gina, a guest: 1 game, no win, 10 a deal.
    assert "(guest)" in rows["Gina"]
    assert '<bdi dir="ltr">10.0</bdi>' in rows["Gina"]
    assert "0%" in rows["Gina"]
    leader = leaderboard(group, "hand")
    assert [(r.name, r.games, r.wins, r.win_rate, r.average) for r in leader if r.name == "Olivia Owner"] == [
        ("Olivia Owner", 2, 1, 50, -10.0)
    ]


def test_sorting_by_each_column_puts_the_best_first(client, group, owner, member):
    _finish(make_sheet(group, owner, "classic", [owner, member, "Gina"]), owner, winner=2)
    _finish(make_sheet(group, owner, "classic", [owner, member]), owner, winner=0)
    client.force_login(owner)
    url = reverse("scoring:standings", args=[group.slug])
    assert _names(client.get(url, {"sort": "name"}).content.decode()) == [
        "Gina",
        "Mona Member",
        "Olivia Owner",
    ]
    assert _names(client.get(url, {"sort": "games"}).content.decode())[-1] == "Gina"
    assert _names(client.get(url, {"sort": "win_rate"}).content.decode())[0] == "Gina"  # 1 of 1
    assert _names(client.get(url, {"sort": "average"}).content.decode())[0] == "Gina"  # -30 a deal
    assert _names(client.get(url, {"sort": "wins"}).content.decode())[-1] == "Mona Member"
    # A tampered sort, family or period falls back to the defaults.
    response = client.get(url, {"sort": "9" * 5000, "family": "<x>", "period": "never"})
    assert response.status_code == 200


def test_this_year_leaves_out_last_years_games(client, group, owner, member):
    last_year = timezone.now().replace(month=6, day=1) - dt.timedelta(days=365)
    with time_machine.travel(last_year, tick=False):
        _finish(make_sheet(group, owner, "classic", [owner, member]), owner, winner=1)
    _finish(make_sheet(group, owner, "classic", [owner, "Gina"]), owner, winner=0)
    client.force_login(owner)
    url = reverse("scoring:standings", args=[group.slug])
    assert sorted(_names(client.get(url).content.decode())) == ["Gina", "Mona Member", "Olivia Owner"]
    assert sorted(_names(client.get(url, {"period": "year"}).content.decode())) == ["Gina", "Olivia Owner"]


def test_hand_and_foot_has_its_own_leaderboard_and_practice_games_are_not_ranked(
    client, group, owner, member
):
    _finish(make_sheet(group, owner, "classic", [owner, member]), owner, winner=1)
    record_online_game(
        group_id=group.pk,
        game_id=3,
        rule_set="hand-and-foot",
        players=[{"seat": 0, "user_id": owner.pk, "name": "O"}, {"seat": 1, "user_id": None, "name": "Bot"}],
        status=MatchStatus(((0,), (1,)), (900, 200), 4, 4, True, ((0,),), None, 5, False, False),
        finished_at=timezone.now(),
    )
    client.force_login(owner)
    url = reverse("scoring:standings", args=[group.slug])
    page = client.get(url, {"family": "hand-and-foot"}).content.decode()
    assert "No finished games yet in this period." in page
    assert sorted(_names(client.get(url).content.decode())) == ["Mona Member", "Olivia Owner"]


def test_the_page_says_updating_until_a_correction_is_replayed(
    client, group, owner, member, django_capture_on_commit_callbacks
):
    sheet = make_sheet(group, owner, "classic", [owner, member])
    _finish(sheet, owner, winner=0)
    later = make_sheet(group, owner, "classic", [owner, member])
    _finish(later, owner, winner=0)
    first_deals = list(sheet.deals.order_by("position"))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        for deal in first_deals[:3]:
            edit_deal(deal, by=owner, facts=hand(1, [True, True], [150, None]))
    client.force_login(owner)
    url = reverse("scoring:standings", args=[group.slug])
    assert 'data-testid="ratings-updating"' in client.get(url).content.decode()
    for callback in callbacks:
        callback()
    assert 'data-testid="ratings-updating"' not in client.get(url).content.decode()
