from django.urls import URLPattern, URLResolver, path

from history import views

urlpatterns: list[URLPattern | URLResolver] = [
    # The exports (history/exports/): a season's, a tournament's, a player's, the club's.
    path("history/export/", views.club_export, name="history_export_club"),
    path(
        "history/export/seasons/<str:season>/",
        views.season_export,
        name="history_export_season",
    ),
    path(
        "history/export/tournaments/<int:tournament_id>/",
        views.tournament_export,
        name="history_export_tournament",
    ),
    path(
        "history/export/players/<int:member_id>/",
        views.player_export,
        name="history_export_player",
    ),
    # The import of a club's past (history/imports/) and the claims on its players.
    path("history/import/", views.history_import, name="history_import"),
    path(
        "history/import/<int:history_import_id>/",
        views.history_import_detail,
        name="history_import_detail",
    ),
    path(
        "history/import/<int:history_import_id>/confirm/",
        views.history_import_confirm,
        name="history_import_confirm",
    ),
    path(
        "history/import/<int:history_import_id>/undo/",
        views.history_import_undo,
        name="history_import_undo",
    ),
    path("history/players/", views.history_players, name="history_players"),
    path("history/players/<int:guest_id>/claim/", views.history_claim, name="history_claim"),
    path("history/claims/", views.history_claims, name="history_claims"),
    path(
        "history/claims/<int:claim_id>/approve/",
        views.history_claim_decide,
        {"decision": "approve"},
        name="history_claim_approve",
    ),
    path(
        "history/claims/<int:claim_id>/refuse/",
        views.history_claim_decide,
        {"decision": "refuse"},
        name="history_claim_refuse",
    ),
]
