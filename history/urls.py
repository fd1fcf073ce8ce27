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
]
