"""What game notifications say in a push (handsite.push) and in a group's chat (handsite.webhooks),
registered in :func:`register_all` (``GamesConfig.ready``): the game and its group, the deadline as a
clock time in the reader's zone ("Thu 21:00"), a tap opens the game. The badge counts the games waiting
on the player."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import notifications as game_notifications
from games.models import Game
from handsite.push import messages
from handsite.push.messages import Message, PushKind, Topic
from handsite.webhooks import messages as webhook_messages
from handsite.webhooks.messages import Ping


def _game_of(row) -> Game | None:
    game_id = (row.data or {}).get("game")
    return Game.objects.filter(pk=game_id).select_related("group").first() if game_id else None


def _where(game: Game) -> str:
    """ "Hand #12 (Diwaniya Friday)"."""
    return _("%(game)s (%(group)s)") % {"game": game, "group": game.group.name}


def _deadline_line(game: Game) -> str:
    if game.deadline_at is None:
        return ""
    return _("Play by %(time)s.") % {"time": messages.clock(game.deadline_at)}


def render_turn(rows, reader) -> Message | None:
    row = rows[0]
    game = _game_of(row)
    if game is None:
        return None
    titles = {
        game_notifications.YOUR_TURN: _("Your turn"),
        game_notifications.REMINDER: _("Still your turn"),
        game_notifications.LOW_TIME: _("Your time is running out"),
        game_notifications.TIMED_OUT: _("Your time ran out"),
    }
    body = _where(game)
    if row.kind == game_notifications.TIMED_OUT:
        body = _("%(game)s: the game's timeout rule moved for you.") % {"game": body}
    elif line := _deadline_line(game):
        body = f"{body} · {line}"
    return Message(title=titles.get(row.kind, _("Your turn")), body=body, url=row.link, tag=row.topic)


def render_invitation(rows, reader) -> Message | None:
    row = rows[0]
    lines = (
        game_notifications.describe_invitations(rows)
        if row.kind == game_notifications.INVITED
        else game_notifications.describe_news(rows)
    )
    return Message(title=_("Game invitation"), body=lines[0], url=row.link, tag=f"{row.topic}:invitation")


def render_end(rows, reader) -> Message | None:
    row = rows[0]
    game = _game_of(row)
    body = game_notifications.ending_line(row, game) or (_where(game) if game else "")
    return Message(title=_("The game is over"), body=body, url=row.link, tag=f"{row.topic}:end")


def render_chat(rows, reader) -> Message | None:
    """Table talk: how many messages of the game the reader has not read (one push per game until they
    open it; a newer one replaces it on the device)."""
    row = rows[0]
    game = _game_of(row)
    if game is None:
        return None
    unread = game_notifications.unread_chat_of(row.user_id, game.pk)
    body = ngettext(
        "%(n)s unread message in the table talk of %(game)s",
        "%(n)s unread messages in the table talk of %(game)s",
        unread,
    ) % {"n": unread, "game": _where(game)}
    return Message(title=_("Table talk"), body=body, url=row.link, tag=f"{row.topic}:chat")


def _group_of(row) -> int | None:
    game_id = (row.data or {}).get("game")
    return Game.objects.filter(pk=game_id).values_list("group_id", flat=True).first() if game_id else None


def _ping(row) -> Ping | None:
    """ "Samir, your turn in Hand #12 (Diwaniya Friday)" for the group's chat."""
    game = _game_of(row)
    if game is None:
        return None
    text = _("%(name)s, your turn in %(game)s (%(group)s)") % {
        "name": row.user.name,
        "game": game,
        "group": game.group.name,
    }
    return Ping(group_id=game.group_id, key=f"turn:{row.pk}", text=text, link=game.get_absolute_url())


def _waiting_games(user_id: int) -> int:
    return game_notifications.turn_games(user_id).count()


def register_all() -> None:
    messages.register_topic(Topic("turn", gettext_lazy("Your turn and reminders")))
    messages.register_topic(Topic("time", gettext_lazy("Time running low or out")))
    messages.register_topic(Topic("invitation", gettext_lazy("Game invitations and answers")))
    messages.register_topic(Topic("end", gettext_lazy("A game ends or a player leaves")))
    messages.register_topic(Topic("chat", gettext_lazy("Table talk messages")))
    messages.register(
        PushKind(game_notifications.YOUR_TURN, "turn", render_turn, once_until_read=True),
    )
    messages.register(PushKind(game_notifications.REMINDER, "turn", render_turn, once_until_read=True))
    messages.register(PushKind(game_notifications.LOW_TIME, "time", render_turn))
    messages.register(PushKind(game_notifications.TIMED_OUT, "time", render_turn))
    messages.register(PushKind(game_notifications.INVITED, "invitation", render_invitation))
    messages.register(PushKind(game_notifications.INVITATION_NEWS, "invitation", render_invitation))
    messages.register(PushKind(game_notifications.GAME_ENDED, "end", render_end))
    messages.register(PushKind(game_notifications.SEAT_LEFT, "end", render_end))
    messages.register(PushKind(game_notifications.GAME_FINISHED, "end", render_end))
    messages.register(PushKind(game_notifications.CHAT, "chat", render_chat, once_until_read=True))
    messages.register_badge(_waiting_games)
    webhook_messages.register(game_notifications.YOUR_TURN, group_of=_group_of, ping=_ping)
