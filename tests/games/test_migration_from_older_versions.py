"""A database made by an older version's migrations, with games in it, upgrades whole: moves logged
before games/0005 get the deal they were made in (as today's code logs it), invitations made before
games/0010 get a reply deadline the invitation scan honours, and the old games go on."""

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games import engine

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_DEALS = [("handsite", "0001_squashed_0007_user_language"), ("games", "0004_game_staged")]
UPGRADED = [("games", "0013_old_moves_deals_and_invitation_deadlines")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _latest():
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def _played(seed: int, actions: int):
    """A two-player classic game played by bots for ``actions`` actions, as the old code logged it:
    (seat, action) pairs and the state after them."""
    state = engine.new_game("classic", 2, {}, seed)
    log, deals = [], []
    while len(log) < actions and not state.finished:
        seat = state.current
        action = engine.bot_action(state, seat)
        deals.append(state.deal.number)
        engine.apply(state, seat, action)
        log.append((seat, action))
    return state, log, deals


def test_moves_from_before_deal_numbers_get_the_deal_they_were_made_in_and_old_invitations_a_deadline(
    settings,
):
    old = _migrate(BEFORE_DEALS)
    User = old.get_model("handsite", "User")
    Group = old.get_model("handsite", "PlayerGroup")
    Game = old.get_model("games", "Game")
    Seat = old.get_model("games", "Seat")
    Move = old.get_model("games", "Move")
    amira = User.objects.create(username="amira@example.com", email="amira@example.com", display_name="Amira")
    basil = User.objects.create(username="basil@example.com", email="basil@example.com", display_name="Basil")
    group = Group.objects.create(name="Old friends", slug="old-friends")

    # A game past its first deal (so its log spans two deals), left unfinished by the old version.
    seed = 20260101
    state, log, deals = _played(seed, actions=400)
    assert len(set(deals)) >= 2, "the bots' game should have reached a second deal"
    played = Game.objects.create(
        group=group,
        variant="classic",
        players=2,
        seed=seed,
        status="active",
        version=state.version,
        state=engine.to_json(state),
        created_by=amira,
    )
    for number, user in enumerate([amira, basil]):
        Seat.objects.create(game=played, number=number, user=user, accepted_at=timezone.now())
    Move.objects.bulk_create(
        Move(game=played, seq=seq, seat=seat, action=action, kind="bot")
        for seq, (seat, action) in enumerate(log, start=1)
    )
    # A game waiting for Basil's answer to an invitation made by the old version (no deadline then).
    waiting = Game.objects.create(
        group=group, variant="classic", players=2, seed=7, status="waiting", created_by=amira
    )
    Seat.objects.create(game=waiting, number=0, user=amira, accepted_at=timezone.now())
    invited = Seat.objects.create(game=waiting, number=1, user=basil)

    try:
        before = timezone.now()
        new = _migrate(UPGRADED)
        moves = list(new.get_model("games", "Move").objects.filter(game_id=played.pk).order_by("seq"))
        assert [move.deal for move in moves] == deals
        seat = new.get_model("games", "Seat").objects.get(pk=invited.pk)
        hours = dt.timedelta(hours=settings.GAMES_INVITATION_REPLY_HOURS)
        assert before + hours <= seat.reply_by <= timezone.now() + hours
        assert seat.invited_at == waiting.created_at
        assert new.get_model("games", "Seat").objects.get(game_id=waiting.pk, number=0).reply_by is None

        _latest()
        from games.models import Game as CurrentGame
        from games.models import Seat as CurrentSeat
        from games.services import core as game_core
        from games.services import scans

        # The old game goes on with today's code: its stored state loads and equals its log's replay.
        game = CurrentGame.objects.get(pk=played.pk)
        assert engine.to_json(game_core.load_state(game)) == engine.to_json(state)
        # The old invitation is freed by the scan once its new deadline passes (not before).
        assert scans.expire_invitations(now=timezone.now()) == {}
        freed = scans.expire_invitations(now=seat.reply_by + dt.timedelta(seconds=1))
        assert freed == {invited.pk: waiting.pk}
        assert CurrentSeat.objects.get(pk=invited.pk).user_id is None
    finally:
        _latest()
