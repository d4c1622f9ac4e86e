"""Writes of whole score sheets: a new sheet, a rematch, "do not count", deleting, restoring and
purging a sheet, linking a guest to a member. After every change the sheet's cached columns, its rated
game and its per-deal statistics rows are rewritten from the sheet as it now stands."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.db.models import F, Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine.errors import DomainError
from games.engine.variants import validate_options
from handsite.models import Membership
from scoring import stats
from scoring.models import DELETED_SHEETS_KEPT_DAYS, Deal, DealChange, DealFact, RatedGame, Sheet, SheetPlayer
from scoring.services.access import can_delete_sheet, membership, require_enter
from scoring.services.errors import SheetError, SheetPermissionDenied, error_sentence
from scoring.services.ratings import played_at, recompute_ratings, sheet_outcome, sync_rated_game
from scoring.services.state import SheetState, compute_state, sheet_state


@dataclass(frozen=True)
class PlayerEntry:
    """A seat for a new sheet: a member (``user``) or a guest by ``name``."""

    name: str = ""
    user: object | None = None


def sheet_changed(sheet: Sheet, state: SheetState | None = None) -> SheetState:
    """Bump the version, rewrite the cached columns from ``state`` (the sheet as it now stands, derived
    again when not given) and bring the group's ratings up to date (at once for a game that just
    finished, by a replay queued on commit for a change to an older one)."""
    Sheet.all_objects.filter(pk=sheet.pk).update(version=F("version") + 1, updated_at=timezone.now())
    sheet.refresh_from_db()
    state = recompute_sheet(sheet, state)
    sync_rated_game(sheet.group_id, RatedGame.Source.SHEET.value, sheet.pk, sheet_outcome(sheet, state))
    _write_sheet_facts(sheet, state)
    return state


def _write_sheet_facts(sheet: Sheet, state: SheetState) -> None:
    """Rewrite the sheet's per-deal statistics rows: only for a sheet that counts in the history (finished
    and not marked "do not count": the rule :func:`sheet_outcome` applies to games, wins and ratings),
    so the deal figures and the game figures count the same sheets."""
    DealFact.objects.filter(source=RatedGame.Source.SHEET.value, source_id=sheet.pk).delete()
    if sheet_outcome(sheet, state) is None:
        return
    played = played_at(sheet)
    family = sheet.family
    rows = []
    for row in state.rows:
        if row.score is None or row.number is None:
            continue
        for fact in stats.seat_facts(sheet.rule_set, row.score):
            rows.append(
                DealFact(
                    group_id=sheet.group_id,
                    source=RatedGame.Source.SHEET.value,
                    source_id=sheet.pk,
                    family=family,
                    rule_set=sheet.rule_set,
                    number=row.number,
                    seat=fact.seat,
                    player_key=state.players[fact.seat].player_key,
                    went_out=fact.went_out,
                    won=fact.won,
                    finish=fact.finish,
                    opened=fact.opened,
                    points=fact.points,
                    played_at=played(row.deal.created_at),
                )
            )
    DealFact.objects.bulk_create(rows)


@transaction.atomic
def create_sheet(
    *,
    group,
    by,
    rule_set: str,
    players: Sequence[PlayerEntry],
    options: dict | None = None,
    first_dealer: int | None = None,
    title: str = "",
    played_on=None,
    place: str = "",
) -> Sheet:
    """A new sheet in ``group`` with ``players`` in seat order. Options are checked and frozen by the
    engine; ``first_dealer`` None draws one at random (as the rules say)."""
    if not Membership.objects.filter(group=group, user=by).exists():
        raise SheetPermissionDenied(_("Only members of the group can start a sheet."))
    entries = [entry for entry in players if (entry.name or "").strip() or entry.user is not None]
    try:
        frozen = validate_options(rule_set, len(entries), options or {})
    except DomainError as error:
        raise SheetError(error_sentence(error)) from None
    member_ids = set(Membership.objects.filter(group=group).values_list("user_id", flat=True))
    seen_users, seen_names = set(), set()
    for entry in entries:
        if entry.user is not None:
            if entry.user.pk not in member_ids:
                raise SheetError(_("%(name)s is not a member of this group.") % {"name": entry.user.name})
            if entry.user.pk in seen_users:
                raise SheetError(_("%(name)s is on the sheet twice.") % {"name": entry.user.name})
            seen_users.add(entry.user.pk)
        name = (entry.user.name if entry.user is not None else entry.name).strip()
        if name.casefold() in seen_names:
            raise SheetError(
                _("Two players are called %(name)s; give them different names.") % {"name": name}
            )
        seen_names.add(name.casefold())
    if first_dealer is None:
        first_dealer = secrets.randbelow(len(entries))
    if not 0 <= first_dealer < len(entries):
        raise SheetError(_("The first dealer must be one of the players."))
    sheet = Sheet.objects.create(
        group=group,
        rule_set=rule_set,
        options=frozen,
        first_dealer=first_dealer,
        title=title.strip(),
        played_on=played_on or timezone.localdate(),
        place=place.strip(),
        created_by=by,
    )
    SheetPlayer.objects.bulk_create(
        SheetPlayer(
            sheet=sheet,
            seat=seat,
            name=(entry.user.name if entry.user is not None else entry.name).strip(),
            user=entry.user,
        )
        for seat, entry in enumerate(entries)
    )
    recompute_sheet(sheet)
    return sheet


def locked_sheet(sheet: Sheet) -> Sheet:
    return Sheet.all_objects.select_for_update().get(pk=sheet.pk)


def live_deals(sheet: Sheet) -> list[Deal]:
    return list(sheet.deals.filter(deleted_at__isnull=True).order_by("position"))


@transaction.atomic
def rematch(sheet: Sheet, *, by) -> Sheet:
    """A new sheet with the same players in the same seats, rule set and options; the deal passes on
    to the next player (the one after the last game's first dealer)."""
    players = list(sheet.players.select_related("user").order_by("seat"))
    entries = [PlayerEntry(user=p.user) if p.user_id else PlayerEntry(name=p.name) for p in players]
    return create_sheet(
        group=sheet.group,
        by=by,
        rule_set=sheet.rule_set,
        players=entries,
        options=sheet.options,
        first_dealer=(sheet.first_dealer + 1) % len(players),
        title=sheet.title,
        place=sheet.place,
    )


@transaction.atomic
def mark_do_not_count(sheet: Sheet, *, by, do_not_count: bool = True) -> Sheet:
    """Leave a sheet out of (or put it back into) the group's history and standings."""
    sheet = locked_sheet(sheet)
    require_enter(sheet, by)
    if sheet.do_not_count == do_not_count:
        return sheet  # nothing changes, nothing to record
    sheet.do_not_count = do_not_count
    sheet.save(update_fields=["do_not_count"])
    DealChange.objects.create(
        sheet=sheet,
        action=DealChange.Action.EXCLUDED if do_not_count else DealChange.Action.INCLUDED,
        by=by,
    )
    sheet_changed(sheet)
    return sheet


@transaction.atomic
def delete_sheet(sheet: Sheet, *, by) -> Sheet:
    """Take a junk sheet out of every list, standing, statistic and rating at once; admins still see it
    (and can restore it) for DELETED_SHEETS_KEPT_DAYS days, then purge_deleted_sheets removes it."""
    sheet = locked_sheet(sheet)
    if not can_delete_sheet(sheet, by):
        raise SheetPermissionDenied(_("Only the sheet's creator and the group's admins can delete it."))
    if sheet.deleted_at is not None:
        return sheet
    sheet.deleted_at, sheet.deleted_by = timezone.now(), by
    sheet.save(update_fields=["deleted_at", "deleted_by"])
    DealChange.objects.create(sheet=sheet, action=DealChange.Action.SHEET_DELETED, by=by)
    sheet_changed(sheet)
    return sheet


def deleted_sheets(group):
    """The group's deleted sheets still restorable, latest deletion first."""
    since = timezone.now() - timedelta(days=DELETED_SHEETS_KEPT_DAYS)
    return (
        Sheet.all_objects.filter(group=group, deleted_at__gte=since)
        .select_related("deleted_by", "created_by")
        .prefetch_related("players__user", Prefetch("changes", DealChange.objects.select_related("by")))
        .order_by("-deleted_at", "-pk")
    )


@transaction.atomic
def restore_sheet(sheet: Sheet, *, by) -> Sheet:
    """Put a deleted sheet back, as it was (group owners and admins, within the kept days)."""
    sheet = locked_sheet(sheet)
    member = membership(sheet, by)
    if member is None or not member.can_manage:
        raise SheetPermissionDenied(_("Only the group's owners and admins can restore a deleted sheet."))
    if sheet.deleted_at is None:
        return sheet
    sheet.deleted_at, sheet.deleted_by = None, None
    sheet.save(update_fields=["deleted_at", "deleted_by"])
    DealChange.objects.create(sheet=sheet, action=DealChange.Action.SHEET_RESTORED, by=by)
    sheet_changed(sheet)
    return sheet


@transaction.atomic
def purge_deleted_sheets(now=None) -> int:
    """Remove for good the sheets deleted more than DELETED_SHEETS_KEPT_DAYS days ago (their deals and
    history go with them). Returns the number of sheets removed."""
    before = (now or timezone.now()) - timedelta(days=DELETED_SHEETS_KEPT_DAYS)
    # Rows claimed under lock, so a restore at the same moment wins or waits (never half-purged).
    ids = list(
        Sheet.all_objects.select_for_update(skip_locked=True)
        .filter(deleted_at__lt=before)
        .values_list("pk", flat=True)
    )
    Sheet.all_objects.filter(pk__in=ids, deleted_at__lt=before).delete()
    return len(ids)


@transaction.atomic
def link_guest(*, group, by, guest_name: str, user) -> int:
    """Link every seat of ``group``'s sheets played by the guest ``guest_name`` to the member ``user``:
    from then on those seats count as that member everywhere. Owners and admins link anyone; a member
    may link a guest to themselves. Returns the number of seats linked."""
    actor = Membership.objects.filter(group=group, user=by).first()
    if actor is None or not (actor.can_manage or user.pk == by.pk):
        raise SheetPermissionDenied(_("Only the group's owners and admins can link a guest to someone else."))
    if not Membership.objects.filter(group=group, user=user).exists():
        raise SheetError(_("%(name)s is not a member of this group.") % {"name": user.name})
    seats = list(
        SheetPlayer.objects.select_for_update()
        .filter(sheet__group=group, user__isnull=True, name__iexact=guest_name.strip())
        .select_related("sheet")
    )
    if not seats:
        raise SheetError(_("No guest called %(name)s has played in this group.") % {"name": guest_name})
    for seat in seats:
        if seat.sheet.players.filter(user=user).exists():
            raise SheetError(
                _("%(name)s already has a seat on “%(sheet)s”, where the guest also played.")
                % {"name": user.name, "sheet": seat.sheet}
            )
    for seat in seats:
        seat.user = user
        seat.save(update_fields=["user"])
        DealChange.objects.create(
            sheet=seat.sheet,
            action=DealChange.Action.LINKED,
            by=by,
            details={"guest": seat.name, "user_id": user.pk, "member": user.name},
        )
    for sheet in {seat.sheet for seat in seats}:
        sheet_changed(sheet)
    return len(seats)


def recompute_sheet(sheet: Sheet, state: SheetState | None = None) -> SheetState:
    """Derive the sheet from its facts again (unless ``state``, just derived, is given) and rewrite the
    cached columns (also the way to re-score history after a rule is corrected)."""
    if state is None:
        state = sheet_state(sheet)
    status = state.status
    finished = bool(status and status.finished)
    winners = sorted(seat for seats in status.winners for seat in seats) if finished else []
    finished_at = sheet.finished_at if finished else None
    if finished and finished_at is None:
        finished_at = timezone.now()
    Sheet.all_objects.filter(pk=sheet.pk).update(
        finished=finished, winner_seats=winners, finished_at=finished_at
    )
    sheet.finished, sheet.winner_seats, sheet.finished_at = finished, winners, finished_at
    return state


@transaction.atomic
def rebuild_statistics(group_id: int) -> int:
    """Write the statistics rows of a group's history again: every counted sheet's per-deal rows and
    (through the full recompute) every finished game's per-player rows. For a history from before the
    statistics existed; idempotent. Online games' per-deal rows come from games (each game reports
    again: ``manage.py rebuild_statistics``). Returns the number of sheets rewritten."""
    sheets = Sheet.objects.filter(group_id=group_id).prefetch_related(
        Prefetch("players", SheetPlayer.objects.select_related("user").order_by("seat"), to_attr="seated"),
        Prefetch("deals", Deal.objects.filter(deleted_at__isnull=True).order_by("position"), to_attr="live"),
    )
    count = 0
    for sheet in sheets:
        _write_sheet_facts(sheet, compute_state(sheet, sheet.seated, sheet.live))
        count += 1
    recompute_ratings(group_id)
    return count
