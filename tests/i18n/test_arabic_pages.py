"""The main pages, rendered for a person whose language is Arabic, show no English word outside names
and card notation; every e-mail they get is Arabic, whoever triggered it."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from games import engine
from games.services import playing
from handsite.services import delivery
from tests.i18n.arabic_site import build, english_words, visible_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def site():
    return build()


def test_every_main_page_is_arabic_with_no_english_word(client, site):
    client.force_login(site.reader)
    problems = {}
    for page, url in site.urls().items():
        response = client.get(url)
        assert response.status_code == 200, page
        html = response.content.decode()
        assert '<html lang="ar" dir="rtl">' in html, page
        words = english_words(html, site.names)
        if words:
            problems[page] = words
    assert not problems


def test_the_play_page_shows_the_melds_in_card_notation(client, site):
    client.force_login(site.reader)
    html = client.get(site.urls()["play"]).content.decode()
    heard = visible_text(html)
    assert "بنت بستوني" in heard  # a card's name for screen readers, as players say it
    assert "queen" not in heard
    seen = visible_text(re.sub(r' role="img" aria-label="[^"]*"', "", html))  # the faces alone
    assert "Q♠ K♠ A♠" in seen
    assert "10♥ 10♦ 10♣" in seen
    assert "كومة السحب" in seen  # the glossary's word for the stock


def test_the_htmx_fragments_of_the_play_page_are_arabic_too(client, site):
    client.force_login(site.reader)
    html = client.get(site.urls()["play"], HTTP_HX_REQUEST="true").content.decode()
    assert not english_words(html, site.names)


def _turn_passes_to_the_reader(site):
    """Moves are made (by the engine's bot choice) until Omar's move passes the turn to Amira."""
    while True:
        site.game.refresh_from_db()
        state = engine.from_json(site.game.state)
        seat = state.current
        mover = next(s.user for s in site.game.seats.all() if s.number == seat)
        playing.play(
            game_id=site.game.pk, user=mover, version=site.game.version, action=engine.bot_action(state, seat)
        )
        site.game.refresh_from_db()
        now = engine.from_json(site.game.state).current
        if mover == site.other and now != seat:
            return


def test_an_arabic_reader_gets_arabic_e_mails_when_an_english_player_moved(
    site, django_capture_on_commit_callbacks
):
    site.other.language = "en"
    site.other.save()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _turn_passes_to_the_reader(site)
    delivery.deliver_pending()  # turn e-mails leave with the minute's sweep
    sent = [m for m in mail.outbox if m.to == [site.reader.email]]
    assert sent, "no e-mail for the reader"
    message = sent[-1]
    html = message.alternatives[0][0]
    assert '<html lang="ar" dir="rtl">' in html
    for part in (message.subject, message.body, html):
        assert not english_words(part, site.names), part
    assert "دورك" in message.subject


@pytest.mark.parametrize(
    "url_name", ["account_login", "account_signup", "account_reset_password", "account_logout"]
)
def test_the_account_pages_a_visitor_sees_are_arabic(client, site, url_name):
    """allauth's pages in the site's layout: allauth's own Arabic plus the site's (nav, footer, links)."""
    if url_name == "account_logout":
        client.force_login(site.reader)
    client.cookies["django_language"] = "ar"
    response = client.get(reverse(url_name))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="ar" dir="rtl">' in html
    assert not english_words(html, site.names)


def test_an_invitation_from_an_arabic_reader_to_a_newcomer_is_arabic(
    client, site, mailoutbox, django_capture_on_commit_callbacks
):
    client.force_login(site.reader)
    url = reverse("group_invite_email", args=[site.group.slug])
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"email": "newcomer@example.com"})
    message = next(m for m in mailoutbox if m.to == ["newcomer@example.com"])
    for part in (message.subject, message.body):
        assert not english_words(part, site.names), part
    assert "هاند" in message.body
