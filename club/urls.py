from django.contrib import admin
from django.urls import include, path

from club import views
from club.api import api

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("api/v1/", api.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
