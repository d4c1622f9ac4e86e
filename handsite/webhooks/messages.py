"""Group chat pings, the read side: the kinds apps register (which group a notification pings and what it
says), the request each chat service takes, and the check that a URL may be posted to."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from handsite.webhooks.models import WebhookKind

TIMEOUT = 5
"""Seconds a chat service may take to answer."""
MAX_ATTEMPTS = 5
"""Attempts of one ping (backoff 1, 2, 4, 8 minutes) before it counts as a failure."""
FAILURES_TO_DISABLE = 3
"""Pings that failed in a row before the webhook is turned off (and the admin told)."""


@dataclass(frozen=True)
class Ping:
    group_id: int
    key: str
    text: str  # in the active language (the webhook's)
    link: str


PINGERS: dict[str, Callable] = {}
"""Notification kind -> ``ping(notification) -> Ping | None`` (called with the webhook's language active)."""
GROUP_OF: dict[str, Callable] = {}
"""Notification kind -> ``group_of(notification) -> group id | None`` (no language needed)."""


def register(kind: str, *, group_of: Callable, ping: Callable) -> None:
    GROUP_OF[kind] = group_of
    PINGERS[kind] = ping


def valid_url(url: str) -> bool:
    """Only http(s) URLs with a host are posted to."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname) and len(url) <= 1000


def request_body(kind: str, *, text: str, link: str, chat_id: str = "", group: str = "") -> dict:
    """The JSON each chat service takes."""
    line = f"{text}\n{link}" if link else text
    if kind == WebhookKind.DISCORD:
        return {"content": line, "allowed_mentions": {"parse": []}}
    if kind == WebhookKind.SLACK:
        return {"text": line}
    if kind == WebhookKind.TELEGRAM:
        return {"chat_id": chat_id, "text": line, "disable_web_page_preview": True}
    return {"text": text, "link": link, "group": group}


def permanent(status: int) -> bool:
    """An answer that will not change by asking again (a removed webhook, a wrong URL or token)."""
    return 400 <= status < 500 and status not in (408, 425, 429)
