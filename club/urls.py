from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path
from django.views.i18n import JavaScriptCatalog

from accounts import miniapp
from accounts import views as account_views
from bot import views as bot_views
from club import views
from club.doors import club_setup
from club.doors.api import api

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("club/icon-<int:size>.png", views.club_icon, name="club_icon"),
    path("evenings/<int:evening_id>/", views.evening_detail, name="evening"),
    path("evenings/<int:evening_id>/signup/", views.evening_sign_up, name="evening_sign_up"),
    path("evenings/<int:evening_id>/cancel/", views.evening_cancel, name="evening_cancel"),
    path("evenings/<int:evening_id>/undo/", views.evening_cancel_undo, name="evening_cancel_undo"),
    path("evenings/<int:evening_id>/confirm/", views.evening_confirm, name="evening_confirm"),
    path("evenings/<int:evening_id>/lineup/", views.evening_lineup, name="evening_lineup"),
    path(
        "evenings/<int:evening_id>/lineup/add/", views.lineup_add_member, name="lineup_add_member"
    ),
    path(
        "evenings/<int:evening_id>/lineup/guest/", views.lineup_add_guest, name="lineup_add_guest"
    ),
    path(
        "evenings/<int:evening_id>/lineup/<int:registration_id>/move/",
        views.lineup_move,
        name="lineup_move",
    ),
    path(
        "evenings/<int:evening_id>/lineup/<int:registration_id>/remove/",
        views.lineup_remove,
        name="lineup_remove",
    ),
    path(
        "evenings/<int:evening_id>/lineup/<int:registration_id>/undo/",
        views.lineup_remove_undo,
        name="lineup_remove_undo",
    ),
    path(
        "evenings/<int:evening_id>/lineup/<int:registration_id>/came/",
        views.lineup_check_in,
        name="lineup_check_in",
    ),
    path(
        "evenings/<int:evening_id>/lineup/second-table/",
        views.lineup_second_table,
        name="lineup_second_table",
    ),
    path("evenings/<int:evening_id>/lineup/message/", views.lineup_message, name="lineup_message"),
    path("evenings/mine/", views.my_evenings, name="my_evenings"),
    path("evenings.ics", views.evenings_ics, name="evenings_ics"),
    path("setup/", club_setup.club_setup, name="club_setup"),
    path("", include("games.urls")),
    path("", include("tournaments.urls")),
    path("", include("live.urls")),
    path("", include("leagues.urls")),
    path("", include("history.urls")),
    path("accounts/", include("accounts.urls")),
    path("tg/", miniapp.mini_app_start, name="mini_app_start"),
    path("tg/auth/", miniapp.mini_app_auth, name="mini_app_auth"),
    path("tg/join/", miniapp.mini_app_join, name="mini_app_join"),
    path("tg/link/", miniapp.mini_app_link, name="mini_app_link"),
    path("telegram/webhook/", bot_views.telegram_webhook, name="telegram_webhook"),
    path("telegram/connect/", bot_views.telegram_connect, name="telegram_connect"),
    path("api/v1/", api.urls),
    # Unknown API paths answer in JSON too, never with the site's HTML 404 page.
    re_path(r"^api/", views.api_not_found),
    # Django's set_language, which also records a logged-in member's choice.
    path("i18n/setlang/", account_views.language_set, name="set_language"),
    # The words of the pages' scripts (the host's table screen), from
    # locale/*/LC_MESSAGES/djangojs.po.
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
]

# The embedded site's developer page for the club's Mini App (DEBUG, no bot): never routed
# where the demo token is not set, which production settings never do
# (tests/accounts/test_mini_app_demo.py proves it).
if settings.TELEGRAM_MINI_APP_DEMO_TOKEN:
    urlpatterns.append(path("dev/tg/", miniapp.mini_app_demo, name="mini_app_demo"))
