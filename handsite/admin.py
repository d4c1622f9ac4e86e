from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from handsite.models import Invitation, Membership, PlayerGroup, User


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = ["email", "display_name", "is_staff", "date_joined"]
    search_fields = ["email", "display_name"]
    ordering = ["email"]
    fieldsets = (
        *DjangoUserAdmin.fieldsets,
        (_("Player"), {"fields": ["display_name"]}),
    )
    add_fieldsets = ((None, {"classes": ["wide"], "fields": ["email", "password1", "password2"]}),)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(PlayerGroup)
class PlayerGroupAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    inlines = [MembershipInline]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["group", "email", "created_at", "expires_at", "revoked_at", "accepted_at"]
    list_filter = ["revoked_at"]
    raw_id_fields = ["group", "created_by", "accepted_by"]
