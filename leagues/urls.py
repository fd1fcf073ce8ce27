from django.urls import path

from leagues import views

urlpatterns = [
    path("clubs/", views.club_list, name="clubs"),
    path("leagues/<slug:slug>/", views.league_detail, name="league"),
    path("leagues/<slug:slug>/manage/", views.league_manage, name="league_manage"),
    path(
        "leagues/answer/<int:membership_id>/",
        views.league_invitation_answer,
        name="league_invitation_answer",
    ),
    path("rating/", views.rating_page, name="platform_rating"),
]
