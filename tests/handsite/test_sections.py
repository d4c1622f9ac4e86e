"""The sections other apps add to the group and home pages (handsite.sections): games and scoring
register them in their AppConfig.ready; the views build each section's context with a few queries, the
same number for 1 game or sheet as for 20, and never load a game's state to list it."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.services import seating
from handsite import sections
from tests.scoring.conftest import make_sheet

pytestmark = pytest.mark.django_db


def _start(group, owner, member, count):
    for _ in range(count):
        game = seating.create_game(
            group=group, created_by=owner, variant="classic", options=None, seats=[owner, member]
        )
        seating.accept_seat(game_id=game.pk, user=member)


def _queries(client, url) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return [query["sql"] for query in captured.captured_queries]


def test_games_and_scoring_register_their_sections_with_handsite():
    assert sections.registered() == {
        "group": ["games/_group_section.html", "scoring/_group_section.html"],
        "home": ["games/_home_section.html"],
    }


def test_the_group_page_costs_the_same_queries_for_one_game_and_sheet_as_for_twenty(
    client, group, owner, member
):
    client.force_login(member)
    url = reverse("group_detail", args=[group.slug])
    client.get(url)  # the session's first page also keeps the reader's zone (once a session)
    _start(group, owner, member, 1)
    make_sheet(group, owner, "classic", [owner, member, "Guest"])
    one = _queries(client, url)
    _start(group, owner, member, 19)
    for index in range(19):
        make_sheet(group, owner, "classic", [owner, member, f"Guest {index}"])
    twenty = _queries(client, url)
    assert len(twenty) == len(one), "\n".join(twenty)
    page = client.get(url).text
    assert page.count('class="sheet-link"') == 6  # the latest sheets
    assert page.count("Hand #") >= 20


def test_the_home_page_costs_the_same_queries_for_one_game_as_for_twenty(client, group, owner, member):
    client.force_login(member)
    url = reverse("home")
    client.get(url)
    _start(group, owner, member, 1)
    one = _queries(client, url)
    _start(group, owner, member, 19)
    twenty = _queries(client, url)
    assert len(twenty) == len(one), "\n".join(twenty)
    assert client.get(url).text.count("Hand #") == 20


def test_listing_games_never_loads_their_state(client, group, owner, member):
    _start(group, owner, member, 2)
    client.force_login(member)
    for url in (reverse("group_detail", args=[group.slug]), reverse("home")):
        games_queries = [sql for sql in _queries(client, url) if '"games_game"' in sql]
        assert games_queries, url
        for sql in games_queries:
            assert '"games_game"."state"' not in sql, sql
            assert '"games_game"."staged"' not in sql, sql


def test_a_registered_section_is_rendered_with_its_builders_context(client, member, group, monkeypatch):
    """What a section's builder returns reaches its template; the page's own context (the group) too."""
    monkeypatch.setattr(sections, "_GROUP", dict(sections._GROUP))
    seen = []

    def build(request, group_, membership):
        seen.append((request.user, group_, membership.user))
        return {"games": []}

    sections.register_group_section("games/_group_section.html", build)
    client.force_login(member)
    text = client.get(reverse("group_detail", args=[group.slug])).text
    assert seen == [(member, group, member)]
    assert "No games yet." in text
    assert reverse("games:new", args=[group.slug]) in text  # the page's group reached the template
