import json

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import Max, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from club import parsing
from club.errors import INVALID, Refused
from club.models import Evening
from club.queueing import queue_on_commit
from games import recordings, services
from games.models import (
    Game,
    GameEvent,
    OnlineTable,
    PlayerScore,
    Recording,
    RecordingDeletion,
    RecordingStatus,
    Role,
    ScoringScheme,
    Seat,
)
from games.publication import LINE_LABELS
from games.queries import game_view
from games.rules.errors import ProtocolError
from games.rules.scoring import Scheme

MAX_PROTOCOL_BYTES = 2_000_000


@admin.register(Role)
class RoleAdmin(admin.ModelAdmin):
    list_display = ["code", "name_ru", "name_en", "team", "night_order", "action", "check_kind"]
    ordering = ["night_order", "code"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["number", "member", "role"]
    raw_id_fields = ["member"]

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # a played table is history; correct it through a protocol import


class EventInline(admin.TabularInline):
    model = GameEvent
    extra = 0
    fields = ["seq", "type", "payload", "author", "created_at", "client_id"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # the log is append-only, and only the host's screen appends


class PointsInline(admin.TabularInline):
    model = PlayerScore
    extra = 0
    fields = ["seat", "member", "role", "won", "points", "lines", "rating_before", "rating_after"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class OnlineInline(admin.StackedInline):
    model = OnlineTable
    extra = 0
    can_delete = False
    fields = ["starts_at", "day_minutes", "night_minutes", "catastrophe_minutes", "deadline_at"]
    readonly_fields = ["starts_at", "deadline_at"]

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # online games are created on the site or through the API


class ImportForm(forms.Form):
    evening = forms.ModelChoiceField(
        queryset=Evening.objects.order_by("-starts_at"),
        required=False,
        help_text=_("The evening of a club game; empty for an online game."),
    )
    host = forms.ModelChoiceField(queryset=User.objects.order_by("nickname"))
    protocol = forms.FileField(help_text=_("A mafia-protocol/1 JSON document (docs/protocol.md)."))


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "host", "status", "winner", "last_seq", "started_at"]
    list_filter = ["status", "ruleset"]
    search_fields = ["host__nickname", "seats__member__nickname"]
    readonly_fields = [
        "evening",
        "number",
        "host",
        "ruleset",
        "options",
        "lineup",
        "immune",
        "status",
        "winner",
        "first_eliminated",
        "last_seq",
        "started_at",
        "ended_at",
    ]
    inlines = [OnlineInline, SeatInline, PointsInline, EventInline]
    actions = ["export_protocols", "analyse_again"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games start on the host's screen or come from an import

    def get_urls(self):  # type: ignore[no-untyped-def]
        urls = [
            path(
                "import/",
                self.admin_site.admin_view(self.import_view),
                name="games_game_import",
            )
        ]
        return urls + super().get_urls()

    @admin.action(description=_("Export the protocols (JSON)"))
    def export_protocols(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse:
        documents = []
        for game in queryset.order_by("pk"):
            view = game_view(game.pk)
            if view is not None:
                documents.append(services.game_protocol(view.game, view.seats, view.log))
        body = documents[0] if len(documents) == 1 else documents
        response = HttpResponse(
            json.dumps(body, ensure_ascii=False, indent=2), content_type="application/json"
        )
        response["Content-Disposition"] = 'attachment; filename="protocols.json"'
        return response

    @admin.action(description=_("Build the analysis again"))
    def analyse_again(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        ids = list(queryset.values_list("pk", flat=True))
        for game_id in ids:
            services.game_analyse_on_commit(game_id)
        self.message_user(
            request, _("The analysis is being built: %(count)d.") % {"count": len(ids)}
        )

    def import_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_change_permission(request):
            return redirect("admin:index")
        form = ImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["protocol"]
            try:
                if upload.size > MAX_PROTOCOL_BYTES:
                    raise Refused(str(_("The file is larger than 2 MB.")), "invalid", INVALID)
                try:
                    document = parsing.loads(upload.read())
                except (ValueError, UnicodeDecodeError) as error:
                    raise Refused(str(_("The file is not JSON.")), "invalid", INVALID) from error
                game = services.game_import(
                    document=document,
                    evening_id=getattr(form.cleaned_data["evening"], "pk", None),
                    host=form.cleaned_data["host"],
                    author=request.user,
                )
            except Refused as refusal:
                form.add_error("protocol", refusal.message)
            else:
                messages.success(request, _("The game is imported."))
                return redirect("admin:games_game_change", game.pk)
        context = {**self.admin_site.each_context(request), "form": form, "title": _("Import")}
        return render(request, "admin/games/import.html", context)


class _SchemeFormBase(forms.ModelForm):
    """A new version: the points of every line, starting from the current version's."""

    class Meta:
        model = ScoringScheme
        fields = ["note"]

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        current = ScoringScheme.objects.current().scheme().to_dict()
        for code in LINE_LABELS:
            if code in self.fields:
                self.fields[code].initial = current[code]

    def clean(self) -> dict:
        cleaned = super().clean()
        try:
            self.scheme = Scheme.from_dict({c: cleaned[c] for c in LINE_LABELS if c in cleaned})
        except ProtocolError as error:
            raise forms.ValidationError(error.message(services.rules_language())) from error
        return cleaned


# One number field per scoring line, declared on the class so that admin's form factory
# knows them.
SchemeForm = type(
    "SchemeForm",
    (_SchemeFormBase,),
    {
        code: forms.FloatField(label=label, min_value=-10, max_value=10)
        for code, label in LINE_LABELS.items()
    },
)


@admin.register(ScoringScheme)
class ScoringSchemeAdmin(admin.ModelAdmin):
    """Versions are history: an admin adds a new one (every game is scored again by it)
    and never edits or deletes one that games were scored by."""

    list_display = ["version", "note", "created_at", "created_by"]
    form = SchemeForm
    readonly_fields = ["version", "points", "created_at", "created_by"]

    def get_fields(self, request: HttpRequest, obj: ScoringScheme | None = None) -> list[str]:
        if obj is not None:
            return ["version", "note", "points", "created_at", "created_by"]
        return ["note", *LINE_LABELS]

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def save_model(
        self, request: HttpRequest, obj: ScoringScheme, form: _SchemeFormBase, change: bool
    ) -> None:
        with transaction.atomic():
            latest = ScoringScheme.objects.select_for_update().aggregate(v=Max("version"))["v"]
            obj.version = (latest or 0) + 1
            obj.points = form.scheme.to_dict()
            obj.created_by = request.user
            obj.save()
            queue_on_commit("games.tasks.games_rescore")


@admin.register(Recording)
class RecordingAdmin(admin.ModelAdmin):
    """Recordings are personal data: admins see and delete them (with an audit row), the
    retention sweep deletes them on time; nothing is edited by hand."""

    list_display = [
        "game",
        "original_name",
        "status",
        "progress",
        "size",
        "created_at",
        "deleted_at",
    ]
    list_filter = ["status"]
    readonly_fields = [f.name for f in Recording._meta.fields]
    actions = ["delete_now"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # through the action, which writes the audit

    @admin.action(description=_("Delete the selected recordings now"), permissions=["view"])
    def delete_now(self, request: HttpRequest, queryset: QuerySet[Recording]) -> None:
        count = 0
        for recording_id in queryset.exclude(status=RecordingStatus.DELETED).values_list(
            "pk", flat=True
        ):
            try:
                recordings.recording_delete(recording_id=recording_id, user=request.user)
                count += 1
            except Refused as refusal:
                messages.error(request, refusal.message)
        self.message_user(request, _("Recordings deleted: %(count)d.") % {"count": count})


@admin.register(RecordingDeletion)
class RecordingDeletionAdmin(admin.ModelAdmin):
    list_display = ["deleted_at", "reason", "game", "file_name", "size", "due_at", "by"]
    list_filter = ["reason"]
    readonly_fields = [f.name for f in RecordingDeletion._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # the audit is kept
