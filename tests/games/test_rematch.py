""" "Play again with the same players": one tap of a player of a finished game makes the rematch (same
rule set, options, seats in order, time per move and timeout rule), once, whoever taps first; the
others are invited as for any new game."""

import pytest
from django.urls import reverse
from django.utils import timezone

from games import engine
from games.models import Game, GameStatus
from games.services import core, leaving, rematch, seating

HTMX = {"HTTP_HX_REQUEST": "true"}


def _finish(game):
    """Plays the game to its end with the engine (every seat the bot's choices) and stores it finished."""
    state = engine.from_json(game.state)
    while not state.finished:
        engine.apply(state, state.current, engine.bot_action(state, state.current))
    Game.objects.filter(pk=game.pk).update(
        state=engine.to_json(state), status=GameStatus.FINISHED, turn_seat=None, finished_at=timezone.now()
    )
    game.refresh_from_db()
    return game


@pytest.fixture
def finished(owner, member, start_game):
    game = start_game([owner, seating.BOT, member], seed=7, move_hours=24, timeout_rule="bot")
    seating.accept_seat(game_id=game.pk, user=member)
    game.refresh_from_db()
    return _finish(game)


def _url(game):
    return reverse("games:rematch", args=[game.group.slug, game.pk])


def test_a_tap_makes_the_rematch_with_the_same_seats_and_options_and_opens_it(client, member, finished):
    client.force_login(member)
    response = client.post(_url(finished))
    new = Game.objects.exclude(pk=finished.pk).get()
    assert response.status_code == 302
    assert response.url == new.get_absolute_url()
    assert (new.variant, new.options, new.players) == (finished.variant, finished.options, finished.players)
    assert (new.move_hours, new.timeout_rule) == (24, "bot")
    assert new.created_by == member
    seats = list(new.seats.order_by("number"))
    old = list(finished.seats.order_by("number"))
    assert [(s.user_id, s.bot) for s in seats] == [(s.user_id, s.bot) for s in old]
    assert seats[2].accepted_at is not None  # the one who tapped plays at once
    assert seats[0].accepted_at is None  # the others are invited
    assert new.status == GameStatus.WAITING
    finished.refresh_from_db()
    assert finished.rematch == new


def test_the_second_tap_opens_the_same_rematch(client, owner, member, finished):
    client.force_login(member)
    client.post(_url(finished))
    client.force_login(owner)
    response = client.post(_url(finished), **HTMX)
    assert Game.objects.count() == 2
    new = Game.objects.exclude(pk=finished.pk).get()
    assert response.status_code == 204
    assert response.headers["HX-Redirect"] == new.get_absolute_url()
    page = client.get(finished.get_absolute_url()).content.decode()
    assert f'href="{new.get_absolute_url()}" id="rematch-link"' in page
    assert 'id="rematch"' not in page


def test_a_player_who_left_gets_a_bot_in_the_rematch(owner, member, start_game):
    game = start_game([owner, member], seed=7)
    seating.accept_seat(game_id=game.pk, user=member)
    leaving.leave_game(game_id=game.pk, user=member)
    game = _finish(Game.objects.get(pk=game.pk))
    new = rematch.rematch(game_id=game.pk, user=owner, group_slug=game.group.slug)
    assert [(s.user_id, s.bot) for s in new.seats.order_by("number")] == [(owner.pk, False), (None, True)]
    assert new.status == GameStatus.ACTIVE  # the owner and a bot: dealt at once


def test_a_game_in_play_cannot_be_played_again(client, owner, duel):
    client.force_login(owner)
    response = client.post(_url(duel), follow=True)
    assert "Only a finished game can be played again." in response.content.decode()
    assert Game.objects.count() == 1


def test_a_member_who_did_not_play_cannot_start_the_rematch(owner, member, start_game, group):
    from tests.factories import MembershipFactory

    watcher = MembershipFactory(group=group).user
    game = _finish(start_game([owner, seating.BOT], seed=7))
    with pytest.raises(core.GameError, match="Only the game's players"):
        rematch.rematch(game_id=game.pk, user=watcher, group_slug=group.slug)
    assert Game.objects.count() == 1


def test_an_outsider_gets_404(client, outsider, finished):
    client.force_login(outsider)
    assert client.post(_url(finished)).status_code == 404
    assert Game.objects.count() == 1
