from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from handsite.models import Invitation, Membership, Notification, OutgoingEmail, PlayerGroup, QueuedTask, User
from handsite.services import email_outbox, outbox


class AddUserForm(AdminUserCreationForm):
    """A person is added with their e-mail address alone (the username is filled with it)."""

    class Meta(AdminUserCreationForm.Meta):
        model = User
        fields = ("email",)


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    add_form = AddUserForm
    list_display = ["email", "display_name", "is_staff", "date_joined"]
    search_fields = ["email", "display_name"]
    ordering = ["email"]
    fieldsets = (
        *DjangoUserAdmin.fieldsets,
        (_("Player"), {"fields": ["display_name"]}),
    )
    add_fieldsets = (
        (None, {"classes": ["wide"], "fields": ["email", "usable_password", "password1", "password2"]}),
    )

    def save_model(self, request, obj, form, change):
        obj.username = obj.username or obj.email  # added with the e-mail address alone
        super().save_model(request, obj, form, change)


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


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    """The outbox: what was sent, what waits and what failed (and why), with "send again"."""

    list_display = ["created_at", "user", "kind", "state", "attempts", "last_error", "sent_at"]
    list_filter = ["state", "kind"]
    search_fields = ["user__email", "key", "subject"]
    raw_id_fields = ["user"]
    date_hierarchy = "created_at"
    list_select_related = ["user"]
    readonly_fields = ["state", "attempts", "last_error", "claimed_at", "sent_at", "key"]
    actions = ["send_again"]

    @admin.action(description=_("Send again"))
    def send_again(self, request, queryset):
        count = outbox.send_again(list(queryset.values_list("pk", flat=True)))
        self.message_user(
            request,
            ngettext(
                "%(count)d notification is queued to be sent again.",
                "%(count)d notifications are queued to be sent again.",
                count,
            )
            % {"count": count},
            messages.SUCCESS,
        )


@admin.register(OutgoingEmail)
class OutgoingEmailAdmin(admin.ModelAdmin):
    """The e-mail outbox (account e-mails, group invitations): what waits, what failed and why, with
    "send again" for the failed ones."""

    list_display = ["created_at", "to", "purpose", "state", "attempts", "last_error", "sent_at"]
    list_filter = ["state", "purpose"]
    search_fields = ["to", "subject"]
    date_hierarchy = "created_at"
    readonly_fields = ["state", "attempts", "last_error", "claimed_at", "sent_at", "send_after"]
    exclude = ["body", "html", "headers"]  # links with one-time keys stay out of the admin's pages
    actions = ["send_again"]

    @admin.action(description=_("Send again"))
    def send_again(self, request, queryset):
        count = email_outbox.send_emails_again(list(queryset.values_list("pk", flat=True)))
        self.message_user(
            request,
            ngettext(
                "%(count)d e-mail is queued to be sent again.",
                "%(count)d e-mails are queued to be sent again.",
                count,
            )
            % {"count": count},
            messages.SUCCESS,
        )


@admin.register(QueuedTask)
class QueuedTaskAdmin(admin.ModelAdmin):
    """Tasks recorded with the change that needs them and not done yet (beat queues them again)."""

    list_display = ["created_at", "task", "args", "attempts", "queued_at"]
    readonly_fields = ["task", "args", "created_at", "queued_at", "attempts"]
