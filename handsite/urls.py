from django.contrib import admin
from django.urls import include, path

from handsite import i18n, notification_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("groups/new/", views.group_create, name="group_create"),
    path("groups/<slug:group_slug>/", views.group_detail, name="group_detail"),
    path("groups/<slug:group_slug>/edit/", views.group_edit, name="group_edit"),
    path("groups/<slug:group_slug>/leave/", views.group_leave, name="group_leave"),
    path("groups/<slug:group_slug>/invite-link/", views.invite_link, name="group_invite_link"),
    path("groups/<slug:group_slug>/invite-email/", views.invite_email, name="group_invite_email"),
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
    path("i18n/setlang/", i18n.set_language, name="set_language"),
    # The online-play and score-sheet apps own everything under their own URL files.
    path("", include("games.urls")),
    path("", include("scoring.urls")),
    path("admin/", admin.site.urls),
]
