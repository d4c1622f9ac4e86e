"""A player leaving a game, or a game ended early, is told to the others as data (the kind and the
person's name) and worded when it is read: each reader sees it in their own language, whoever made it
and in whatever language. Rows stored as a finished sentence, before the event was kept as data, still
show that sentence."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import GameStatus
from handsite import notifications as site_notifications
from handsite.models import Notification, NotificationPreference

HTMX = {"HTTP_HX_REQUEST": "true"}


def _speaks(user, language):
    user.language = language
    user.save(update_fields=["language"])


def _seat_url(game):
    return reverse("games:seat", args=[game.group.slug, game.pk])


def _arabic_leaving(text: str) -> str:
    """The Arabic sentence of a player leaving found in ``text`` (names come bidi-isolated), or ""."""
    start = text.find("غادر ")
    end = text.find("يلعب لاعب آلي مكانه", start)
    return text[start:end] if start >= 0 and end > start else ""


def _inbox(client, user) -> str:
    client.force_login(user)
    return client.get(reverse("notification_list")).content.decode()


@pytest.fixture
def left_by_owner(client, duel, owner, member):
    """The owner leaves the duel: the member is told."""
    client.force_login(owner)
    client.post(_seat_url(duel), {"do": "leave"}, **HTMX)
    return Notification.objects.get(user=member, kind="seat_left")


def test_the_news_of_a_player_leaving_is_kept_as_data_not_as_a_sentence(left_by_owner, owner, duel):
    assert left_by_owner.subject == left_by_owner.body == ""
    assert left_by_owner.data == {"game": duel.pk, "seat": left_by_owner.data["seat"], "name": owner.name}


def test_an_arabic_reader_sees_an_english_players_leaving_in_arabic(client, duel, owner, member):
    _speaks(owner, "en")
    _speaks(member, "ar")
    client.force_login(owner)
    client.post(_seat_url(duel), {"do": "leave"}, **HTMX)
    page = _inbox(client, member)
    assert owner.name in _arabic_leaving(page)
    assert "a bot plays their seat" not in page


def test_an_english_reader_sees_an_arabic_admins_ending_in_english(client, duel, owner, member):
    _speaks(owner, "ar")
    _speaks(member, "en")
    client.force_login(owner)
    client.post(_seat_url(duel), {"do": "end"}, **HTMX)
    duel.refresh_from_db()
    assert duel.status == GameStatus.ABANDONED
    page = _inbox(client, member)
    assert f"{owner.name} ended Hand #{duel.pk} early; it will not be scored." in page
    assert "لن تُحسب" not in page


def test_the_e_mail_of_a_player_leaving_is_in_the_readers_language(left_by_owner, owner, member, duel):
    _speaks(member, "ar")
    pref = NotificationPreference.objects.get_or_create(user=member)[0]
    email = site_notifications.render_email([left_by_owner], pref, timezone.now())
    assert owner.name in _arabic_leaving(email.subject)
    assert owner.name in _arabic_leaving(email.text)
    _speaks(member, "en")
    left_by_owner.user.refresh_from_db()
    email = site_notifications.render_email([left_by_owner], pref, timezone.now())
    assert f"{owner.name} left Hand #{duel.pk}; a bot plays their seat." in email.subject


def test_a_row_stored_as_a_sentence_before_still_shows_its_sentence(client, duel, member):
    _speaks(member, "ar")
    sentence = f"Karim left Hand #{duel.pk}; a bot plays their seat."
    Notification.objects.create(
        user=member,
        kind="seat_left",
        key=f"game:{duel.pk}:1:{duel.version}:seat_left",
        topic=f"game:{duel.pk}",
        subject=sentence,
        body=sentence,
        link=duel.get_absolute_url(),
        data={"game": duel.pk, "seat": 1},
        send_after=timezone.now() + dt.timedelta(days=1),
    )
    assert sentence in _inbox(client, member)
