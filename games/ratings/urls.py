from django.urls import path

from games.ratings import views

urlpatterns = [
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("players/<int:member_id>/", views.player, name="player"),
    path("figures/", views.club_figures, name="club_figures"),
]
