from django.urls import path

from games.recordings import views

urlpatterns = [
    path("games/<int:game_id>/recording/", views.game_recording, name="game_recording"),
    path(
        "games/<int:game_id>/recording/file", views.game_recording_file, name="game_recording_file"
    ),
    path(
        "games/<int:game_id>/recording/suggestions/<int:suggestion_id>/",
        views.game_recording_suggestion,
        name="game_recording_suggestion",
    ),
    path(
        "games/<int:game_id>/recording/start/",
        views.game_recording_start,
        name="game_recording_start",
    ),
    path(
        "games/<int:game_id>/recording/delete/",
        views.game_recording_delete,
        name="game_recording_delete",
    ),
]
