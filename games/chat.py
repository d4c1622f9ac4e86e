"""Table talk, the read side: the typed request the chat form makes, the messages a page shows, the rate
limit. games.services.talk (``chat``) is the one writer.

- Only the people seated at the table write (bots never do); every member of the group may read.
- A message is plain text, at most ``CHAT_MAX_LENGTH`` characters; templates escape it and make no link.
- Each message is one in-site notification for every other person seated (kind ``chat``, never e-mailed
  one by one): the header's unread count and the daily digest count them; opening the game, writing
  in its chat or opening the chat panel marks them read.
- Posting bumps the game's ``revision``, so the play page's poll brings new messages with no query of
  its own (the unchanged poll stays 204, one query).
- Costs stay flat in the length of a game: a page reads the newest ``SHOWN`` messages only.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import ngettext

from games.models import CHAT_MAX_LENGTH, ChatMessage

SHOWN = 30
"""Messages the play page (and the replay) shows: the newest ones."""

PER_MINUTE = 10
"""Messages a person may write per minute, all games together (settings.GAMES_CHAT_PER_MINUTE)."""

ACTIONS = ("post", "delete", "read")

__all__ = ["CHAT_MAX_LENGTH", "ChatRequest", "allowed_now", "recent", "up_to"]


@dataclass(frozen=True)
class ChatRequest:
    """What the chat form asked for: ``post`` (``text``), ``delete`` (``message``: an id) or ``read``
    (the chat panel was seen). ``problem``: why the POST could not be read (nothing is done)."""

    action: str = ""
    text: str = ""
    message: int | None = None
    problem: str | None = None


def message_key(game_id: int, message_id: int, user_id: int) -> str:
    """The exactly-once key of the notification telling ``user_id`` about a message."""
    return f"game:{game_id}:chat:{message_id}:{user_id}"


def recent(game_id: int, limit: int = SHOWN) -> list[ChatMessage]:
    """The newest ``limit`` messages of a game, oldest first (ONE query, on the game's newest-first index)."""
    rows = list(
        ChatMessage.objects.filter(game_id=game_id)
        .select_related("author", "deleted_by")
        .order_by("-id")[:limit]
    )
    rows.reverse()
    return rows


def up_to(game_id: int, version: int, limit: int = SHOWN) -> list[ChatMessage]:
    """The replay's messages: those written by the time the game had reached ``version``."""
    rows = list(
        ChatMessage.objects.filter(game_id=game_id, version__lte=version)
        .select_related("author", "deleted_by")
        .order_by("-id")[:limit]
    )
    rows.reverse()
    return rows


def per_minute() -> int:
    return int(getattr(settings, "GAMES_CHAT_PER_MINUTE", PER_MINUTE))


def allowed_now(user_id: int) -> bool:
    """Count one message of ``user_id`` in this minute (in the cache); False when the limit is reached.
    The site's cache falls back to a local one while Redis is down (handsite/cache.py); should the
    cache fail anyway, the message is let through (table talk is not worth a 500)."""
    key = f"games:chat:{user_id}:{int(time.time() // 60)}"
    try:
        cache.add(key, 0, timeout=90)
        count = cache.incr(key)
    except Exception:
        return True
    return count <= per_minute()


def too_fast_sentence() -> str:
    limit = per_minute()
    return ngettext(
        "You are writing faster than the table can read: at most %(n)s message a minute. Wait a moment, "
        "then send it again.",
        "You are writing faster than the table can read: at most %(n)s messages a minute. Wait a moment, "
        "then send it again.",
        limit,
    ) % {"n": limit}
