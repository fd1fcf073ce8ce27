"""The live app's doors (docs/live.md): each kind of live view adds its own lines."""

from django.urls import path

from live import overlay_views, views

urlpatterns = [
    # The producer's view: its page and its poll, by the link's secret key only.
    path("live/producer/<str:key>/", views.producer_page, name="live_producer"),
    path("live/producer/<str:key>.json", views.producer_json, name="live_producer_json"),
    path(
        "games/<int:game_id>/producer-links/",
        views.producer_link_make,
        name="live_producer_link_make",
    ),
    path(
        "games/<int:game_id>/producer-links/<int:link_id>/revoke/",
        views.producer_link_revoke,
        name="live_producer_link_revoke",
    ),
    # The stream overlays: their pages and their feed by the link's key; their links.
    path("live/overlay/<str:key>.json", overlay_views.overlay_json, name="overlay_json"),
    path("live/overlay/<str:key>/<str:size>/", overlay_views.overlay_page, name="overlay_page"),
    path("live/overlay-links/", overlay_views.overlay_link_make, name="overlay_link_make"),
    path(
        "live/overlay-links/<int:link_id>/revoke/",
        overlay_views.overlay_link_revoke,
        name="overlay_link_revoke",
    ),
]
