from django.contrib import admin

from games.models import Game, Move, Seat


class ViewOnly:
    """games.services is the only writer and the move log is append-only: the admin may look, never
    add, change or delete."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(ViewOnly, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "bot", "accepted_at")
    readonly_fields = fields
    can_delete = False


@admin.register(Game)
class GameAdmin(ViewOnly, admin.ModelAdmin):
    """Read-only: games change only through games.services. The state (hidden cards) is not shown."""

    list_display = ("__str__", "group", "status", "version", "turn_seat", "deadline_at", "created_at")
    list_filter = ("status", "variant")
    search_fields = ("group__name",)
    fields = (
        "group",
        "variant",
        "options",
        "players",
        "status",
        "version",
        "move_hours",
        "timeout_rule",
        "turn_seat",
        "deadline_at",
        "created_by",
        "created_at",
        "started_at",
        "finished_at",
    )
    readonly_fields = fields
    inlines = [SeatInline]


@admin.register(Move)
class MoveAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("game", "seq", "seat", "kind", "created_at")
    list_filter = ("kind",)
    readonly_fields = ("game", "seq", "seat", "actor", "kind", "action", "created_at")
