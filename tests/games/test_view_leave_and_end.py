"""A player may hand their seat to a bot for the rest of the game; the group's owner or an admin may
end a game in play (kept as "abandoned", never scored or rated). Both are in the log and the other
players are told (handsite's notification outbox)."""

import pytest
from django.urls import reverse

from games import engine
from games.models import Game, GameStatus, Move
from games.services import leaving
from handsite.models import Notification

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(game, name="seat"):
    return reverse(f"games:{name}", args=[game.group.slug, game.pk])


def seated(game):
    return {seat.number: seat for seat in game.seats.select_related("user")}


def test_a_player_who_leaves_hands_the_seat_to_a_bot_and_the_others_are_told(client, duel, owner, member):
    state = engine.from_json(duel.state)
    leaver = seated(duel)[state.current].user  # the player to move leaves: the bot moves at once
    other = member if leaver == owner else owner
    client.force_login(leaver)
    html = client.post(url(duel), {"do": "leave"}, **HTMX).content.decode()
    assert "A bot plays your seat now; you are watching." in html
    seat = seated(duel)[state.current]
    assert seat.bot
    assert seat.user == leaver  # still recorded on the seat
    assert seat.left_at is not None
    duel.refresh_from_db()
    assert duel.version > state.version  # the bot played the turn
    assert Move.objects.filter(game=duel, seat=seat.number, kind="bot").exists()
    told = Notification.objects.get(user=other, kind="seat_left")
    assert told.data["name"] == leaver.name
    assert not Notification.objects.filter(user=leaver, kind="seat_left").exists()
    log = client.get(url(duel, "log")).content.decode()
    assert f"{leaver.name} left the game; a bot plays their seat from here on." in log


def test_leaving_twice_or_as_a_watcher_is_a_sentence(client, duel, owner, admin):
    client.force_login(owner)
    client.post(url(duel), {"do": "leave"}, **HTMX)
    html = client.post(url(duel), {"do": "leave"}, **HTMX).content.decode()
    assert "A bot plays your seat now." in html
    client.force_login(admin)
    html = client.post(url(duel), {"do": "leave"}, **HTMX).content.decode()
    assert "You are watching this game; only its players make moves." in html


def test_an_outsider_cannot_leave_or_end(client, duel, outsider):
    client.force_login(outsider)
    for do in ("leave", "end"):
        assert client.post(url(duel), {"do": do}, **HTMX).status_code == 404
    duel.refresh_from_db()
    assert duel.status == GameStatus.ACTIVE


def test_only_the_owner_or_an_admin_ends_a_game(client, duel, member):
    client.force_login(member)
    html = client.post(url(duel), {"do": "end"}, **HTMX).content.decode()
    assert "Only the group&#x27;s owner or an admin can end a game." in html
    duel.refresh_from_db()
    assert duel.status == GameStatus.ACTIVE


def test_an_admin_ends_the_game_it_is_kept_told_and_never_scored(client, duel, admin, owner, member):
    client.force_login(admin)
    html = client.post(url(duel), {"do": "end"}, **HTMX).content.decode()
    assert "ended the game early." in html
    duel.refresh_from_db()
    assert duel.status == GameStatus.ABANDONED
    assert duel.ended_by == admin
    assert duel.deadline_at is None
    assert duel.turn_seat is None
    assert duel.state is not None  # kept, with its log
    for player in (owner, member):
        assert Notification.objects.filter(user=player, kind="game_ended").count() == 1
    # no more moves, no polling, no scoring
    client.force_login(owner)
    page = client.get(url(duel, "play")).content.decode()
    assert 'id="poll"' not in page
    assert 'id="hand"' not in page
    assert "This game was ended early; it is not scored." in page
    move = client.post(url(duel, "move"), {"act": "draw", "version": duel.version}, **HTMX).content.decode()
    assert "The game is over." in move
    assert "ended the game early; it is not scored." in client.get(url(duel, "log")).content.decode()
    assert not Game.objects.filter(pk=duel.pk, status=GameStatus.ACTIVE).exists()


def test_an_ended_game_is_not_rated(duel, admin, owner):
    from scoring.models import OnlineResult, Rating
    from scoring.services.ratings import recompute_ratings

    leaving.end_game(game_id=duel.pk, actor=admin)
    recompute_ratings(duel.group_id)
    assert not OnlineResult.objects.filter(game_id=duel.pk, finished=True).exists()
    assert not Rating.objects.filter(group_id=duel.group_id).exists()


@pytest.mark.parametrize("do", ["leave", "end"])
def test_a_finished_or_waiting_game_cannot_be_left_or_ended(client, owner, member, start_game, do):
    game = start_game([owner, member])  # waiting for the member
    client.force_login(owner)
    html = client.post(url(game), {"do": do}, **HTMX).content.decode()
    assert "The game has not started yet." in html or "The game is not in play." in html


def test_the_leave_and_end_offers_follow_the_game_in_every_fragment(client, duel, owner, member):
    """#leave lives outside #game; #game tells play.css whether the game is active (data-status) and
    whether this person plays a seat (data-can-leave), so a fragment updates what is offered."""
    client.force_login(owner)
    page = client.get(url(duel, "play")).content.decode()
    assert 'id="leave"' in page
    assert 'value="end"' in page
    assert 'value="leave"' in page
    assert 'data-status="active" data-can-leave>' in page
    client.force_login(member)
    page = client.get(url(duel, "play")).content.decode()
    assert 'value="leave"' in page
    assert 'value="end"' not in page
    client.force_login(owner)
    fragment = client.post(url(duel), {"do": "end"}, **HTMX).content.decode()
    assert fragment.lstrip().startswith('<div id="game"')
    assert 'data-status="abandoned">' in fragment  # play.css hides #leave: nothing left to leave or end
    client.force_login(member)
    poll = client.get(url(duel, "play"), **HTMX).content.decode()
    assert 'data-status="abandoned">' in poll
    assert "data-can-leave" not in poll
