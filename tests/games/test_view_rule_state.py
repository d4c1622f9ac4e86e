"""The live rule-state line of the play page, one test per rule set (and partnership play): what is
wild this deal, what an opening needs now and who has opened, kuwaiti's announcing turns."""

import re

from django.urls import reverse

from games import engine
from games.models import Game
from games.services import core as game_core
from games.services import seating
from games.services.seating import BOT
from tests.rigging import Deck


def rule_state_text(client, game) -> str:
    html = client.get(reverse("games:play", args=[game.group.slug, game.pk])).content.decode()
    block = re.search(r'<div class="rule-state" id="rule-state">(.*?)</div>', html, re.S)
    assert block, "the play page has no rule-state block"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", block.group(1))).strip()


def rig(game: Game, change) -> None:
    """Change the game's engine state (a position reached in play) and save it."""
    state = game_core.load_state(game)
    change(state)
    Game.objects.filter(pk=game.pk).update(state=engine.to_json(state), revision=game.revision + 1)
    game.refresh_from_db()


def seat_number(game, user) -> int:
    return game.seats.get(user=user).number


def test_classic_shows_the_requirement_and_who_has_opened(client, owner, member, duel):
    client.force_login(owner)
    text = rule_state_text(client, duel)
    assert "An opening needs 51." in text
    assert "Nobody has opened yet." in text
    rig(duel, lambda state: state.deal.opened.__setitem__(seat_number(duel, member), True))
    assert "Opened: Mona Member." in rule_state_text(client, duel)


def test_classic_partnership_names_who_has_opened_on_both_teams(client, owner, member, start_game):
    game = start_game([owner, BOT, member, BOT], options={"teams": True}, seed=77)
    seating.accept_seat(game_id=game.pk, user=member)
    game.refresh_from_db()

    def open_both_partners(state):
        state.deal.opened[0] = True
        state.deal.opened[2] = True

    rig(game, open_both_partners)
    client.force_login(member)
    text = rule_state_text(client, game)
    assert "An opening needs 51." in text
    assert "Opened: Olivia Owner, Mona Member." in text


def test_jordanian_says_which_aces_are_wild_this_deal(client, owner, member, start_game):
    game = start_game([owner, member], variant="jordanian", seed=5)
    seating.accept_seat(game_id=game.pk, user=member)
    game.refresh_from_db()
    rig(game, lambda state: setattr(state.deal, "indicator", Deck("jordanian").pick("7H")[0]))
    client.force_login(member)
    text = rule_state_text(client, game)
    assert "Wild this deal: the two A♥. The jokers play as natural A♥." in text
    assert "An opening needs 51." in text


def test_jordanian_partnership_shows_the_wild_cards_too(client, owner, member, start_game):
    game = start_game([owner, member, BOT, BOT], variant="jordanian", options={"teams": True}, seed=6)
    seating.accept_seat(game_id=game.pk, user=member)
    game.refresh_from_db()
    rig(game, lambda state: setattr(state.deal, "indicator", Deck("jordanian", 4).pick("QC")[0]))
    client.force_login(owner)
    assert "Wild this deal: the two A♣." in rule_state_text(client, game)


def test_egyptian_with_an_ace_indicator_says_the_jokers_are_wild(client, owner, member, start_game):
    game = start_game([owner, member], variant="egyptian", seed=7)
    seating.accept_seat(game_id=game.pk, user=member)
    game.refresh_from_db()
    rig(game, lambda state: setattr(state.deal, "indicator", Deck("egyptian").pick("AS")[0]))
    client.force_login(owner)
    assert "Wild this deal: the two jokers (the indicator A♠ is an ace)." in rule_state_text(client, game)


def test_saudi_shows_the_opening_requirement_as_it_rises(client, owner, member, start_game):
    game = start_game([owner, member, BOT], variant="saudi", seed=8)
    seating.accept_seat(game_id=game.pk, user=member)
    game.refresh_from_db()
    client.force_login(owner)
    assert "An opening needs 51 this deal (nobody has opened yet)." in rule_state_text(client, game)
    mona = seat_number(game, member)

    def mona_opened_with_63(state):
        state.deal.opened[mona] = True
        state.deal.opening_totals[mona] = 63
        state.deal.last_opening = 63

    rig(game, mona_opened_with_63)
    text = rule_state_text(client, game)
    assert "An opening needs 64 this deal: the last one was 63, by Mona Member." in text
    assert "Opened: Mona Member." in text


def test_kuwaiti_counts_the_turns_to_the_announcement(client, owner, admin, member, start_game):
    game = start_game([owner, member, admin], variant="kuwaiti", seed=9)
    seating.accept_seat(game_id=game.pk, user=member)
    seating.accept_seat(game_id=game.pk, user=admin)
    game.refresh_from_db()
    state = game_core.load_state(game)
    first, dealer = state.deal.first, state.deal.dealer
    names = {s.number: s.name for s in game_core.seats_of(game)}

    def sixth_turn_of_the_first_player(state):
        state.deal.turns = [5, 5, 5]
        state.deal.turns[first] = 6
        state.deal.opened[dealer] = True

    rig(game, sixth_turn_of_the_first_player)
    client.force_login(game.seats.get(number=first).user)
    text = rule_state_text(client, game)
    assert "You may announce from your turn 9 (this is your turn 6): 3 to go." in text
    assert "Announcing needs 51, once every player has had 8 turns:" in text
    assert f"{names[first]} on turn 6, may announce from turn 9" in text
    assert f"{names[dealer]} has announced" in text


def test_the_rule_state_links_to_the_rules_with_this_games_options(client, owner, duel):
    client.force_login(owner)
    html = client.get(reverse("games:play", args=[duel.group.slug, duel.pk])).content.decode()
    assert f'href="{reverse("games:rules", args=["classic"])}?game={duel.pk}"' in html


def test_a_move_answered_with_htmx_keeps_the_rule_state(client, owner, member, duel):
    state = game_core.load_state(duel)
    seat = state.deal.current
    player = duel.seats.get(number=seat).user
    client.force_login(player)
    card = state.deal.hands[seat][0].id
    response = client.post(
        reverse("games:move", args=[duel.group.slug, duel.pk]),
        {"version": duel.version, "act": "discard", "cards": [str(card)]},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert 'id="rule-state"' in response.content.decode()
