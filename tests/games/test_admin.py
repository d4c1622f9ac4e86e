"""The admin shows games, seats and moves but never changes or deletes them (services.py writes)."""

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, Move
from tests.factories import UserFactory


@pytest.fixture
def staff_client(db):
    superuser = UserFactory(display_name="Sam Super", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(superuser)
    return client


def test_a_superuser_may_view_a_game_and_its_moves(staff_client, duel, owner):
    from games import engine
    from games.services import playing

    state = engine.from_json(duel.state)
    user = duel.seats.get(number=state.current).user
    playing.play(
        game_id=duel.pk, user=user, version=duel.version, action=engine.bot_action(state, state.current)
    )
    move = Move.objects.filter(game=duel).first()
    assert staff_client.get(reverse("admin:games_game_change", args=[duel.pk])).status_code == 200
    assert staff_client.get(reverse("admin:games_move_change", args=[move.pk])).status_code == 200


def test_a_superuser_can_neither_change_nor_delete_a_game(staff_client, duel):
    before = Game.objects.get(pk=duel.pk)
    change = staff_client.post(reverse("admin:games_game_change", args=[duel.pk]), {"status": "finished"})
    assert change.status_code == 403
    delete = staff_client.post(reverse("admin:games_game_delete", args=[duel.pk]), {"post": "yes"})
    assert delete.status_code == 403
    after = Game.objects.get(pk=duel.pk)
    assert (after.status, after.version) == (before.status, before.version)


def test_a_superuser_can_neither_change_nor_delete_a_move(staff_client, duel):
    from games import engine
    from games.services import playing

    state = engine.from_json(duel.state)
    user = duel.seats.get(number=state.current).user
    playing.play(
        game_id=duel.pk, user=user, version=duel.version, action=engine.bot_action(state, state.current)
    )
    move = Move.objects.filter(game=duel).first()
    assert (
        staff_client.post(reverse("admin:games_move_change", args=[move.pk]), {"kind": "bot"}).status_code
        == 403
    )
    assert (
        staff_client.post(reverse("admin:games_move_delete", args=[move.pk]), {"post": "yes"}).status_code
        == 403
    )
    assert Move.objects.filter(pk=move.pk, kind=move.kind).exists()
