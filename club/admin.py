from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.admin.options import ActionLocation
from django.contrib.admin.utils import unquote
from django.contrib.admin.widgets import AdminDateWidget
from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.dateformat import time_format
from django.utils.formats import date_format
from django.utils.functional import lazy
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext, pgettext
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from accounts import services as accounts
from accounts.models import User
from club import founding, services
from club.doors.admin_scope import (
    ClubRowsAdmin,
    ClubTabularInline,
    club_address,
    is_platform_admin,
    of_the_club,
)
from club.identity import identity
from club.kernel import tenancy
from club.kernel.clubs import Club
from club.kernel.errors import Refused
from club.kernel.parsing import whole_number
from club.kernel.spreadsheets import CsvWriter
from club.models import (
    TABLE_MAX_SEATS,
    Evening,
    EveningStatus,
    Guest,
    LineupAction,
    LineupChange,
    Registration,
    RegistrationStatus,
    capacity_fits_tables,
)
from club.schedule import signup_opens_at
from club.scheduling import next_free_evening_start
from notifications.models import TelegramGroup


def _admin_title() -> str:
    return gettext("%(club)s: administration") % {"club": identity().name}


# The admin's header and tab title name the club (read when a page is drawn, in its language).
admin.site.site_header = admin.site.site_title = lazy(_admin_title, str)()
admin.site.index_title = _("The club's data")


def _capacity_warning(request: HttpRequest, capacity: int, club: Club) -> None:
    """A capacity no number of tables seats within the rules is allowed (an admin may know
    better: a second room, a short evening) but said, after the save."""
    if not capacity_fits_tables(capacity, club.min_players):
        messages.warning(
            request,
            gettext(
                "%(capacity)d seats do not make whole tables of %(min)d to %(max)d players: "
                "check the number."
            )
            % {"capacity": capacity, "min": club.min_players, "max": TABLE_MAX_SEATS},
        )


def _capacity_help(club: Club) -> str:
    return gettext(
        "A table seats %(min)d to %(max)d players: %(min)d–%(max)d seats for one table, "
        "%(two_min)d–%(two_max)d for two."
    ) % {
        "min": club.min_players,
        "max": TABLE_MAX_SEATS,
        "two_min": 2 * club.min_players,
        "two_max": 2 * TABLE_MAX_SEATS,
    }


def telegram_group_choices(current: int | None) -> list[tuple[str, str]]:
    """The groups the bot is in (it records them as it is added), by title; the group set
    now stays on the list even when the bot has left it, so saving the form keeps it."""
    choices = [("", gettext("— no group —"))]
    groups = list(TelegramGroup.objects.filter(Q(present=True) | Q(chat_id=current)))
    for group in groups:
        label = group.title
        if not group.present:
            label = gettext("%(title)s (the bot left it)") % {"title": group.title}
        choices.append((str(group.chat_id), label))
    if current is not None and current not in {group.chat_id for group in groups}:
        label = gettext("a group the bot has not seen (chat %(id)d)") % {"id": current}
        choices.append((str(current), label))
    return choices


class ClubForm(forms.ModelForm[Club]):
    telegram_group_chat_id = forms.TypedChoiceField(
        label=_("club's Telegram group"),
        required=False,
        coerce=int,
        empty_value=None,
        help_text=_(
            "The groups the club's bot is in. Add the bot to the club's group in Telegram "
            "and the group appears here."
        ),
    )

    class Meta:
        model = Club
        fields = ("telegram_group_chat_id",)  # the admin's fieldsets name the rest

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["telegram_group_chat_id"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = telegram_group_choices(self.instance.telegram_group_chat_id)

    def clean(self) -> dict[str, Any]:
        """A new bot token is asked of Telegram before anything is saved (club/founding.py):
        a token Telegram does not know is refused beside its field."""
        data = super().clean() or {}
        if "telegram_bot_token" in self.changed_data and not self.has_error("telegram_bot_token"):
            token = (data.get("telegram_bot_token") or "").strip()
            self.instance.telegram_bot_username = ""
            self.instance.telegram_webhook_secret = ""
            if token:
                try:
                    self.instance.telegram_bot_username = founding.bot_identity(token).username
                except Refused as refusal:
                    self.add_error("telegram_bot_token", refusal.message)
                else:
                    self.instance.telegram_webhook_secret = founding.new_webhook_secret()
        return data


class FoundingForm(forms.ModelForm[Club]):
    """A new club (a platform admin's): its address, name, city and time zone, and its
    first club admin — an account by nickname, or a new one (email and birth date), which
    is given a link to set its password. The rest of the settings are the club admin's, in
    the club's setup form."""

    admin_nickname = forms.CharField(
        label=_("first club admin: nickname"),
        max_length=32,
        help_text=_(
            "An existing account's nickname; or a new account's, with its email and birth "
            "date below."
        ),
    )
    admin_email = forms.EmailField(label=_("new account: email address"), required=False)
    admin_birth_date = forms.DateField(
        label=_("new account: birth date"), required=False, widget=AdminDateWidget
    )

    class Meta:
        model = Club
        fields = ("slug", "name", "city", "timezone")

    def clean(self) -> dict[str, Any]:
        """The first admin's account: the nickname's, or a new one that needs an email and
        a birth date, under the sign-up's rules for nicknames and emails."""
        data = super().clean() or {}
        nickname = (data.get("admin_nickname") or "").strip()
        if not nickname or User.objects.filter(nickname__iexact=nickname).exists():
            return data
        for name in ("admin_email", "admin_birth_date"):
            if not data.get(name):
                self.add_error(
                    name,
                    _("No account has this nickname: a new one needs an email and a birth date."),
                )
        checks: dict[str, Callable[[str], str]] = {
            "admin_nickname": accounts.nickname_clean,
            "admin_email": accounts.email_clean,
        }
        for name, check in checks.items():
            if data.get(name) and not self.has_error(name):
                try:
                    check(str(data[name]).strip())
                except Refused as refusal:
                    self.add_error(name, refusal.message)
        born = data.get("admin_birth_date")
        if born and not self.has_error("admin_birth_date"):
            # Old enough for the club being founded (its zone's today, its age limit).
            defaults = Club()
            founded = Club(
                timezone=data.get("timezone") or defaults.timezone,
                min_age=data.get("min_age") or defaults.min_age,
            )
            try:
                accounts.birth_date_clean(born, club=founded)
            except Refused as refusal:
                self.add_error("admin_birth_date", refusal.message)
        return data

    def founding_admin(self) -> founding.NewAdmin:
        data = self.cleaned_data
        return founding.NewAdmin(
            nickname=data["admin_nickname"],
            email=data.get("admin_email") or "",
            birth_date=data.get("admin_birth_date"),
        )


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin[Club]):
    """The clubs. A platform admin lists them and founds new ones; each club's settings are
    edited in that club's own admin (/c/<address>/admin/), by its club admin or a platform
    admin; a club admin sees only their own club's row, which the list opens at once."""

    form = ClubForm
    list_display = ("__str__", "slug", "city", "bot", "its_pages")
    readonly_fields = ("telegram_bot_username",)
    fieldsets = (
        (
            None,
            {"fields": ("name", "city", "logo", "venue", "weekday", "start_time", "timezone")},
        ),
        (_("Seats"), {"fields": ("seats_per_evening", "min_players", "min_age")}),
        (
            _("Sign-up"),
            {
                "fields": (
                    "signup_opens_days_before",
                    "confirmation_deadline_hours",
                    "release_unconfirmed_seats",
                    "reserve_news_within",
                    "visitors",
                    "noshow_penalty_count",
                    "noshow_penalty_window",
                )
            },
        ),
        (
            _("Scores"),
            {"fields": ("best_move_victims", "bonus_window_days", "season_tournament_games")},
        ),
        (
            None,
            {
                "fields": (
                    "season_length",
                    "rating_system",
                    "provisional_games",
                    "audio_retention_days",
                    "max_recording_minutes",
                )
            },
        ),
        (
            _("The club's bot and letters"),
            {
                "fields": (
                    "telegram_bot_token",
                    "telegram_bot_username",
                    "telegram_group_chat_id",
                    "email_sender",
                )
            },
        ),
    )
    founding_fieldsets = (
        (None, {"fields": ("slug", "name", "city", "timezone")}),
        (
            _("First club admin"),
            {"fields": ("admin_nickname", "admin_email", "admin_birth_date")},
        ),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Club]:
        """A platform admin's list holds every club; anyone else reads the club in scope."""
        clubs = super().get_queryset(request)
        return clubs if is_platform_admin(request.user) else of_the_club(clubs, Club.current().pk)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return is_platform_admin(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Club | None = None) -> bool:
        return False  # a club's evenings, games and members' history stay

    @admin.display(description=_("bot"))
    def bot(self, club: Club) -> str:
        return f"@{club.telegram_bot_username}" if club.telegram_bot_username else "—"

    @admin.display(description=_("its pages"))
    def its_pages(self, club: Club) -> str:
        """The club's own admin (where its settings are edited) and its setup form."""
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            club_address(club, "admin:club_club_change", club.pk),
            gettext("settings"),
            club_address(club, "club_setup"),
            gettext("setup"),
        )

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """A club admin's list of one row opens the row, as does a single club's site's (as
        before there were clubs); a platform admin's lists them all."""
        if not _one_club_row(request):
            return super().changelist_view(request, extra_context)
        return HttpResponseRedirect(reverse("admin:club_club_change", args=[Club.current().pk]))

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """A club's settings are edited in its own scope (its groups, its time zone): a
        platform admin who opens another club's row here is taken to that club's admin."""
        other = Club.objects.filter(pk=whole_number(unquote(object_id)) or 0).first()
        if other is not None and other.pk != Club.current().pk and is_platform_admin(request.user):
            return HttpResponseRedirect(club_address(other, "admin:club_club_change", other.pk))
        return super().change_view(request, object_id, form_url, extra_context)

    def get_form(
        self,
        request: HttpRequest,
        obj: Club | None = None,
        change: bool = False,
        **kwargs: Any,
    ) -> type[forms.ModelForm[Club]]:
        if obj is None:
            kwargs["form"] = FoundingForm
            kwargs["fields"] = FoundingForm.Meta.fields
            return super().get_form(request, obj, change, **kwargs)
        form = super().get_form(request, obj, change, **kwargs)
        form.base_fields["seats_per_evening"].help_text = _capacity_help(obj)
        return form

    def get_fieldsets(self, request: HttpRequest, obj: Club | None = None) -> Any:
        return self.founding_fieldsets if obj is None else self.fieldsets

    def get_readonly_fields(self, request: HttpRequest, obj: Club | None = None) -> Any:
        return () if obj is None else self.readonly_fields

    def save_model(
        self,
        request: HttpRequest,
        obj: Club,
        form: forms.ModelForm[Club],
        change: bool,
    ) -> None:
        if change:
            super().save_model(request, obj, form, change)
            _capacity_warning(request, obj.seats_per_evening, obj)
            return
        assert isinstance(form, FoundingForm)
        founded = founding.club_found(club=obj, admin=form.founding_admin())
        lines = [
            gettext("%(admin)s sets the club up at %(setup)s.")
            % {"admin": founded.admin, "setup": club_address(obj, "club_setup")}
        ]
        if founded.invitation_path is not None:
            link = request.build_absolute_uri(founded.invitation_path)
            lines.append(
                gettext("Send them this link to set their password: %(link)s") % {"link": link}
            )
        messages.success(request, " ".join(lines))

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except Refused as refusal:  # the founding's (an account's nickname or email)
            messages.error(request, refusal.message)
            return HttpResponseRedirect(request.get_full_path())

    def response_change(self, request: HttpRequest, obj: Club) -> HttpResponse:
        # Back to the form itself: a club admin has no list to go back to.
        response = super().response_change(request, obj)
        if "_continue" not in request.POST and _one_club_row(request):
            return HttpResponseRedirect(request.path)
        return response


def _one_club_row(request: HttpRequest) -> bool:
    """Whether the clubs' list is one row to this admin: theirs, or the only club."""
    return not is_platform_admin(request.user) or len(tenancy.club_ids(fresh=True)) == 1


def _ask_first(
    model_admin: admin.ModelAdmin[Any],
    request: HttpRequest,
    queryset: QuerySet[Any],
    *,
    action: str,
    question: StrOrPromise,
    lines: Sequence[str],
    yes: StrOrPromise,
) -> TemplateResponse | None:
    """An action that tells members asks first: None once the admin said yes (the page's
    second post), else the page that asks."""
    if request.POST.get("confirmed") == "yes":
        return None
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.model._meta,
        "title": question,
        "question": question,
        "lines": lines,
        "yes": yes,
        "queryset": queryset,
        "action": action,
        "action_checkbox_name": ACTION_CHECKBOX_NAME,
    }
    return TemplateResponse(request, "admin/club/action_confirmation.html", context)


def _sign_up_counts(evening: Evening) -> str:
    """The evening's places as its state makes them true: seated and waiting while it is
    ahead or under way; once it is over, who came and who did not (the door's taps or the
    admins' marks), else how many were on the list; a cancelled evening has no places."""
    counts = {name: getattr(evening, name, 0) for name in ("seated", "waiting", "came", "missed")}
    if evening.status == EveningStatus.CANCELLED:
        return pgettext("evening", "cancelled")
    if evening.status == EveningStatus.FINISHED:
        if counts["came"] or counts["missed"]:
            return gettext("over: %(came)d came, %(missed)d did not") % counts
        return gettext("over: %(seated)d on the list") % counts
    return gettext("%(seated)d seated, %(waiting)d in the reserve") % counts


def refusal_html(refusal: Refused) -> str:
    """A refusal as the admin says it: its message, and when it names an evening (another
    evening at the start asked for, club/services.py's refuse_if_evening_at), a link to it."""
    evening_id = refusal.details.get("evening")
    if evening_id is None:
        return refusal.message
    url = reverse("admin:club_evening_change", args=[evening_id])
    return format_html('{} <a href="{}">{}</a>', refusal.message, url, gettext("Open that evening"))


def changeform_refused(request: HttpRequest, refusal: Refused) -> HttpResponseRedirect:
    """A save refused after the form was valid (another admin or the API made an evening at
    that start in between, and the database's constraint said no): nothing is saved, and the
    same page opens again with the refusal."""
    messages.error(request, refusal_html(refusal))
    return HttpResponseRedirect(request.get_full_path())


def _without_bulk_delete[A](actions: dict[str, A]) -> dict[str, A]:
    actions.pop("delete_selected", None)
    return actions


class RegistrationInline(ClubTabularInline[Registration, Evening]):
    model = Registration
    extra = 0
    fields = (
        "member",
        "guest",
        "status",
        "source",
        "arrival",
        "held_back",
        "attendance_confirmed_at",
        "checked_in_at",
    )
    readonly_fields = fields
    ordering = ("status", "held_back", "arrival")
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Evening | None = None) -> bool:
        return False  # seats change only through the services, under the evening's lock


class EveningForm(forms.ModelForm[Evening]):
    """The admin's evening: a start another evening holds (not cancelled) is refused, with
    a link to that evening, as every door refuses it (club/services.py)."""

    class Meta:
        model = Evening
        fields = ("starts_at", "venue", "capacity", "status", "opens_at")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        starts_at = data.get("starts_at")
        # A cancelled evening holds no start, so it may be moved anywhere.
        if starts_at is not None and self.instance.status != EveningStatus.CANCELLED:
            try:
                services.refuse_if_evening_at(starts_at, other_than=self.instance.pk)
            except Refused as refusal:
                self.add_error("starts_at", refusal_html(refusal))
        return data


@admin.register(Evening)
class EveningAdmin(ClubRowsAdmin[Evening]):
    form = EveningForm
    list_display = ("starts_at", "venue", "capacity", "sign_ups", "status", "opens_at")
    list_filter = ("status", "venue")
    date_hierarchy = "starts_at"
    actions = ("export_csv", "cancel_evenings")
    # The weekly slot is the schedule's own mark (club/scheduling.py), not the admin's.
    exclude = ("scheduled_for",)

    def get_inlines(
        self, request: HttpRequest, obj: Evening | None
    ) -> tuple[type[RegistrationInline], ...]:
        return (RegistrationInline,) if obj is not None else ()  # a new evening has no sign-ups

    def get_queryset(self, request: HttpRequest) -> QuerySet[Evening]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                seated=Count(
                    "registrations", filter=Q(registrations__status=RegistrationStatus.CONFIRMED)
                ),
                waiting=Count(
                    "registrations", filter=Q(registrations__status=RegistrationStatus.RESERVE)
                ),
                came=Count(
                    "registrations", filter=Q(registrations__status=RegistrationStatus.ATTENDED)
                ),
                missed=Count(
                    "registrations", filter=Q(registrations__status=RegistrationStatus.NO_SHOW)
                ),
            )
        )

    @admin.display(description=_("sign-ups"))
    def sign_ups(self, evening: Evening) -> str:
        """The seated and the reserve, linking to the evening's sign-ups in their list."""
        url = reverse("admin:club_registration_changelist") + f"?evening__id__exact={evening.pk}"
        return format_html('<a href="{}">{}</a>', url, _sign_up_counts(evening))

    def get_fields(self, request: HttpRequest, obj: Evening | None = None) -> tuple[str, ...]:
        if obj is None:  # a new evening is scheduled; it is closed or cancelled later
            return ("starts_at", "venue", "capacity", "opens_at")
        return ("starts_at", "venue", "capacity", "status", "opens_at")

    def get_readonly_fields(
        self, request: HttpRequest, obj: Evening | None = None
    ) -> tuple[str, ...]:
        if obj is not None and obj.status in (EveningStatus.CANCELLED, EveningStatus.FINISHED):
            return ("status",)
        return ()

    def formfield_for_choice_field(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "status":
            # Sign-up closes and opens again here; cancelling tells every member, so it is
            # an action that asks first, and finishing is the schedule's.
            kwargs["choices"] = [
                (status.value, status.label)
                for status in (EveningStatus.SCHEDULED, EveningStatus.CLOSED)
            ]
        return super().formfield_for_choice_field(db_field, request, **kwargs)

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        """A new evening starts as the club's next one no evening holds yet: its day, time,
        venue, seats and sign-up opening, from the club settings (on a game day before the
        start, today's evening exists, so the week after's)."""
        club = Club.current()
        starts_at = next_free_evening_start(now=timezone.now(), club=club)
        return {
            "starts_at": starts_at,
            "venue": club.venue,
            "capacity": club.seats_per_evening,
            "opens_at": signup_opens_at(club, starts_at),
            **super().get_changeform_initial_data(request),
        }

    def get_form(
        self, request: HttpRequest, obj: Evening | None = None, change: bool = False, **kwargs: Any
    ) -> type[forms.ModelForm[Evening]]:
        form = super().get_form(request, obj, change, **kwargs)
        form.base_fields["capacity"].help_text = _capacity_help(Club.current())
        return form

    def get_actions(
        self, request: HttpRequest, action_location: ActionLocation = ActionLocation.CHANGE_LIST
    ) -> dict[str, Any]:
        # An evening with sign-ups is cancelled (its members are told), never deleted.
        return _without_bulk_delete(super().get_actions(request, action_location))

    def has_delete_permission(self, request: HttpRequest, obj: Evening | None = None) -> bool:
        if obj is not None and obj.registrations.exists():
            return False
        return super().has_delete_permission(request, obj)

    def save_model(
        self, request: HttpRequest, obj: Evening, form: forms.ModelForm[Evening], change: bool
    ) -> None:
        _capacity_warning(request, obj.capacity, Club.current())
        if not change:
            # The form asked already; a creator that won the race since is refused alike.
            with services.one_evening_per_start(obj.starts_at):
                super().save_model(request, obj, form, change)
            return
        # Capacity and start go through the services (raising the capacity promotes from the
        # reserve; a move tells the members), which take the evening's lock in transactions
        # of their own: after admin's has committed.
        new_capacity, new_start = obj.capacity, obj.starts_at
        obj.capacity, obj.starts_at = form.initial["capacity"], form.initial["starts_at"]
        super().save_model(request, obj, form, change)
        # The page's message and the history name the evening as the services leave it.
        obj.capacity, obj.starts_at = new_capacity, new_start
        if "capacity" in form.changed_data:
            transaction.on_commit(
                lambda: services.evening_set_capacity(evening_id=obj.pk, capacity=new_capacity)
            )
        if "starts_at" in form.changed_data:
            transaction.on_commit(
                lambda: services.evening_move(evening_id=obj.pk, starts_at=new_start)
            )

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except Refused as refusal:  # raised by the save, after the form was valid
            return changeform_refused(request, refusal)

    @admin.action(description=_("Cancel the selected evenings (members are told)"))
    def cancel_evenings(
        self, request: HttpRequest, queryset: QuerySet[Evening]
    ) -> TemplateResponse | None:
        live = queryset.exclude(status=EveningStatus.CANCELLED)
        lines = [
            ngettext(
                "%(evening)s: %(count)d member will be told.",
                "%(evening)s: %(count)d members will be told.",
                count,
            )
            % {"evening": evening, "count": count}
            for evening, count in (
                (evening, evening.registrations.filter(
                    status__in=[RegistrationStatus.CONFIRMED, RegistrationStatus.RESERVE]
                ).count())
                for evening in live
            )
        ]  # fmt: skip
        asking = _ask_first(
            self,
            request,
            queryset,
            action="cancel_evenings",
            question=_("Cancel these evenings? Every sign-up is cancelled and its member told."),
            lines=lines,
            yes=_("Yes, cancel them"),
        )
        if asking is not None:
            return asking
        ids = list(live.values_list("pk", flat=True))
        transaction.on_commit(
            lambda: [services.evening_cancel(evening_id=evening_id) for evening_id in ids]
        )
        self.message_user(
            request,
            ngettext("%(count)d evening cancelled.", "%(count)d evenings cancelled.", len(ids))
            % {"count": len(ids)},
        )
        return None

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
            .select_related("evening", "member", "guest")
            .order_by("evening__starts_at", "status", "arrival")
        )
        for r in registrations:
            writer.writerow(
                [
                    r.evening.starts_at.isoformat(),
                    r.member.nickname if r.member else str(r.guest),
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


def _namesakes(name: str, guest_id: str) -> Exists:
    """Whether another guest has the guest's name (the row's fields `name` and `guest_id`,
    as OuterRef reads them), so that a list tells them apart (_guest_hint)."""
    return Exists(Guest.objects.filter(name__iexact=OuterRef(name)).exclude(pk=OuterRef(guest_id)))


def _guest_hint(guest: Guest) -> str:
    """What tells a guest from another of the same name: their phone, their Telegram
    username, else their number."""
    if guest.phone:
        return guest.phone
    if guest.telegram_username:
        return f"@{guest.telegram_username}"
    return gettext("no. %(number)d") % {"number": guest.pk}


def _holds_a_place(registration: Registration) -> bool:
    """A seat or a reserve place on an evening still ahead: it changes hands only through
    the services (cancelled, its member told, the reserve moved up), never by a delete."""
    return (
        registration.status in (RegistrationStatus.CONFIRMED, RegistrationStatus.RESERVE)
        and registration.evening.change_refusal() is None
    )


def _moment(value: datetime) -> str:
    """A moment in a list's narrow column: the short date and the time, in the admin's
    language and the club's time zone («07.12.2026 18:00», «12/07/2026 18:00»)."""
    local = timezone.localtime(value)
    return f"{date_format(local, 'SHORT_DATE_FORMAT')} {time_format(local, 'H:i')}"


def _evening_cell(evening: Evening) -> str:
    """An evening in a list's narrow column: when it starts; where, on hovering (one
    club's evenings share a venue, and a long venue was most of the list's width)."""
    return format_html('<span title="{}">{}</span>', evening.venue, _moment(evening.starts_at))


def _person(registration: Registration | None) -> str:
    """Whose place it is, as a list names it: a member's nickname, a guest's «Имя (гость)»."""
    if registration is None:
        return "—"
    return str(registration.member or registration.guest)


class _NarrowLists:
    """The admin's stylesheet for its lists that must fit a 1280 px screen beside the
    navigation and the filters (club/admin-lists.css: a nickname of 32 letters in one word
    wraps inside its column instead of widening the table)."""

    class Media:
        css = {"all": ("club/admin-lists.css",)}


@admin.register(Registration)
class RegistrationAdmin(_NarrowLists, ClubRowsAdmin[Registration]):
    # Narrow enough for 1280 px beside the navigation and the filters, in Russian too
    # (tests/e2e/test_admin_lists_fit.py): the evening by its start, the place and whether it
    # is held back in one column, moments as short dates; the arrival is the list's order.
    list_display = ("who", "evening_when", "place", "source", "signed_up")
    ordering = ("-evening__starts_at", "arrival")
    list_filter = ("status", "source", "evening")
    search_fields = ("member__nickname", "member__telegram_username", "guest__name")
    list_select_related = ("member", "guest", "evening")
    # Whose place it is and on which evening never changes here (a guest swapped in broke
    # the one-place-a-person rules with a 500): the line-up and the services seat people.
    readonly_fields = (
        "member",
        "guest",
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
    actions = ("withdraw", "promote", "mark_attended", "mark_no_show")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Registration]:
        return (
            super()
            .get_queryset(request)
            .annotate(guest_namesakes=_namesakes("guest__name", "guest_id"))
        )

    @admin.display(description=_("evening"), ordering="evening__starts_at")
    def evening_when(self, registration: Registration) -> str:
        return _evening_cell(registration.evening)

    @admin.display(description=_("place"), ordering="status")
    def place(self, registration: Registration) -> str:
        """The sign-up's status, and «held back» for a member the no-show rule sends to the
        back of the reserve."""
        status = registration.get_status_display()
        if registration.held_back:
            return gettext("%(status)s, held back") % {"status": status}
        return str(status)

    @admin.display(description=_("signed up"), ordering="created_at")
    def signed_up(self, registration: Registration) -> str:
        return _moment(registration.created_at)

    @admin.display(description=_("member or guest"), ordering="member__nickname")
    def who(self, registration: Registration) -> str:
        """A member by nickname; a guest by name, «(гость)», and what tells them apart from
        another guest of the same name."""
        if registration.member is not None:
            return str(registration.member)
        assert registration.guest is not None
        if getattr(registration, "guest_namesakes", False):
            return gettext("%(name)s (guest, %(hint)s)") % {
                "name": registration.guest.name,
                "hint": _guest_hint(registration.guest),
            }
        return str(registration.guest)

    # Who holds a seat changes only through the sign-up services, under the evening's lock:
    # a sign-up is never added or deleted here (a deleted seat went to the next sign-up, not
    # to the reserve), and every field is read-only; the actions call the services.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Registration | None = None) -> bool:
        # A row that holds no place (cancelled, or of an evening under way or over) may go,
        # with its member say; one holding a seat or a reserve place is cancelled first.
        return (
            obj is not None
            and not _holds_a_place(obj)
            and super().has_delete_permission(request, obj)
        )

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Deleting a sign-up that holds a place is refused (403) with a page that says why
        and offers what to do instead: the `withdraw` action on this one sign-up (its member
        is told, a freed seat goes to the reserve), a guest's removal on the line-up."""
        registration = self.get_object(request, unquote(object_id))
        if (
            registration is None
            or not _holds_a_place(registration)
            or not super().has_delete_permission(request, registration)
        ):
            return super().delete_view(request, object_id, extra_context)
        evening = registration.evening
        who = self.who(registration)
        if registration.status == RegistrationStatus.CONFIRMED:
            place = gettext("%(who)s has a seat on the evening %(evening)s.")
        else:
            place = gettext("%(who)s is in the reserve for the evening %(evening)s.")
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": gettext("A sign-up that holds a place is not deleted"),
            "registration": registration,
            "place": place % {"who": who, "evening": evening},
            "is_guest": registration.member is None,
            "may_cancel": self.has_change_permission(request, registration),
            "changelist": reverse("admin:club_registration_changelist"),
            "lineup": reverse("evening_lineup", args=[evening.pk]),
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
            **(extra_context or {}),
        }
        return TemplateResponse(
            request, "admin/club/registration_delete_refused.html", context, status=403
        )

    @admin.action(
        description=_("Cancel the selected sign-ups (a freed seat goes to the reserve)"),
        permissions=["change"],
    )
    def withdraw(
        self, request: HttpRequest, queryset: QuerySet[Registration]
    ) -> TemplateResponse | None:
        holding = queryset.filter(
            status__in=[RegistrationStatus.CONFIRMED, RegistrationStatus.RESERVE]
        ).select_related("member", "guest", "evening")
        asking = _ask_first(
            self,
            request,
            queryset,
            action="withdraw",
            question=_(
                "Cancel these sign-ups? Each member is told, and a freed seat goes to the "
                "first of the reserve."
            ),
            lines=[
                f"{r.member or r.guest} — {r.evening}: {r.get_status_display()}" for r in holding
            ],
            yes=_("Yes, cancel them"),
        )
        if asking is not None:
            return asking
        done = self._each(
            request, holding, lambda r: services.registration_withdraw(registration_id=r.pk)
        )
        self.message_user(
            request,
            ngettext("%(count)d sign-up cancelled.", "%(count)d sign-ups cancelled.", done)
            % {"count": done},
        )
        return None

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
                who = registration.member or registration.guest
                self.message_user(request, f"{who}: {refusal.message}", messages.WARNING)
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


@admin.register(Guest)
class GuestAdmin(ClubRowsAdmin[Guest]):
    """Guests the organisers added. Linking one to a member (who then appears, with the
    member's consent, where the guest played) is the only change: the rest is history."""

    list_display = ("named", "member", "phone", "telegram_username", "added_by", "created_at")
    search_fields = ("name", "phone", "telegram_username", "member__nickname")
    list_select_related = ("member", "added_by")
    fields = ("name", "phone", "telegram_username", "member", "added_by", "created_at")
    readonly_fields = ("name", "phone", "telegram_username", "added_by", "created_at")
    autocomplete_fields = ("member",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Guest]:
        return super().get_queryset(request).annotate(namesakes=_namesakes("name", "pk"))

    @admin.display(description=Guest._meta.get_field("name").verbose_name, ordering="name")
    def named(self, guest: Guest) -> str:
        """The name, and for a guest whose name another guest has, what tells them apart."""
        if getattr(guest, "namesakes", False):
            return f"{guest.name} ({_guest_hint(guest)})"
        return guest.name

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a guest is added on an evening's line-up

    def has_delete_permission(self, request: HttpRequest, obj: Guest | None = None) -> bool:
        return False  # their places and seats are the evenings' history


@admin.register(LineupChange)
class LineupChangeAdmin(_NarrowLists, ClubRowsAdmin[LineupChange]):
    """The organisers' log: read only."""

    # Narrow enough for 1280 px beside the navigation and the filters, in Russian too
    # (tests/e2e/test_admin_lists_fit.py): moments as short dates, what was done with its
    # reason (or a message's reach) in one column, whom by name.
    list_display = ("when", "evening_when", "what", "whom", "by")
    list_filter = ("action", "evening")
    list_select_related = ("evening", "actor", "registration__member", "registration__guest")

    @admin.display(description=_("time"), ordering="created_at")
    def when(self, change: LineupChange) -> str:
        return _moment(change.created_at)

    @admin.display(description=_("evening"), ordering="evening__starts_at")
    def evening_when(self, change: LineupChange) -> str:
        return _evening_cell(change.evening)

    @admin.display(description=_("action"), ordering="action")
    def what(self, change: LineupChange) -> str:
        """The change as the log reads it, with the reason of a removal or how many a
        message reached."""
        if change.reason:
            reason = str(change.get_reason_display())
            return f"{change.label}: {reason[:1].lower()}{reason[1:]}"
        if change.action == LineupAction.MESSAGE and change.reached is not None:
            return gettext("%(change)s (reached %(count)d)") % {
                "change": change.label,
                "count": change.reached,
            }
        return change.label

    @admin.display(description=_("member or guest"))
    def whom(self, change: LineupChange) -> str:
        return _person(change.registration)

    @admin.display(description=_("by"), ordering="actor__nickname")
    def by(self, change: LineupChange) -> str:
        return str(change.actor) if change.actor is not None else "—"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: LineupChange | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: LineupChange | None = None) -> bool:
        return False
