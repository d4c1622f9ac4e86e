"""The game's page before the deal (games/_waiting.html): each invitation's reply deadline in the
reader's zone, the creator's invitation of another member to a free seat, and the "share on WhatsApp"
link (a plain wa.me URL, URL-encoded)."""

import datetime as dt
from urllib.parse import parse_qs, urlsplit

import pytest
import time_machine
from django.urls import reverse

from games import notifications as game_notifications
from games.models import Seat
from games.services import seating
from handsite.models import Notification
from tests.notifications.conftest import prefs  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db
T0 = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _at_t0():
    with time_machine.travel(T0, tick=False):
        yield


def share_links(page: str) -> list[str]:
    return [part.split('"')[0] for part in page.split('href="')[1:] if part.startswith("https://wa.me/")]


def test_the_invited_player_sees_the_reply_deadline_in_their_zone(
    client,
    owner,
    member,
    start_game,
    prefs,  # noqa: F811
):
    prefs(member, time_zone="Asia/Amman")
    game = start_game([owner, member])
    client.force_login(member)
    client.get(game.get_absolute_url())  # the first page sets the zone's cookie from the settings
    page = client.get(game.get_absolute_url()).text
    assert "Answer by Wednesday 12:00, Amman time (in 2\xa0days)" in page
    assert '<bdi dir="auto">Mona Member</bdi>' in page


def test_the_waiting_game_can_be_shared_on_whatsapp(client, owner, member, group, start_game, settings):
    group.name = "Hand & Co"
    group.save(update_fields=["name"])
    game = start_game([owner, member])
    client.force_login(owner)
    (share,) = share_links(client.get(game.get_absolute_url()).text)
    assert share.startswith("https://wa.me/?text=")
    assert " " not in share
    text = parse_qs(urlsplit(share).query)["text"][0]
    assert text == (
        "A game of Hand is waiting for players in “Hand & Co”. Take your seat:\n"
        f"{settings.SITE_URL.rstrip('/')}{game.get_absolute_url()}"
    )
    assert "“Hand & Co”" in text


def test_no_share_link_once_the_game_is_dealt(client, duel, owner):
    client.force_login(owner)
    assert share_links(client.get(duel.get_absolute_url()).text) == []


def test_the_creator_invites_another_member_to_a_free_seat(client, owner, member, admin, start_game):
    game = start_game([owner, member])
    seating.decline_seat(game_id=game.pk, user=member)
    client.force_login(owner)
    page = client.get(game.get_absolute_url()).text
    assert 'name="member"' in page
    assert f'<option value="{admin.pk}">Adam Admin</option>' in page
    response = client.post(
        reverse("games:seat", args=[game.group.slug, game.pk]),
        {"do": "invite", "number": "1", "member": str(admin.pk)},
    )
    assert response.status_code == 302
    seat = Seat.objects.get(game=game, number=1)
    assert seat.user == admin
    assert seat.is_invited
    assert seat.reply_by is not None
    assert Notification.objects.filter(user=admin, kind=game_notifications.INVITED).count() == 1


@pytest.mark.parametrize("who", ["member", "admin"])
def test_only_the_creator_sees_the_invitation_form_and_a_forged_one_changes_nothing(
    client, cast, owner, member, start_game, who
):
    game = start_game([owner, member])
    seating.decline_seat(game_id=game.pk, user=member)
    client.force_login(cast[who] if who == "member" else cast["member"])
    page = client.get(game.get_absolute_url()).text
    assert 'name="member"' not in page
    response = client.post(
        reverse("games:seat", args=[game.group.slug, game.pk]),
        {"do": "invite", "number": "1", "member": str(cast["admin"].pk)},
    )
    assert response.status_code == 302
    assert Seat.objects.get(game=game, number=1).user is None


def test_inviting_an_outsider_or_to_a_taken_seat_is_refused_with_a_message(
    client, owner, member, outsider, start_game
):
    game = start_game([owner, member, seating.BOT])
    seating.decline_seat(game_id=game.pk, user=member)
    client.force_login(owner)
    seat_url = reverse("games:seat", args=[game.group.slug, game.pk])
    for number, person in (("1", outsider.pk), ("2", member.pk), ("1", 10**20), ("1", owner.pk)):
        response = client.post(
            seat_url, {"do": "invite", "number": number, "member": str(person)}, follow=True
        )
        assert response.status_code == 200
    assert Seat.objects.get(game=game, number=1).user is None
    assert Seat.objects.get(game=game, number=2).bot
