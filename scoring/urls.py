"""URLs of the score sheets, under groups/<group_slug>/sheets/ (every view uses group_view)."""

from django.urls import path

from scoring import views

app_name = "scoring"

G = "groups/<slug:group_slug>/sheets/"
S = G + "<int:sheet_id>/"

urlpatterns = [
    path(G, views.sheet_list, name="sheet_list"),
    path(G + "new/", views.sheet_new, name="sheet_new"),
    path(G + "standings/", views.standings, name="standings"),
    path(G + "player/", views.player, name="player"),
    path(G + "new/<slug:rule_set>/", views.sheet_create, name="sheet_create"),
    path(G + "deleted/", views.sheets_deleted, name="sheets_deleted"),
    path(G + "link-guest/", views.link_guest, name="link_guest"),
    path(G + "export.<str:fmt>", views.group_export, name="group_export"),
    path(S, views.sheet_detail, name="sheet"),
    path(S + "live/", views.sheet_live, name="sheet_live"),
    path(S + "do-not-count/", views.sheet_do_not_count, name="sheet_do_not_count"),
    path(S + "delete/", views.sheet_delete, name="sheet_delete"),
    path(S + "restore/", views.sheet_restore, name="sheet_restore"),
    path(S + "deals/new/", views.deal_new, name="deal_new"),
    path(S + "deals/<int:deal_id>/edit/", views.deal_edit, name="deal_edit"),
    path(S + "deals/<int:deal_id>/delete/", views.deal_delete, name="deal_delete"),
    path(S + "deals/<int:deal_id>/restore/", views.deal_restore, name="deal_restore"),
    path(S + "history/<int:change_id>/undo/", views.change_undo, name="change_undo"),
    path(S + "rematch/", views.sheet_rematch, name="sheet_rematch"),
    path(S + "count/", views.count_cards, name="count_cards"),
    path(S + "opening/", views.opening_check, name="opening_check"),
    path(S + "export.<str:fmt>", views.sheet_export, name="sheet_export"),
    path("results/<str:token>/", views.result_card, name="result_card"),
    path("results/<str:token>/card.png", views.result_card_image, name="result_card_image"),
]
