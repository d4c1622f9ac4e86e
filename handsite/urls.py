from django.contrib import admin
from django.urls import include, path

from handsite import notification_views, user_language, views

# The error pages, in the site's layout and the reader's language (DEBUG=0 only; CSRF_FAILURE_VIEW too).
handler400 = "handsite.views.bad_request"
handler403 = "handsite.views.permission_denied"
handler404 = "handsite.views.page_not_found"
handler500 = "handsite.views.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    # For load balancers: the database and the broker (README "Running at scale"). No trailing slash.
    path("healthz", views.healthz, name="healthz"),
    path("groups/new/", views.group_create, name="group_create"),
    path("groups/<slug:group_slug>/", views.group_detail, name="group_detail"),
    path("groups/<slug:group_slug>/edit/", views.group_edit, name="group_edit"),
    path("groups/<slug:group_slug>/leave/", views.group_leave, name="group_leave"),
    path("groups/<slug:group_slug>/invite-link/", views.invite_link, name="group_invite_link"),
    path("groups/<slug:group_slug>/invite-email/", views.invite_email, name="group_invite_email"),
    path(
        "groups/<slug:group_slug>/invitations/<int:invitation_id>/take-back/",
        views.invitation_take_back,
        name="group_invitation_take_back",
    ),
    path("groups/<slug:group_slug>/members/<int:membership_id>/role/", views.member_role, name="member_role"),
    path(
        "groups/<slug:group_slug>/members/<int:membership_id>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path("join/<str:token>/", views.invitation, name="invitation"),
    path("profile/", views.profile, name="profile"),
    path("notifications/", notification_views.notification_list, name="notification_list"),
    path(
        "notifications/<int:notification_id>/", notification_views.notification_open, name="notification_open"
    ),
    path("notifications/settings/", notification_views.notification_settings, name="notification_settings"),
    path("notifications/time-zone/", notification_views.set_time_zone, name="set_time_zone"),
    path(
        "notifications/unsubscribe/<str:token>/",
        notification_views.unsubscribe,
        name="notifications_unsubscribe",
    ),
    path("", include("handsite.push.urls")),  # the installable app: manifest, /sw.js, push devices
    path("", include("handsite.webhooks.urls")),  # a group's chat ping
    path("accounts/", include("allauth.urls")),
    # The footer's language switch; for a logged-in person it also saves their language.
    path("i18n/setlang/", user_language.set_language, name="set_language"),
    # The online-play and score-sheet apps own everything under their own URL files.
    path("", include("games.urls")),
    path("", include("scoring.urls")),
    path("admin/", admin.site.urls),
    # Development only (DEBUG, staff or this machine): the e-mails written to var/mail/, decoded.
    path("dev/mail/", views.dev_mail, name="dev_mail"),
    path("dev/mail/<str:name>/", views.dev_mail, name="dev_mail_message"),
]
