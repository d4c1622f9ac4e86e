"""Page budgets: the group page, the standings page and the sheet list stay within 15 queries, and
the same number of queries, however long the group's history (the sheet list is paginated)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.engine.match import MatchStatus
from scoring.services.deals import add_deal
from scoring.services.online import record_online_game
from tests.scoring.conftest import hand, make_sheet

pytestmark = pytest.mark.django_db


def _grow(group, owner, member, sheets, online_from):
    for index in range(sheets):
        sheet = make_sheet(group, owner, "classic", [owner, member, f"Guest {index % 4}"])
        if index % 10 == 0:
            for _ in range(5):
                add_deal(sheet, by=owner, facts=hand(0, [True] * 3, [None, 10, 20]))
    for game in range(online_from, online_from + 3):
        record_online_game(
            group_id=group.pk,
            game_id=game,
            rule_set="classic",
            players=[
                {"seat": 0, "user_id": owner.pk, "name": "O"},
                {"seat": 1, "user_id": member.pk, "name": "M"},
            ],
            status=MatchStatus(((0,), (1,)), (40, 90), 5, 5, True, ((0,),), None, 6, False, True),
            finished_at=timezone.now(),
        )


def _costs(client, group):
    costs = {}
    for name, url in (
        ("group", reverse("group_detail", args=[group.slug])),
        ("standings", reverse("scoring:standings", args=[group.slug])),
        ("sheets", reverse("scoring:sheet_list", args=[group.slug])),
        ("sheets page 2", reverse("scoring:sheet_list", args=[group.slug]) + "?page=2"),
        (
            "player",
            reverse("scoring:player", args=[group.slug]) + f"?key=user:{group.memberships.first().user_id}",
        ),
    ):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        costs[name] = len(captured)
    return costs


def test_pages_stay_within_fifteen_queries_whatever_the_history(
    client, group, owner, member, django_assert_max_num_queries
):
    client.force_login(owner)
    client.get(reverse("home"))  # the session's first page also keeps the reader's zone (once a session)
    _grow(group, owner, member, 30, 1)
    small = _costs(client, group)
    _grow(group, owner, member, 30, 100)
    large = _costs(client, group)
    assert large == small, (small, large)
    for url in (
        reverse("group_detail", args=[group.slug]),
        reverse("scoring:standings", args=[group.slug]),
        reverse("scoring:sheet_list", args=[group.slug]),
        reverse("scoring:player", args=[group.slug]) + f"?key=user:{member.pk}",
    ):
        with django_assert_max_num_queries(15):
            client.get(url)
    page = client.get(reverse("scoring:sheet_list", args=[group.slug])).content.decode()
    assert page.count('class="sheet-link"') == 25
    assert "Page 1 of 3" in page
