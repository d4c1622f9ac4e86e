from django.contrib import admin

from scoring.models import Deal, DealChange, Sheet, SheetPlayer


class SheetPlayerInline(admin.TabularInline):
    model = SheetPlayer
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Sheet)
class SheetAdmin(admin.ModelAdmin):
    list_display = ["__str__", "group", "rule_set", "finished", "do_not_count", "created_at"]
    list_filter = ["rule_set", "finished", "do_not_count"]
    search_fields = ["title", "group__name"]
    raw_id_fields = ["group", "created_by"]
    readonly_fields = ["version", "finished", "finished_at", "winner_seats"]
    inlines = [SheetPlayerInline]


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ["sheet", "position", "created_by", "created_at", "deleted_at"]
    raw_id_fields = ["sheet", "created_by", "updated_by"]
    readonly_fields = ["facts"]  # change deals through the sheet so history and totals follow


@admin.register(DealChange)
class DealChangeAdmin(admin.ModelAdmin):
    list_display = ["sheet", "deal", "action", "by", "at"]
    raw_id_fields = ["sheet", "deal", "by"]
