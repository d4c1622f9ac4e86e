"""Two people in two phone-sized browsers (390 px) start a Hand and Foot game and play its first deal to
the end.

The deal is built for the test: the second player already plays from the foot with a red and a black
book on the table; the first player draws two and discards; the second draws two, melds three 9s and
goes out with the last card discarded.
"""

import pytest
from django.test import Client

from games import engine
from games.engine.handfoot_deal import FootMeld
from games.models import Game, GameStatus
from tests.factories import MembershipFactory, PlayerGroupFactory
from tests.rigging import Deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST_HAND = "4S 6D 8C 10S JD 3C 5H 7S 9C JH QC AD 6H"
FIRST_DRAWS = "7H 8H"
SECOND_HAND = "9S 9H"
SECOND_DRAWS = "9D 5C"
RED_BOOK = "KS KH KD KC KS KH KD"
CORNER = {"x": 8, "y": 12}  # cards overlap in the docked hand: tap the visible corner
BLACK_BOOK = "QS QH QD QC QS QH 2S"


def _log_in(page, live_server, user):
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def _rig(game: Game) -> tuple[int, int]:
    state = engine.from_json(game.state)
    deal = state.deal
    deck = Deck("hand-and-foot", 2)
    first = deal.current
    second = 1 - first
    deal.hands[first] = deck.pick(FIRST_HAND)
    deal.hands[second] = deck.pick(SECOND_HAND)
    deal.melds = [
        FootMeld(1, second, 13, tuple(deck.pick(RED_BOOK))),
        FootMeld(2, second, 12, tuple(deck.pick(BLACK_BOOK))),
    ]
    deal.next_meld_id = 3
    deal.opened[second] = True
    deal.opening_totals[second] = 150
    deal.picked_up[second] = True
    deal.feet[second] = []
    draws = deck.pick(FIRST_DRAWS) + deck.pick(SECOND_DRAWS)
    deal.feet[first] = deck.pick(" ".join(c.face for c in deck.rest()[:13]))
    deal.stock = deck.rest() + list(reversed(draws))  # the top is the end of the list
    Game.objects.filter(pk=game.pk).update(state=engine.to_json(state), revision=game.revision + 1)
    return first, second


def test_two_people_play_a_hand_and_foot_deal_to_the_end(new_phone, browser, live_server, screenshot):
    from playwright.sync_api import expect

    group = PlayerGroupFactory(name="Friday Hand", slug="friday-hand")
    hala = MembershipFactory(group=group, user__display_name="Hala").user
    fadi = MembershipFactory(group=group, user__display_name="Fadi").user

    host = new_phone()
    _log_in(host, live_server, hala)
    host.goto("/groups/friday-hand/games/new/?variant=hand-and-foot")
    expect(host.locator("select[name=variant]")).to_have_value("hand-and-foot", timeout=30_000)
    host.select_option("select[name=seat_1]", str(fadi.pk))
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_text("The game deals when every seat is filled.")).to_be_visible(timeout=30_000)
    game = Game.objects.get()
    assert game.variant == "hand-and-foot"

    friend = new_phone()
    _log_in(friend, live_server, fadi)
    friend.goto(game.get_absolute_url())
    friend.get_by_role("button", name="Accept").click()
    expect(friend.locator("#hand")).to_be_visible(timeout=30_000)
    expect(host.locator("#hand")).to_be_visible(timeout=30_000)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE

    first, second = _rig(game)
    pages = {0: host, 1: friend}
    for page in pages.values():
        page.reload()
    mover, winner = pages[first], pages[second]
    expect(winner.locator(f"#side-{second}").get_by_text("red book", exact=True)).to_be_visible(
        timeout=30_000
    )
    winner.locator("#rule-fold summary").click()  # the rule box shows its first line until tapped
    expect(winner.get_by_text("You have the books to go out.")).to_be_visible(timeout=30_000)
    screenshot(mover, "handfoot-table-phone")

    # Something in the browser gives the hand's inputs an empty style attribute (here, as a screenshot
    # tool hiding the caret does): the swap must not copy it (htmx settles no style: the CSP forbids it).
    mover.evaluate("document.querySelectorAll('#game .pick').forEach((box) => box.setAttribute('style', ''))")
    mover.get_by_role("button", name="Draw 2 cards").click()
    expect(mover.get_by_role("button", name="Discard the selected card")).to_be_visible(timeout=30_000)
    state = engine.from_json(Game.objects.get().state)
    three = next(c for c in state.deal.hands[first] if c.face == "3C")
    mover.locator(f"label[for=pick-{three.id}]").click(position=CORNER)
    mover.get_by_role("button", name="Discard the selected card").click()
    expect(mover.locator("#turn")).to_contain_text("to play.", timeout=30_000)

    expect(winner.locator("#turn").get_by_text("Your turn.")).to_be_visible(timeout=30_000)
    expect(winner.locator("#discard-pile").locator(f"[data-card='{three.id}']")).to_be_visible(timeout=30_000)
    winner.get_by_role("button", name="Draw 2 cards").click()
    expect(winner.get_by_role("button", name="Meld the selected cards")).to_be_visible(timeout=30_000)
    state = engine.from_json(Game.objects.get().state)
    hand = state.deal.hands[second]
    for c in hand:
        if c.rank == 9:
            winner.locator(f"label[for=pick-{c.id}]").click(position=CORNER)
    winner.get_by_role("button", name="Meld the selected cards").click()
    expect(winner.locator("#table .meld")).to_have_count(3, timeout=30_000)
    screenshot(winner, "handfoot-melded-phone")
    five = next(c for c in hand if c.face == "5C")
    winner.locator(f"label[for=pick-{five.id}]").click(position=CORNER)
    winner.get_by_role("button", name="Discard the selected card").click()

    expect(winner.get_by_role("heading", name="Deal 1 result")).to_be_visible(timeout=30_000)
    name = "Fadi" if second == 1 else "Hala"
    expect(winner.locator("#last-deal").get_by_text(f"{name} went out.")).to_be_visible(timeout=30_000)
    expect(mover.get_by_role("heading", name="Deal 1 result")).to_be_visible(timeout=30_000)
    final = engine.from_json(Game.objects.get().state)
    assert len(final.records) == 1
    # 500 + 300 + 70 + 80 (books) + 15 (three 9s) + 100 for going out.
    assert final.records[0].score.points_by_seat()[second] == 1065
    assert final.deal.number == 1
    screenshot(winner, "handfoot-deal-over-phone")
    screenshot(mover, "handfoot-deal-over-other-phone")

    # The same table in Arabic (right to left), dark, on a narrow phone and a desktop.
    type(hala).objects.filter(pk=hala.pk).update(language="ar")
    for width, scheme in ((360, "dark"), (1280, "light"), (1280, "dark")):
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": width, "height": 900}, color_scheme=scheme
        )
        page = context.new_page()
        _log_in(page, live_server, hala)
        page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
        page.goto(game.get_absolute_url())
        expect(page.locator("html")).to_have_attribute("dir", "rtl", timeout=30_000)
        expect(page.locator("#table")).to_be_visible(timeout=30_000)
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, overflow
        screenshot(page, f"handfoot-ar-{width}-{scheme}")
        context.close()
