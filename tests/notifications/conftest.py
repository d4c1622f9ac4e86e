"""Games of the fixed cast for notification tests (owner vs member, classic, a day per move)."""

import pytest
from django.db import transaction

from games import engine
from games import notifications as game_notifications
from games.models import Game, TimeoutRule
from games.services import playing, seating
from handsite.models import Notification
from handsite.services import preferences


@pytest.fixture
def make_game(owner, member):
    def make(seats=None, move_hours=24, timeout_rule=TimeoutRule.AUTO_MOVE, seed=1234):
        with transaction.atomic():
            game = seating.create_game(
                group=owner.memberships.first().group,
                created_by=owner,
                variant="classic",
                options=None,
                seats=seats or [owner, member],
                move_hours=move_hours,
                timeout_rule=timeout_rule,
                seed=seed,
            )
            if member in (seats or [owner, member]):
                seating.accept_seat(game_id=game.pk, user=member)
            forget_the_invitations(game)
        return Game.objects.get(pk=game.pk)

    return make


def forget_the_invitations(game):
    """These games are about turns: the invitation and its answer (told, e-mailed and tested in
    tests/games/test_invitation_*.py) would only be noise in their counts of rows and e-mails. Called
    in the game's creating transaction, so no sending task finds them."""
    Notification.objects.filter(
        topic=game_notifications.topic(game.pk),
        kind__in=[game_notifications.INVITED, game_notifications.INVITATION_NEWS],
    ).delete()


@pytest.fixture
def game(make_game):
    return make_game()


def player_to_move(game):
    game.refresh_from_db()
    return next(seat.user for seat in game.seats.all() if seat.number == game.turn_seat)


def play_one_turn(game):
    """The player to move draws and discards (two engine actions: the turn passes once)."""
    game.refresh_from_db()
    mover = player_to_move(game)
    state = engine.from_json(game.state)
    seat = state.current
    while True:
        action = engine.bot_action(state, seat)
        playing.play(game_id=game.pk, user=mover, version=game.version, action=action)
        game.refresh_from_db()
        state = engine.from_json(game.state)
        if state.current != seat:
            return mover


@pytest.fixture
def prefs():
    """prefs(user, **fields): set a person's notification preferences."""

    def set_prefs(user, **fields):
        pref = preferences.preference_for(user)
        for name, value in fields.items():
            setattr(pref, name, value)
        pref.save()
        return pref

    return set_prefs


class CaughtMail:
    """The messages a real SMTP server on 127.0.0.1 received, parsed as a mail client would."""

    def __init__(self):
        self.raw: list[bytes] = []

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd's handler hook
        self.raw.append(envelope.original_content or envelope.content)
        return "250 OK"

    @property
    def messages(self):
        from email import message_from_bytes, policy

        return [message_from_bytes(raw, policy=policy.default) for raw in self.raw]

    def clear(self):
        self.raw.clear()


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def smtp(settings):
    """An SMTP server (aiosmtpd) the test starts on 127.0.0.1; the site sends to it over SMTP."""
    from aiosmtpd.controller import Controller

    caught = CaughtMail()
    controller = Controller(caught, hostname="127.0.0.1", port=_free_port())
    controller.start()
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": controller.port, "use_tls": False, "timeout": 5},
        }
    }
    try:
        yield caught
    finally:
        controller.stop()
