from django.contrib import admin
from django.urls import include, path, re_path

from club import views
from club.api import api

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("api/v1/", api.urls),
    # Unknown API paths answer in JSON too, never with the site's HTML 404 page.
    re_path(r"^api/", views.api_not_found),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
