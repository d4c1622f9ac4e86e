"""Score sheets of games played at a real table.

A sheet stores only what happened (each deal's raw facts); scores, totals, dealers and the winner
are derived by the engine every time (scoring/services/state.py), so a corrected rule re-scores history.
The few derived columns here (``finished``, ``winner_seats``, ``totals``) are a cache that
services.recompute_sheet() rewrites after every change, for lists and standings.

All writes go through scoring/services/.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine.variants import VARIANTS
from handsite.models import PlayerGroup

RULE_SET_CHOICES = [(slug, variant.name) for slug, variant in VARIANTS.items()]

DELETED_SHEETS_KEPT_DAYS = 30
"""How long a deleted sheet stays restorable (and its history visible to admins) before the purge."""


class LiveSheetManager(models.Manager):
    """Sheets not deleted: every list, standing, statistic and rating reads these."""

    def get_queryset(self):
        return super().get_queryset().filter(deleted_at__isnull=True)


class Sheet(models.Model):
    group = models.ForeignKey(
        PlayerGroup, on_delete=models.CASCADE, related_name="score_sheets", verbose_name=_("group")
    )
    rule_set = models.CharField(_("rule set"), max_length=40, choices=RULE_SET_CHOICES)
    options = models.JSONField(_("options"), default=dict, blank=True)
    first_dealer = models.PositiveSmallIntegerField(_("first dealer (seat)"))
    title = models.CharField(_("title"), max_length=80, blank=True)
    played_on = models.DateField(_("date played"), default=timezone.localdate)
    place = models.CharField(_("place"), max_length=80, blank=True)
    do_not_count = models.BooleanField(
        _("do not count"), default=False, help_text=_("Left out of the group's history and standings.")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated at"), default=timezone.now)
    version = models.PositiveIntegerField(
        _("version"), default=1, help_text=_("Goes up with every change; the live sheet polls it.")
    )
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True)
    deleted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Derived cache (rewritten by services.recompute_sheet after every change).
    finished = models.BooleanField(_("finished"), default=False)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    winner_seats = models.JSONField(_("winning seats"), default=list, blank=True)

    objects = LiveSheetManager()
    # Deleted sheets too: the admins' list, restore and the purge (ruff takes a second manager for a field).
    all_objects = models.Manager()  # noqa: DJ012

    class Meta:
        verbose_name = _("score sheet")
        verbose_name_plural = _("score sheets")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["group", "-created_at"])]

    def __str__(self):
        return self.title or f"{self.get_rule_set_display()} #{self.pk}"

    def get_absolute_url(self):
        return reverse("scoring:sheet", args=[self.group.slug, self.pk])

    @property
    def variant(self):
        return VARIANTS[self.rule_set]

    @property
    def family(self) -> str:
        return self.variant.family


class SheetPlayer(models.Model):
    """A seat of a sheet: a group member, or a guest by name. A guest can later be linked to a member
    (``user`` set); from then on the seat counts as that user everywhere (``player_key``)."""

    sheet = models.ForeignKey(
        Sheet, on_delete=models.CASCADE, related_name="players", verbose_name=_("sheet")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    name = models.CharField(_("name"), max_length=60, help_text=_("The guest's name (kept after linking)."))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="sheet_seats",
        verbose_name=_("member"),
    )

    class Meta:
        verbose_name = _("sheet player")
        verbose_name_plural = _("sheet players")
        ordering = ["sheet", "seat"]
        constraints = [models.UniqueConstraint(fields=["sheet", "seat"], name="one_player_per_seat")]

    def __str__(self):
        return self.display_name

    @property
    def display_name(self) -> str:
        return self.user.name if self.user_id else self.name

    @property
    def is_guest(self) -> bool:
        return self.user_id is None

    @property
    def player_key(self) -> str:
        """Who this seat is, for history and standings: ``user:<id>``, or ``guest:<name>``."""
        return f"user:{self.user_id}" if self.user_id else f"guest:{self.name.strip().casefold()}"


class Deal(models.Model):
    """One deal's raw facts (JSON, see scoring/services/deal_facts.py for the shape). ``position``
    orders the deals; a deleted deal keeps its row (``deleted_at``) so the history can show it."""

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="deals", verbose_name=_("sheet"))
    position = models.PositiveIntegerField(_("position"))
    facts = models.JSONField(_("facts"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(_("updated at"), default=timezone.now)
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True)
    client_id = models.UUIDField(
        _("form id"),
        null=True,
        blank=True,
        help_text=_("Made when the new-deal form was first shown; a second save of that form adds nothing."),
    )
    version = models.PositiveIntegerField(
        _("version"), default=1, help_text=_("Goes up with every edit, deletion and restore of the deal.")
    )

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["sheet", "position"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "position"], name="one_deal_per_position"),
            models.UniqueConstraint(fields=["sheet", "client_id"], name="one_deal_per_form"),
        ]

    def __str__(self):
        return f"{self.sheet} / {self.position}"


class DealChange(models.Model):
    """The visible history of a sheet: who entered, edited or deleted which deal, when, and the facts
    before/after; and who marked the sheet "do not count" (or counted it again) or linked one of its
    guests to a member (``deal`` is then empty and ``details`` says what changed)."""

    class Action(models.TextChoices):
        CREATED = "created", _("entered")
        EDITED = "edited", _("edited")
        DELETED = "deleted", _("deleted")
        EXCLUDED = "excluded", _("marked “do not count”")
        INCLUDED = "included", _("counted again")
        SHEET_DELETED = "sheet_del", _("deleted the sheet")
        SHEET_RESTORED = "sheet_res", _("restored the sheet")
        LINKED = "linked", _("linked a guest")
        RESTORED = "restored", _("restored")

    sheet = models.ForeignKey(
        Sheet, on_delete=models.CASCADE, related_name="changes", verbose_name=_("sheet")
    )
    deal = models.ForeignKey(
        Deal,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="changes",
        verbose_name=_("deal"),
        help_text=_("Empty for a change of the whole sheet."),
    )
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    at = models.DateTimeField(_("at"), default=timezone.now)
    deal_number = models.PositiveIntegerField(
        _("deal number"),
        null=True,
        blank=True,
        help_text=_("The deal's number at the time; empty for a void deal."),
    )
    old_facts = models.JSONField(_("facts before"), null=True, blank=True)
    new_facts = models.JSONField(_("facts after"), null=True, blank=True)
    details = models.JSONField(
        _("details"),
        default=dict,
        blank=True,
        help_text=_('A linked guest: {"guest": name, "user_id": id, "member": name}.'),
    )

    class Meta:
        verbose_name = _("deal change")
        verbose_name_plural = _("deal changes")
        ordering = ["-at", "-pk"]

    def __str__(self):
        return f"{self.deal or self.sheet} {self.action}"


# --- Online games and ratings (written by scoring.services.online and scoring.services.ratings) ---


class OnlineResult(models.Model):
    """The result of an online game (games/ reports it through
    scoring.services.online.record_online_game after each deal; the row is rewritten each time).
    ``game_id`` is the online game's id: no foreign key, so that scoring does not depend on the games
    app."""

    group = models.ForeignKey(
        PlayerGroup, on_delete=models.CASCADE, related_name="online_results", verbose_name=_("group")
    )
    game_id = models.PositiveBigIntegerField(_("online game"), unique=True)
    rule_set = models.CharField(_("rule set"), max_length=40, choices=RULE_SET_CHOICES)
    # [{"seat": 0, "user_id": 3 | null, "name": "..."}] in seat order
    players = models.JSONField(_("players"), default=list)
    sides = models.JSONField(_("sides"), default=list)  # [[seat, ...], ...]
    totals = models.JSONField(_("totals by side"), default=list)
    lower_is_better = models.BooleanField(_("lower totals win"), default=True)
    deals = models.PositiveSmallIntegerField(_("deals played"), default=0)
    finished = models.BooleanField(_("finished"), default=False)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    winner_seats = models.JSONField(_("winning seats"), default=list, blank=True)
    updated_at = models.DateTimeField(_("updated at"), default=timezone.now)

    class Meta:
        verbose_name = _("online game result")
        verbose_name_plural = _("online game results")
        indexes = [models.Index(fields=["group", "finished"], name="online_result_group")]

    def __str__(self):
        return f"{self.rule_set} game {self.game_id}"


FAMILY_CHOICES = [("hand", _("Hand")), ("hand-and-foot", _("Hand and Foot"))]

RATING_BASE = 1500
"""The rating of a new player."""
RATING_PER_SKILL = 48
"""Rating points per unit of openskill's skill (mu): openskill's performance spread (beta = 25/6)
becomes 200 points, the class interval of the Elo scale players know."""
PROVISIONAL_GAMES = 5
"""A rating is "provisional" until the player has this many rated games."""


def rating_number(mu: float) -> int:
    """The whole number players see: 1500 for a new player (openskill's mu = 25)."""
    return round(RATING_BASE + (mu - 25.0) * RATING_PER_SKILL)


class RatedGame(models.Model):
    """One finished game of a group as the ratings see it (a counted score sheet or an online game):
    its sides, their ranks, and each rated player's skill before and after it. Written by
    scoring.services whenever a sheet or an online result changes; the ratings are replayed from these
    rows in the order the games finished (``finished_at``, ``source``, ``source_id``). A game with a bot
    seat is ``practice``: kept and shown, never rated or ranked."""

    class Source(models.TextChoices):
        SHEET = "sheet", _("score sheet")
        ONLINE = "online", _("online game")

    group = models.ForeignKey(
        PlayerGroup, on_delete=models.CASCADE, related_name="rated_games", verbose_name=_("group")
    )
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    source_id = models.PositiveBigIntegerField(_("sheet or online game"))
    family = models.CharField(_("family"), max_length=20, choices=FAMILY_CHOICES)
    rule_set = models.CharField(_("rule set"), max_length=40, choices=RULE_SET_CHOICES)
    finished_at = models.DateTimeField(_("finished at"))
    # [[player_key, ...], ...] per side; names by key; ranks per side (1 = best, ties share a rank)
    sides = models.JSONField(_("sides"), default=list)
    names = models.JSONField(_("names"), default=dict)
    ranks = models.JSONField(_("ranks"), default=list)
    winners = models.JSONField(_("winners"), default=list)
    # {player_key: the total of the player's side}; scoring deals played (void deals not counted)
    totals = models.JSONField(_("totals by player"), default=dict)
    deals = models.PositiveSmallIntegerField(_("deals played"), default=0)
    practice = models.BooleanField(_("practice (a bot played)"), default=False)
    # {player_key: [mu_before, sigma_before, mu_after, sigma_after]}; empty until rated (and for practice)
    ratings = models.JSONField(_("ratings"), default=dict, blank=True)

    class Meta:
        verbose_name = _("rated game")
        verbose_name_plural = _("rated games")
        ordering = ["group", "finished_at", "source", "source_id"]
        constraints = [
            models.UniqueConstraint(fields=["source", "source_id"], name="one_rated_game_per_game")
        ]
        indexes = [models.Index(fields=["group", "family", "finished_at"], name="rated_game_order")]

    def __str__(self):
        return f"{self.source} {self.source_id}"

    @property
    def order_key(self) -> tuple:
        return (self.finished_at, self.source, self.source_id)


class RatingsQueue(models.Model):
    """A group's pending ratings work: ``stale_from`` is the finish time of the oldest game an edit,
    deletion or late result changed; the ratings from that point on are replayed by the Celery task
    (scoring.tasks.refresh_group_ratings). Empty (None) when the ratings are up to date. The row is
    also the group's lock for rating updates."""

    group = models.OneToOneField(
        PlayerGroup, on_delete=models.CASCADE, related_name="ratings_queue", verbose_name=_("group")
    )
    stale_from = models.DateTimeField(_("stale from"), null=True, blank=True)

    class Meta:
        verbose_name = _("ratings queue")
        verbose_name_plural = _("ratings queues")

    def __str__(self):
        return f"{self.group}: {self.stale_from or 'up to date'}"


class Rating(models.Model):
    """A player's rating in a group and rule-set family (openskill Plackett-Luce) over counted sheets
    and finished online games without bots; derived from the RatedGame rows."""

    group = models.ForeignKey(
        PlayerGroup, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("group")
    )
    family = models.CharField(_("family"), max_length=20, choices=FAMILY_CHOICES, default="hand")
    player_key = models.CharField(_("player"), max_length=80)
    name = models.CharField(_("name"), max_length=80)
    games = models.PositiveIntegerField(_("games"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    mu = models.FloatField(_("skill"))
    sigma = models.FloatField(_("uncertainty"))
    ordinal = models.FloatField(_("conservative skill"))
    rating = models.IntegerField(_("rating"), default=RATING_BASE)
    last_change = models.IntegerField(_("change in the last game"), default=0)
    updated_at = models.DateTimeField(_("updated at"), default=timezone.now)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["group", "family", "-rating", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["group", "family", "player_key"], name="one_rating_per_player_family"
            )
        ]

    def __str__(self):
        return f"{self.name}: {self.rating}"

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


# --- Statistics: compact rows written by scoring.services with the games they come from ---


class PlayerGame(models.Model):
    """One player's part in one finished game of a group (a RatedGame row; rewritten with it): the rows
    a player's streaks, head-to-head and rating over time are read from, one indexed range per player."""

    game = models.ForeignKey(
        RatedGame, on_delete=models.CASCADE, related_name="player_rows", verbose_name=_("game")
    )
    group = models.ForeignKey(
        PlayerGroup, on_delete=models.CASCADE, related_name="+", verbose_name=_("group")
    )
    family = models.CharField(_("family"), max_length=20, choices=FAMILY_CHOICES)
    player_key = models.CharField(_("player"), max_length=80)
    finished_at = models.DateTimeField(_("finished at"))
    side = models.PositiveSmallIntegerField(_("side"))
    rank = models.PositiveSmallIntegerField(_("rank"))
    won = models.BooleanField(_("won"), default=False)
    total = models.IntegerField(_("total"), default=0)
    practice = models.BooleanField(_("practice (a bot played)"), default=False)

    class Meta:
        verbose_name = _("player's game")
        verbose_name_plural = _("players' games")
        indexes = [
            models.Index(fields=["group", "family", "player_key", "finished_at"], name="player_game_order")
        ]

    def __str__(self):
        return f"{self.player_key} in {self.game_id}"


class DealFact(models.Model):
    """One seat's facts of one scoring deal of a counted sheet or an online game, the same whichever it
    came from (derived from the deal's score by scoring.stats.seat_facts): who went out and how, who had
    opened, the points. Rewritten with the sheet after every change; added by the online game as each
    deal ends. The statistics aggregate these rows in SQL."""

    group = models.ForeignKey(
        PlayerGroup, on_delete=models.CASCADE, related_name="+", verbose_name=_("group")
    )
    source = models.CharField(_("source"), max_length=10, choices=RatedGame.Source.choices)
    source_id = models.PositiveBigIntegerField(_("sheet or online game"))
    family = models.CharField(_("family"), max_length=20, choices=FAMILY_CHOICES)
    rule_set = models.CharField(_("rule set"), max_length=40, choices=RULE_SET_CHOICES)
    number = models.PositiveSmallIntegerField(_("deal number"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    player_key = models.CharField(_("player"), max_length=80)
    went_out = models.BooleanField(_("went out"), default=False)
    won = models.BooleanField(_("the player's side went out"), default=False)
    finish = models.CharField(_("finish"), max_length=30, blank=True)
    opened = models.BooleanField(_("had opened"), null=True, blank=True)
    points = models.IntegerField(_("points"), default=0)
    practice = models.BooleanField(_("practice (a bot played)"), default=False)
    played_at = models.DateTimeField(_("played at"), default=timezone.now)

    class Meta:
        verbose_name = _("deal fact")
        verbose_name_plural = _("deal facts")
        constraints = [
            models.UniqueConstraint(
                fields=["source", "source_id", "number", "seat"], name="one_fact_per_seat_and_deal"
            )
        ]
        indexes = [models.Index(fields=["group", "family", "player_key"], name="deal_fact_player")]

    def __str__(self):
        return f"{self.source} {self.source_id} deal {self.number} seat {self.seat}"
