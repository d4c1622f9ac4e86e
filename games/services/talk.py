"""Table talk: writing, deleting and reading the chat of a game (games.chat holds the rate limit and
the request the form makes)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import chat as chat_module
from games import notifications
from games.chat import ChatRequest
from games.models import ChatMessage, Game, Seat
from games.services import core
from handsite.models import Membership


@dataclass
class ChatOutcome:
    """What a chat request came to: ``error`` is the refusal's sentence (nothing was changed)."""

    game: Game
    seats: list[Seat]
    error: str | None = None
    message: ChatMessage | None = None


@transaction.atomic
def chat(*, game_id: int, group_slug: str, user, request: ChatRequest) -> ChatOutcome:
    """Write a table-talk message, delete one, or mark the game's chat read, for ``user``. ONE result
    for success and refusal alike; GameNotFound (404) when the person is not in the game's group.

    Writing: only a person seated at the table (bots never write), at most ``chat.per_minute()``
    messages a minute; each other person seated gets an in-site notification (never an e-mail of its
    own: the digest counts them), and the game's revision moves so every open page's poll brings it.
    Deleting: the writer, or the group's owner or an admin; the text is wiped, the row stays."""
    game, seats = core.locked(game_id, user=user, group_slug=group_slug)  # the membership check comes first
    if request.problem:
        return ChatOutcome(game, seats, error=request.problem)
    if request.action == "read":
        notifications.chat_read(user, game)
        return ChatOutcome(game, seats)
    if request.action == "delete":
        return _delete_chat(game, seats, user, request.message)
    seat = core.seat_of(seats, user)
    if seat is None or seat.accepted_at is None:
        return ChatOutcome(game, seats, error=_("Only the players at this table can write here."))
    if not chat_module.allowed_now(user.pk):
        return ChatOutcome(game, seats, error=chat_module.too_fast_sentence())
    message = ChatMessage.objects.create(game=game, author=user, text=request.text, version=game.version)
    notifications.chat_written(game, seats, message)
    notifications.chat_read(user, game)  # writing here, they have read what came before
    core.bump(game)
    return ChatOutcome(game, seats, message=message)


def _delete_chat(game: Game, seats: list[Seat], user, message_id: int | None) -> ChatOutcome:
    message = ChatMessage.objects.filter(pk=message_id, game=game, deleted_at__isnull=True).first()
    if message is None:
        return ChatOutcome(game, seats, error=_("That message is not there any more."))
    if (
        message.author_id != user.pk
        and not Membership.objects.filter(
            group_id=game.group_id, user=user, role__in=("owner", "admin")
        ).exists()
    ):
        return ChatOutcome(
            game, seats, error=_("Only the person who wrote a message, or a group admin, can delete it.")
        )
    message.text, message.deleted_at, message.deleted_by = "", timezone.now(), user
    message.save(update_fields=["text", "deleted_at", "deleted_by"])
    notifications.chat_deleted(game, seats, message)
    core.bump(game)
    return ChatOutcome(game, seats, message=message)
