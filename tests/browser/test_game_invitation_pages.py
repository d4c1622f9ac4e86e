"""The invitation pages in a real browser, at 360 and 1280 px, in English and Arabic, light and dark:
the group's invite box (the link left to right, the WhatsApp share), the waiting game as its creator
(a free seat to invite another member to, an invitation with its reply deadline) and as the invited
player, the page of a declined or broken link, the Reminders page and the sign-up page (the browser's
zone proposed). Nothing wider than the screen; no CSP violation (conftest). Screenshots go to
test-artifacts/invites/."""

import pytest
from django.urls import reverse

from games.services import invitation_links, seating
from handsite.services import invitations, preferences
from tests.browser.conftest import ARTIFACTS
from tests.support import membership_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
COMBOS = [
    (width, lang, scheme) for width in (360, 1280) for lang in ("en", "ar") for scheme in ("light", "dark")
]


@pytest.fixture
def scene(owner, admin, member, group):
    group.description = "نلعب كل خميس — every Thursday"
    group.save(update_fields=["description"])
    invitations.regenerate_invite_link(actor_membership=membership_of(owner, group))
    game = seating.create_game(
        group=group,
        created_by=owner,
        variant="classic",
        options={},
        seats=[owner, member, admin],
        move_hours=48,
    )
    member_token = invitation_links.invitation_token(game.seats.get(user=member))
    seating.decline_seat(game_id=game.pk, user=member)
    return {"game": game, "declined": reverse("games:invitation", args=[member_token, "decline"])}


@pytest.mark.parametrize(("width", "lang", "scheme"), COMBOS)
def test_the_invitation_pages_fit_read_the_right_way_and_share_on_whatsapp(
    browser, live_server, log_in, cast, group, scene, width, lang, scheme
):
    for person in cast.values():
        person.language = lang
        person.save(update_fields=["language"])
    for person in (cast["owner"], cast["admin"], cast["member"]):
        preferences.set_time_zone(person, "Asia/Amman")
    folder = ARTIFACTS / "invites"
    folder.mkdir(parents=True, exist_ok=True)
    game = scene["game"]
    too_wide = {}
    contexts = []

    def open_as(person):
        context = browser.new_context(
            base_url=live_server.url,
            viewport={"width": width, "height": 800},
            color_scheme=scheme,
            locale="ar-JO" if lang == "ar" else "en-GB",
            timezone_id="Asia/Amman",
        )
        contexts.append(context)
        page = context.new_page()
        if person is not None:
            log_in(page, person)
        return page

    def shoot(page, name):
        assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr"), name
        overflow = page.evaluate(OVERFLOW)
        if overflow > 1:
            too_wide[name] = overflow
        page.screenshot(path=str(folder / f"{name}-{width}-{lang}-{scheme}.png"), full_page=True)

    try:
        creator = open_as(cast["owner"])
        creator.goto(group.get_absolute_url())
        assert creator.locator("#invite-url").get_attribute("dir") == "ltr"
        share = creator.locator("#invite a.share-whatsapp").get_attribute("href")
        assert share.startswith("https://wa.me/?text=")
        assert " " not in share
        shoot(creator, "group-invite")

        creator.goto(game.get_absolute_url())
        creator.goto(game.get_absolute_url())  # the zone's cookie is set by the first page
        assert creator.locator("select[name=member]").count() == 1  # the declined seat: invite another
        assert creator.locator(".reply-by").count() == 1  # the admin's invitation and its deadline
        assert (
            creator.locator("#seats a.share-whatsapp")
            .get_attribute("href")
            .startswith("https://wa.me/?text=")
        )
        shoot(creator, "waiting-creator")

        invited = open_as(cast["admin"])
        invited.goto(game.get_absolute_url())
        invited.goto(game.get_absolute_url())
        assert invited.locator("button[value=accept]").count() == 1
        shoot(invited, "waiting-invited")

        declined = open_as(cast["member"])
        declined.goto(scene["declined"])
        assert declined.locator("#invitation-answer").count() == 1
        shoot(declined, "link-declined")
        declined.goto(reverse("games:invitation", args=["broken-token", "accept"]))
        shoot(declined, "link-broken")
        declined.goto(reverse("notification_settings"))
        shoot(declined, "reminders")

        visitor = open_as(None)
        visitor.goto(reverse("account_signup"))
        assert visitor.locator("input[name=time_zone]").input_value() == "Asia/Amman"  # proposed
        shoot(visitor, "sign-up")
    finally:
        for context in contexts:
            context.close()
    assert not too_wide, f"wider than the screen (px): {too_wide}"
