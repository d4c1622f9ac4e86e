"""URLs of the score sheets, under groups/<group_slug>/sheets/ (every view uses group_view)."""

from django.urls import path

from scoring.views import cards, deals, history, picker, sheets

app_name = "scoring"

G = "groups/<slug:group_slug>/sheets/"
S = G + "<int:sheet_id>/"

urlpatterns = [
    path(G, history.sheet_list, name="sheet_list"),
    path(G + "new/", sheets.sheet_new, name="sheet_new"),
    path(G + "standings/", history.standings, name="standings"),
    path(G + "player/", history.player, name="player"),
    path(G + "new/<slug:rule_set>/", sheets.sheet_create, name="sheet_create"),
    path(G + "deleted/", sheets.sheets_deleted, name="sheets_deleted"),
    path(G + "link-guest/", history.link_guest, name="link_guest"),
    path(G + "export.<str:fmt>", history.group_export, name="group_export"),
    path(S, sheets.sheet_detail, name="sheet"),
    path(S + "live/", sheets.sheet_live, name="sheet_live"),
    path(S + "do-not-count/", sheets.sheet_do_not_count, name="sheet_do_not_count"),
    path(S + "delete/", sheets.sheet_delete, name="sheet_delete"),
    path(S + "restore/", sheets.sheet_restore, name="sheet_restore"),
    path(S + "deals/new/", deals.deal_new, name="deal_new"),
    path(S + "deals/<int:deal_id>/edit/", deals.deal_edit, name="deal_edit"),
    path(S + "deals/<int:deal_id>/delete/", deals.deal_delete, name="deal_delete"),
    path(S + "deals/<int:deal_id>/restore/", deals.deal_restore, name="deal_restore"),
    path(S + "history/<int:change_id>/undo/", deals.change_undo, name="change_undo"),
    path(S + "rematch/", sheets.sheet_rematch, name="sheet_rematch"),
    path(S + "count/", picker.count_cards, name="count_cards"),
    path(S + "opening/", picker.opening_check, name="opening_check"),
    path(S + "export.<str:fmt>", sheets.sheet_export, name="sheet_export"),
    path("results/<str:token>/", cards.result_card, name="result_card"),
    path("results/<str:token>/card.png", cards.result_card_image, name="result_card_image"),
]
