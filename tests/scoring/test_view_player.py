"""The player page: a member's or guest's statistics in the group, reachable from the standings; 404
for outsiders and for players the group never had."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.services.deals import add_deal
from tests.scoring.conftest import hand, make_sheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Gus"])
    for winner in (0, 0, 1, 0, 2):
        held = [None if seat == winner else 10 for seat in range(3)]
        add_deal(sheet, by=owner, facts=hand(winner, [True] * 3, held))
    return sheet


def _url(group):
    return reverse("scoring:player", args=[group.slug])


def test_a_member_sees_a_players_figures(client, group, owner, member, played):
    client.force_login(member)
    page = client.get(_url(group), {"key": f"user:{owner.pk}"}).content.decode()
    assert "<h1>Olivia Owner</h1>" in page
    assert 'data-testid="going-out">3 <span class="muted small">(<bdi dir="ltr">60%</bdi>)' in page
    assert 'data-testid="games">1<' in page
    assert "Rating over time" in page
    assert page.count('class="chart-line') == 1  # one path: the player's rating
    assert "Nemesis" not in page  # Olivia finished ahead of both
    assert f'?key=user%3A{member.pk}&amp;family=hand">Mona Member</a>' in page


def test_a_guest_has_a_page_too(client, group, member, played):
    client.force_login(member)
    page = client.get(_url(group), {"key": "guest:gus"}).content.decode()
    assert "<h1>Gus</h1>" in page
    assert "Nemesis: Olivia Owner, who finished ahead in 1 game." in page


def test_the_standings_link_each_name_to_the_players_page(client, group, owner, played):
    client.force_login(owner)
    page = client.get(reverse("scoring:standings", args=[group.slug])).content.decode()
    assert f'{_url(group)}?key=user%3A{owner.pk}&amp;family=hand">Olivia Owner</a>' in page
    assert f'{_url(group)}?key=guest%3Agus&amp;family=hand">Gus</a>' in page


def test_a_player_the_group_never_had_is_not_found(client, group, owner, outsider, played):
    client.force_login(owner)
    for key in (
        f"user:{outsider.pk}",
        "guest:nobody",
        "user:99999999999999999999999",
        "",
        "x" * 500,
        "bot:1",
    ):
        assert client.get(_url(group), {"key": key}).status_code == 404


def test_an_outsider_gets_404_and_a_visitor_is_sent_to_log_in(client, group, owner, outsider, played):
    client.force_login(outsider)
    assert client.get(_url(group), {"key": f"user:{owner.pk}"}).status_code == 404
    client.logout()
    assert client.get(_url(group), {"key": f"user:{owner.pk}"}).status_code == 302


def test_a_member_without_games_sees_that_there_are_none_yet(client, group, owner, admin):
    client.force_login(owner)
    page = client.get(_url(group), {"key": f"user:{admin.pk}", "family": "hand-and-foot"}).content.decode()
    assert "No counted games in this game family yet." in page


def test_the_sheet_links_each_player_to_their_page(client, group, owner, member, played):
    client.force_login(member)
    page = client.get(played.get_absolute_url()).content.decode()
    assert f'{_url(group)}?key=user%3A{owner.pk}&amp;family=hand">Olivia Owner</a>' in page
    assert f'{_url(group)}?key=guest%3Agus&amp;family=hand">Gus</a> (guest)' in page
