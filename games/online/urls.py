from django.urls import path

from games.online import views

urlpatterns = [
    path("online/", views.online_list, name="online_list"),
    path("online/new/", views.online_new, name="online_new"),
    path("online/<int:game_id>/", views.online_game, name="online_game"),
    path("online/<int:game_id>/live/", views.online_live, name="online_live"),
    path("online/<int:game_id>/act/", views.online_act, name="online_act"),
    path("online/<int:game_id>/chat/", views.online_chat, name="online_chat"),
]
