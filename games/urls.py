from django.urls import include, path

from games import views

urlpatterns = [
    path("evenings/<int:evening_id>/games/new/", views.game_new, name="game_new"),
    path("games/<int:game_id>/", views.game_detail, name="game"),
    path("games/<int:game_id>/tap/", views.game_tap, name="game_tap"),
    path("games/<int:game_id>/head/", views.game_head, name="game_head"),
    path("games/<int:game_id>/live/", views.game_live, name="game_live"),
    path("games/<int:game_id>/live.json", views.game_live_json, name="game_live_json"),
    path("evenings/<int:evening_id>/screen/", views.evening_screen, name="evening_screen"),
    path(
        "evenings/<int:evening_id>/screen.json",
        views.evening_screen_json,
        name="evening_screen_json",
    ),
    path("games/<int:game_id>/spectators/", views.game_spectators, name="game_spectators"),
    path("games/<int:game_id>/bonus/", views.game_bonus, name="game_bonus"),
    path("games/<int:game_id>/rated/", views.game_rated, name="game_rated"),
    path("games/engine.zip", views.game_engine, name="game_engine"),
    path("games/engine-worker.js", views.game_engine_worker, name="game_engine_worker"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("", include("games.recordings.urls")),
    path("", include("games.online.urls")),
    path("", include("games.ratings.urls")),
]
