"""The invitation journey's pages on phones: nothing scrolls sideways at 360px, the account pages
(allauth) wear the site's layout and cards, and an HTMX action after the session expired goes to the
log-in page instead of swapping it into the page."""

import re

import pytest
from allauth.account.forms import default_token_generator
from allauth.account.models import EmailAddress, EmailConfirmationHMAC
from allauth.account.utils import user_pk_to_url_str

from handsite.services import invitations
from tests.support import membership_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NARROW = 360


def assert_no_sideways_scroll(page, what):
    widths = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth, window.innerWidth]"
    )
    assert widths[0] <= NARROW, f"{what} is {widths[0]}px wide at {NARROW}px ({widths})"


@pytest.fixture
def link(owner, admin, member, group):
    return invitations.regenerate_invite_link(actor_membership=membership_of(owner, group))


def test_home_group_invitation_and_account_pages_fit_a_360px_phone(new_phone, log_in, owner, group, link):
    page = new_phone(width=NARROW)
    visitor_pages = ["/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]
    for path in [*visitor_pages, link.get_absolute_url()]:
        page.goto(path)
        assert_no_sideways_scroll(page, path)

    log_in(page, owner)
    member_pages = ["/profile/", "/accounts/password/change/", "/accounts/email/", "/accounts/logout/"]
    for path in ["/", group.get_absolute_url(), *member_pages]:
        page.goto(path)
        assert page.url.endswith(path), page.url
        assert_no_sideways_scroll(page, path)
    page.goto(group.get_absolute_url())
    assert page.locator("#invite-url").input_value().endswith(link.get_absolute_url())


def account_pages(owner):
    """Every allauth page a person meets: (name, path, logged in?)."""
    address = EmailAddress.objects.create(user=owner, email=owner.email, verified=False, primary=True)
    confirm_key = EmailConfirmationHMAC(address).key
    reset_key = f"{user_pk_to_url_str(owner)}-{default_token_generator.make_token(owner)}"
    return [
        ("login", "/accounts/login/", False),
        ("signup", "/accounts/signup/", False),
        ("password-reset", "/accounts/password/reset/", False),
        ("password-reset-done", "/accounts/password/reset/done/", False),
        ("password-reset-key", f"/accounts/password/reset/key/{reset_key}/", False),
        ("password-reset-key-done", "/accounts/password/reset/key/done/", False),
        ("verification-sent", "/accounts/confirm-email/", False),
        ("email-confirm", f"/accounts/confirm-email/{confirm_key}/", False),
        ("email-confirm-bad-key", "/accounts/confirm-email/not-a-key/", False),
        ("password-change", "/accounts/password/change/", True),
        ("email", "/accounts/email/", True),
        ("logout", "/accounts/logout/", True),
    ]


def test_every_account_page_wears_the_site_layout_and_a_card(new_phone, log_in, owner, screenshot):
    from playwright.sync_api import expect

    visitor = new_phone()
    person = new_phone()
    log_in(person, owner)
    problems = []
    for name, path, logged_in in account_pages(owner):
        page = person if logged_in else visitor
        page.goto(path)
        if name == "password-reset-key":  # allauth moves the key into the session and redirects
            expect(page).to_have_url(re.compile(r"/accounts/password/reset/key/.+-set-password/$"))
        screenshot(page, f"account-{name}-phone")
        if page.locator("header.site-header").count() != 1:
            problems.append(f"{name}: no site header")
        cards = page.locator("main .card")
        if cards.count() != 1:
            problems.append(f"{name}: {cards.count()} cards")
            continue
        card = cards.first
        if card.locator("h1").count() != 1:
            problems.append(f"{name}: no heading in the card")
        # Site styles, not the browser's defaults: rounded card, full-size buttons and link buttons.
        if card.evaluate("el => getComputedStyle(el).borderTopLeftRadius") in ("", "0px"):
            problems.append(f"{name}: the card has no site style")
        for control in card.locator("button, a.button").all():
            height = control.evaluate("el => el.getBoundingClientRect().height")
            if height < 44:
                problems.append(f"{name}: {control.inner_text()!r} is {height}px high")
        for checkbox in card.locator("input[type=checkbox]").all():
            box, label = checkbox.bounding_box(), card.locator(f"label[for='{checkbox.get_attribute('id')}']")
            if label.count() and abs(label.bounding_box()["y"] - box["y"]) > 20:
                problems.append(f"{name}: checkbox {checkbox.get_attribute('name')} is not beside its label")
    assert problems == []


def test_an_htmx_action_after_the_session_expired_goes_to_the_log_in_page_and_back(
    new_phone, log_in, owner, group, password
):
    from playwright.sync_api import expect

    page = new_phone()
    log_in(page, owner)
    page.goto(group.get_absolute_url())
    expect(page.get_by_role("heading", name=group.name)).to_be_visible()

    page.context.clear_cookies(name="sessionid")  # the session has expired (the CSRF cookie stays)
    page.get_by_role("button", name="Make a link").click()

    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=%2Fgroups%2Fthursday-hand%2F$"))
    expect(page.locator("header.site-header")).to_have_count(1)
    page.fill("input[name=login]", owner.email)
    page.fill("input[name=password]", password)
    page.locator("main button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/groups/thursday-hand/$"))
    expect(page.get_by_role("heading", name=group.name)).to_be_visible()
