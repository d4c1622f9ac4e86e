"""The one-click accept and decline links of a game invitation (games.invitation_views): signed,
expiring, safe when followed twice; a stale, tampered or someone else's link gets a clear page and
changes nothing."""

import datetime as dt

import pytest
import time_machine
from django.core import signing
from django.urls import reverse

from games import notifications as game_notifications
from games.models import Game, GameStatus, Seat
from games.services import invitation_links, seating
from handsite.models import Notification
from tests.factories import MembershipFactory
from tests.games.invitations import invited_seat, link

pytestmark = pytest.mark.django_db
T0 = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _on_the_tests_clock():
    """Every click a little after T0 (the game's invitation is made at T0) unless a test travels on."""
    with time_machine.travel(T0 + dt.timedelta(minutes=1), tick=True):
        yield


@pytest.fixture
def game(owner, member, start_game):
    with time_machine.travel(T0, tick=False):
        return start_game([owner, member], move_hours=48)


def news_for(user):
    return list(Notification.objects.filter(user=user, kind=game_notifications.INVITATION_NEWS))


def test_following_the_accept_link_twice_seats_the_player_once(client, owner, member, game):
    accept = link(game, member, "accept")
    client.force_login(member)
    with time_machine.travel(T0 + dt.timedelta(hours=1), tick=False):
        first = client.get(accept)
    dealt = Game.objects.get(pk=game.pk)
    with time_machine.travel(T0 + dt.timedelta(hours=2), tick=False):
        second = client.get(accept)
    assert first.status_code == second.status_code == 302
    assert first.url == second.url == game.get_absolute_url()
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert (game.revision, game.state, game.started_at) == (dealt.revision, dealt.state, dealt.started_at)
    assert game.started_at == T0 + dt.timedelta(hours=1)  # dealt once, by the first click
    assert Seat.objects.filter(game=game, user=member).count() == 1
    assert invited_seat(game, member).accepted_at == T0 + dt.timedelta(hours=1)
    page = client.get(second.url).content.decode()
    assert "You already have your seat in this game." in page
    assert [row.data["event"] for row in news_for(owner)] == [game_notifications.STARTED]


def test_the_decline_link_frees_the_seat_and_tells_the_creator(client, owner, member, game):
    decline = link(game, member, "decline")
    client.force_login(member)
    with time_machine.travel(T0 + dt.timedelta(hours=1), tick=False):
        response = client.get(decline)
        again = client.get(decline)
    assert response.status_code == 200
    assert "You declined. The seat is free again; the creator has been told." in response.content.decode()
    assert again.status_code == 410  # followed twice: it says so, and changes nothing more
    assert "This invitation is closed" in again.content.decode()
    seat = Seat.objects.get(game=game, number=1)
    assert seat.user is None
    assert seat.reply_by is None
    assert not seat.is_filled
    assert Game.objects.get(pk=game.pk).status == GameStatus.WAITING
    (news,) = news_for(owner)
    assert news.data == {"game": game.pk, "event": "declined", "seat": 1, "name": "Mona Member", "free": 0}
    assert game_notifications.describe_news([news]) == [
        f"Mona Member declined your invitation to Thursday Hand: Hand #{game.pk}; seat 2 is free."
    ]


def test_accepting_after_declining_does_not_take_the_seat_back(client, member, game):
    accept, decline = link(game, member, "accept"), link(game, member, "decline")
    client.force_login(member)
    client.get(decline)
    response = client.get(accept)
    assert response.status_code == 410
    assert not Seat.objects.filter(game=game, user=member).exists()


def test_a_link_older_than_the_reply_time_is_expired(client, member, game, settings):
    accept = link(game, member, "accept")
    client.force_login(member)
    late = T0 + dt.timedelta(hours=settings.GAMES_INVITATION_REPLY_HOURS + 25)
    with time_machine.travel(late, tick=False):
        response = client.get(accept)
    assert response.status_code == 410
    assert "This invitation link has expired." in response.content.decode()
    assert not invited_seat(game, member).is_filled


def test_a_link_past_its_reply_deadline_no_longer_seats(client, member, game, settings):
    accept = link(game, member, "accept")
    client.force_login(member)
    with time_machine.travel(T0 + dt.timedelta(hours=settings.GAMES_INVITATION_REPLY_HOURS, seconds=1)):
        response = client.get(accept)
    assert response.status_code == 410
    assert "The time to answer this invitation ran out" in response.content.decode()
    assert not invited_seat(game, member).is_filled


@pytest.mark.parametrize(
    "tamper",
    [
        lambda token: token[:-2] + ("AA" if not token.endswith("AA") else "BB"),  # a changed signature
        lambda token: signing.dumps({"g": 1, "s": 1, "u": 1, "i": 1}, salt="another.salt"),
        lambda token: "not-a-token",
        lambda token: "x" * 5000,
    ],
)
def test_a_tampered_link_gets_a_clear_page_and_changes_nothing(client, member, game, tamper):
    token = invitation_links.invitation_token(invited_seat(game, member))
    client.force_login(member)
    response = client.get(reverse("games:invitation", args=[tamper(token), "accept"]))
    assert response.status_code == 400
    assert "This invitation link is broken." in response.content.decode()
    assert not invited_seat(game, member).is_filled


def test_a_link_for_another_seat_or_game_is_refused_by_its_signature(client, member, game):
    token = invitation_links.invitation_token(invited_seat(game, member))
    value, _sep, _rest = token.partition(":")
    forged = signing.dumps({"g": game.pk, "s": 0, "u": member.pk, "i": 1})  # signed without the salt
    client.force_login(member)
    for bad in (forged, value):
        assert client.get(reverse("games:invitation", args=[bad, "accept"])).status_code == 400
    assert not invited_seat(game, member).is_filled


def test_an_unknown_answer_is_refused(client, member, game):
    token = invitation_links.invitation_token(invited_seat(game, member))
    client.force_login(member)
    response = client.get(reverse("games:invitation", args=[token, "maybe"]))
    assert response.status_code == 404
    assert not invited_seat(game, member).is_filled


@pytest.mark.parametrize("who", ["outsider", "owner", "admin"])
def test_nobody_else_can_use_the_invited_players_link(client, cast, member, game, who):
    client.force_login(cast[who])
    for answer in ("accept", "decline"):
        response = client.get(link(game, member, answer))
        assert response.status_code == 403
        assert "This invitation was sent to someone else." in response.content.decode()
        assert "Thursday Hand" not in response.content.decode()  # nothing about the game
    seat = invited_seat(game, member)
    assert seat.user == member
    assert not seat.is_filled


def test_logged_out_the_link_asks_to_log_in_first_and_changes_nothing(client, member, game):
    accept = link(game, member, "accept")
    response = client.get(accept)
    assert response.status_code == 302
    assert response.url.startswith(reverse("account_login"))
    assert not invited_seat(game, member).is_filled


def test_a_member_who_left_the_group_gets_a_clear_page(client, member, game):
    accept = link(game, member, "accept")
    member.memberships.all().delete()
    client.force_login(member)
    response = client.get(accept)
    assert response.status_code == 404
    assert "This game is not open to you any more." in response.content.decode()


def test_the_link_of_an_earlier_invitation_to_the_same_seat_does_not_answer_a_new_one(
    client, owner, member, game
):
    old = link(game, member, "accept")
    seating.decline_seat(game_id=game.pk, user=member)
    with time_machine.travel(T0 + dt.timedelta(minutes=5), tick=False):
        seating.invite_to_seat(game_id=game.pk, actor=owner, number=1, invitee_id=member.pk)
    client.force_login(member)
    assert client.get(old).status_code == 410
    assert not invited_seat(game, member).is_filled
    assert client.get(link(game, member, "accept")).status_code == 302
    assert invited_seat(game, member).is_filled


def test_with_three_players_the_creator_hears_once_everybody_answered(
    client, owner, member, start_game, group
):
    third = MembershipFactory(group=group, user__display_name="Tariq").user
    game = start_game([owner, member, third])
    client.force_login(member)
    client.get(link(game, member, "accept"))
    assert news_for(owner) == []  # Tariq has not answered yet
    client.force_login(third)
    client.get(link(game, third, "decline"))
    client.force_login(member)
    assert [row.data["event"] for row in news_for(owner)] == ["declined"]
    assert Game.objects.get(pk=game.pk).status == GameStatus.WAITING


def test_a_link_to_a_cancelled_game_says_so(client, owner, member, game):
    accept = link(game, member, "accept")
    seating.cancel_game(game_id=game.pk, actor=owner)
    client.force_login(member)
    response = client.get(accept)
    assert response.status_code == 410
    assert "This game was cancelled." in response.content.decode()
    assert not invited_seat(game, member).is_filled
