from django.urls import include, path

from games import views

urlpatterns = [
    path("evenings/<int:evening_id>/games/new/", views.game_new, name="game_new"),
    path("games/<int:game_id>/", views.game_detail, name="game"),
    path("games/<int:game_id>/event/", views.game_event, name="game_event"),
    path("", include("games.recordings.urls")),
    path("", include("games.online.urls")),
    path("", include("games.ratings.urls")),
]
