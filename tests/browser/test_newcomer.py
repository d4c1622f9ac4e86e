"""A newcomer's first ten minutes, in browsers: from the welcome page through sign-up, a new group
whose invite link is there at once, a friend joining by it, an e-mail invitation said 'sent' in place
(and taken back), a game started, accepted, and a first move made — every step reached by a link or a
button on the page before (no address typed but the shared link). Then the pages this changed, at
360 and 1280 px, English and Arabic, light and dark (screenshots in test-artifacts/)."""

import re

import pytest

from games import engine
from games.models import Game, GameStatus
from handsite.models import Membership, PlayerGroup
from tests.factories import MembershipFactory, PlayerGroupFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-browser-password-42"
CORNER = {"x": 6, "y": 6}


def _sign_up(page, email, name):
    page.fill("input[name=email]", email)
    page.fill("input[name=display_name]", name)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.get_by_role("button", name="Sign up").click()


def test_from_the_welcome_page_to_a_first_move_with_no_dead_end(new_phone, screenshot):
    from playwright.sync_api import expect

    host = new_phone(width=360)
    host.goto("/")
    expect(host.get_by_text("Hand is a rummy game")).to_be_visible()
    host.get_by_role("link", name="The rules of every rule set").click()
    expect(host.get_by_role("heading", name="Rules")).to_be_visible()
    host.get_by_role("link", name="Jordanian Hand").click()
    expect(host.get_by_role("heading", name=re.compile("Rules of"))).to_be_visible()
    host.go_back()
    host.go_back()

    host.get_by_role("link", name="Sign up").first.click()
    _sign_up(host, "hala@example.com", "Hala")
    expect(host.get_by_role("heading", name="My groups")).to_be_visible()
    host.get_by_role("link", name="New group").last.click()
    expect(host.locator("input[name=invite_link]")).to_be_checked()
    host.fill("input[name=name]", "Friday Hand")
    host.get_by_role("button", name="Create group").click()
    expect(host.get_by_text("Invite your friends with the link below.")).to_be_visible()
    link = host.input_value("#invite-url")  # the link the message promises is there
    assert re.search(r"/join/[\w-]{32,}/$", link)

    # An e-mail invitation says "sent" where it was sent, and can be taken back.
    host.fill("#invite-email", "cousin@example.com")
    host.get_by_role("button", name="Send").click()
    expect(host.get_by_text("Invitation sent to cousin@example.com.")).to_be_visible()
    expect(host.locator(".pending-invitations")).to_contain_text("cousin@example.com")
    screenshot(host, "newcomer-group-invited-360")
    host.get_by_role("button", name="Take back").click()
    expect(host.get_by_text("The invitation to cousin@example.com is taken back.")).to_be_visible()
    expect(host.locator(".pending-invitations")).to_have_count(0)

    friend = new_phone(width=360)
    friend.goto(link)
    friend.get_by_role("link", name="Sign up to join").click()
    _sign_up(friend, "fadi@example.com", "Fadi")
    expect(friend.get_by_role("heading", name="Friday Hand")).to_be_visible()
    assert Membership.objects.filter(user__email="fadi@example.com", group__name="Friday Hand").exists()

    host.reload()
    host.get_by_role("link", name="Start a game").click()
    fadi = Membership.objects.get(user__email="fadi@example.com").user
    host.select_option("select[name=seat_1]", str(fadi.pk))
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_text("The game deals when every seat is filled.")).to_be_visible()

    friend.goto("/")
    friend.locator("#my-games a").first.click()
    friend.get_by_role("button", name="Accept").click()
    expect(friend.locator("#hand")).to_be_visible()
    expect(host.locator("#hand")).to_be_visible(timeout=10_000)

    game = Game.objects.get()
    assert game.status == GameStatus.ACTIVE
    state = engine.from_json(game.state)
    mover = {0: host, 1: friend}[state.current]
    mover.reload()
    card = state.deal.hands[state.current][0]
    mover.locator(f"label[for=pick-{card.id}]").click(position=CORNER)
    mover.get_by_role("button", name="Discard the selected card").click()
    expect(mover.locator("#turn")).to_contain_text("to play.")
    assert Game.objects.get().moves.count() >= 1
    screenshot(mover, "newcomer-first-move-360")


PAGES = {
    "welcome": None,
    "home": "/",
    "new-group": "/groups/new/",
    "group": "/groups/friday-hand/",
    "rules": "/rules/",
}


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("width", [360, 1280])
def test_the_newcomer_pages_fit_phones_and_desktops(open_as, new_phone, screenshot, language, dark, width):
    from playwright.sync_api import expect

    group = PlayerGroupFactory(name="Friday Hand", slug="friday-hand")
    hala = MembershipFactory(group=group, role="owner", user__display_name="Hala").user
    from handsite.services import invitations

    invitations.regenerate_invite_link(actor_membership=hala.memberships.get())
    invitations.invite_by_email(actor_membership=hala.memberships.get(), email="cousin@example.com")
    suffix = f"{width}-{language}-{'dark' if dark else 'light'}"
    for name, url in PAGES.items():
        if url is None:
            page = new_phone(width=width)
            page.context.set_extra_http_headers({"Accept-Language": language})
            page.emulate_media(color_scheme="dark" if dark else "light")
            page.set_viewport_size({"width": width, "height": 800})
            page.goto("/")
        else:
            page = open_as(hala, url, width, language=language, dark=dark)
        expect(page.locator("main")).to_be_visible()
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"{name} at {width}px scrolls sideways by {overflow}px"
        assert page.evaluate("document.documentElement.dir") == ("rtl" if language == "ar" else "ltr")
        screenshot(page, f"newcomer-{name}-{suffix}")
    assert PlayerGroup.objects.count() == 1
