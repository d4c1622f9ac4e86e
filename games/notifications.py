"""Notifications about games, on handsite's generic outbox (handsite knows nothing of games).

- The kinds: "your turn", reminders, "time is running out", "time ran out". Each row's ``key`` makes
  it exactly-once per (game, seat, turn, kind, number); its ``topic`` is the game (opening the game
  marks them read); ``data`` holds the game, seat, turn and reminder number.
- "Your turn" e-mails respect players: none while the person is on the site (they see it in-site; it
  goes a grace period after they leave, if it is still their turn), no second one for a game until they
  opened it, several waiting at once make one e-mail, none during a vacation (handsite holds them).
- Everything is registered with handsite in :func:`register_all` (``GamesConfig.ready``): how a row is
  described in the in-site list, whether it is still current, how it is e-mailed, and the digest lines.

Writes go through ``handsite.services.outbox.notify``.
"""

from __future__ import annotations

import datetime as dt

from django.db.models import Count, F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape, linebreaks
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import MOVE_HOURS_CHOICES, Game, GameStatus, Seat
from handsite import notification_prefs, notifications, timefmt
from handsite.links import absolute_url
from handsite.models import Notification
from handsite.notifications import Content, DigestLine, DigestSection, Kind
from handsite.push import services as push_services
from handsite.services import outbox, preferences

YOUR_TURN = "your_turn"
REMINDER = "reminder"
LOW_TIME = "low_time"
TIMED_OUT = "timed_out"
INVITED = "game_invitation"  # to an invited player: accept / decline links and the reply deadline
INVITATION_NEWS = "invitation_news"  # to the game's creator: the answers (events below)
DECLINED, EXPIRED, STARTED, ANSWERED = "declined", "expired", "started", "answered"
SEAT_LEFT = "seat_left"  # a player handed their seat to a bot
GAME_ENDED = "game_ended"  # the group's owner or an admin ended the game early
CHAT = "chat"  # a table-talk message: in-site only (the header's count, the digest), never e-mailed alone
GAME_FINISHED = "game_finished"  # the game reached its end: in-site, and pushed to who chose push
TURN_KINDS = (YOUR_TURN, REMINDER, LOW_TIME)
"""Kinds about the turn in progress: out of date (not e-mailed) once the turn is over."""


def topic(game_id: int) -> str:
    return f"game:{game_id}"


def turn_key(game_id: int, seat: int, turn: int | None, kind: str, number: int = 0) -> str:
    """Exactly-once key (the same format handsite's migration 0005 gave the rows written before)."""
    return f"game:{game_id}:{seat}:{turn}:{kind}:{number}"


# --- Writing (in the caller's transaction) -------------------------------------------------------


def record(game: Game, *, user_id: int, seat: int, turn: int | None, kind: str, number: int = 0, now=None):
    """One notification about ``game`` for ``user_id``; None if it was written before."""
    return outbox.notify(
        recipient=user_id,
        kind=kind,
        key=turn_key(game.pk, seat, turn, kind, number),
        topic=topic(game.pk),
        link=game.get_absolute_url(),
        data={"game": game.pk, "seat": seat, "turn": turn, "number": number},
        now=now,
    )


def record_many(items: list[tuple], *, now=None) -> list[int]:
    """Many notifications about games at once (a scan's batch), ONE query: ``items`` are
    ``(game, user_id, seat, turn, kind, number)``; rows written before are skipped."""
    links = {game.pk: game.get_absolute_url() for game, *_rest in items}
    return outbox.notify_many(
        [
            {
                "recipient": user_id,
                "kind": kind,
                "key": turn_key(game.pk, seat, turn, kind, number),
                "topic": topic(game.pk),
                "link": links[game.pk],
                "data": {"game": game.pk, "seat": seat, "turn": turn, "number": number},
            }
            for game, user_id, seat, turn, kind, number in items
        ],
        now=now,
    )


def turns_began(games: list[tuple], *, now=None) -> list[tuple]:
    """:func:`turn_began` for many ``(game, seats)`` at once (the deadline scan's batch), ONE query."""
    items = []
    for game, seats in games:
        seat = next((s for s in seats if s.number == game.turn_seat), None)
        if seat is not None and not seat.bot and seat.user_id is not None:
            items.append((game, seat.user_id, seat.number, game.turn_version, YOUR_TURN, 0))
    return items


def turn_began(game: Game, seats, *, now: dt.datetime | None = None) -> int | None:
    """The "your turn" notification for the seat to move (none for a bot or an empty seat): ONE
    query, in the move's transaction — the batched ``INSERT ... ON CONFLICT DO NOTHING`` of
    :func:`record_many`, not ``notify()``'s INSERT in a savepoint (which costs SAVEPOINT and RELEASE
    too: a move would need 8 queries). ``seats`` are the game's seats the caller already has. Returns
    the new row's id, None when there is none (a bot or empty seat, or the row was written before)."""
    items = turns_began([(game, seats)])
    if not items:
        return None
    ids = record_many(items, now=now)
    return ids[0] if ids else None


# --- Reading -------------------------------------------------------------------------------------


def turn_games(user_id: int):
    """Active games where it is this person's turn, soonest deadline first (no deadline last)."""
    return (
        Game.objects.filter(
            status=GameStatus.ACTIVE, seats__user_id=user_id, seats__bot=False, seats__number=F("turn_seat")
        )
        .select_related("group")
        .order_by(F("deadline_at").asc(nulls_last=True), "pk")
    )


def _games_of(rows) -> dict[int, Game]:
    ids = {row.data.get("game") for row in rows if isinstance(row.data, dict)}
    return {game.pk: game for game in Game.objects.filter(pk__in=ids - {None}).select_related("group")}


def game_name(game: Game) -> str:
    return f"{game.group.name}: {game}"


def still_current(row) -> bool:
    """A turn notification whose turn is over (or whose game ended) is not e-mailed any more."""
    if row.kind not in TURN_KINDS:
        return True
    data = row.data or {}
    game = Game.objects.filter(pk=data.get("game")).values("status", "turn_version", "turn_seat").first()
    return (
        game is not None
        and game["status"] == GameStatus.ACTIVE
        and game["turn_version"] == data.get("turn")
        and game["turn_seat"] == data.get("seat")
    )


def describe(rows) -> list[str]:
    games = _games_of(rows)
    lines = []
    for row in rows:
        game = games.get((row.data or {}).get("game"))
        name = game_name(game) if game else _("a game that no longer exists")
        if row.kind == YOUR_TURN:
            lines.append(_("Your turn in %(game)s.") % {"game": name})
        elif row.kind == REMINDER:
            lines.append(_("Still your turn in %(game)s.") % {"game": name})
        elif row.kind == LOW_TIME:
            lines.append(_("Your time is running out in %(game)s.") % {"game": name})
        else:
            lines.append(
                _("Your time ran out in %(game)s; the game's timeout rule moved for you.") % {"game": name}
            )
    return lines


def _subject(kind: str, names: list[str]) -> str:
    if kind == YOUR_TURN and len(names) > 1:
        return ngettext("Your turn in %(n)s game", "Your turn in %(n)s games", len(names)) % {"n": len(names)}
    name = names[0]
    if kind == YOUR_TURN:
        return _("Your turn: %(game)s") % {"game": name}
    if kind == REMINDER:
        return _("Still your turn: %(game)s") % {"game": name}
    if kind == LOW_TIME:
        return _("Time is running out: %(game)s") % {"game": name}
    return _("Your time ran out: %(game)s") % {"game": name}


def render(rows, reader) -> Content | None:
    """The e-mail for one row, or for several "your turn" rows of one person (one e-mail listing the
    games). Rendered with the reader's language and zone active (handsite sets them)."""
    games = _games_of(rows)
    items = []
    for row in rows:
        game = games.get((row.data or {}).get("game"))
        if game is None or any(item["game"].pk == game.pk for item in items):
            continue
        items.append(
            {
                "game": game,
                "name": game_name(game),
                "link": absolute_url(game.get_absolute_url()),
                "deadline": game.deadline_at if row.kind != TIMED_OUT else None,
            }
        )
    if not items:
        return None
    kind = rows[0].kind
    context = {"kind": kind, "items": items, "now": reader.now}
    return Content(
        subject=_subject(kind, [item["name"] for item in items]),
        text=render_to_string("games/email/turn.txt", context),
        html=render_to_string("games/email/turn.html", context),
        link=items[0]["link"],
    )


URGENCY = {TIMED_OUT: 0, LOW_TIME: 1, REMINDER: 2, YOUR_TURN: 3, INVITATION_NEWS: 4}
"""The order of a sweep's e-mail: warnings, then turns, then news (most urgent first)."""
BUNDLE = "games"
"""The kinds a sweep e-mails together (notifications.Kind.bundle): one e-mail per person per sweep."""


def render_bundle(rows, reader) -> Content | None:
    """Everything due for one person in one sweep, as ONE e-mail: one line per game (its most urgent
    row: "time ran out" over "time is running out" over "still your turn" over "your turn"), the
    warnings first, then the turns (soonest deadline first), then the news of invitations. A single
    game, or turns only, reads as before (:func:`render`); news only, as :func:`render_news`."""
    rows = sorted(rows, key=lambda row: (URGENCY.get(row.kind, len(URGENCY)), row.created_at, row.pk))
    news = [row for row in rows if row.kind == INVITATION_NEWS]
    turns, seen = [], set()
    for row in rows:
        game_id = (row.data or {}).get("game")
        if row.kind in URGENCY and row.kind != INVITATION_NEWS and game_id not in seen:
            seen.add(game_id)
            turns.append(row)
    if not turns:
        return render_news(news, reader)
    if not news and (len(turns) == 1 or all(row.kind == YOUR_TURN for row in turns)):
        return render(turns, reader)
    return _render_sweep(turns, news, reader)


def _render_sweep(turns, news, reader) -> Content | None:
    games = _games_of(turns)
    warnings, waiting = [], []
    for row in turns:
        game = games.get((row.data or {}).get("game"))
        if game is None:
            continue
        item = {
            "kind": row.kind,
            "text": describe([row])[0],
            "subject": _subject(row.kind, [game_name(game)]),
            "link": absolute_url(game.get_absolute_url()),
            "deadline": game.deadline_at if row.kind != TIMED_OUT else None,
        }
        (warnings if row.kind in (LOW_TIME, TIMED_OUT) else waiting).append(item)
    waiting.sort(key=lambda item: (item["deadline"] is None, item["deadline"] or reader.now))
    news_games = _invitation_games(news)
    told = [
        {"text": _news_line(row, game), "link": absolute_url(game.get_absolute_url()), "deadline": None}
        for row in news
        if (game := news_games.get((row.data or {}).get("game"))) is not None
    ]
    sections = [
        {"title": title, "items": items}
        for title, items in (
            (_("Time is short in these games:"), warnings),
            (_("It is your turn in these games:"), waiting),
            (_("News of your invitations:"), told),
        )
        if items
    ]
    if not sections:
        return None
    everything = warnings + waiting + told
    first = everything[0].get("subject") or everything[0]["text"]
    more = len(everything) - 1
    subject = first
    if more:
        subject = ngettext("%(first)s, and %(n)s more", "%(first)s, and %(n)s more", more) % {
            "first": first,
            "n": more,
        }
    context = {"sections": sections, "now": reader.now}
    return Content(
        subject=subject,
        text=render_to_string("games/email/sweep.txt", context),
        html=render_to_string("games/email/sweep.html", context),
        link=everything[0]["link"],
    )


def _digest_lines(reader) -> list[DigestLine]:
    return [
        DigestLine(text=game_name(game), link=absolute_url(game.get_absolute_url()), when=game.deadline_at)
        for game in turn_games(reader.user.pk)
    ]


DIGEST = DigestSection(
    title=lambda: _("It is your turn in these games (soonest deadline first):"),
    waiting=lambda user_id: turn_games(user_id).exists(),
    lines=_digest_lines,
)


# --- Game invitations ------------------------------------------------------------------------------


def _stamp(moment: dt.datetime | None) -> int | None:
    return int(moment.timestamp()) if moment is not None else None


def _from_stamp(stamp) -> dt.datetime | None:
    return dt.datetime.fromtimestamp(stamp, tz=dt.UTC) if isinstance(stamp, int) else None


def invite(game: Game, seats: list, *, now=None) -> list[int]:
    """Tell each invited player of ``seats`` (in-site and by e-mail, with the accept and decline links
    and the reply deadline), in the caller's transaction: ONE query; exactly once per invitation."""
    link = game.get_absolute_url()
    return outbox.notify_many(
        [
            {
                "recipient": seat.user_id,
                "kind": INVITED,
                "key": f"game:{game.pk}:invitation:{seat.number}:{seat.user_id}:{_stamp(seat.invited_at)}",
                "topic": topic(game.pk),
                "link": link,
                "data": {
                    "game": game.pk,
                    "seat": seat.number,
                    "invited": _stamp(seat.invited_at),
                    "reply_by": _stamp(seat.reply_by),
                },
            }
            for seat in seats
            if seat.user_id is not None and seat.invited_at is not None
        ],
        now=now,
    )


def _news_row(game: Game, event: str, *, key: str, number=None, name="", free=0) -> dict | None:
    if game.created_by_id is None:
        return None
    return {
        "recipient": game.created_by_id,
        "kind": INVITATION_NEWS,
        "key": key,
        "topic": topic(game.pk),
        "link": game.get_absolute_url(),
        "data": {"game": game.pk, "event": event, "seat": number, "name": name, "free": free},
    }


def tell_creator(
    game: Game, event: str, *, seat, by_id, name: str = "", invited_at=None, free: int = 0, now=None
):
    """The creator hears about an answer of ``by_id`` (in the caller's transaction, exactly once):
    ``DECLINED`` (by ``name``), or, once the last invitation is answered, ``STARTED`` or ``ANSWERED``
    (``free`` seats left). Nothing when the creator answered themselves."""
    if by_id is not None and by_id == game.created_by_id:
        return None
    if event == DECLINED:
        key = f"game:{game.pk}:invitation:{seat.number}:{_stamp(invited_at)}:{event}"
    elif event == STARTED:
        key = f"game:{game.pk}:invitation:{event}"
    else:
        key = f"game:{game.pk}:invitation:{event}:{game.revision}"
    row = _news_row(game, event, key=key, number=seat.number, name=name or seat.name, free=free)
    return outbox.notify_many([row], now=now) if row else None


def tell_creators_expired(news: list[tuple], *, now=None) -> list[int]:
    """The invitation scan's batch: each creator hears which invited player did not answer in time
    (``news``: ``(game, seat number, name, invited_at)``). ONE query."""
    rows = [
        _news_row(
            game,
            EXPIRED,
            key=f"game:{game.pk}:invitation:{number}:{_stamp(invited_at)}:{EXPIRED}",
            number=number,
            name=name,
        )
        for game, number, name, invited_at in news
    ]
    return outbox.notify_many([row for row in rows if row], now=now)


def whatsapp_invite_url(game: Game) -> str:
    """The "share on WhatsApp" URL of a game waiting for players (its page: members accept there)."""
    from handsite.links import whatsapp_url

    text = _("A game of %(variant)s is waiting for players in “%(group)s”. Take your seat:") % {
        "variant": game.get_variant_display(),
        "group": game.group.name,
    }
    return whatsapp_url(text, game.get_absolute_url())


def move_time(game: Game) -> str:
    return str(dict(MOVE_HOURS_CHOICES).get(game.move_hours, game.move_hours))


def invitation_summary(game: Game, inviter: str) -> str:
    """ "Amira invites you to a game of Hand for 4 players, 2 days per move", in the active language."""
    values = {"name": inviter, "variant": game.get_variant_display(), "n": game.players}
    if not game.move_hours:
        return (
            ngettext(
                "%(name)s invites you to a game of %(variant)s for %(n)s player, with no time limit",
                "%(name)s invites you to a game of %(variant)s for %(n)s players, with no time limit",
                game.players,
            )
            % values
        )
    return ngettext(
        "%(name)s invites you to a game of %(variant)s for %(n)s player, %(time)s per move",
        "%(name)s invites you to a game of %(variant)s for %(n)s players, %(time)s per move",
        game.players,
    ) % {**values, "time": move_time(game)}


def _invitation_games(rows) -> dict[int, Game]:
    ids = {row.data.get("game") for row in rows if isinstance(row.data, dict)}
    games = Game.objects.filter(pk__in=ids - {None}).select_related("group", "created_by").defer("state")
    return {game.pk: game for game in games}


def _inviter(game: Game) -> str:
    return game.created_by.name if game.created_by is not None else game.group.name


def invitation_still_open(row) -> bool:
    """An invitation is e-mailed only while it waits for this person's answer."""
    data = row.data or {}
    seat = (
        Seat.objects.filter(
            game_id=data.get("game"),
            number=data.get("seat"),
            user_id=row.user_id,
            accepted_at__isnull=True,
            game__status=GameStatus.WAITING,
        )
        .values("invited_at")
        .first()
    )
    return seat is not None and _stamp(seat["invited_at"]) == data.get("invited")


def describe_invitations(rows) -> list[str]:
    games = _invitation_games(rows)
    lines = []
    for row in rows:
        data = row.data or {}
        game = games.get(data.get("game"))
        if game is None:
            lines.append(_("An invitation to a game that no longer exists."))
            continue
        line = invitation_summary(game, _inviter(game))
        reply_by = _from_stamp(data.get("reply_by"))
        if reply_by is not None:
            line = _("%(invitation)s. Answer by %(when)s.") % {
                "invitation": line,
                "when": timefmt.when(reply_by),
            }
        lines.append(line)
    return lines


def render_invitation(rows, reader) -> Content | None:
    """The invitation e-mail (one per invitation), in the reader's language and zone: who invites, the
    game, the players, the reply deadline, one-click accept and decline links."""
    from games.services.invitation_links import sign_invitation

    row = rows[0]
    data = row.data or {}
    game = _invitation_games([row]).get(data.get("game"))
    if game is None or not isinstance(data.get("invited"), int) or not isinstance(data.get("seat"), int):
        return None
    token = sign_invitation(game.pk, data["seat"], row.user_id, data["invited"])
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("number"))
    context = {
        "summary": invitation_summary(game, _inviter(game)),
        "group_name": game.group.name,
        "players": [seat.name for seat in seats],
        "reply_by": _from_stamp(data.get("reply_by")),
        "now": reader.now,
        "accept_link": absolute_url(reverse("games:invitation", args=[token, "accept"])),
        "decline_link": absolute_url(reverse("games:invitation", args=[token, "decline"])),
        "game_link": absolute_url(game.get_absolute_url()),
    }
    return Content(
        subject=context["summary"],
        text=render_to_string("games/email/invitation.txt", context),
        html=render_to_string("games/email/invitation.html", context),
        link=context["accept_link"],
    )


def _news_line(row, game: Game | None) -> str:
    data = row.data or {}
    if game is None:
        return _("An invitation to a game that no longer exists.")
    values = {"name": data.get("name") or "", "game": game_name(game), "seat": (data.get("seat") or 0) + 1}
    event = data.get("event")
    if event == DECLINED:
        return _("%(name)s declined your invitation to %(game)s; seat %(seat)s is free.") % values
    if event == EXPIRED:
        return _("%(name)s did not answer in time: seat %(seat)s of %(game)s is free.") % values
    if event == STARTED:
        return _("Everybody accepted: %(game)s has started.") % values
    free = data.get("free") or 0
    return ngettext(
        "Everybody has answered your invitation to %(game)s; %(n)s seat is still free.",
        "Everybody has answered your invitation to %(game)s; %(n)s seats are still free.",
        free,
    ) % {**values, "n": free}


def describe_news(rows) -> list[str]:
    games = _invitation_games(rows)
    return [_news_line(row, games.get((row.data or {}).get("game"))) for row in rows]


def render_news(rows, reader) -> Content | None:
    """The creator's e-mail about the answers: one row, or several waiting at once in one e-mail."""
    games = _invitation_games(rows)
    items = []
    for row in rows:
        game = games.get((row.data or {}).get("game"))
        if game is not None:
            link = absolute_url(game.get_absolute_url())
            items.append(
                {
                    "text": _news_line(row, game),
                    "link": link,
                    "free": (row.data or {}).get("event") != STARTED,
                }
            )
    if not items:
        return None
    if len(items) == 1:
        subject = items[0]["text"]
    else:
        subject = ngettext(
            "%(n)s answer to your game invitations", "%(n)s answers to your game invitations", len(items)
        ) % {"n": len(items)}
    context = {"items": items}
    return Content(
        subject=subject,
        text=render_to_string("games/email/invitation_news.txt", context),
        html=render_to_string("games/email/invitation_news.html", context),
        link=items[0]["link"],
    )


# --- Table talk ------------------------------------------------------------------------------------

CHAT_DIGEST_WINDOW = dt.timedelta(days=1)
"""The digest counts the unread messages of the last day (a message is told once, not every day)."""


def chat_written(game: Game, seats, message) -> list[int]:
    """An in-site notification of ``message`` for each other person seated (ONE query); none is e-mailed
    on its own (kind CHAT is in-site only): the header's unread count and the digest count them."""
    from games.chat import message_key

    author = message.author
    rows = [
        {
            "recipient": seat.user_id,
            "kind": CHAT,
            "key": message_key(game.pk, message.pk, seat.user_id),
            "topic": topic(game.pk),
            "link": game.get_absolute_url(),
            "data": {"game": game.pk, "message": message.pk, "author": author.name if author else ""},
        }
        for seat in seats
        if seat.user_id is not None and seat.user_id != message.author_id
    ]
    ids = outbox.notify_many(rows)
    push_services.hand_over_in_site(ids)  # several unread make one push per game (games.push)
    return ids


def chat_read(user, game: Game) -> int:
    """The person has seen the game's chat: its messages are no longer unread for them."""
    return outbox.mark_read(user, topic=topic(game.pk), kind=CHAT)


def unread_of(user_id: int) -> int:
    """The person's unread count for the header."""
    return notifications.unread_count_of(user_id)


def chat_deleted(game: Game, seats, message) -> int:
    """A deleted message is nobody's unread message any more."""
    from games.chat import message_key

    return outbox.mark_read_by_keys(
        [message_key(game.pk, message.pk, seat.user_id) for seat in seats if seat.user_id is not None]
    )


def game_finished(game: Game, seats, *, mover_seat: int | None = None) -> list[int]:
    """The game reached its end: an in-site notification for each person seated (not the one whose move
    ended it, who is on the page), pushed to those who chose push for a game's end and are not on the
    site now. Exactly once per seat; in the move's transaction."""
    rows = [
        {
            "recipient": seat.user_id,
            "kind": GAME_FINISHED,
            "key": f"game:{game.pk}:{seat.number}:finished",
            "topic": topic(game.pk),
            "link": game.get_absolute_url(),
            "data": {"game": game.pk, "seat": seat.number},
        }
        for seat in seats
        if seat.user_id is not None and seat.number != mover_seat
    ]
    ids = outbox.notify_many(rows)
    push_services.hand_over_in_site(ids, unless_present=True)
    return ids


def describe_finished(rows) -> list[str]:
    games = _games_of(rows)
    return [
        _("%(game)s is over: see the final scores.")
        % {"game": game_name(games[(row.data or {}).get("game")])}
        if (row.data or {}).get("game") in games
        else _("A game that no longer exists is over.")
        for row in rows
    ]


def describe_chat(rows) -> list[str]:
    games = _games_of(rows)
    lines = []
    for row in rows:
        game = games.get((row.data or {}).get("game"))
        name = game_name(game) if game else _("a game that no longer exists")
        author = (row.data or {}).get("author") or _("A player")
        lines.append(_("%(name)s wrote in the table talk of %(game)s.") % {"name": author, "game": name})
    return lines


def unread_chat_of(user_id: int, game_id: int) -> int:
    """How many messages of the game's table talk the person has not read."""
    return Notification.objects.filter(
        user_id=user_id, kind=CHAT, topic=topic(game_id), read_at__isnull=True
    ).count()


def _unread_chat(user_id: int):
    since = timezone.now() - CHAT_DIGEST_WINDOW
    return Notification.objects.filter(
        user_id=user_id, kind=CHAT, read_at__isnull=True, created_at__gte=since
    )


def _chat_digest_lines(reader) -> list[DigestLine]:
    counts = dict(
        _unread_chat(reader.user.pk)
        .order_by()
        .values_list("topic")
        .annotate(n=Count("id"))
        .values_list("topic", "n")
    )
    ids = [int(name.split(":", 1)[1]) for name in counts if name.startswith("game:")]
    games = Game.objects.filter(pk__in=ids).select_related("group").order_by("pk")
    return [
        DigestLine(
            text=ngettext(
                "%(n)s unread message in the table talk of %(game)s",
                "%(n)s unread messages in the table talk of %(game)s",
                counts[topic(game.pk)],
            )
            % {"n": counts[topic(game.pk)], "game": game_name(game)},
            link=absolute_url(game.get_absolute_url()),
        )
        for game in games
    ]


CHAT_DIGEST = DigestSection(
    title=lambda: _("Table talk you have not read yet:"),
    waiting=lambda user_id: _unread_chat(user_id).exists(),
    lines=_chat_digest_lines,
)


def register_all() -> None:
    # Turn e-mails, reminders, warnings and the news of invitations leave in the minute's sweep, all of
    # one person's in ONE e-mail (render_bundle), none while the person is on the site (they see it
    # there; it goes a grace period after they leave if still true and still unread).
    common = {
        "describe": describe,
        "render": render_bundle,
        "still_current": still_current,
        "hold_while_present": True,
        "bundle": BUNDLE,
        "swept": True,
    }
    notifications.register(
        Kind(name=YOUR_TURN, email=notifications.EMAIL_TURN, one_unread_email_per_topic=True, **common)
    )
    notifications.register(Kind(name=REMINDER, email=notifications.EMAIL_REMINDER, **common))
    notifications.register(Kind(name=LOW_TIME, email=notifications.EMAIL_WARNING, **common))
    notifications.register(Kind(name=TIMED_OUT, email=notifications.EMAIL_WARNING, **common))
    # Told once, in the words written with the row (subject, body, link): no renderer needed.
    notifications.register(
        Kind(
            name=INVITED,
            email=notifications.EMAIL_ALWAYS,
            describe=describe_invitations,
            render=render_invitation,
            still_current=invitation_still_open,
        )
    )
    # The creator's news respects players as the turns do, and joins their sweep's e-mail.
    notifications.register(
        Kind(
            name=INVITATION_NEWS,
            email=notifications.EMAIL_ALWAYS,
            one_unread_email_per_topic=True,
            **{**common, "describe": describe_news, "still_current": None},
        )
    )
    for kind in (SEAT_LEFT, GAME_ENDED):
        notifications.register(
            Kind(
                name=kind, email=notifications.EMAIL_WARNING, describe=describe_endings, render=render_ending
            )
        )
    notifications.register_digest(DIGEST)
    notifications.register(Kind(name=CHAT, email=notifications.EMAIL_NEVER, describe=describe_chat))
    notifications.register(
        Kind(name=GAME_FINISHED, email=notifications.EMAIL_NEVER, describe=describe_finished)
    )
    notifications.register_digest(CHAT_DIGEST)


def mark_game_read(user, game: Game) -> int:
    """Opening a game marks its notifications read (so its next "your turn" may be e-mailed)."""
    return outbox.mark_read(user, topic=topic(game.pk))


# --- The player on the game's page -----------------------------------------------------------------


def opened(user, game: Game) -> int:
    """The game's page was opened: its notifications are read (so its next "your turn" may be e-mailed)
    and the player is present (e-mails held while they are here)."""
    notification_prefs.presence_due(user.pk)  # the page's first polls need not write it again
    preferences.record_presence(user.pk)
    return outbox.mark_read(user, topic=topic(game.pk))


def seen(user_id: int, game_id: int) -> int:
    """The game's table, in view, shows what its notifications tell (a turn that began, a player who
    left...): they are read, so the header counts only what the player has not seen; table talk stays
    unread until its panel is open (chat_read). Returns the person's unread count."""
    outbox.mark_read(user_id, topic=topic(game_id), but_kind=CHAT)
    return notifications.unread_count_of(user_id)


def polled(user_id: int, *, always: bool = False) -> int | None:
    """The game's page polled: presence is written at most every SEEN_EVERY; then (or ``always``) the
    person's unread count for the header, else None (nothing to tell: the poll stays one query)."""
    due = notification_prefs.presence_due(user_id)
    if due:
        preferences.record_presence(user_id)
    if due or always:
        return notifications.unread_count_of(user_id)
    return None


def tell_players(game: Game, seats, *, kind: str, name: str, skip_user_id=None) -> int:
    """One notification for each person seated in ``game`` (bots and ``skip_user_id`` aside), in the
    caller's transaction; exactly once per (game, kind, version). Stored as data (``name``: the person
    who left or ended the game) and worded when read, in the reader's language (:func:`ending_line`)."""
    told = 0
    for seat in seats:
        if seat.user_id is None or seat.user_id == skip_user_id:
            continue
        row = outbox.notify(
            recipient=seat.user_id,
            kind=kind,
            key=f"game:{game.pk}:{seat.number}:{game.version}:{kind}",
            topic=topic(game.pk),
            link=game.get_absolute_url(),
            data={"game": game.pk, "seat": seat.number, "name": name},
        )
        told += row is not None
    return told


def ending_line(row, game: Game | None) -> str:
    """A player left or the game was ended early, in the active language. Rows stored before the
    event was kept as data carry their sentence in ``subject``: that is shown as it is."""
    data = row.data or {}
    if "name" not in data:
        return row.subject
    values = {"name": data["name"], "game": game if game is not None else _("a game that no longer exists")}
    if row.kind == SEAT_LEFT:
        return _("{name} left {game}; a bot plays their seat.").format(**values)
    return _("{name} ended {game} early; it will not be scored.").format(**values)


def describe_endings(rows) -> list[str]:
    games = _games_of(rows)
    return [ending_line(row, games.get((row.data or {}).get("game"))) for row in rows]


def render_ending(rows, reader) -> Content | None:
    """The e-mail that a player left or the game was ended early, in the reader's language."""
    row = rows[0]
    line = describe_endings([row])[0]
    if not line:
        return None
    link = absolute_url(row.link) if row.link.startswith("/") else row.link
    return Content(subject=line, text=line, html=linebreaks(escape(line)), link=link)
