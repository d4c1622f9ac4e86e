"""Every response carries a strict Content-Security-Policy (Django's own SECURE_CSP) and a
Permissions-Policy; pages have no inline script or style that lacks the request's nonce."""

import json
import re

import pytest
from django.urls import reverse

from games.services import seating

pytestmark = pytest.mark.django_db


def _directives(response) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}


@pytest.fixture
def pages(client, group, owner, member):
    game = seating.create_game(
        group=group, created_by=owner, variant="classic", options={}, seats=[owner, member], seed=3
    )
    seating.accept_seat(game_id=game.pk, user=member)
    client.force_login(owner)
    return [
        reverse("home"),
        reverse("group_detail", args=[group.slug]),
        reverse("games:play", args=[group.slug, game.pk]),
        reverse("scoring:sheet_list", args=[group.slug]),
        reverse("profile"),
    ]


def test_every_page_has_a_strict_csp_and_a_permissions_policy(client, pages):
    for url in [*pages, reverse("account_login"), "/no-such-page/"]:
        response = client.get(url)
        directives = _directives(response)
        assert directives["default-src"] == ["'self'"], url
        assert directives["frame-ancestors"] == ["'none'"]
        assert directives["form-action"] == ["'self'"]
        for kind in ("script-src", "style-src"):
            assert "'unsafe-inline'" not in directives[kind]
            assert "'unsafe-eval'" not in directives[kind]
        permissions = response["Permissions-Policy"]
        for feature in ("camera=()", "microphone=()", "geolocation=()"):
            assert feature in permissions


def test_logged_out_too(client):
    client.logout()
    response = client.get(reverse("account_login"))
    assert "default-src 'self'" in response["Content-Security-Policy"]


def test_no_page_has_an_inline_script_or_style_without_the_nonce(client, pages):
    for url in pages:
        response = client.get(url)
        html = response.content.decode()
        nonce = re.search(r"'nonce-([^']+)'", response["Content-Security-Policy"])
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag or (nonce and f'nonce="{nonce.group(1)}"' in tag), (url, tag)
        for tag in re.findall(r"<style\b[^>]*>", html):
            assert nonce, (url, tag)
            assert f'nonce="{nonce.group(1)}"' in tag, (url, tag)
        assert not re.search(r"<[^>]+\sstyle=", html), url
        assert not re.search(r"<[^>]+\son[a-z]+=", html), url  # no inline event handlers
        assert "[document.visibilityState" not in html  # htmx trigger filters need eval


def test_htmx_runs_without_eval_and_without_its_inline_indicator_style(client, pages):
    html = client.get(pages[0]).content.decode()
    assert '"includeIndicatorStyles": false' in html
    assert '"allowEval": false' in html


def test_htmx_never_copies_a_style_attribute_when_it_settles_a_swap(client, pages):
    """htmx settles "class", "style", "width" and "height" by default: an element that got a style
    attribute in the browser (a screenshot tool hiding the caret, a password manager, an extension)
    would have it copied with setAttribute onto its swapped twin, which the CSP blocks. The site sets
    no style attribute, so htmx settles none."""
    html = client.get(pages[0]).content.decode()
    config = re.search(r'<meta name="htmx-config" content=\'([^\']+)\'>', html)
    assert config
    settled = json.loads(config.group(1))["attributesToSettle"]
    assert "style" not in settled
    assert "class" in settled
