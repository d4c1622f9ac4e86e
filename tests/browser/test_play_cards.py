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

from games import engine
from games.engine.deal import DRAW, PLAY, TableMeld, Turn
from games.engine.handfoot_deal import FootMeld
from games.engine.melds import MeldRules, Wilds, make_meld
from games.engine.variants import HAND_VARIANTS
from games.models import Game
from games.services import playing, seating
from tests.factories import MembershipFactory, PlayerGroupFactory
from tests.rigging import Deck
from tests.support import wait_until_true

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


def _game(variant: str, human: bool):
    """Amira against a bot, or (``human``) against Badr, who leaves the table as Amira's move left it."""
    group = PlayerGroupFactory(name="Friday Hand", slug=f"friday-{variant}")
    amira = MembershipFactory(group=group, user__display_name="Amira").user
    other = MembershipFactory(group=group, user__display_name="Badr").user if human else seating.BOT
    game = seating.create_game(
        group=group, created_by=amira, variant=variant, options={}, seats=[amira, other], seed=5
    )
    if human:
        seating.accept_seat(game_id=game.pk, user=other)
    return amira, Game.objects.get(pk=game.pk)


def _save(game: Game, state) -> None:
    Game.objects.filter(pk=game.pk).update(
        state=engine.to_json(state), turn_seat=0, revision=game.revision + 1
    )


def rig_hand_family(
    variant: str, hand: str, *, phase: str = PLAY, melds=TABLE_MELDS, opened=(True, True), human=False
):
    """A Hand-family game: Amira (seat 0, to play) holds ``hand``; the bot holds OTHER; ``melds`` lie on the
    table ((owner, faces), meld ids from 1); 9♠ on the discard pile. The opponent is a bot, or Badr
    (``human``)."""
    amira, game = _game(variant, human)
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


def rig_foot(hand: str, *, phase: str = PLAY, human=False):
    """A Hand and Foot game: Amira (seat 0, to play, opened, a meld of 7s) holds ``hand``; the bot has a
    meld of kings."""
    amira, game = _game("hand-and-foot", human)
    state = engine.from_json(game.state)
    deal = state.deal
    deck = Deck("hand-and-foot", 2)
    deal.hands[0] = deck.pick(hand)
    deal.hands[1] = deck.pick(OTHER)
    deal.melds = [
        FootMeld(1, 0, 7, tuple(deck.pick("7C 7D 7H"))),
        FootMeld(2, 1, 13, tuple(deck.pick("KS KH KD"))),
    ]
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


LEGIBLE = """() => {
  // Every card of the hand: its rank and its suit uncovered, and a 24x24 square at its top corner that a
  // tap reaches (the top-most element at each sampled point belongs to the card).
  const mine = (label, x, y) => {
    const el = document.elementFromPoint(x, y);
    return Boolean(el) && label.contains(el);
  };
  const corners = (b, inset) => [[b.left + inset, b.top + inset], [b.right - inset, b.top + inset],
    [b.left + inset, b.bottom - inset], [b.right - inset, b.bottom - inset]];
  return [...document.querySelectorAll("#hand label")].map((label) => {
    const face = label.querySelector(".pcard");
    const card = face.getBoundingClientRect();
    const problems = [];
    for (const part of face.querySelectorAll(".rank, .suit")) {
      const box = part.getBoundingClientRect();
      if (box.width < 1) problems.push(part.className + " empty");
      if (box.right > card.right || box.left < card.left) problems.push(part.className + " outside");
      for (const [x, y] of corners(box, 1)) {
        if (!mine(label, x, y)) problems.push(part.className + " covered");
      }
    }
    // the 24x24 square at the card's top corner, sampled every 11 px (2 px in: the corner is rounded)
    const xs = [card.left + 2, card.left + 12, card.left + 23.5];
    const ys = [card.top + 2, card.top + 12, card.top + 23.5];
    for (const [x, y] of xs.flatMap((x) => ys.map((y) => [x, y]))) {
      if (!mine(label, x, y)) {
        const el = document.elementFromPoint(x, y);
        problems.push(`tap target under ${el && (el.className || el.tagName)} at ${x},${y}`);
      }
    }
    return {rank: face.querySelector(".rank").textContent, problems};
  });
}"""

COUNT_TRANSITIONS = """() => {
  // Counts the view transitions the page starts, and whether each ran (a duplicated name skips one).
  window.transitions = {started: 0, ran: 0, skipped: 0, groups: []};
  const start = document.startViewTransition.bind(document);
  document.startViewTransition = (update) => {
    window.transitions.started += 1;
    const transition = start(update);
    transition.ready.then(() => {
      window.transitions.ran += 1;
      window.transitions.groups = document.getAnimations().map((a) => a.effect.pseudoElement).filter(Boolean);
    }, () => { window.transitions.skipped += 1; });
    return transition;
  };
}"""


def open_table(open_as, user, game, size, *, language="en", dark=False):
    width, height = size
    page = open_as(user, game.get_absolute_url(), width, height, language=language, dark=dark, scale=1)
    expect(page.locator("#hand")).to_be_visible()
    return page


def card_ids(game_id: int, faces: str, seat: int = 0) -> list[int]:
    """Ids of cards of ``seat``'s hand by face, in the order asked."""
    hand = engine.from_json(Game.objects.get(pk=game_id).state).deal.hands[seat]
    ids = []
    for face in faces.split():
        ids.append(next(c.id for c in hand if c.face == face and c.id not in ids))
    return ids


def select(page, ids) -> None:
    for card_id in ids:
        label = page.locator(f"label[for=pick-{card_id}]")
        label.click(position={"x": 10, "y": 10})
        expect(page.locator(f"#pick-{card_id}")).to_be_checked()


def hand_size(game_id: int, seat: int = 0) -> int:
    return len(engine.from_json(Game.objects.get(pk=game_id).state).deal.hands[seat])


LARGEST_HANDS = {
    "classic-16": lambda: rig_hand_family("classic", CLASSIC_HAND),
    "kuwaiti-16": lambda: rig_hand_family("kuwaiti", KUWAITI_HAND),
    "hand-and-foot-15": lambda: rig_foot(FOOT_HAND),
    "hand-and-foot-22": lambda: rig_foot(FOOT_BIG_HAND),
}
LOOKS = [("en", False), ("ar", True)]


@pytest.mark.parametrize("hand", list(LARGEST_HANDS))
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["360x640", "1280x800"])
@pytest.mark.parametrize(("language", "dark"), LOOKS, ids=["en-light", "ar-dark"])
def test_every_card_of_the_largest_hands_shows_its_whole_index_and_a_24_px_target(
    open_as, hand, size, language, dark
):
    amira, game = LARGEST_HANDS[hand]()
    page = open_table(open_as, amira, game, size, language=language, dark=dark)
    count = hand_size(game.pk)
    assert page.locator("#hand .pick").count() == count
    ids = [int(box.get_attribute("value")) for box in page.locator("#hand .pick").all()]
    select(page, [ids[1], ids[count // 2 + 1], ids[-2]])  # a selected card rises, in each row
    page.wait_for_timeout(400)  # once risen
    cards = page.evaluate(LEGIBLE)
    assert len(cards) == count
    assert not [card for card in cards if card["problems"]], cards
    assert sum(card["rank"] == "10" for card in cards) >= 3  # "10" whole, not "1"
    scroll = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll == [size[0], size[0]], scroll  # nothing wider than the screen (nor a zoomed-out page)
    hand_box = page.locator("#hand").bounding_box()
    assert hand_box["y"] + hand_box["height"] <= size[1] + 1, hand_box  # the whole hand on screen
    shot(page, f"hand-{hand}-{size[0]}x{size[1]}-{language}-{'dark' if dark else 'light'}")


@pytest.mark.parametrize(
    "rig",
    [
        lambda: rig_hand_family("classic", CLASSIC_HAND),
        lambda: rig_hand_family("kuwaiti", KUWAITI_HAND),
        lambda: rig_foot(FOOT_HAND),
    ],
    ids=["classic", "kuwaiti", "hand-and-foot"],
)
@pytest.mark.parametrize(("language", "dark"), [*LOOKS, ("en", True), ("ar", False)])
def test_the_dock_takes_at_most_a_third_of_a_640_px_screen_with_three_cards_selected(
    open_as, rig, language, dark
):
    amira, game = rig()
    page = open_table(open_as, amira, game, PHONE, language=language, dark=dark)
    ids = [int(box.get_attribute("value")) for box in page.locator("#hand .pick").all()]
    select(page, ids[3:6])
    dock = page.locator("#dock").bounding_box()
    assert dock["height"] <= 640 / 3, dock
    assert dock["y"] + dock["height"] <= 641, dock
    own = page.locator("#melds .meld-group-yours, #melds .foot-side-yours").bounding_box()
    assert own["y"] + own["height"] <= dock["y"], (own, dock)  # the player's own melds above the dock
    shot(page, f"dock-{game.variant}-360x640-{language}-{'dark' if dark else 'light'}")


def test_tapping_the_stock_draws(open_as):
    amira, game = rig_hand_family("classic", CLASSIC_HAND.rsplit(" ", 1)[0], phase=DRAW)
    page = open_table(open_as, amira, game, PHONE)
    expect(page.locator("#hand .pick")).to_have_count(15)
    page.locator("#centre .pile-stock").tap()
    expect(page.locator("#hand .pick")).to_have_count(16)
    expect(page.locator("#actions button[value=discard]")).to_have_count(1)
    assert hand_size(game.pk) == 16


def test_tapping_the_hand_and_foot_draw_pile_draws_two(open_as):
    amira, game = rig_foot(FOOT_HAND.rsplit(" ", 2)[0], phase=DRAW)
    page = open_table(open_as, amira, game, DESKTOP)
    expect(page.locator("#hand .pick")).to_have_count(13)
    page.locator("#centre .pile-stock").click()
    expect(page.locator("#hand .pick")).to_have_count(15)
    assert hand_size(game.pk) == 15


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["360x640", "1280x800"])
def test_with_one_card_selected_tapping_the_discard_pile_discards_it(open_as, size):
    amira, game = rig_hand_family("classic", CLASSIC_HAND, human=True)
    page = open_table(open_as, amira, game, size)
    (five,) = card_ids(game.pk, "5C")
    select(page, [five])
    pile = page.locator("#centre .pile-discard")
    pile.tap() if size == PHONE else pile.click()
    expect(pile.locator(f"[data-card='{five}']")).to_be_visible()
    expect(page.locator(f"#pick-{five}")).to_have_count(0)
    state = engine.from_json(Game.objects.get(pk=game.pk).state)
    assert five not in {c.id for c in state.deal.hands[0]}


def test_tapping_the_discard_pile_with_nothing_selected_discards_nothing(open_as):
    amira, game = rig_hand_family("classic", CLASSIC_HAND)
    page = open_table(open_as, amira, game, PHONE)
    version = Game.objects.get(pk=game.pk).version
    page.locator("#centre .pile-discard").tap()
    expect(page.locator("#move-error")).to_be_visible()  # the server's refusal, in words
    assert Game.objects.get(pk=game.pk).version == version
    expect(page.locator("#hand .pick")).to_have_count(16)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["360x640", "1280x800"])
def test_with_cards_selected_tapping_a_meld_lays_them_off(open_as, size):
    amira, game = rig_hand_family("classic", CLASSIC_HAND)
    page = open_table(open_as, amira, game, size)
    (ten,) = card_ids(game.pk, "10H")
    page.locator("#meld-1 .meld-cards").click()  # nothing selected: nothing happens
    select(page, [ten])
    meld = page.locator("#meld-1 .meld-cards")
    meld.tap() if size == PHONE else meld.click()
    expect(page.locator("#meld-1 .pcard")).to_have_count(4)
    expect(page.locator(f"#pick-{ten}")).to_have_count(0)
    state = engine.from_json(Game.objects.get(pk=game.pk).state)
    assert ten in {c.id for c in state.deal.meld_by_id(1).meld.cards}
    dock = page.locator("#dock").bounding_box()
    own = page.locator("#melds .meld-group-yours").bounding_box()
    assert own["y"] + own["height"] <= dock["y"], (own, dock)
    page.wait_for_timeout(500)  # the cards' movement over
    shot(page, f"laid-off-{size[0]}x{size[1]}")


def test_with_cards_selected_tapping_a_hand_and_foot_meld_lays_them_off(open_as):
    amira, game = rig_foot(FOOT_HAND)
    page = open_table(open_as, amira, game, PHONE)
    (seven,) = card_ids(game.pk, "7S")
    select(page, [seven])
    page.locator("#meld-1 .meld-cards").tap()
    expect(page.locator("#meld-1 .meld-cards .pcard")).to_have_count(4)
    expect(page.locator(f"#pick-{seven}")).to_have_count(0)


def drag(page, source, target) -> None:
    """Press on ``source``, move in steps to the middle of ``target``, let go (a mouse's pointer events)."""
    start = source.bounding_box()
    end = target.bounding_box()
    page.mouse.move(start["x"] + 12, start["y"] + 12)
    page.mouse.down()
    x, y = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    page.mouse.move(x, y, steps=12)
    page.mouse.up()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["360x640", "1280x800"])
def test_a_card_dragged_onto_the_discard_pile_is_discarded(open_as, size):
    amira, game = rig_hand_family("classic", CLASSIC_HAND, human=True)
    page = open_table(open_as, amira, game, size)
    three, king = card_ids(game.pk, "3C KD")
    select(page, [king])  # another card selected: the dragged card is the one discarded
    drag(page, page.locator(f"label[for=pick-{three}]"), page.locator("#centre .pile-discard"))
    expect(page.locator("#centre .pile-discard").locator(f"[data-card='{three}']")).to_be_visible()
    expect(page.locator(f"#pick-{three}")).to_have_count(0)
    expect(page.locator(f"#pick-{king}")).to_have_count(1)
    state = engine.from_json(Game.objects.get(pk=game.pk).state)
    assert three not in {c.id for c in state.deal.hands[0]}


def test_a_card_dragged_onto_a_meld_is_laid_off(open_as):
    amira, game = rig_hand_family("classic", CLASSIC_HAND)
    page = open_table(open_as, amira, game, DESKTOP)
    (ten,) = card_ids(game.pk, "10H")
    drag(page, page.locator(f"label[for=pick-{ten}]"), page.locator("#meld-1"))
    expect(page.locator("#meld-1 .pcard")).to_have_count(4)


def test_a_card_dragged_sideways_still_rearranges_the_hand(open_as):
    amira, game = rig_hand_family("classic", CLASSIC_HAND)
    page = open_table(open_as, amira, game, DESKTOP)
    boxes = page.locator("#hand .pick")
    first, last = boxes.first.get_attribute("value"), boxes.last.get_attribute("value")
    start = page.locator(f"label[for=pick-{first}]").bounding_box()
    end = page.locator(f"label[for=pick-{last}]").bounding_box()
    page.mouse.move(start["x"] + 12, start["y"] + 12)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] - 4, end["y"] + 12, steps=15)
    page.mouse.up()
    expect(page.locator("#hand .pick").last).to_have_value(first)
    assert Game.objects.get(pk=game.pk).version == game.version  # an arrangement is no move


def test_a_move_moves_the_cards_through_a_view_transition(open_as):
    amira, game = rig_hand_family("classic", CLASSIC_HAND.rsplit(" ", 1)[0], phase=DRAW, human=True)
    page = open_table(open_as, amira, game, PHONE)
    page.evaluate(COUNT_TRANSITIONS)
    before = {int(box.get_attribute("value")) for box in page.locator("#hand .pick").all()}
    page.locator("#centre .pile-stock").tap()
    expect(page.locator("#hand .pick")).to_have_count(16)
    wait_until_true(page, "window.transitions.ran + window.transitions.skipped >= 1")
    counts = page.evaluate("window.transitions")
    assert counts["started"] == 1, counts
    assert counts["ran"] == 1, counts
    assert counts["skipped"] == 0, counts
    (drawn,) = {int(box.get_attribute("value")) for box in page.locator("#hand .pick").all()} - before
    assert f"::view-transition-group(card-{drawn})" in counts["groups"], counts  # from the stock
    (three,) = card_ids(game.pk, "3C")
    select(page, [three])
    page.locator("#centre .pile-discard").tap()
    expect(page.locator("#centre .pile-discard").locator(f"[data-card='{three}']")).to_be_visible()
    wait_until_true(page, "window.transitions.ran + window.transitions.skipped >= 2")
    counts = page.evaluate("window.transitions")
    assert counts["skipped"] == 0, counts
    assert f"::view-transition-group(card-{three})" in counts["groups"], counts  # from the hand to the pile


def test_no_view_transition_under_reduced_motion(open_as):
    amira, game = rig_hand_family("classic", CLASSIC_HAND.rsplit(" ", 1)[0], phase=DRAW)
    page = open_table(open_as, amira, game, PHONE)
    page.emulate_media(reduced_motion="reduce")
    page.evaluate(COUNT_TRANSITIONS)
    page.locator("#centre .pile-stock").tap()
    expect(page.locator("#hand .pick")).to_have_count(16)
    page.wait_for_timeout(300)
    assert page.evaluate("window.transitions.started") == 0


def test_a_poll_that_changes_nothing_starts_no_view_transition(open_as):
    amira, game = rig_hand_family("classic", CLASSIC_HAND)
    page = open_table(open_as, amira, game, PHONE)
    page.evaluate(COUNT_TRANSITIONS)
    with page.expect_response(lambda response: "/poll/" in response.url, timeout=15_000) as polled:
        pass
    assert polled.value.status == 204
    page.wait_for_timeout(300)
    assert page.evaluate("window.transitions.started") == 0


@pytest.fixture
def badr_to_play(amira_and_badr):
    """Amira and Badr (a classic game, Badr plays first); returns a function that plays Badr's turn."""
    _group, amira, badr, game = amira_and_badr

    def badr_plays():
        current = Game.objects.get(pk=game.pk)
        state = engine.from_json(current.state)
        assert state.deal.current == 1
        version = current.version
        if len(state.deal.hands[1]) == 14:  # dealt 15, the first player does not draw
            state = playing.play(game_id=game.pk, user=badr, version=version, action={"type": "draw"}).state
            version = state.version
        card = state.deal.hands[1][0]
        playing.play(game_id=game.pk, user=badr, version=version, action={"type": "discard", "card": card.id})

    return amira, game, badr_plays


COUNT_TONES = """() => {
  window.tones = 0;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) { window.tones += 1; return start.apply(this, args); };
}"""


def test_no_sound_on_your_turn_unless_the_player_turns_it_on(open_as, badr_to_play):
    amira, game, badr_plays = badr_to_play
    page = open_as(amira, game.get_absolute_url(), 360, 640)
    page.evaluate(COUNT_TONES)
    expect(page.locator("#sound-toggle")).not_to_be_checked()
    badr_plays()
    expect(page.locator("#turn.your-turn")).to_be_visible(timeout=15_000)
    assert page.evaluate("window.tones") == 0


def test_the_sound_setting_plays_a_tone_when_the_turn_comes_and_is_remembered(open_as, badr_to_play):
    amira, game, badr_plays = badr_to_play
    page = open_as(amira, game.get_absolute_url(), 360, 640, language="ar")
    page.evaluate(COUNT_TONES)
    page.locator("#sound-toggle").check()
    assert page.evaluate("window.tones") == 1  # a first tone as the setting is turned on
    assert page.evaluate("localStorage.getItem('handsite.play.sound')") == "on"
    badr_plays()
    expect(page.locator("#turn.your-turn")).to_be_visible(timeout=15_000)
    wait_until_true(page, "window.tones === 2")
    page.reload()
    expect(page.locator("#sound-toggle")).to_be_checked()
    shot(page, "sound-setting-360-ar")


def test_hand_and_foot_rule_box_folds_to_one_line_and_opens_on_a_tap(open_as):
    amira, game = rig_foot(FOOT_HAND)
    page = open_table(open_as, amira, game, PHONE, language="ar")
    fold = page.locator("#rule-fold")
    summary = fold.locator("summary")
    line = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('#rule-fold summary')).lineHeight)"
    )
    assert summary.bounding_box()["height"] <= line * 1.5
    expect(fold.locator(".rule-state-lines")).to_be_hidden()
    summary.tap()
    expect(fold.locator(".rule-state-lines li").first).to_be_visible()
    expect(fold.get_by_role("link")).to_be_visible()
    page.locator(".hand-bar .sort a").first.tap()  # a refresh of the board keeps it open
    expect(page.locator("#rule-fold .rule-state-lines li").first).to_be_visible()
    shot(page, "rule-box-open-360x640-ar")
