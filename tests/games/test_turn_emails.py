"""A "your turn" e-mail only when the turn passes to someone who is not already on the page. The move
queues no task: the outbox's minute sweep (``deliver_pending``) sends it."""

from django.core import mail

from games import engine
from games.models import Game
from games.services import playing, seating
from handsite.services import delivery


def _play_turns(game, user, turns: int) -> int:
    """Play ``turns`` whole turns as ``user`` (the bot's choices); return how many were played."""
    played = 0
    while played < turns:
        game.refresh_from_db()
        state = engine.from_json(game.state)
        if state.finished or state.current is None:
            break
        seat = state.current
        action = engine.bot_action(state, seat)
        playing.play(game_id=game.pk, user=user, version=game.version, action=action)
        if action["type"] == "discard":
            played += 1
    return played


def test_a_practice_game_against_a_bot_sends_no_your_turn_email(
    owner, start_game, django_capture_on_commit_callbacks
):
    game = start_game([owner, seating.BOT], seed=11)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        played = _play_turns(game, owner, 6)
    assert played == 6
    delivery.deliver_pending()
    assert mail.outbox == []


def test_a_move_to_another_person_still_sends_one(duel, owner, member, django_capture_on_commit_callbacks):
    state = engine.from_json(duel.state)
    mover = owner if state.current == 0 else member
    other = member if mover == owner else owner
    delivery.deliver_pending()  # the first turn's e-mail, written when the game was dealt
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _play_turns(Game.objects.get(pk=duel.pk), mover, 1)
    assert mail.outbox == []  # not from the move's request
    delivery.deliver_pending()
    assert [message.to for message in mail.outbox] == [[other.email]]
