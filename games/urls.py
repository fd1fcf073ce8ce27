from django.urls import path

from games import views

urlpatterns = [
    path("evenings/<int:evening_id>/games/new/", views.game_new, name="game_new"),
    path("games/<int:game_id>/", views.game_detail, name="game"),
    path("games/<int:game_id>/event/", views.game_event, name="game_event"),
    path("games/<int:game_id>/recording/", views.game_recording, name="game_recording"),
    path(
        "games/<int:game_id>/recording/file", views.game_recording_file, name="game_recording_file"
    ),
    path(
        "games/<int:game_id>/recording/delete/",
        views.game_recording_delete,
        name="game_recording_delete",
    ),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("players/<int:member_id>/", views.player, name="player"),
]
