"""The score sheet's rule-set picker and the player count of a new sheet's form."""

from __future__ import annotations

import re

from django.template.loader import render_to_string
from django.urls import reverse

from games import rules
from games.engine.variants import VARIANTS


def _lines(page: str) -> list[str]:
    found = re.findall(r'<span class="small" data-testid="rule-set-line">(.*?)</span></a>', page, re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", line)).strip() for line in found]


def test_the_picker_says_in_one_line_per_rule_set_what_the_rules_page_list_says(client, group, member):
    client.force_login(member)
    page = client.get(reverse("scoring:sheet_new", args=[group.slug])).content.decode()
    index = client.get(reverse("games:rules_index")).content.decode()
    lines = _lines(page)
    assert len(lines) == len(VARIANTS)
    assert "Hand: 2–5 players, 7 deals, the lowest total wins" in lines
    assert any(line.startswith("Hand and Foot: two teams of two,") for line in lines)
    for slug in VARIANTS:
        book = rules.rulebook(slug)
        one_line = render_to_string(
            "games/_rule_set_line.html",
            {
                "family": book["family"],
                "teams": getattr(book["variant"], "teams", False),
                "players": book["players"],
                "deals": book["deals"],
            },
        ).strip()
        assert one_line in page
        assert one_line in index


def test_a_rule_set_for_exactly_four_players_says_4_not_4_4(client, group, member):
    client.force_login(member)
    page = client.get(
        reverse("scoring:sheet_create", args=[group.slug, "hand-and-foot-teams"])
    ).content.decode()
    assert "Players in playing order (4)" in page
    assert "4–4" not in page
    ranged = client.get(reverse("scoring:sheet_create", args=[group.slug, "classic"])).content.decode()
    assert "Players in playing order (2–5)" in ranged


def test_the_picker_and_the_form_in_arabic_have_no_4_4_either(client, group, member):
    member.language = "ar"
    member.save(update_fields=["language"])
    client.force_login(member)
    for url in (
        reverse("scoring:sheet_new", args=[group.slug]),
        reverse("scoring:sheet_create", args=[group.slug, "hand-and-foot-teams"]),
    ):
        page = client.get(url).content.decode()
        assert '<html lang="ar" dir="rtl">' in page
        assert "4–4" not in page
    form = client.get(
        reverse("scoring:sheet_create", args=[group.slug, "hand-and-foot-teams"])
    ).content.decode()
    assert "اللاعبون بترتيب اللعب (\u20684\u2069)" in form  # the count isolated (FSI, PDI)
