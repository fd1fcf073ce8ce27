from django.urls import path

from games import online_views, views

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
    path("online/", online_views.online_list, name="online_list"),
    path("online/new/", online_views.online_new, name="online_new"),
    path("online/<int:game_id>/", online_views.online_game, name="online_game"),
    path("online/<int:game_id>/act/", online_views.online_act, name="online_act"),
    path("online/<int:game_id>/chat/", online_views.online_chat, name="online_chat"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("players/<int:member_id>/", views.player, name="player"),
]
