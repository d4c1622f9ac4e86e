"""The group's sheets, history and standings; do-not-count; linking a guest who joined."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from scoring.services.deals import add_deal
from scoring.services.errors import SheetPermissionDenied
from scoring.services.sheets import link_guest
from scoring.services.standings import group_standings
from tests.factories import MembershipFactory
from tests.scoring.conftest import hand, make_sheet


def finish_classic(sheet, by, winner):
    loser = 1 - winner
    for _ in range(5):
        held = [None, None]
        held[loser] = 10
        opened = [True, True]
        add_deal(sheet, by=by, facts=hand(winner, opened, held))


def test_finished_sheets_count_in_the_standings_unless_marked(client, group, owner, member):
    counted = make_sheet(group, owner, "classic", [owner, member])
    finish_classic(counted, owner, winner=0)
    skipped = make_sheet(group, owner, "classic", [owner, member])
    finish_classic(skipped, owner, winner=1)
    client.force_login(member)
    response = client.post(
        reverse("scoring:sheet_do_not_count", args=[group.slug, skipped.pk]), {"do_not_count": "1"}
    )
    assert response.status_code == 302
    skipped.refresh_from_db()
    assert skipped.finished
    assert skipped.do_not_count
    standings = {s.name: (s.wins, s.sheets) for s in group_standings(group)}
    assert standings == {"Olivia Owner": (1, 1), "Mona Member": (0, 1)}
    page = client.get(reverse("scoring:sheet_list", args=[group.slug])).content.decode()
    assert "Does not count" in page
    assert "Won by Olivia Owner" in page


def test_a_guests_history_follows_them_when_linked_to_a_member(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, "Karim"])
    finish_classic(sheet, owner, winner=1)
    other = make_sheet(group, owner, "classic", ["karim", member])
    karim = MembershipFactory(group=group, user__display_name="Karim K").user
    client.force_login(owner)
    page = client.get(reverse("scoring:sheet_list", args=[group.slug])).content.decode()
    assert "Guests who joined" in page
    response = client.post(
        reverse("scoring:link_guest", args=[group.slug]), {"guest_name": "Karim", "user": karim.pk}
    )
    assert response.status_code == 302
    assert sheet.players.get(seat=1).user == karim
    assert other.players.get(seat=0).user == karim
    standings = {s.key: (s.name, s.wins) for s in group_standings(group)}
    assert standings[f"user:{karim.pk}"] == ("Karim K", 1)


def test_a_plain_member_cannot_link_a_guest_to_someone_else(group, owner, member):
    make_sheet(group, owner, "classic", [owner, "Karim"])
    karim = MembershipFactory(group=group).user
    import pytest

    with pytest.raises(SheetPermissionDenied):
        link_guest(group=group, by=member, guest_name="Karim", user=karim)
    assert link_guest(group=group, by=karim, guest_name="Karim", user=karim) == 1


def test_the_group_page_lists_the_sheets(client, group, owner, member):
    make_sheet(group, owner, "classic", [owner, member], title="Friday night")
    client.force_login(member)
    page = client.get(group.get_absolute_url()).content.decode()
    assert "Friday night" in page
    assert reverse("scoring:sheet_new", args=[group.slug]) in page


def test_marking_do_not_count_and_counting_again_are_in_the_visible_history(client, group, owner, member):
    import time_machine
    from django.utils import timezone

    from scoring.models import DealChange

    sheet = make_sheet(group, owner, "classic", [owner, member])
    finish_classic(sheet, owner, winner=0)
    url = reverse("scoring:sheet_do_not_count", args=[group.slug, sheet.pk])
    client.force_login(member)
    with time_machine.travel("2026-03-01 20:15 +0000", tick=False):
        assert client.post(url, {"do_not_count": "1"}).status_code == 302
        marked_at = timezone.now()
    client.post(url, {"do_not_count": "1"})  # no change: nothing more to record
    client.force_login(owner)
    client.post(url, {"do_not_count": "0"})
    excluded, included = DealChange.objects.filter(sheet=sheet, deal__isnull=True).order_by("at", "pk")
    assert (excluded.action, excluded.by, excluded.at) == ("excluded", member, marked_at)
    assert (included.action, included.by) == ("included", owner)
    history = client.get(sheet.get_absolute_url()).content.decode().split('data-testid="history"')[1]
    assert "Mona Member marked this sheet “do not count”" in history
    assert "Olivia Owner counted this sheet in the group&#x27;s history again" in history
    assert 'datetime="2026-03-01T20:15:00+00:00"' in history


def test_linking_a_guest_is_in_the_history_of_every_sheet_they_played(client, group, owner, member):
    from scoring.models import DealChange

    sheet = make_sheet(group, owner, "classic", [owner, "Karim"])
    other = make_sheet(group, owner, "classic", ["karim", member])
    untouched = make_sheet(group, owner, "classic", [owner, member])
    karim = MembershipFactory(group=group, user__display_name="Karim K").user
    client.force_login(owner)
    client.post(reverse("scoring:link_guest", args=[group.slug]), {"guest_name": "Karim", "user": karim.pk})
    for linked, guest in ((sheet, "Karim"), (other, "karim")):
        change = DealChange.objects.get(sheet=linked, action="linked")
        assert change.by == owner
        assert change.details == {"guest": guest, "user_id": karim.pk, "member": "Karim K"}
        page = client.get(linked.get_absolute_url()).content.decode()
        assert f"Olivia Owner linked the guest {guest} to the member Karim K" in page
    assert not DealChange.objects.filter(sheet=untouched).exists()


def test_the_sheet_list_shows_the_latest_played_first_whatever_order_they_were_entered(
    client, group, owner, member
):
    later = make_sheet(
        group, owner, "classic", [owner, member], title="Played later", played_on=dt.date(2026, 11, 20)
    )
    earlier = make_sheet(
        group, owner, "classic", [owner, member], title="Played earlier", played_on=dt.date(2026, 11, 2)
    )
    assert later.created_at < earlier.created_at
    client.force_login(member)
    page = client.get(reverse("scoring:sheet_list", args=[group.slug])).content.decode()
    assert page.index("Played later") < page.index("Played earlier")
