"""Every move of the play page through HTMX: the button (or offer) is shown only when the engine lists
the move as legal; posting it applies exactly that move (one Move row, version + 1, the engine state
changed) and answers with the ``#game`` fragment; a refused one shows the engine's own sentence and
changes nothing. The states are rigged through the engine API (chosen hands, moves applied)."""

from html import escape

import pytest
from django.urls import reverse

from games import engine, moves
from games.models import Game, Move
from games.services import seating
from tests.rigging import Deck

HTMX = {"HTTP_HX_REQUEST": "true"}


class Table:
    """A two-player game of ``variant`` with chosen hands. ``first`` plays first (15 cards)."""

    def __init__(self, game, first_hand: str, second_hand: str, discard: str = ""):
        self.game = game
        state = engine.from_json(game.state)
        self.variant = state.variant
        deck = Deck(state.variant)
        self.first = state.deal.current
        self.second = 1 - self.first
        state.deal.hands[self.first] = deck.pick(first_hand)
        state.deal.hands[self.second] = deck.pick(second_hand)
        state.deal.discard = deck.pick(discard)
        state.deal.stock = deck.rest()[:40]
        self.people = {s.number: s.user for s in game.seats.all()}
        self.save(state)

    def state(self):
        return engine.from_json(self.game.state)

    def save(self, state):
        """Store a rigged state (no Move row; the game's version follows the engine's, as services do)."""
        Game.objects.filter(pk=self.game.pk).update(
            state=engine.to_json(state), version=state.version, revision=self.game.revision + 1
        )
        self.game.refresh_from_db()

    def apply(self, seat, action):
        """A move applied straight through the engine (part of the rigging, not of the test)."""
        state = self.state()
        engine.apply(state, seat, action)
        self.save(state)

    def ids(self, seat, faces: str) -> list[int]:
        hand = list(self.state().deal.hands[seat])
        out = []
        for face in faces.split():
            card = next(c for c in hand if c.face == face)
            hand.remove(card)
            out.append(card.id)
        return out

    def page(self, client, seat) -> str:
        client.force_login(self.people[seat])
        response = client.get(reverse("games:play", args=[self.game.group.slug, self.game.pk]), **HTMX)
        assert response.status_code == 200
        return response.content.decode()

    def post(self, client, seat, data):
        client.force_login(self.people[seat])
        url = reverse("games:move", args=[self.game.group.slug, self.game.pk])
        return client.post(url, {"version": self.game.version, **data}, **HTMX)

    def legal(self, seat) -> list[dict]:
        return engine.legal_actions(self.state(), seat)

    def types(self, seat) -> set[str]:
        return {action["type"] for action in self.legal(seat)}

    def applied(self, client, seat, data) -> tuple[str, dict]:
        """Post ``data``; check one move was applied and the answer is the fragment. -> (html, action)."""
        before = self.game.version
        old_state = self.state()
        moves = Move.objects.filter(game=self.game).count()
        response = self.post(client, seat, data)
        assert response.status_code == 200
        html = response.content.decode()
        assert html.lstrip().startswith('<div id="game"')
        assert "<html" not in html
        assert 'id="move-error"' not in html
        self.game.refresh_from_db()
        assert self.game.version == before + 1
        assert Move.objects.filter(game=self.game).count() == moves + 1
        action = Move.objects.filter(game=self.game).order_by("-pk").first().action
        engine.apply(old_state, seat, action)  # exactly that move, nothing more
        assert engine.to_json(self.state()) == engine.to_json(old_state)
        return html, action

    def refused(self, client, seat, data, expected_action) -> str:
        """Post ``data``; the engine's sentence for ``expected_action`` is shown and nothing changes."""
        state = self.state()
        with pytest.raises(engine.DomainError) as refusal:
            engine.verify(state, seat, expected_action)
        sentence = refusal.value.sentence()
        before = (self.game.version, self.game.state)
        moves = Move.objects.filter(game=self.game).count()
        html = self.post(client, seat, data).content.decode()
        shown = error_of(html)
        assert shown.endswith(escape(sentence)), (shown, sentence)  # after the cards tried, if any
        self.game.refresh_from_db()
        assert (self.game.version, self.game.state) == before
        assert Move.objects.filter(game=self.game).count() == moves
        return sentence


def error_of(html: str) -> str:
    """The refusal shown next to the hand."""
    start = html.index('id="move-error">') + len('id="move-error">')
    return html[start : html.index("</p>", start)]


@pytest.fixture
def game_of(owner, member, start_game):
    def make(variant, options=None, seed=1234):
        game = start_game([owner, member], variant=variant, options=options, seed=seed)
        seating.accept_seat(game_id=game.pk, user=member)
        return Game.objects.get(pk=game.pk)

    return make


def meld_of(state, card_id):
    return next(tm for tm in state.deal.melds if any(c.id == card_id for c in tm.meld.cards))


# --- 1. Lay off here ---------------------------------------------------------------------------

LAYOFF_HAND = "7H 8H 9H 10H KS KH KD JH 2C 4D 6C 8S QS 3C 5D"
OTHER_HAND = "2S 4S 6S 8C 10C QC 3D 5H 7D 9C JC AD AS 3S"


@pytest.fixture
def opened(game_of):
    """classic: the first seat has opened (a heart run and a set of kings) and still holds JH."""
    table = Table(game_of("classic"), LAYOFF_HAND, OTHER_HAND)
    return table


def test_lay_off_here_is_offered_only_after_opening_and_applies_the_lay_off(client, opened):
    t = opened
    html = t.page(client, t.first)
    assert "lay_off" not in t.types(t.first)
    assert "Lay off here" not in html

    run, kings = t.ids(t.first, "7H 8H 9H 10H"), t.ids(t.first, "KS KH KD")
    t.apply(t.first, {"type": "meld", "melds": [{"cards": run}, {"cards": kings}]})
    state = t.state()
    run_meld, kings_meld = meld_of(state, run[0]), meld_of(state, kings[0])
    (jh,) = t.ids(t.first, "JH")
    legal = next(a for a in t.legal(t.first) if a["type"] == "lay_off")
    assert legal["targets"] == [{"meld": run_meld.id, "cards": [jh]}]
    html = t.page(client, t.first)
    assert f'name="lay_off" value="{run_meld.id}" class="button-quiet mini suggested"' in html
    # nothing in hand fits the kings: the button is there (the engine answers), not suggested
    assert f'name="lay_off" value="{kings_meld.id}" class="button-quiet mini"' in html
    assert "Lay off here" not in t.page(client, t.second)  # not their turn

    html, action = t.applied(client, t.first, {"lay_off": run_meld.id, "cards": [jh]})
    assert action == {"type": "lay_off", "meld": run_meld.id, "cards": [jh]}
    state = t.state()
    assert jh not in [c.id for c in state.deal.hands[t.first]]
    grown = state.deal.meld_by_id(run_meld.id)
    assert [c.face for c in grown.meld.cards] == ["7H", "8H", "9H", "10H", "JH"]
    assert f'data-card="{jh}"' in html
    assert f'id="pick-{jh}"' not in html


def test_a_card_that_does_not_fit_is_refused_with_the_engines_sentence(client, opened):
    t = opened
    run, kings = t.ids(t.first, "7H 8H 9H 10H"), t.ids(t.first, "KS KH KD")
    t.apply(t.first, {"type": "meld", "melds": [{"cards": run}, {"cards": kings}]})
    meld_id = meld_of(t.state(), run[0]).id
    (two,) = t.ids(t.first, "2C")
    action = {"type": "lay_off", "meld": meld_id, "cards": [two]}
    t.refused(client, t.first, {"lay_off": meld_id, "cards": [two]}, action)


# --- 2. Exchange a wild card -------------------------------------------------------------------

EXCHANGE_HAND = "7H 8H 9H 10H 5S 6S JK 7S 2C 4D 6C 8D QS 3C 5D"


def test_a_natural_card_exchanges_the_joker_in_a_run(client, game_of):
    t = Table(game_of("classic"), EXCHANGE_HAND, OTHER_HAND)
    assert "exchange" not in t.types(t.first)
    assert "for the wild card in meld" not in t.page(client, t.first)

    run = t.ids(t.first, "7H 8H 9H 10H")
    joker_run = t.ids(t.first, "5S 6S JK")
    joker = joker_run[2]
    melds = [{"cards": run}, {"cards": joker_run, "wild_as": {str(joker): "7S"}}]
    t.apply(t.first, {"type": "meld", "melds": melds})
    meld_id = meld_of(t.state(), joker).id
    (seven,) = t.ids(t.first, "7S")
    offer = {"type": "exchange", "meld": meld_id, "cards": [seven]}
    legal = next(a for a in t.legal(t.first) if a["type"] == "exchange")
    assert legal["options"] == [offer]
    html = t.page(client, t.first)
    option = moves.offers(t.legal(t.first)).index(offer)
    assert f'name="offer" value="{option}"' in html
    assert f"for the wild card in meld {meld_id}" in html
    assert "&quot;" not in html  # no move travels as JSON

    html, action = t.applied(client, t.first, {"offer": option})
    assert action == offer
    state = t.state()
    assert [c.face for c in state.deal.meld_by_id(meld_id).meld.cards] == ["5S", "6S", "7S"]
    assert joker in [c.id for c in state.deal.hands[t.first]]
    assert seven not in [c.id for c in state.deal.hands[t.first]]
    assert f'id="pick-{joker}"' in html


def test_an_exchange_with_the_wrong_card_is_refused(client, game_of):
    t = Table(game_of("classic"), EXCHANGE_HAND, OTHER_HAND)
    run = t.ids(t.first, "7H 8H 9H 10H")
    joker_run = t.ids(t.first, "5S 6S JK")
    melds = [{"cards": run}, {"cards": joker_run, "wild_as": {str(joker_run[2]): "7S"}}]
    t.apply(t.first, {"type": "meld", "melds": melds})
    meld_id = meld_of(t.state(), joker_run[0]).id
    (wrong,) = t.ids(t.first, "8D")
    action = {"type": "exchange", "meld": meld_id, "cards": [wrong]}
    t.refused(client, t.first, {"exchange": meld_id, "cards": [wrong]}, action)


# --- 3. Kuwaiti announce -----------------------------------------------------------------------

ANNOUNCE_HAND = "7H 8H 9H 10H JH KS KH KD QC QS QD 2C 4D 6C 3S"
KUWAITI_OTHER = "2S 4S 6S 8C 10C 3D AH 7D 9C JC AD AS 5C 7C"


def rig_turns(t, turns):
    state = t.state()
    state.deal.turns = [turns, turns]
    state.deal.turn.number = turns
    t.save(state)


def test_a_kuwaiti_announcement_is_offered_after_eight_turns_each_and_applies(client, game_of):
    t = Table(game_of("kuwaiti"), ANNOUNCE_HAND, KUWAITI_OTHER)
    assert "announce" not in t.types(t.first)
    # the button does not hide before the 8th turn: pressing it early gets the engine's sentence
    assert 'value="meld">Announce the selected cards' in t.page(client, t.first)

    rig_turns(t, 8)
    assert "announce" in t.types(t.first)
    assert 'value="meld">Announce the selected cards' in t.page(client, t.first)
    assert "Announce the selected cards" not in t.page(client, t.second)

    cards = t.ids(t.first, "7H 8H 9H 10H JH KS KH KD QC QS QD")
    html, action = t.applied(client, t.first, {"act": "meld", "cards": cards})
    assert action["type"] == "announce"
    assert sorted(i for spec in action["melds"] for i in spec["cards"]) == sorted(cards)
    state = t.state()
    assert state.deal.opened[t.first]
    assert sorted(c.id for tm in state.deal.melds for c in tm.meld.cards) == sorted(cards)
    assert len(state.deal.hands[t.first]) == 4
    assert "Announce the selected cards" not in html


def test_a_kuwaiti_announcement_before_eight_turns_is_refused(client, game_of):
    t = Table(game_of("kuwaiti"), ANNOUNCE_HAND, KUWAITI_OTHER)
    rig_turns(t, 7)
    cards = t.ids(t.first, "7H 8H 9H 10H JH KS KH KD QC QS QD")
    state = t.state()
    melds = moves.melds_from_selection(state, t.first, cards)
    sentence = t.refused(
        client, t.first, {"act": "meld", "cards": cards}, {"type": "announce", "melds": melds}
    )
    assert sentence == "You may announce only after every player has had 8 turns in this deal."


# --- 4. Kuwaiti declare a Hand -----------------------------------------------------------------

REGULAR_HAND = "3H 4H 5H 6H 7S 8S 9S 9D 10D JD QD KC KS KH 2C"


def test_a_kuwaiti_regular_hand_is_offered_and_declared(client, game_of):
    t = Table(game_of("kuwaiti"), REGULAR_HAND, KUWAITI_OTHER)
    rig_turns(t, 2)
    state = t.state()
    named = engine.kuwaiti_hand(state.deal.hands[t.first], engine.wilds_of(state), engine.rules_of(state))
    assert named is not None
    assert named.name == "regular"
    assert "declare_hand" in t.types(t.first)
    assert 'value="declare_hand">Declare a Hand' in t.page(client, t.first)
    assert "Declare a Hand" not in t.page(client, t.second)

    html, action = t.applied(client, t.first, {"act": "declare_hand"})
    assert action == {"type": "declare_hand"}
    state = t.state()
    assert state.deal.number == 1  # the deal ended with the Hand; the next one is dealt
    assert state.last_deal["winner"] == t.first
    assert state.last_deal["finish"] == "regular"
    assert "went out with a Hand!" in html


def test_declaring_cards_that_make_no_hand_is_refused(client, game_of):
    t = Table(game_of("kuwaiti"), ANNOUNCE_HAND, KUWAITI_OTHER)
    rig_turns(t, 2)
    assert "declare_hand" not in t.types(t.first)
    # the button does not hide because the solver finds no Hand: quiet, and the engine answers
    assert 'class="button-quiet" name="act" value="declare_hand">Declare a Hand' in t.page(client, t.first)
    sentence = t.refused(client, t.first, {"act": "declare_hand"}, {"type": "declare_hand"})
    assert sentence == "Your cards do not make a Hand."


# --- 5. Demand a redeal ------------------------------------------------------------------------

PAIRS_HAND = "5H 5H 8S 8S QD QD 3C 3C 2S 4D 6C 10H KS 7D AC"
NO_PAIRS = "2H 4H 6H 8H 10S QS 3D 5D 7C 9C JD KC AH 9S"


@pytest.mark.parametrize("variant", ["jordanian", "egyptian"])
def test_four_identical_pairs_offer_a_redeal_before_the_first_move(client, game_of, variant):
    t = Table(game_of(variant), PAIRS_HAND, NO_PAIRS)
    assert "redeal" in t.types(t.first)
    assert "redeal" not in t.types(t.second)
    assert 'value="redeal"' in t.page(client, t.first)
    assert 'value="redeal"' not in t.page(client, t.second)
    attempt = t.state().deal.attempt
    rigged = sorted(c.id for c in t.state().deal.hands[t.first])

    _html, action = t.applied(client, t.first, {"act": "redeal"})
    assert action == {"type": "redeal"}
    state = t.state()
    assert state.deal.attempt == attempt + 1  # the same deal, dealt again
    assert state.deal.number == 0
    assert sorted(c.id for c in state.deal.hands[state.deal.current]) != rigged  # dealt anew


@pytest.mark.parametrize("variant", ["jordanian", "egyptian"])
def test_a_redeal_without_the_pairs_is_refused(client, game_of, variant):
    t = Table(game_of(variant), PAIRS_HAND, NO_PAIRS)
    t.refused(client, t.second, {"act": "redeal"}, {"type": "redeal"})


def test_a_redeal_after_the_first_move_is_refused(client, game_of):
    t = Table(game_of("jordanian"), PAIRS_HAND, NO_PAIRS)
    (card,) = t.ids(t.first, "AC")
    t.apply(t.first, {"type": "discard", "card": card})
    assert "redeal" not in t.types(t.first)
    assert 'value="redeal"' not in t.page(client, t.first)
    sentence = t.refused(client, t.first, {"act": "redeal"}, {"type": "redeal"})
    assert sentence == "A redeal may be demanded only before the first move of the deal."


# --- 6. Take the discard with the selected cards ------------------------------------------------

TAKER_FIRST = "QS 2H 4H 6H 8H 10S 3D 5D 7C 9C JD KC AH 9S 4C"
TAKER = "QH QC 7D 8D 9D 10D 2S 4S 6S 3H 5C 8C JS KH"


@pytest.fixture
def jordanian_discard(game_of):
    t = Table(game_of("jordanian"), TAKER_FIRST, TAKER)
    return t


def test_the_discard_is_taken_with_the_selected_cards_into_a_new_meld(client, jordanian_discard):
    t = jordanian_discard
    assert "take_discard" not in t.types(t.second)
    assert "Take the discard with the selected cards" not in t.page(client, t.second)
    (queen,) = t.ids(t.first, "QS")
    t.apply(t.first, {"type": "discard", "card": queen})
    assert "take_discard" in t.types(t.second)
    assert 'value="take"' in t.page(client, t.second)
    assert "Take the discard with the selected cards" not in t.page(client, t.first)

    cards = t.ids(t.second, "QH QC 7D 8D 9D 10D")
    html, action = t.applied(client, t.second, {"act": "take", "cards": cards})
    assert action["type"] == "take_discard"
    laid = sorted(i for spec in action["melds"] for i in spec["cards"])
    assert laid == sorted([*cards, queen])
    state = t.state()
    assert state.deal.opened[t.second]
    assert state.deal.discard == [] or state.deal.discard[-1].id != queen
    queens = meld_of(state, queen)
    assert sorted(c.face for c in queens.meld.cards) == ["QC", "QH", "QS"]
    assert queens.owner == t.second
    assert len(state.deal.hands[t.second]) == 14 + 1 - 7
    assert f'data-card="{queen}"' in html


def test_taking_the_discard_short_of_the_opening_is_refused(client, jordanian_discard):
    t = jordanian_discard
    (queen,) = t.ids(t.first, "QS")
    t.apply(t.first, {"type": "discard", "card": queen})
    cards = t.ids(t.second, "QH QC")
    action = {"type": "take_discard", "melds": [{"cards": [*cards, queen]}]}
    sentence = t.refused(client, t.second, {"act": "take", "cards": cards}, action)
    assert sentence == "Your opening melds total 30; you need 51."
