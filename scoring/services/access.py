"""Who may change a score sheet: its players who are group members, its creator, the group's owners
and admins."""

from __future__ import annotations

from django.utils.translation import gettext as _

from handsite.models import Membership
from scoring.models import Sheet
from scoring.services.errors import SheetPermissionDenied


def membership(sheet: Sheet, user) -> Membership | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(group_id=sheet.group_id, user=user).first()


def can_enter(sheet: Sheet, user, member: Membership | None = None) -> bool:
    """Players of the sheet who are group members enter deals; so do the sheet's creator and the group's
    owners and admins (someone has to keep score for a table of guests). ``member``: the user's
    membership of the sheet's group when the caller already has it (saves the query)."""
    if member is None:
        member = membership(sheet, user)
    if member is None:
        return False
    if member.can_manage or sheet.created_by_id == user.pk:
        return True
    return sheet.players.filter(user=user).exists()


def require_enter(sheet: Sheet, user) -> None:
    if not can_enter(sheet, user):
        raise SheetPermissionDenied(_("Only the players of this sheet can change it."))


def can_delete_sheet(sheet: Sheet, user, member: Membership | None = None) -> bool:
    """The sheet's creator and the group's owners and admins delete a sheet."""
    if member is None:
        member = membership(sheet, user)
    return member is not None and (member.can_manage or sheet.created_by_id == user.pk)
