"""Each person's language: proposed from the browser, saved on them, used for every page they see and
every e-mail they receive, whoever's action sent it."""

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import translation

from handsite.i18n import language_for_address, language_of
from handsite.models import User
from handsite.services import delivery
from tests.factories import PASSWORD, UserFactory
from tests.notifications.conftest import game as game
from tests.notifications.conftest import make_game as make_game
from tests.notifications.conftest import play_one_turn, player_to_move

pytestmark = pytest.mark.django_db

ARABIC_PAGE = '<html lang="ar" dir="rtl">'
ENGLISH_PAGE = '<html lang="en" dir="ltr">'


def test_the_sign_up_form_proposes_the_language_the_browser_asks_for(client):
    page = client.get(reverse("account_signup"), HTTP_ACCEPT_LANGUAGE="ar-JO,ar;q=0.9,en;q=0.5")
    assert page.context["form"]["language"].initial == "ar"
    page = client.get(reverse("account_signup"), HTTP_ACCEPT_LANGUAGE="fr-FR,en;q=0.5")
    assert page.context["form"]["language"].initial == "en"


def test_a_new_person_keeps_the_language_they_signed_up_with(client):
    response = client.post(
        reverse("account_signup"),
        {
            "email": "huda@example.com",
            "display_name": "Huda",
            "language": "ar",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 302
    assert User.objects.get(email="huda@example.com").language == "ar"
    # Every page they see from now on is Arabic, whatever the browser says.
    assert ARABIC_PAGE in client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").text


def test_a_person_without_a_language_gets_the_browsers_when_they_log_in(client, member):
    assert member.language == ""
    client.post(
        reverse("account_login"), {"login": member.email, "password": PASSWORD}, HTTP_ACCEPT_LANGUAGE="ar"
    )
    member.refresh_from_db()
    assert member.language == "ar"
    assert ARABIC_PAGE in client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").text


def test_a_session_from_before_languages_gets_the_browsers_on_its_next_visit(client, member):
    client.force_login(member)
    type(member).objects.filter(pk=member.pk).update(language="")
    assert ARABIC_PAGE in client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="ar").text
    member.refresh_from_db()
    assert member.language == "ar"


def test_the_persons_language_wins_over_the_browser_and_the_cookie(client, member):
    member.language = "en"
    member.save()
    client.force_login(member)
    client.cookies["django_language"] = "ar"
    assert ENGLISH_PAGE in client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="ar").text


def test_the_profile_changes_the_language_of_the_next_pages(client, member):
    member.language = "en"
    member.save()
    client.force_login(member)
    assert 'name="language"' in client.get(reverse("profile")).text
    response = client.post(reverse("profile"), {"display_name": "Mona", "language": "ar"})
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "ar"
    member.refresh_from_db()
    assert member.language == "ar"
    assert ARABIC_PAGE in client.get(reverse("profile")).text


def test_the_profile_refuses_a_language_the_site_does_not_have(client, member):
    member.language = "en"
    member.save()
    client.force_login(member)
    response = client.post(reverse("profile"), {"display_name": "Mona", "language": "fr"})
    assert response.status_code == 200
    assert response.context["form"].errors["language"]
    member.refresh_from_db()
    assert member.language == "en"


def test_the_footer_switch_saves_a_logged_in_persons_language(client, member):
    member.language = "en"
    member.save()
    client.force_login(member)
    client.post(reverse("set_language"), {"language": "ar", "next": "/"})
    member.refresh_from_db()
    assert member.language == "ar"


def test_the_footer_switch_still_works_for_visitors(client):
    client.post(reverse("set_language"), {"language": "ar", "next": "/"})
    assert ARABIC_PAGE in client.get(reverse("account_login")).text


def test_language_of_falls_back_to_the_sites_language(settings):
    assert language_of(User(language="ar")) == "ar"
    assert language_of(User(language="")) == settings.LANGUAGE_CODE
    assert language_of(User(language="xx")) == settings.LANGUAGE_CODE
    assert language_of(None) == settings.LANGUAGE_CODE


def test_an_invitation_is_written_in_the_invited_persons_language_else_the_inviters():
    inviter = UserFactory(language="ar")
    english = UserFactory(language="en")
    assert language_for_address(english.email.upper(), inviter) == "en"
    assert language_for_address("nobody@example.com", inviter) == "ar"


def test_an_arabic_reader_gets_the_turn_email_in_arabic_when_an_english_player_moved(
    game, django_capture_on_commit_callbacks
):
    mail.outbox.clear()
    reader = next(seat.user for seat in game.seats.all() if seat.number != game.turn_seat)
    reader.language = "ar"
    reader.save()
    mover = player_to_move(game)
    mover.language = "en"
    mover.save()
    with django_capture_on_commit_callbacks(execute=True):
        assert play_one_turn(game) == mover
    assert player_to_move(game) == reader
    delivery.deliver_pending()  # turn e-mails leave with the minute's sweep
    message = next(m for m in mail.outbox if m.to == [reader.email])
    html = message.alternatives[0][0]
    assert '<html lang="ar" dir="rtl">' in html


def test_the_language_cookie_follows_the_persons_language(client, member):
    member.language = "ar"
    member.save()
    client.force_login(member)
    response = client.get(reverse("home"))
    assert response.cookies["django_language"].value == "ar"
    # Pages that answer without reading the session (the play page's poll) use the cookie.
    assert client.cookies["django_language"].value == "ar"


def test_a_request_in_arabic_leaves_the_thread_in_the_sites_language(client, member, settings):
    member.language = "ar"
    member.save()
    client.force_login(member)
    assert ARABIC_PAGE in client.get(reverse("home")).text
    assert translation.get_language() == settings.LANGUAGE_CODE


def test_a_time_zone_is_named_in_the_readers_language():
    import zoneinfo

    from handsite.timefmt import zone_label

    amman = zoneinfo.ZoneInfo("Asia/Amman")
    with translation.override("ar"):
        assert zone_label(amman) == "عمّان"
    with translation.override("en"):
        assert zone_label(amman) == "Amman"
