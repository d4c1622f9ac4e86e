"""The history pages on phones and desktops, light and dark, English and Arabic (right to left):
nothing overflows sideways; screenshots land in test-artifacts/ for a look."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.services.cards import result_card_token
from scoring.services.deals import add_deal
from tests.scoring.conftest import hand, make_sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _history(group, owner, member):
    done = make_sheet(group, owner, "classic", [owner, member, "Layla", "Omar"], title="Thursday")
    for deal in range(5):
        winner = deal % 4
        held = [None if seat == winner else 10 + 7 * seat for seat in range(4)]
        add_deal(done, by=owner, facts=hand(winner, [True] * 4, held))
    live = make_sheet(group, owner, "classic", [owner, member, "Layla"])
    add_deal(live, by=owner, facts=hand(1, [True] * 3, [25, None, 40]))
    return done, live


@pytest.mark.parametrize(
    ("width", "scheme", "language"),
    [
        (360, "light", "en"),
        (360, "dark", "ar"),
        (360, "dark", "en"),
        (360, "light", "ar"),
        (1280, "dark", "en"),
        (1280, "light", "ar"),
    ],
)
def test_the_history_pages_fit_in_every_width_scheme_and_direction(
    browser, live_server, screenshot, group, owner, member, width, scheme, language
):
    from django.test import Client

    done, live = _history(group, owner, member)
    owner.language = language  # the person's own language wins over the cookie
    owner.save(update_fields=["language"])
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": width, "height": 844}, color_scheme=scheme
    )
    client = Client()
    client.force_login(owner)
    context.add_cookies(
        [
            {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url},
            {"name": "django_language", "value": language, "url": live_server.url},
        ]
    )
    page = context.new_page()
    try:
        for name, url in (
            ("standings", f"/groups/{group.slug}/sheets/standings/"),
            ("sheets", f"/groups/{group.slug}/sheets/"),
            ("sheet", done.get_absolute_url()),
            ("deal", f"/groups/{group.slug}/sheets/{live.pk}/deals/new/"),
            ("player", f"/groups/{group.slug}/sheets/player/?key=user:{owner.pk}"),
            ("card", reverse("scoring:result_card", args=[result_card_token(sheet=done)])),
        ):
            page.goto(url)
            assert page.evaluate("document.documentElement.dir") == ("rtl" if language == "ar" else "ltr")
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            screenshot(page, f"history-{name}-{width}-{scheme}-{language}")
            assert overflow <= 0, f"{name} overflows by {overflow}px at {width}px"
            if name == "standings":  # the leaderboard fits: no sideways scrolling inside its box either
                table = page.locator(".table-scroll").evaluate("box => box.scrollWidth - box.clientWidth")
                assert table <= 0, f"the leaderboard scrolls by {table}px at {width}px"
    finally:
        context.close()
