"""The moves the selection drives on the play page, through the one path (MoveForm -> MoveRequest ->
games.moves -> services.move): exchanging a wild card (a button on every meld holding one, once the
rules allow it), taking the discard onto a chosen meld, kuwaiti's take-and-declare. The buttons do not
hide because the solver finds nothing; the engine decides, and a refusal names the cards tried. Then the
player's own order of the hand: grouping the selected cards, a dragged order, kept per seat."""

from html import escape

import pytest
from django.urls import reverse

from games import moves
from games.models import Seat
from tests.games.test_view_actions import OTHER_HAND, Table, error_of, game_of, meld_of, rig_turns

__all__ = ["game_of"]  # the fixture, shared with test_view_actions

HTMX = {"HTTP_HX_REQUEST": "true"}
EXCHANGE_HAND = "7H 8H 9H 10H 5S 6S JK 7S 2C 4D 6C 8D QS 3C 5D"


def exchange_table(game_of, variant="classic", opened=True):
    """The first seat melds a heart run and 5♠ 6♠ 🃏 (the joker as 7♠), keeping 7♠ and 8♦."""
    t = Table(game_of(variant), EXCHANGE_HAND, OTHER_HAND)
    joker_run = t.ids(t.first, "5S 6S JK")
    melds = [
        {"cards": t.ids(t.first, "7H 8H 9H 10H")},
        {"cards": joker_run, "wild_as": {str(joker_run[2]): "7S"}},
    ]
    t.apply(t.first, {"type": "meld", "melds": melds})
    return t, meld_of(t.state(), joker_run[2]).id, joker_run[2]


def test_a_meld_holding_a_wild_card_has_an_exchange_button_that_needs_a_selection(client, game_of):
    t, meld_id, _joker = exchange_table(game_of)
    html = t.page(client, t.first)
    assert f'<button data-needs="cards" type="submit" name="exchange" value="{meld_id}"' in html
    assert html.count('name="exchange"') == 1  # only the meld with a wild card
    assert 'name="exchange"' not in t.page(client, t.second)  # not their turn


def test_the_selected_natural_card_takes_the_wild_cards_place(client, game_of):
    t, meld_id, joker = exchange_table(game_of)
    (seven,) = t.ids(t.first, "7S")
    html, action = t.applied(client, t.first, {"exchange": meld_id, "cards": [seven]})
    assert action == {"type": "exchange", "meld": meld_id, "cards": [seven]}
    state = t.state()
    assert [c.face for c in state.deal.meld_by_id(meld_id).meld.cards] == ["5S", "6S", "7S"]
    assert joker in [c.id for c in state.deal.hands[t.first]]
    assert f'id="pick-{joker}"' in html  # the joker is in the hand now


def test_a_wrong_card_for_the_wild_is_refused_naming_the_card(client, game_of):
    t, meld_id, _joker = exchange_table(game_of)
    (wrong,) = t.ids(t.first, "8D")
    sentence = t.refused(
        client,
        t.first,
        {"exchange": meld_id, "cards": [wrong]},
        {"type": "exchange", "meld": meld_id, "cards": [wrong]},
    )
    html = t.post(client, t.first, {"exchange": meld_id, "cards": [wrong]}).content.decode()
    assert error_of(html) == escape(f"8♦ for the wild card in meld {meld_id}: {sentence}")
    assert f'id="pick-{wrong}" class="pick" checked' in html  # the selection stays


def test_kuwaiti_offers_the_exchange_before_announcing_classic_only_after_opening(client, game_of):
    t = Table(game_of("classic"), EXCHANGE_HAND, OTHER_HAND)
    (seven,) = t.ids(t.first, "7S")
    t.apply(t.first, {"type": "discard", "card": seven})
    # classic: the second seat has not opened: no exchange button even with a wild card on the table
    state = t.state()
    assert not state.deal.opened[t.second]
    html = t.page(client, t.second)
    assert 'name="exchange"' not in html
    assert 'name="take_lay_off"' not in html  # taking the discard onto a meld needs an opening too


def test_a_card_not_held_is_refused_without_naming_it(client, game_of):
    t, meld_id, _joker = exchange_table(game_of)
    hidden = t.state().deal.hands[t.second][0]
    html = t.post(client, t.first, {"exchange": meld_id, "cards": [hidden.id]}).content.decode()
    assert error_of(html) == "You do not hold one of those cards."
    assert moves.card_words(hidden.face) not in error_of(html)


# --- The discard onto a chosen meld ----------------------------------------------------------------

OPENER = "7H 8H 9H 10H KS KH KD 5C 2C 4D 6C 8S QS 3C 5D"
FEEDER = "JH 4S 6S 8C 10C QC 3D 5H 7D 9C JC AD AS 3S"


def onto_table(game_of, variant="classic"):
    """The first seat has opened (heart run, kings) and discarded; the second discarded J♥."""
    t = Table(game_of(variant), OPENER, FEEDER)
    run, kings = t.ids(t.first, "7H 8H 9H 10H"), t.ids(t.first, "KS KH KD")
    t.apply(t.first, {"type": "meld", "melds": [{"cards": run}, {"cards": kings}]})
    t.apply(t.first, {"type": "discard", "card": t.ids(t.first, "5C")[0]})
    t.apply(t.second, {"type": "draw"})
    t.apply(t.second, {"type": "discard", "card": t.ids(t.second, "JH")[0]})
    state = t.state()
    t.run, t.kings, t.jack = meld_of(state, run[0]).id, meld_of(state, kings[0]).id, state.deal.discard[-1]
    return t


@pytest.fixture
def onto(game_of):
    return onto_table(game_of)


def test_every_meld_offers_the_discard_and_the_one_it_fits_is_marked(client, onto):
    t = onto
    html = t.page(client, t.first)
    assert f'name="take_lay_off" value="{t.run}" class="button-quiet mini suggested"' in html
    assert f'name="take_lay_off" value="{t.kings}" class="button-quiet mini"' in html  # shown, not marked


def test_the_discard_goes_onto_the_chosen_meld(client, onto):
    t = onto
    html, action = t.applied(client, t.first, {"take_lay_off": t.run})
    assert action == {"type": "take_discard", "lay_off": {"meld": t.run, "cards": [t.jack.id]}}
    grown = t.state().deal.meld_by_id(t.run)
    assert [c.face for c in grown.meld.cards] == ["7H", "8H", "9H", "10H", "JH"]
    assert "Discard the selected card" in html  # the turn goes on: play phase


def test_the_discard_onto_a_meld_it_does_not_fit_is_refused_naming_it(client, onto):
    t = onto
    action = {"type": "take_discard", "lay_off": {"meld": t.kings, "cards": [t.jack.id]}}
    sentence = t.refused(client, t.first, {"take_lay_off": t.kings}, action)
    html = t.post(client, t.first, {"take_lay_off": t.kings}).content.decode()
    assert error_of(html) == escape(f"J♥ from the discard pile onto meld {t.kings}: {sentence}")


def test_jordanian_takes_the_discard_only_into_a_new_meld(client, game_of):
    t = onto_table(game_of, "jordanian")
    html = t.page(client, t.first)
    assert 'value="draw"' in html
    assert 'name="take_lay_off"' not in html


# --- Kuwaiti: take the discard and declare a Hand ----------------------------------------------------

REGULAR_BUT_KH = "3H 4H 5H 6H 7S 8S 9S 9D 10D JD QD KC KS 2C"
FIRST_WITH_KH = "KH 2S 4S 6S 8C 10C 3D AH 7D 9C JC AD AS 5C 7C"


@pytest.fixture
def declarer(game_of):
    """kuwaiti: the first seat discards K♥, which completes the second seat's regular Hand."""
    t = Table(game_of("kuwaiti"), FIRST_WITH_KH, REGULAR_BUT_KH)
    rig_turns(t, 2)
    t.apply(t.first, {"type": "discard", "card": t.ids(t.first, "KH")[0]})
    return t


def test_taking_the_discard_to_declare_a_hand_is_offered_and_ends_the_deal(client, declarer):
    t = declarer
    html = t.page(client, t.second)
    assert 'class="button-quiet suggested">Take' in html
    assert "and declare a Hand" in html
    html, action = t.applied(client, t.second, {"act": "take_declare"})
    assert action == {"type": "take_discard", "declare_hand": True}
    state = t.state()
    assert state.last_deal["winner"] == t.second
    assert state.last_deal["finish"] == "regular"


def test_take_and_declare_without_a_hand_is_refused_naming_the_card(client, game_of):
    t = Table(game_of("kuwaiti"), FIRST_WITH_KH, "2H 4H 6H 8H 10S QS 3C 5D 7H 9D JS KD AC 9H")
    rig_turns(t, 2)
    t.apply(t.first, {"type": "discard", "card": t.ids(t.first, "KH")[0]})
    html = t.page(client, t.second)
    assert 'name="act" value="take_declare"' in html  # shown although no Hand is there
    sentence = t.refused(
        client, t.second, {"act": "take_declare"}, {"type": "take_discard", "declare_hand": True}
    )
    html = t.post(client, t.second, {"act": "take_declare"}).content.decode()
    assert error_of(html) == escape(f"K♥ from the discard pile and a Hand: {sentence}")


# --- The player's own order of the hand ------------------------------------------------------------


def hand_ids(html: str) -> list[int]:
    import re

    return [int(i) for i in re.findall(r'id="pick-(\d+)"', html)]


def test_grouping_puts_the_selected_cards_side_by_side_and_survives_a_reload(client, game_of):
    t = Table(game_of("classic"), EXCHANGE_HAND, OTHER_HAND)
    before = hand_ids(t.page(client, t.first))  # by suit
    pair = [before[-1], before[0]]  # the last card joins the first
    response = t.post(client, t.first, {"act": "group", "cards": pair, "sort": "suit"})
    html = response.content.decode()
    assert 'id="move-error"' not in html
    after = hand_ids(html)
    assert after[:2] == [before[0], before[-1]]
    assert after[2:] == before[1:-1]
    assert hand_ids(t.page(client, t.first)) == after  # kept on the server, per seat
    seat = Seat.objects.get(game=t.game, number=t.first)
    assert seat.hand_order["cards"] == after
    assert hand_ids(t.page(client, t.second)) != after  # the other seat's hand is its own
    t.game.refresh_from_db()
    assert t.game.version == 0  # no move was made


def test_a_dragged_order_is_kept_and_sorting_by_suit_or_rank_still_works(client, game_of):
    t = Table(game_of("classic"), EXCHANGE_HAND, OTHER_HAND)
    by_suit = hand_ids(t.page(client, t.first))
    dragged = by_suit[1:] + by_suit[:1]
    html = t.post(client, t.first, {"act": "arrange", "order": dragged}).content.decode()
    assert hand_ids(html) == dragged
    assert hand_ids(t.page(client, t.first)) == dragged
    client.force_login(t.people[t.first])
    play = reverse("games:play", args=[t.game.group.slug, t.game.pk])
    assert hand_ids(client.get(play, {"sort": "suit"}, **HTMX).content.decode()) == by_suit
    by_rank = hand_ids(client.get(play, {"sort": "rank"}, **HTMX).content.decode())
    assert by_rank != by_suit
    assert sorted(by_rank) == sorted(by_suit)
    page = client.get(play, {"sort": "rank"}, **HTMX).content.decode()
    assert 'href="?sort=own"' in page  # back to the player's own order
    assert hand_ids(client.get(play, {"sort": "own"}, **HTMX).content.decode()) == dragged


def test_an_order_naming_a_card_not_held_changes_nothing(client, game_of):
    t = Table(game_of("classic"), EXCHANGE_HAND, OTHER_HAND)
    other = t.state().deal.hands[t.second][0].id
    mine = hand_ids(t.page(client, t.first))
    html = t.post(client, t.first, {"act": "arrange", "order": [other, *mine]}).content.decode()
    assert error_of(html) == "Your hand has changed; try again."
    assert Seat.objects.get(game=t.game, number=t.first).hand_order == {}


def test_the_own_order_does_not_carry_into_the_next_deal(client, game_of):
    t = Table(game_of("classic"), EXCHANGE_HAND, OTHER_HAND)
    mine = hand_ids(t.page(client, t.first))
    t.post(client, t.first, {"act": "arrange", "order": mine[::-1]})
    seat = Seat.objects.get(game=t.game, number=t.first)
    state = t.state()
    assert moves.own_order(seat.hand_order, state) == mine[::-1]
    state.deal.number += 1
    assert moves.own_order(seat.hand_order, state) == []
