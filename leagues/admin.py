"""The leagues in the Django admin: a platform admin's (a league is above every club). A
club is invited here (a new row is an invitation); only the club's admin accepts it, on the
league's page, so the admin shows the answer and never gives it."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from leagues.models import League, LeagueMembership, PlatformRating, Series, SeriesTournament
from leagues.people import is_platform_admin


class PlatformAdminOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_platform_admin(request.user)

    def has_view_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return is_platform_admin(request.user)

    def has_add_permission(self, request: HttpRequest, *args: object) -> bool:
        return is_platform_admin(request.user)

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return is_platform_admin(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return is_platform_admin(request.user)


class MembershipInline(admin.TabularInline):  # type: ignore[type-arg]
    model = LeagueMembership
    extra = 0
    fields = ("club", "status", "invited_by", "invited_at", "answered_by", "answered_at")
    readonly_fields = ("status", "invited_by", "invited_at", "answered_by", "answered_at")


@admin.register(League)
class LeagueAdmin(PlatformAdminOnly):
    list_display = ("name", "slug", "accepts_rated_games")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("admins",)
    inlines = [MembershipInline]


class StageInline(admin.TabularInline):  # type: ignore[type-arg]
    model = SeriesTournament
    extra = 0
    raw_id_fields = ("tournament",)


@admin.register(Series)
class SeriesAdmin(PlatformAdminOnly):
    list_display = ("name", "league")
    list_filter = ("league",)
    inlines = [StageInline]


@admin.register(PlatformRating)
class PlatformRatingAdmin(PlatformAdminOnly):
    list_display = ("member", "rating", "games", "updated_at")
    readonly_fields = ("member", "rating", "games", "club_ids", "updated_at")

    def has_add_permission(self, request: HttpRequest, *args: object) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
