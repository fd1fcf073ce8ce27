from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from club.models import ClubSettings, Evening


@admin.register(ClubSettings)
class ClubSettingsAdmin(admin.ModelAdmin):
    fieldsets = (
        (None, {"fields": ("venue", "weekday", "start_time", "timezone")}),
        (
            _("Seats"),
            {"fields": ("seats_per_evening", "min_players", "min_age")},
        ),
        (
            _("Sign-up"),
            {
                "fields": (
                    "signup_opens_days_before",
                    "confirmation_deadline_hours",
                    "release_unconfirmed_seats",
                )
            },
        ),
        (None, {"fields": ("audio_retention_days", "telegram_group_chat_id")}),
    )

    # One row only: it is edited, never added or deleted.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: ClubSettings | None = None) -> bool:
        return False


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
    list_display = ("starts_at", "venue", "capacity", "status", "opens_at")
    list_filter = ("status", "venue")
    date_hierarchy = "starts_at"
