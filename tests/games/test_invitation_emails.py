"""What a game invitation tells, and to whom (games.notifications): each invited player in-site and by
e-mail, in their own language and zone, with the accept and decline links and the reply deadline; the
creator when everybody answered or somebody declined, with the no-flood rules (held while they are on
the site, several answers in one e-mail). E-mails go through handsite's outbox (mail.outbox: Django's
test backend stands in for SMTP)."""

import datetime as dt
from urllib.parse import urlsplit

import pytest
import time_machine
from django.core import mail

from games import notifications as game_notifications
from games.models import Seat
from games.services import invitation_links, seating
from handsite.models import Notification
from handsite.services import delivery, preferences
from tests.factories import MembershipFactory
from tests.notifications.conftest import prefs  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db
T0 = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)  # a Monday; the reply deadline is Wednesday 09:00 UTC


@pytest.fixture(autouse=True)
def _local_cache(settings):
    """Presence is counted in the cache; time travels here, so a local cache on the travelled clock."""
    settings.CACHES = {
        **settings.CACHES,  # with REDIS_URL, the "auth" cache of sessions and users
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "inv"},
    }
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def tariq(group):
    return MembershipFactory(group=group, user__display_name="Tariq").user


def emails_to(user):
    return [message for message in mail.outbox if message.to == [user.email]]


def create(owner, seats, **kwargs):
    with time_machine.travel(T0, tick=False):
        return seating.create_game(
            group=owner.memberships.first().group,
            created_by=owner,
            variant="classic",
            options=None,
            seats=seats,
            move_hours=48,
            **kwargs,
        )


def deliver(at):
    with time_machine.travel(at, tick=False):
        return delivery.deliver_pending()


def test_each_invited_player_is_told_in_site_and_by_email_with_links_and_the_deadline(
    owner,
    member,
    tariq,
    prefs,  # noqa: F811
    client,
):
    prefs(member, time_zone="America/New_York")
    game = create(owner, [owner, member, seating.BOT, tariq])
    invitations = Notification.objects.filter(kind=game_notifications.INVITED)
    assert sorted(row.user_id for row in invitations) == sorted([member.pk, tariq.pk])
    assert not Notification.objects.filter(user=owner).exists()  # the creator invites nobody to themselves
    deliver(T0 + dt.timedelta(minutes=1))
    (email,) = emails_to(member)
    assert email.subject == "[Hand] Olivia Owner invites you to a game of Hand for 4 players, 2 days per move"
    assert "Please answer by Wednesday 04:00, New York time (in 2\xa0days)" in email.body
    assert "Tariq" in email.body
    assert "Thursday Hand" in email.body
    seat = Seat.objects.get(game=game, user=member)
    payload = invitation_links.invitation_token(seat).split(":")[0]  # the signature's time is the e-mail's
    accept = next(line for line in email.body.splitlines() if "/accept/" in line).strip()
    decline = next(line for line in email.body.splitlines() if "/decline/" in line).strip()
    assert urlsplit(accept).path.startswith(f"/invitations/{payload}:")
    assert urlsplit(accept).path.endswith("/accept/")
    assert urlsplit(decline).path == urlsplit(accept).path.replace("/accept/", "/decline/")
    assert f'href="{accept}"' in email.alternatives[0][0]
    client.force_login(member)
    with time_machine.travel(T0 + dt.timedelta(hours=1), tick=False):
        assert client.get(urlsplit(accept).path).status_code == 302
    seat.refresh_from_db()
    assert seat.is_filled


def test_the_email_is_in_the_recipients_language_and_zone_whoever_created_the_game(
    owner,
    member,
    prefs,  # noqa: F811
):
    member.language = "ar"
    member.save(update_fields=["language"])
    prefs(member, time_zone="Asia/Amman")
    create(owner, [owner, member])
    deliver(T0 + dt.timedelta(minutes=1))
    (email,) = emails_to(member)
    assert "هاند" in email.subject  # the rule set's name in Arabic
    assert "اقبل" in email.alternatives[0][0]
    assert "ارفض" in email.alternatives[0][0]
    assert "12:00" in email.body
    assert "عمّان" in email.body
    assert 'dir="rtl"' in email.alternatives[0][0]


def test_an_invitation_answered_before_its_email_goes_is_not_emailed(owner, member):
    game = create(owner, [owner, member])
    with time_machine.travel(T0, tick=False):
        seating.accept_seat(game_id=game.pk, user=member)
    deliver(T0 + dt.timedelta(minutes=1))
    assert [e.subject for e in emails_to(member) if "invites you" in e.subject] == []
    assert Notification.objects.get(user=member, kind=game_notifications.INVITED).state == "skipped"


def test_the_creator_is_told_in_site_and_by_email_when_everybody_accepted(owner, member, tariq, client):
    game = create(owner, [owner, member, tariq])
    with time_machine.travel(T0 + dt.timedelta(hours=1), tick=False):
        seating.accept_seat(game_id=game.pk, user=member)
        assert not Notification.objects.filter(user=owner).exists()  # Tariq has not answered yet
        seating.accept_seat(game_id=game.pk, user=tariq)
    (news,) = Notification.objects.filter(user=owner, kind=game_notifications.INVITATION_NEWS)
    deliver(T0 + dt.timedelta(hours=1, minutes=1))
    # One e-mail: the news alone, or (when the game dealt the owner the first turn) with the turn.
    (email,) = emails_to(owner)
    assert f"Everybody accepted: Thursday Hand: Hand #{game.pk} has started." in email.body
    client.force_login(owner)
    page = client.get("/notifications/").content.decode()
    assert f"Everybody accepted: Thursday Hand: Hand #{game.pk} has started." in page
    news.refresh_from_db()
    assert news.state == "sent"


def test_the_creators_news_waits_while_they_are_on_the_site_and_several_answers_make_one_email(
    owner, member, tariq, group
):
    first = create(owner, [owner, member])
    second = create(owner, [owner, tariq])
    with time_machine.travel(T0 + dt.timedelta(hours=1), tick=False):
        preferences.record_presence(owner.pk)  # the creator's page is open
        seating.decline_seat(game_id=first.pk, user=member)
        seating.decline_seat(game_id=second.pk, user=tariq)
    outcomes = deliver(T0 + dt.timedelta(hours=1, minutes=1))
    assert outcomes.get("waiting") == 2
    assert emails_to(owner) == []
    deliver(T0 + dt.timedelta(hours=1, minutes=12))  # gone for longer than the grace period
    (email,) = emails_to(owner)
    assert email.subject == "[Hand] 2 answers to your game invitations"
    assert "Mona Member declined your invitation" in email.body
    assert "Tariq declined your invitation" in email.body
    assert "give a free seat to a bot or invite another member" in email.body


def test_a_subject_with_html_characters_is_plain_text(owner, member):
    owner.display_name = "Amira & <Friends>"
    owner.save(update_fields=["display_name"])
    create(owner, [owner, member])
    deliver(T0 + dt.timedelta(minutes=1))
    (email,) = emails_to(member)
    assert email.subject.startswith("[Hand] Amira & <Friends> invites you")
    assert "Amira &amp; &lt;Friends&gt;" in email.alternatives[0][0]
