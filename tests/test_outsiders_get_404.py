"""Every page of a group answers 404 to a logged-in person who is not in it, whatever the method and
whatever the form holds (an empty POST too).

The routes are not listed by hand: the test walks the site's URL resolver and takes every route with a
``group_slug``, so a new group page that forgets the membership check fails here. Each other URL
argument is filled with a real object of the cast's group (a game, a sheet, a deal, a membership ...);
a route with an argument this test does not know fails loudly instead of being skipped.
"""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from games.services import seating
from handsite.models import Invitation, Membership
from scoring.services.deals import add_deal
from scoring.services.sheets import PlayerEntry, create_sheet


def _group_routes(patterns=None, prefix="", namespace=""):
    """(route text, URL name with namespace, argument names) of every route taking ``group_slug``."""
    found = []
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            found += _group_routes(entry.url_patterns, route, inner)
        elif isinstance(entry, URLPattern) and "group_slug" in route:
            names = _argument_names(route)
            found.append((route, f"{namespace}{entry.name}" if entry.name else None, names))
    return found


def _argument_names(route: str) -> list[str]:
    from django.urls.resolvers import RoutePattern

    return list(RoutePattern(route).converters) if "<" in route else []


ROUTES = _group_routes()


@pytest.fixture
def group_things(group, owner, member):
    """One of each object a group URL can name, all in the cast's group."""
    game = seating.create_game(
        group=group, created_by=owner, variant="classic", options={}, seats=[owner, member], seed=11
    )
    seating.accept_seat(game_id=game.pk, user=member)
    sheet = create_sheet(
        group=group,
        by=owner,
        rule_set="classic",
        players=[PlayerEntry(user=owner), PlayerEntry(user=member)],
        options={},
        first_dealer=0,
        title="",
    )
    deal = add_deal(
        sheet, by=owner, facts={"winner": 0, "finish": "normal", "opened": [True, True], "held": [None, 45]}
    )
    return {
        "group_slug": group.slug,
        "game_id": game.pk,
        "sheet_id": sheet.pk,
        "deal_id": deal.pk,
        "change_id": deal.changes.get().pk,
        "membership_id": Membership.objects.get(group=group, user=member).pk,
        "invitation_id": Invitation.objects.create(group=group, created_by=owner, email="f@example.com").pk,
        "rule_set": "classic",
        "fmt": "csv",
    }


def test_the_walk_finds_the_group_pages():
    names = {name for _route, name, _args in ROUTES}
    assert {"group_detail", "games:play", "games:move", "games:poll", "scoring:sheet"} <= names
    assert all(name for name in names), "every group route needs a name to be reversed"


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize(
    ("route", "name", "arguments"), ROUTES, ids=[name or route for route, name, _a in ROUTES]
)
def test_an_outsider_gets_404(client, outsider, group_things, route, name, arguments, method):
    unknown = [argument for argument in arguments if argument not in group_things]
    if unknown:
        pytest.fail(f"{route}: this test cannot fill {unknown}; add a real object of the group for it")
    url = reverse(name, kwargs={argument: group_things[argument] for argument in arguments})
    client.force_login(outsider)
    response = getattr(client, method)(url, {})
    assert response.status_code == 404, f"{method.upper()} {url} answered {response.status_code}"
