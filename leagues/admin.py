"""The leagues in the Django admin: a platform admin's (a league is above every club). A
club is invited here (a new row is an invitation); only the club's admin accepts it, on the
league's page, so the admin shows the answer and never gives it."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from club.doors.admin_scope import PlatformOnlyAdmin
from leagues.models import League, LeagueMembership, PlatformRating, Series, SeriesTournament


class PlatformAdminOnly(PlatformOnlyAdmin[Any]):
    """A league is above every club: a platform admin's only (club/doors/admin_scope.py)."""


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
