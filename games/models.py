"""Online games: the game row (rule set, frozen options, status, version, seed, engine state), its seats
and the append-only move log.

Only games.services writes these rows (it locks the game row, checks the version and saves state, log
and version in one transaction). The state column holds the engine's whole state, hidden cards and seed
included: it never leaves the server (views render per-seat views from it).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from handsite.models import PlayerGroup

VARIANT_CHOICES = [
    ("classic", _("Hand")),
    ("jordanian", _("Jordanian Hand")),
    ("saudi", _("Saudi Hand")),
    ("kuwaiti", _("Kuwaiti Hand")),
    ("egyptian", _("Egyptian Hand")),
    ("hand-and-foot", _("Hand and Foot")),
    ("hand-and-foot-teams", _("Hand and Foot, team rules")),
]
VARIANT_NAMES = dict(VARIANT_CHOICES)

# Time per move, in hours (0: no limit).
MOVE_HOURS_CHOICES = [
    (0, _("No time limit")),
    (1, _("1 hour")),
    (4, _("4 hours")),
    (12, _("12 hours")),
    (24, _("1 day")),
    (48, _("2 days")),
    (72, _("3 days")),
    (120, _("5 days")),
    (168, _("7 days")),
]


class GameStatus(models.TextChoices):
    WAITING = "waiting", _("Waiting for players")
    ACTIVE = "active", _("In play")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")
    ABANDONED = "abandoned", _("Ended early")  # by the group's owner or an admin; never scored or rated


class TimeoutRule(models.TextChoices):
    NOTHING = "nothing", _("Nothing: the game waits")
    AUTO_MOVE = "auto_move", _("An automatic move: draw, then discard the drawn card (never melds)")
    BOT = "bot", _("A bot takes over the seat")


DEADLINE_SCAN = models.Q(status="active", deadline_at__isnull=False) & ~models.Q(timeout_rule="nothing")
"""Games whose deadline can do something: the condition of the deadline index and the deadline scan's
filter (the same Q, so PostgreSQL can use the partial index; a "nothing" game is never read)."""


INVITATION_SCAN = models.Q(reply_by__isnull=False)
"""Seats whose invitation waits for an answer: the condition of the reply-deadline index and the
invitation scan's filter."""


class Game(models.Model):
    group = models.ForeignKey(
        PlayerGroup, on_delete=models.CASCADE, related_name="games", verbose_name=_("group")
    )
    variant = models.CharField(_("rule set"), max_length=20, choices=VARIANT_CHOICES)
    options = models.JSONField(_("options"), default=dict)  # validated and frozen when the game is created
    players = models.PositiveSmallIntegerField(_("players"))
    random_order = models.BooleanField(_("random seat order"), default=False)
    move_hours = models.PositiveSmallIntegerField(_("time per move"), choices=MOVE_HOURS_CHOICES, default=0)
    timeout_rule = models.CharField(
        _("when the time runs out"), max_length=12, choices=TimeoutRule.choices, default=TimeoutRule.NOTHING
    )
    status = models.CharField(
        _("status"), max_length=12, choices=GameStatus.choices, default=GameStatus.WAITING
    )
    # Number of engine actions applied (= the engine state's version); every move names the version it
    # was made on, so a stale or repeated submit is refused.
    version = models.PositiveIntegerField(_("version"), default=0)
    # Bumped by every write (moves, seats, status): what the play page's poll compares.
    revision = models.PositiveIntegerField(_("revision"), default=0)
    seed = models.BigIntegerField(_("seed"))  # never shown to players
    # games.engine.RULES_VERSION when the game was created (docs/upgrades.md); games made before the
    # field existed were made with version 1.
    rules_version = models.PositiveSmallIntegerField(_("rules version"), default=1, editable=False)
    state = models.JSONField(_("state"), null=True, blank=True)  # games.engine.to_json(); None until dealt
    # Melds each seat has put aside before laying down ({"<seat>": {"deal": [number, attempt],
    # "melds": [spec, ...]}}): kept by games.services (stage / unstage / lay down), never sent as is.
    staged = models.JSONField(_("staged melds"), default=dict, blank=True)
    # The turn in progress (denormalised from the state for lists and the deadline scan).
    turn_seat = models.PositiveSmallIntegerField(_("seat to move"), null=True, blank=True)
    turn_started_at = models.DateTimeField(_("turn started at"), null=True, blank=True)
    deadline_at = models.DateTimeField(_("deadline"), null=True, blank=True)
    # For the reminder scan: when the next reminder for the current turn is due.
    next_reminder_at = models.DateTimeField(_("next reminder at"), null=True, blank=True)
    # Set while the player to move is on vacation (their deadline is paused until then); shown on the game.
    paused_until = models.DateTimeField(_("paused until"), null=True, blank=True)
    # The game's version when the current turn began: names the turn in notifications.
    turn_version = models.PositiveIntegerField(_("turn began at version"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("ended by"),
    )  # who ended the game early (status "abandoned")
    rematch = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematch_of",
        verbose_name=_("rematch"),
    )  # the game "Play again with the same players" made of this one (made once, whoever taps first)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(
                fields=["deadline_at"],
                name="game_active_deadline",
                condition=DEADLINE_SCAN,
            ),
            models.Index(
                fields=["next_reminder_at"],
                name="game_active_reminder",
                condition=models.Q(status="active", next_reminder_at__isnull=False),
            ),
            models.Index(fields=["group", "status"], name="game_group_status"),
        ]

    def __str__(self):
        return f"{self.get_variant_display()} #{self.pk}"

    def get_absolute_url(self):
        return reverse("games:play", args=[self.group.slug, self.pk])

    def get_variant_display(self) -> str:
        """The rule set's name, as Django's own ``get_variant_display`` gives it, by one dictionary look-up
        (it is read on every play page and move)."""
        return str(VARIANT_NAMES.get(self.variant, self.variant))

    @property
    def is_active(self) -> bool:
        return self.status == GameStatus.ACTIVE


class Seat(models.Model):
    """A place at the table: a group member (invited, then accepted) or a practice bot. ``bot`` is also
    set when the timeout rule hands a member's seat to a bot (the member stays recorded)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game"))
    number = models.PositiveSmallIntegerField(_("seat"))  # 0..players-1, the engine's seat number
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="game_seats",
        verbose_name=_("player"),
    )
    bot = models.BooleanField(_("played by a bot"), default=False)
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)
    # An invitation waiting for its answer: when it was made (names it in the signed accept / decline
    # links, so a link to an earlier invitation of the same seat stops working) and the reply deadline
    # (the invitation scan frees the seat then). Both cleared when the player answers.
    invited_at = models.DateTimeField(_("invited at"), null=True, blank=True)
    reply_by = models.DateTimeField(_("reply by"), null=True, blank=True)
    # The player handed the seat to a bot (services.leaving.leave_game): when, and at which game version.
    left_at = models.DateTimeField(_("left at"), null=True, blank=True)
    left_version = models.PositiveIntegerField(_("left at version"), null=True, blank=True)
    # The player's own order of their hand in the current deal: {"deal": [number, attempt], "cards": [ids]}
    # (games.moves.own_order). Private to the player; it survives reloads.
    hand_order = models.JSONField(_("order of the hand"), default=dict, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_seat_number_per_game"),
            models.UniqueConstraint(
                fields=["game", "user"], name="one_seat_per_player", condition=models.Q(user__isnull=False)
            ),
        ]
        indexes = [
            models.Index(fields=["user", "game"], name="seat_user_game"),
            models.Index(fields=["reply_by"], name="seat_reply_by", condition=INVITATION_SCAN),
        ]

    def __str__(self):
        return f"{self.game_id}/{self.number}: {self.name}"

    @property
    def name(self) -> str:
        if self.user is not None:
            return self.user.name
        if self.bot:
            return str(_("Bot {number}")).format(number=self.number + 1)
        return str(_("Open seat"))

    @property
    def is_filled(self) -> bool:
        return self.bot or (self.user_id is not None and self.accepted_at is not None)

    @property
    def is_invited(self) -> bool:
        return self.user_id is not None and self.accepted_at is None and not self.bot


class MoveKind(models.TextChoices):
    PLAYER = "player", _("Player")
    BOT = "bot", _("Bot")
    TIMEOUT = "timeout", _("Timeout")


class Move(models.Model):
    """The append-only log: one engine action per row. ``seq`` is the game's version after the action,
    so replaying the actions in ``seq`` order from the game's seed rebuilds the stored state."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves", verbose_name=_("game"))
    seq = models.PositiveIntegerField(_("number"))
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=MoveKind.choices, default=MoveKind.PLAYER)
    deal = models.PositiveSmallIntegerField(_("deal"), null=True, blank=True)  # engine deal number (0-based)
    action = models.JSONField(_("action"))
    created_at = models.DateTimeField(_("made at"), default=timezone.now)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="one_move_per_game_version")]

    def __str__(self):
        return f"{self.game_id}#{self.seq}: {self.action.get('type')}"


CHAT_MAX_LENGTH = 500
"""The longest table-talk message, in characters."""


class ChatMessage(models.Model):
    """Table talk: a short plain-text message a player at the table wrote (bots never write). Kept with
    the game; ``version`` is the game's version when it was written, so the replay shows it from that
    move on. A deleted message keeps its row (the conversation keeps its shape) with its text wiped."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat", verbose_name=_("game"))
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("written by"),
    )
    text = models.CharField(_("message"), max_length=CHAT_MAX_LENGTH, blank=True)
    version = models.PositiveIntegerField(_("game version"))
    created_at = models.DateTimeField(_("written at"), default=timezone.now)
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True)
    deleted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("deleted by"),
    )

    class Meta:
        verbose_name = _("table-talk message")
        verbose_name_plural = _("table-talk messages")
        ordering = ["game", "pk"]
        indexes = [models.Index(fields=["game", "-id"], name="chat_game_newest")]

    def __str__(self):
        return f"{self.game_id}: {self.text[:40]}"
