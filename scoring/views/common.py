"""What the score-sheet views share: a sheet of the group, the group's members."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from scoring.models import Sheet


def sheet_in(group, sheet_id) -> Sheet:
    return get_object_or_404(Sheet.objects.select_related("group", "created_by"), pk=sheet_id, group=group)


def members_of(group):
    return [m.user for m in group.memberships.select_related("user").order_by("user__display_name", "pk")]
