"""Two people in two phone-sized browsers start a classic game and play its first deal to the end.

The deal is built for the test (the engine's state with chosen hands and stock): the first player
discards, the second draws, melds 14 cards in one go and discards the last one: out, with a "Hand".
"""

import pytest
from django.test import Client

from games import engine
from games.models import Game, GameStatus
from tests.factories import MembershipFactory, PlayerGroupFactory
from tests.rigging import Deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WINNER_HAND = "AS 2S 3S 4S 5S 6H 7H 8H 9H 10H KS KH KD KC"
DRAWN = "2C"
OTHER_HAND = "3C 5D 7C 9D JC 2D 4H 6C 8D 10C QS QD 4C 6D 8C"
CORNER = {"x": 8, "y": 12}  # cards in the hand overlap: tap the visible corner


def _log_in(page, live_server, user):
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def _rig(game: Game) -> tuple[int, int]:
    """Give the game's first deal chosen hands; return (first seat, the seat that will go out)."""
    state = engine.from_json(game.state)
    deck = Deck("classic")
    first = state.deal.current
    second = 1 - first
    state.deal.hands[first] = deck.pick(OTHER_HAND)
    state.deal.hands[second] = deck.pick(WINNER_HAND)
    drawn = deck.pick(DRAWN)
    state.deal.stock = deck.rest() + drawn  # the top of the stock is the end of the list
    Game.objects.filter(pk=game.pk).update(state=engine.to_json(state), revision=game.revision + 1)
    return first, second


def test_two_people_play_a_classic_deal_to_the_end(new_phone, live_server, screenshot):
    from playwright.sync_api import expect

    group = PlayerGroupFactory(name="Friday Hand", slug="friday-hand")
    hala = MembershipFactory(group=group, user__display_name="Hala").user
    fadi = MembershipFactory(group=group, user__display_name="Fadi").user

    host = new_phone()
    _log_in(host, live_server, hala)
    host.goto("/groups/friday-hand/")
    host.get_by_role("link", name="Start a game").click()
    host.select_option("select[name=seat_1]", str(fadi.pk))
    host.uncheck("input[name=opt_no_out_first_turn]")
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_text("The game deals when every seat is filled.")).to_be_visible()
    game = Game.objects.get()
    assert game.status == GameStatus.WAITING
    assert game.options["no_out_first_turn"] is False

    friend = new_phone()
    _log_in(friend, live_server, fadi)
    friend.goto("/")
    friend.locator("#my-games a").first.click()
    friend.get_by_role("button", name="Accept").click()
    expect(friend.locator("#hand")).to_be_visible()
    # The host's waiting room turns into the table by itself (polling).
    expect(host.locator("#hand")).to_be_visible(timeout=10_000)

    game.refresh_from_db()
    first, second = _rig(game)
    pages = {0: host, 1: friend}
    for page in pages.values():
        page.reload()
    mover, winner = pages[first], pages[second]
    state = engine.from_json(Game.objects.get().state)

    # The first player discards one card.
    card = state.deal.hands[first][0]
    mover.locator(f"label[for=pick-{card.id}]").click(position=CORNER)
    mover.get_by_role("button", name="Discard the selected card").click()
    expect(mover.locator("#turn")).to_contain_text("to play.")

    # The other player sees it within 10 seconds, without reloading, then draws.
    expect(winner.locator("#turn").get_by_text("Your turn.")).to_be_visible(timeout=10_000)
    expect(winner.locator("#centre .pile-discard").locator(f"[data-card='{card.id}']")).to_be_visible()
    winner.get_by_role("button", name="Draw from the stock").click()
    # nothing selected yet: the moves that need cards show once a card is tapped
    expect(winner.get_by_text("Tap cards to meld, lay off, exchange a wild card or discard.")).to_be_visible()

    state = engine.from_json(Game.objects.get().state)
    hand = state.deal.hands[second]
    drawn = next(c for c in hand if c.face == DRAWN)
    for c in hand:
        if c.id != drawn.id:
            winner.locator(f"label[for=pick-{c.id}]").click(position=CORNER)
    winner.get_by_role("button", name="Meld the selected cards").click()
    expect(winner.locator("#table .meld")).to_have_count(3)
    winner.locator(f"label[for=pick-{drawn.id}]").click(position=CORNER)
    winner.get_by_role("button", name="Discard the selected card").click()

    expect(winner.get_by_role("heading", name="Deal 1 result")).to_be_visible()
    name = "Fadi" if second == 1 else "Hala"
    expect(winner.locator("#last-deal").get_by_text(f"{name} went out with a Hand!")).to_be_visible()
    expect(mover.get_by_role("heading", name="Deal 1 result")).to_be_visible(timeout=10_000)
    final = engine.from_json(Game.objects.get().state)
    assert len(final.records) == 1
    assert final.records[0].score.points_by_seat()[second] == -60
    screenshot(winner, "play-deal-over-phone")
    screenshot(mover, "play-deal-over-other-phone")
