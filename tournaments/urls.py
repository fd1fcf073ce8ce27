from django.urls import path

from tournaments import views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/<int:tournament_id>/", views.tournament_detail, name="tournament"),
    path("tournaments/<int:tournament_id>/live/", views.tournament_live, name="tournament_live"),
    path(
        "tournaments/<int:tournament_id>/live.json",
        views.tournament_live_json,
        name="tournament_live_json",
    ),
    path("tournaments/tables/<int:table_id>/start/", views.table_start, name="table_start"),
]
