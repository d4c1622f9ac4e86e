"""The shareable result card: a finished sheet (or online game) has a public page behind a signed link,
with Open Graph tags for the chat's preview; nothing else of the group; any other link is 404."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from games.engine.match import MatchStatus
from scoring.models import Sheet
from scoring.services.cards import result_card, result_card_token
from scoring.services.deals import add_deal
from scoring.services.online import record_online_game
from tests.scoring.conftest import hand, make_sheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Gus"], title="Eid night")
    for winner in (0, 0, 1, 0, 2):
        held = [None if seat == winner else 10 for seat in range(3)]
        add_deal(sheet, by=owner, facts=hand(winner, [True] * 3, held))
    return sheet


def _card_url(sheet):
    return reverse("scoring:result_card", args=[result_card_token(sheet=sheet)])


def test_the_finished_sheet_offers_its_result_card_link(client, group, owner, finished):
    client.force_login(owner)
    page = client.get(finished.get_absolute_url()).content.decode()
    assert 'data-testid="result-card-link"' in page
    assert _card_url(finished) in page


def test_an_unfinished_sheet_has_no_result_card(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member])
    client.force_login(owner)
    assert 'data-testid="result-card-link"' not in client.get(sheet.get_absolute_url()).content.decode()
    assert client.get(_card_url(sheet)).status_code == 404


def test_anyone_with_the_link_sees_names_totals_and_the_winner_with_open_graph_tags(client, group, finished):
    response = client.get(_card_url(finished))  # not logged in: an outsider in the chat
    assert response.status_code == 200
    assert response["X-Robots-Tag"] == "noindex"
    page = response.content.decode()
    # Totals: Olivia -30 -30 +10 -30 +10 = -70; Mona 10 10 -30 10 10 = 10; Gus 10 10 10 10 -30 = 10.
    assert '<meta property="og:title" content="Olivia Owner won a game of Hand">' in page
    assert '<meta property="og:description" content="Olivia Owner -70 · Gus 10 · Mona Member 10">' in page
    assert 'property="og:url" content="http://testserver/results/' in page
    assert page.index("Olivia Owner</span>") < page.index("Gus</span>") < page.index("Mona Member</span>")
    assert "Eid night" in page
    assert "5 deals played." in page
    for private in (group.name, group.slug, "@", "user:", "guest:"):
        assert private not in page.split("<main")[-1].split("</main>")[0]


def test_a_forged_or_changed_link_is_not_found(client, group, owner, member, finished):
    other = make_sheet(group, owner, "classic", [owner, member])
    token = result_card_token(sheet=finished)
    forged = token.replace(token.split(":")[0], result_card_token(sheet=other).split(":")[0])
    for bad in (forged, token[:-2] + "xx", "nothing", "x" * 300, token + ":"):
        assert client.get(reverse("scoring:result_card", args=[bad])).status_code == 404


def test_a_finished_online_game_has_a_card_too(client, group, owner, member):
    record_online_game(
        group_id=group.pk,
        game_id=41,
        rule_set="classic",
        players=[
            {"seat": 0, "user_id": owner.pk, "name": owner.name},
            {"seat": 1, "user_id": member.pk, "name": member.name},
        ],
        status=MatchStatus(((0,), (1,)), (90, 40), 5, 5, True, ((1,),), None, 6, False, True),
        finished_at=timezone.now(),
    )
    page = client.get(reverse("scoring:result_card", args=[result_card_token(game_id=41)]))
    assert '<meta property="og:title" content="Mona Member won a game of Hand">' in page.content.decode()
    assert client.get(reverse("scoring:result_card", args=[result_card_token(game_id=42)])).status_code == 404


def test_the_card_has_a_picture_for_chat_previews(client, group, finished):
    page = client.get(_card_url(finished)).content.decode()
    image_url = page.split('<meta property="og:image" content="')[1].split('"')[0]
    assert image_url.startswith("http://testserver/results/")
    assert image_url.endswith("/card.png")
    response = client.get(image_url.removeprefix("http://testserver"))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    png = response.content
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert (width, height) == (1200, 630)
    assert client.get(image_url.removeprefix("http://testserver")).content == png  # drawn once, cached
    bad = reverse("scoring:result_card_image", args=["nothing"])
    assert client.get(bad).status_code == 404


def test_the_pictures_svg_says_what_the_page_says(client, group, finished):
    from django.template.loader import render_to_string

    card = result_card(result_card_token(sheet=finished))
    rows = [{"rank": r, "name": n, "total": t, "y": 0, "text_y": 0} for r, n, t in card.rows]
    svg = render_to_string(
        "scoring/result_card.svg",
        {"card": card, "variant_name": "Hand", "title": "Olivia Owner won a game of Hand", "rows": rows},
    )
    assert ">Olivia Owner won a game of Hand</text>" in svg
    assert [line.split(">")[1].split("<")[0] for line in svg.splitlines() if 'text-anchor="end"' in line] == [
        "-70",
        "10",
        "10",
    ]


def test_in_arabic_the_picture_reads_from_the_right_with_numbers_left_to_right(group, finished):
    from django.template.loader import render_to_string

    card = result_card(result_card_token(sheet=finished))
    rows = [{"rank": r, "name": n, "total": t, "y": 0, "text_y": 0} for r, n, t in card.rows]
    svg = render_to_string(
        "scoring/result_card.svg",
        {"card": card, "variant_name": "هاند", "title": "فاز", "rows": rows, "footer": "x", "rtl": True},
    )
    names = [line for line in svg.splitlines() if ">Gus</text>" in line]
    assert len(names) == 1
    assert 'x="1040"' in names[0]
    assert 'direction="rtl" text-anchor="end"' in names[0]
    totals = [line for line in svg.splitlines() if 'direction="ltr"' in line]
    assert [line.split(">")[1].split("<")[0] for line in totals] == ["-70", "10", "10"]


@pytest.mark.parametrize(
    "odd",
    [*(chr(code) for code in range(0x20)), "\x7f", "\u202e", "\u2066", "\u200f", "\u061c"],
    ids=lambda c: f"U+{ord(c):04X}",
)
def test_a_name_with_a_control_character_still_draws_the_picture(client, group, owner, odd):
    """Such a name (entered before the forms refused it) no longer breaks the PNG for good. PostgreSQL
    never stores a NUL in text, so no old row there can hold one."""
    if odd == "\x00" and connection.vendor == "postgresql":
        pytest.skip("PostgreSQL text cannot hold a NUL character")
    sheet = make_sheet(group, owner, "classic", [owner, f"Gu{odd}s", f"Zo{odd}e"], title=f"Eid{odd}night")
    for winner in (0, 0, 1, 0, 2):
        held = [None if seat == winner else 10 for seat in range(3)]
        add_deal(sheet, by=owner, facts=hand(winner, [True] * 3, held))
    token = result_card_token(sheet=sheet)
    response = client.get(reverse("scoring:result_card_image", args=[token]))
    assert response.status_code == 200
    assert response.content.startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("odd", "sentence"),
    [
        ("\x00", "Null characters are not allowed."),  # Django's own refusal
        ("\x1b", "A name cannot hold control characters"),
        ("\x7f", "A name cannot hold control characters"),
        ("\u202e", "A name cannot hold control characters"),
    ],
    ids=repr,
)
def test_the_new_sheet_form_refuses_a_guest_name_with_a_control_character(
    client, group, owner, odd, sentence
):
    client.force_login(owner)
    url = reverse("scoring:sheet_create", args=[group.slug, "classic"])
    response = client.post(url, {"member_0": str(owner.pk), "guest_1": f"Gu{odd}s", "first_dealer": "0"})
    assert response.status_code == 200
    assert sentence in response.content.decode()
    assert not Sheet.objects.exists()


def test_an_english_bot_fetching_an_arabic_creators_card_gets_it_in_arabic(
    client, group, owner, finished, monkeypatch
):
    owner.language = "ar"
    owner.save(update_fields=["language"])
    page = client.get(_card_url(finished), headers={"Accept-Language": "en"}).content.decode()
    title = page.split('<meta property="og:title" content="')[1].split('"')[0]
    description = page.split('<meta property="og:description" content="')[1].split('"')[0]
    assert "فاز بلعبة" in title
    assert "won a game" not in page
    assert "Gus" in description
    assert '<html lang="ar" dir="rtl">' in page
    drawn = []
    monkeypatch.setattr("scoring.views.cards.charts.svg_to_png", lambda svg: drawn.append(svg) or b"png")
    image_url = page.split('<meta property="og:image" content="')[1].split('"')[0]
    response = client.get(image_url.removeprefix("http://testserver"), headers={"Accept-Language": "en"})
    assert response.status_code == 200
    assert "فاز بلعبة" in drawn[0]
    assert 'direction="rtl"' in drawn[0]
    assert "won a game" not in drawn[0]


def test_a_card_whose_creator_chose_no_language_follows_the_reader(client, group, finished):
    page = client.get(_card_url(finished), headers={"Accept-Language": "en"}).content.decode()
    assert "won a game" in page.split('<meta property="og:title" content="')[1].split('"')[0]
