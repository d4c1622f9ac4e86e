"""The "my games" list orders games by whose turn it is and by deadline; the replay shows the game as it
stood after the chosen move."""

import datetime
import re

from django.urls import reverse
from django.utils import timezone

from games import engine
from games.models import Game, GameStatus, Move
from games.services import core as game_core
from games.services import playing, seating


def _cards_in_section(html: str, name: str) -> list[int]:
    """The card ids drawn on the replay line that starts with the player's name."""
    line = re.search(rf'<span class="member-name">{re.escape(name)}</span>(.*?)</li>', html, re.S)
    assert line, name
    return [int(card_id) for card_id in re.findall(r'data-card="(\d+)"', line.group(1))]


def test_my_games_lists_your_turn_first_soonest_deadline_first_with_the_time_left(
    client, owner, member, start_game
):
    later = start_game([owner, seating.BOT], seed=4, move_hours=72)
    sooner = start_game([owner, seating.BOT], seed=5, move_hours=24)
    waiting = start_game([owner, member])  # the member has not accepted: not the owner's turn
    now = timezone.now()
    Game.objects.filter(pk=later.pk).update(deadline_at=now + datetime.timedelta(hours=50))
    Game.objects.filter(pk=sooner.pk).update(deadline_at=now + datetime.timedelta(hours=3))
    for game in (later, sooner):
        game.refresh_from_db()
        assert game.status == GameStatus.ACTIVE
        assert game.turn_seat == game.seats.get(user=owner).number

    client.force_login(owner)
    home = client.get("/").content.decode()

    positions = [home.index(game.get_absolute_url()) for game in (sooner, later, waiting)]
    assert positions == sorted(positions)
    section = home[positions[0] : positions[1]]
    assert re.search(r"\b2\s+hours\b.*left", section)  # timeuntil joins with non-breaking spaces
    assert re.search(r"\b2\s+days\b.*left", home[positions[1] : positions[2]])


def test_the_replay_shows_every_hand_as_it_was_after_the_chosen_move(client, owner, start_game):
    game = start_game([owner, seating.BOT], seed=11)
    while game.status == GameStatus.ACTIVE:
        state = engine.from_json(game.state)
        playing.play(game_id=game.pk, user=owner, version=game.version, action=engine.bot_action(state, 0))
        game.refresh_from_db()
    moves = list(Move.objects.filter(game=game).order_by("seq").values_list("seat", "action"))
    names = {seat.number: seat.name for seat in game_core.seats_of(game)}
    url = reverse("games:replay", args=[game.group.slug, game.pk])
    client.force_login(owner)

    shown_by_step = {}
    for step in (4, 5):
        expected = engine.replay(game.variant, game.options, game.players, game.seed, moves[:step])
        html = client.get(url, {"step": step}).content.decode()
        assert f"Move {step} of {len(moves)}" in html
        shown = {seat: sorted(_cards_in_section(html, names[seat])) for seat in range(game.players)}
        hands = expected.deal.hands
        assert shown == {seat: sorted(card.id for card in hands[seat]) for seat in range(game.players)}
        shown_by_step[step] = shown
    assert shown_by_step[4] != shown_by_step[5]  # a move changes some hand
