"""URLs of the games app, included at the site root by handsite/urls.py."""

from django.urls import path

from games import invitation_views, rematch_views, views

app_name = "games"

urlpatterns = [
    path("groups/<slug:group_slug>/games/new/", views.game_create, name="new"),
    path("groups/<slug:group_slug>/games/<int:game_id>/", views.game_play, name="play"),
    path("groups/<slug:group_slug>/games/<int:game_id>/move/", views.game_move, name="move"),
    path("groups/<slug:group_slug>/games/<int:game_id>/poll/", views.game_poll, name="poll"),
    path("groups/<slug:group_slug>/games/<int:game_id>/seat/", views.game_seat, name="seat"),
    path("groups/<slug:group_slug>/games/<int:game_id>/chat/", views.game_chat, name="chat"),
    path("groups/<slug:group_slug>/games/<int:game_id>/replay/", views.game_replay, name="replay"),
    path("groups/<slug:group_slug>/games/<int:game_id>/rematch/", rematch_views.game_rematch, name="rematch"),
    path("rules/", views.rules_index, name="rules_index"),
    path("rules/<slug:slug>/", views.rules_page, name="rules"),
    path(
        "invitations/<str:token>/<slug:answer>/",
        invitation_views.invitation_answer,
        name="invitation",
    ),
    path("groups/<slug:group_slug>/games/<int:game_id>/log/", views.game_log, name="log"),
]
