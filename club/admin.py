from collections.abc import Callable

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.functional import lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from club import services
from club.identity import identity
from club.kernel.club_settings import ClubSettings
from club.kernel.errors import Refused
from club.kernel.spreadsheets import CsvWriter
from club.models import Evening, Registration


def _admin_title() -> str:
    return gettext("%(club)s: administration") % {"club": identity().name}


# The admin's header and tab title name the club (read when a page is drawn, in its language).
admin.site.site_header = admin.site.site_title = lazy(_admin_title, str)()
admin.site.index_title = _("The club's data")


@admin.register(ClubSettings)
class ClubSettingsAdmin(admin.ModelAdmin[ClubSettings]):
    fieldsets = (
        (None, {"fields": ("name", "logo", "venue", "weekday", "start_time", "timezone")}),
        (_("Seats"), {"fields": ("seats_per_evening", "min_players", "min_age")}),
        (
            _("Sign-up"),
            {
                "fields": (
                    "signup_opens_days_before",
                    "confirmation_deadline_hours",
                    "release_unconfirmed_seats",
                    "noshow_penalty_count",
                    "noshow_penalty_window",
                )
            },
        ),
        (
            None,
            {
                "fields": (
                    "season_length",
                    "audio_retention_days",
                    "max_recording_minutes",
                    "telegram_group_chat_id",
                )
            },
        ),
    )

    # One row only: it is edited, never added or deleted.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: ClubSettings | None = None) -> bool:
        return False


class RegistrationInline(admin.TabularInline[Registration, Evening]):
    model = Registration
    extra = 0
    fields = ("member", "status", "source", "arrival", "held_back", "attendance_confirmed_at")
    readonly_fields = fields
    ordering = ("status", "held_back", "arrival")
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Evening | None = None) -> bool:
        return False  # seats change only through the services, under the evening's lock


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin[Evening]):
    list_display = ("starts_at", "venue", "capacity", "status", "opens_at")
    list_filter = ("status", "venue")
    date_hierarchy = "starts_at"
    inlines = (RegistrationInline,)
    actions = ("export_csv", "cancel_evenings")

    def save_model(
        self, request: HttpRequest, obj: Evening, form: forms.ModelForm[Evening], change: bool
    ) -> None:
        if not change:
            super().save_model(request, obj, form, change)
            return
        # Capacity and start go through the services (raising the capacity promotes from the
        # reserve; a move tells the members), which take the evening's lock in transactions
        # of their own: after admin's has committed.
        new_capacity, new_start = obj.capacity, obj.starts_at
        obj.capacity, obj.starts_at = form.initial["capacity"], form.initial["starts_at"]
        super().save_model(request, obj, form, change)
        if "capacity" in form.changed_data:
            transaction.on_commit(
                lambda: services.evening_set_capacity(evening_id=obj.pk, capacity=new_capacity)
            )
        if "starts_at" in form.changed_data:
            transaction.on_commit(
                lambda: services.evening_move(evening_id=obj.pk, starts_at=new_start)
            )

    @admin.action(description=_("Cancel the selected evenings (members are told)"))
    def cancel_evenings(self, request: HttpRequest, queryset: QuerySet[Evening]) -> None:
        ids = list(queryset.values_list("pk", flat=True))
        transaction.on_commit(
            lambda: [services.evening_cancel(evening_id=evening_id) for evening_id in ids]
        )
        self.message_user(
            request,
            ngettext("%(count)d evening cancelled.", "%(count)d evenings cancelled.", len(ids))
            % {"count": len(ids)},
        )

    @admin.action(description=_("Export the sign-ups as CSV"))
    def export_csv(self, request: HttpRequest, queryset: QuerySet[Evening]) -> HttpResponse:
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="registrations.csv"'
        writer = CsvWriter(response)
        writer.writerow(
            [
                "evening",
                "nickname",
                "status",
                "source",
                "arrival",
                "signed_up",
                "confirmed",
                "promoted",
                "cancelled",
            ]
        )
        registrations = (
            Registration.objects.filter(evening__in=queryset)
            .select_related("evening", "member")
            .order_by("evening__starts_at", "status", "arrival")
        )
        for r in registrations:
            writer.writerow(
                [
                    r.evening.starts_at.isoformat(),
                    r.member.nickname,
                    r.status,
                    r.source,
                    r.arrival,
                    r.created_at.isoformat(),
                    r.attendance_confirmed_at.isoformat() if r.attendance_confirmed_at else "",
                    r.promoted_at.isoformat() if r.promoted_at else "",
                    r.cancelled_at.isoformat() if r.cancelled_at else "",
                ]
            )
        return response


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin[Registration]):
    list_display = ("member", "evening", "status", "source", "arrival", "held_back", "created_at")
    list_filter = ("status", "source", "evening")
    search_fields = ("member__nickname", "member__telegram_username")
    list_select_related = ("member", "evening")
    readonly_fields = (
        "member",
        "evening",
        "status",
        "source",
        "arrival",
        "held_back",
        "created_at",
        "attendance_confirmed_at",
        "promoted_at",
        "cancelled_at",
    )
    actions = ("promote", "mark_attended", "mark_no_show")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def _each(
        self,
        request: HttpRequest,
        queryset: QuerySet[Registration],
        change: Callable[[Registration], object],
    ) -> int:
        done = 0
        for registration in queryset:
            try:
                change(registration)
                done += 1
            except Refused as refusal:
                self.message_user(
                    request, f"{registration.member}: {refusal.message}", messages.WARNING
                )
        return done

    @admin.action(description=_("Promote from the reserve (to the front of the line)"))
    def promote(self, request: HttpRequest, queryset: QuerySet[Registration]) -> None:
        done = self._each(
            request,
            queryset.order_by("-arrival"),  # the first selected ends up first in line
            lambda r: services.registration_promote(registration_id=r.pk),
        )
        self.message_user(
            request,
            ngettext("%(count)d member promoted.", "%(count)d members promoted.", done)
            % {"count": done},
        )

    def _mark(self, request: HttpRequest, queryset: QuerySet[Registration], attended: bool) -> None:
        done = self._each(
            request,
            queryset,
            lambda r: services.registration_mark_attendance(
                registration_id=r.pk, attended=attended
            ),
        )
        self.message_user(
            request, ngettext("%(count)d marked.", "%(count)d marked.", done) % {"count": done}
        )

    @admin.action(description=_("Mark as attended"))
    def mark_attended(self, request: HttpRequest, queryset: QuerySet[Registration]) -> None:
        self._mark(request, queryset, attended=True)

    @admin.action(description=_("Mark as no-show"))
    def mark_no_show(self, request: HttpRequest, queryset: QuerySet[Registration]) -> None:
        self._mark(request, queryset, attended=False)
