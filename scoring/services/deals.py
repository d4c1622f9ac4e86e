"""Writes of a score sheet's deals: add, correct, delete, restore, and undo any change of its history.
Each is refused, with the engine's sentence, when the engine would refuse the sheet after it; each is
recorded as a DealChange."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Deal, DealChange, Sheet
from scoring.services.access import require_enter
from scoring.services.errors import DealAlreadySaved, DealConflict, SheetError
from scoring.services.sheets import live_deals, locked_sheet, mark_do_not_count, sheet_changed
from scoring.services.state import (
    SheetState,
    check_candidate,
    compute_state,
    consequences,
    number_in_sheet,
    sheet_state,
)


def next_position(sheet: Sheet) -> int:
    """The place the next deal takes (deleted deals keep theirs)."""
    return (sheet.deals.aggregate(top=Max("position"))["top"] or 0) + 1


def _saved_first(sheet: Sheet, deal: Deal | None) -> DealAlreadySaved:
    """The refusal of a second save of ``deal`` (the same form, or a form made before it was saved):
    who saved which deal, with the deal for a link."""
    number = number_in_sheet(sheet_state(sheet), deal) if deal is not None else None
    who = deal.created_by.name if deal is not None and deal.created_by else _("Someone")
    if number is None:
        message = _("%(name)s already saved this deal (a void deal).") % {"name": who}
    else:
        message = _("%(name)s already saved deal %(number)s.") % {"name": who, "number": number}
    return DealAlreadySaved(message, deal=deal)


def _already_saved(sheet: Sheet, position: int) -> DealAlreadySaved:
    deal = (
        sheet.deals.filter(position__gte=position).select_related("created_by").order_by("position").first()
    )
    return _saved_first(sheet, deal)


def _same_form(sheet: Sheet, client_id) -> Deal | None:
    if client_id is None:
        return None
    return sheet.deals.filter(client_id=client_id).select_related("created_by").first()


@transaction.atomic
def add_deal(
    sheet: Sheet,
    *,
    by,
    facts: dict,
    position: int | None = None,
    client_id=None,
) -> Deal:
    """Enter the next deal. The engine checks the facts and the game (not over yet); nothing is saved
    when it refuses (:class:`SheetError` with its sentence). ``client_id``: the id of the form the
    deal comes from; a second save of that form adds nothing (:class:`DealAlreadySaved`, with the deal
    saved first). ``position``: the place of the deal the form was made for; when another deal took
    it meanwhile (two phones at the table) the deal is refused the same way."""
    sheet = locked_sheet(sheet)
    require_enter(sheet, by)
    first = _same_form(sheet, client_id)
    if first is not None:
        raise _saved_first(sheet, first)
    top = sheet.deals.aggregate(top=Max("position"))["top"] or 0
    if position is not None and position != top + 1:
        if position <= top:
            raise _already_saved(sheet, position)
        raise SheetError(_("This form is out of date: open the sheet again."))
    position = top + 1
    deal = Deal(
        sheet=sheet, position=position, facts=facts, created_by=by, updated_by=by, client_id=client_id
    )
    state = check_candidate(sheet, [*live_deals(sheet), deal], deal)
    try:
        with transaction.atomic():
            deal.save()
    except IntegrityError:
        raise _saved_first(sheet, _same_form(sheet, client_id)) from None
    state = sheet_changed(sheet, state)
    DealChange.objects.create(
        sheet=sheet,
        deal=deal,
        action=DealChange.Action.CREATED,
        by=by,
        new_facts=facts,
        deal_number=number_in_sheet(state, deal),
    )
    return deal


def _conflict(deal: Deal) -> DealConflict:
    change = deal.changes.select_related("by").order_by("-at", "-pk").first()
    who = change.by.name if change and change.by else _("Someone")
    at = timezone.localtime(change.at if change else deal.updated_at).strftime("%H:%M")
    if deal.deleted_at is not None:
        message = _("%(name)s deleted this deal at %(time)s.") % {"name": who, "time": at}
    else:
        message = _("%(name)s changed this deal at %(time)s.") % {"name": who, "time": at}
    return DealConflict(message, deal=deal, change=change)


@transaction.atomic
def edit_deal(deal: Deal, *, by, facts: dict, version: int | None = None) -> Deal:
    """Correct a past deal; everything after it is derived again (totals, dealers, the end).
    ``version``: the deal's version the correction was made from; when the deal has changed (or been
    deleted) since, the correction is refused with :class:`DealConflict`. Made from the version after
    a deletion, the correction brings the deal back with the figures typed."""
    return _edit(deal, by=by, facts=facts, version=version)[0]


@transaction.atomic
def correct_deal(deal: Deal, *, by, facts: dict, version: int | None = None) -> list[str]:
    """:func:`edit_deal` from the deal form, and what the correction did to the game's result, as
    sentences (:func:`consequences`; empty when the result stays)."""
    before = sheet_state(locked_sheet(deal.sheet))
    _deal, after = _edit(deal, by=by, facts=facts, version=version)
    return consequences(before, after, done=True)


def _edit(deal: Deal, *, by, facts: dict, version: int | None) -> tuple[Deal, SheetState]:
    sheet = locked_sheet(deal.sheet)
    require_enter(sheet, by)
    deal = Deal.objects.get(pk=deal.pk, sheet=sheet)
    if version is not None and version != deal.version:
        raise _conflict(deal)
    if deal.deleted_at is not None:
        if version is None:
            raise _conflict(deal)
        deal = restore_deal(deal, by=by)
    old = deal.facts
    deal.facts = facts
    deals = [deal if d.pk == deal.pk else d for d in live_deals(sheet)]
    state = check_candidate(sheet, deals, deal)
    deal.updated_by = by
    deal.updated_at = timezone.now()
    deal.version += 1
    deal.save(update_fields=["facts", "updated_by", "updated_at", "version"])
    state = sheet_changed(sheet, state)
    DealChange.objects.create(
        sheet=sheet,
        deal=deal,
        action=DealChange.Action.EDITED,
        by=by,
        old_facts=old,
        new_facts=facts,
        deal_number=number_in_sheet(state, deal),
    )
    return deal, state


@transaction.atomic
def delete_deal(deal: Deal, *, by) -> None:
    """Delete a deal (kept for the history); the deals after it move up and are derived again."""
    sheet = locked_sheet(deal.sheet)
    require_enter(sheet, by)
    deal = Deal.objects.get(pk=deal.pk, sheet=sheet, deleted_at__isnull=True)
    number = number_in_sheet(sheet_state(sheet), deal)
    deals = [d for d in live_deals(sheet) if d.pk != deal.pk]
    state = check_candidate(sheet, deals, None)
    deal.deleted_at = timezone.now()
    deal.updated_by = by
    deal.version += 1
    deal.save(update_fields=["deleted_at", "updated_by", "version"])
    DealChange.objects.create(
        sheet=sheet,
        deal=deal,
        action=DealChange.Action.DELETED,
        by=by,
        old_facts=deal.facts,
        deal_number=number,
    )
    sheet_changed(sheet, state)


def preview_delete(deal: Deal) -> list[str]:
    """What deleting ``deal`` would change in its game's result (for the confirmation)."""
    sheet = deal.sheet
    players = list(sheet.players.select_related("user").order_by("seat"))
    deals = live_deals(sheet)
    before = compute_state(sheet, players, deals)
    after = compute_state(sheet, players, [d for d in deals if d.pk != deal.pk])
    return consequences(before, after)


@transaction.atomic
def restore_deal(deal: Deal, *, by) -> Deal:
    """Undo a deletion: the deal takes its place again (refused when the game no longer allows it,
    e.g. it has been finished by later deals)."""
    sheet = locked_sheet(deal.sheet)
    require_enter(sheet, by)
    deal = Deal.objects.get(pk=deal.pk, sheet=sheet, deleted_at__isnull=False)
    deals = sorted([*live_deals(sheet), deal], key=lambda d: d.position)
    deal.deleted_at = None
    state = check_candidate(sheet, deals, None)
    deal.updated_by = by
    deal.updated_at = timezone.now()
    deal.version += 1
    deal.save(update_fields=["deleted_at", "updated_by", "updated_at", "version"])
    state = sheet_changed(sheet, state)
    DealChange.objects.create(
        sheet=sheet,
        deal=deal,
        action=DealChange.Action.RESTORED,
        by=by,
        new_facts=deal.facts,
        deal_number=number_in_sheet(state, deal),
    )
    return deal


UNDOABLE = (
    DealChange.Action.CREATED,
    DealChange.Action.EDITED,
    DealChange.Action.DELETED,
    DealChange.Action.RESTORED,
    DealChange.Action.EXCLUDED,
    DealChange.Action.INCLUDED,
)


_COUNTING = (DealChange.Action.EXCLUDED, DealChange.Action.INCLUDED)


def latest_changes(sheet: Sheet) -> set[int]:
    """The changes that can be undone now: the latest of each deal, and the latest "do not count"."""
    latest: dict = {}
    for pk, deal_id, action in sheet.changes.order_by("-at", "-pk").values_list("pk", "deal_id", "action"):
        key = deal_id if deal_id is not None else ("sheet" if action in _COUNTING else None)
        if key is not None and key not in latest:
            latest[key] = pk if action in UNDOABLE else None
    return {pk for pk in latest.values() if pk is not None}


@transaction.atomic
def undo_change(change: DealChange, *, by) -> None:
    """Undo one change of the sheet's history (an entry deletes the deal, an edit puts the figures
    back, a deletion restores the deal, a restore deletes it again, "do not count" counts the sheet
    again); the undo is itself a change in the history. Only the latest change of a deal (or of the
    sheet's counting) can be undone: a later one would be lost without a word."""
    sheet = locked_sheet(change.sheet)
    require_enter(sheet, by)
    if change.pk not in latest_changes(sheet):
        raise SheetError(_("This deal has changed since: undo the later change first."))
    Action = DealChange.Action
    deal = Deal.objects.get(pk=change.deal_id) if change.deal_id else None
    if change.action in (Action.CREATED, Action.RESTORED):
        delete_deal(deal, by=by)
    elif change.action == Action.EDITED:
        edit_deal(deal, by=by, facts=change.old_facts, version=deal.version)
    elif change.action == Action.DELETED:
        restore_deal(deal, by=by)
    elif change.action in (Action.EXCLUDED, Action.INCLUDED):
        mark_do_not_count(sheet, by=by, do_not_count=change.action == Action.INCLUDED)
    else:
        raise SheetError(_("This change cannot be undone."))
    undo = sheet.changes.order_by("-pk").first()
    if undo is not None and undo.pk != change.pk:
        undo.details = {**undo.details, "undo_of": change.pk}
        undo.save(update_fields=["details"])
