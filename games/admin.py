import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import InlineModelAdmin
from django.contrib.admin.utils import unquote
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from accounts.models import User
from club.doors.admin_scope import ClubRowsAdmin, ClubTabularInline, PlatformRowsAdmin, club_people
from club.doors.requests import member_of
from club.kernel import bodies, parsing
from club.kernel.errors import RefusalCode, Refused
from club.models import Evening
from games import access, live
from games.models import Game, GameEvent, Role, Seat
from games.online import services as online_services
from games.online.admin import OnlineInline
from games.protocols import game_import, game_protocol
from games.queries import game_view
from games.ratings import services as rating_services
from games.ratings.admin import PointsInline
from games.ratings.publication import winner_label
from games.ratings.stats import role_names
from games.recording import Unreplayable, game_analyse_on_commit


@admin.register(Role)
class RoleAdmin(PlatformRowsAdmin[Role]):
    list_display = ["code", "name_ru", "name_en", "team", "night_order", "action", "check_kind"]
    ordering = ["night_order", "code"]


class SeatInline(ClubTabularInline[Seat, Game]):
    model = Seat
    extra = 0
    fields = ["number", "member", "role"]
    raw_id_fields = ["member"]

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # a played table is history; correct it through a protocol import

    # Once a game has events, its log speaks of its seats: a seat added or deleted would
    # leave a record the engine no longer replays (games.recording.Unreplayable), so the
    # table is fixed from the first event on, and its heading says so.
    def get_formset(self, request: HttpRequest, obj: Game | None = None, **kwargs: Any) -> Any:
        # Admin makes its inlines anew for each request: the heading is this game's.
        if _played(obj):
            self.verbose_name_plural = _(
                "seats (fixed: the game has events, and its log would no longer replay; "
                "correct a played table through a protocol import)"
            )
        return super().get_formset(request, obj, **kwargs)

    def has_add_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return not _played(obj) and super().has_add_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return not _played(obj) and super().has_delete_permission(request, obj)


def _played(game: Game | None) -> bool:
    """A game whose log has an entry (an undo too): its seats are part of its record."""
    return game is not None and game.last_seq > 0


class SeatAsPlayedInline(ClubTabularInline[Seat, Game]):
    """The seats of a running game to a staff member seated at it: the cards their seat
    may see (games/access.sees_seat_role), the others hidden, nothing to change."""

    model = Seat
    extra = 0
    fields = readonly_fields = ("number", "member", "card")
    can_delete = False
    verbose_name_plural = _("seats (as your seat sees them)")

    def get_formset(self, request: HttpRequest, obj: Game | None = None, **kwargs: Any) -> Any:
        # Admin makes its inlines anew for each request: what one viewer may see stays theirs.
        assert obj is not None  # shown on a game's own page only (GameAdmin.get_inlines)
        seats = list(obj.seats.all())
        self.cards_seen = {
            seat.pk for seat in seats if access.sees_seat_role(request.user, obj, seat, seats)
        }
        return super().get_formset(request, obj, **kwargs)

    @admin.display(description=_("role"))
    def card(self, seat: Seat) -> str:
        return seat.role if seat.pk in self.cards_seen else pgettext("role", "hidden")

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class EventInline(ClubTabularInline[GameEvent, Game]):
    model = GameEvent
    extra = 0
    fields = ("seq", "type", "payload", "author", "created_at", "client_id")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # the log is append-only, and only the host's screen appends


class ImportForm(forms.Form):
    evening = forms.ModelChoiceField(
        queryset=Evening.objects.order_by("-starts_at"),
        required=False,
        help_text=_("The evening of a club game; empty for an online game."),
    )
    host = forms.ModelChoiceField(queryset=User.objects.order_by("nickname"))
    protocol = forms.FileField(help_text=_("A mafia-protocol/1 JSON document (docs/protocol.md)."))


@admin.register(Game)
class GameAdmin(ClubRowsAdmin[Game]):
    list_display = [
        "__str__",
        "host",
        "status",
        "winner_shown",
        "rated",
        "last_seq",
        "started_at",
    ]
    list_filter = ["status", "ruleset", "rated"]
    search_fields = ["host__nickname", "seats__member__nickname"]

    @admin.display(description=_("winner"), ordering="winner")
    def winner_shown(self, game: Game) -> str:
        if not game.winner:
            return "—"
        # The role catalogue only for a loner's win, so the list stays one query.
        names = {} if game.winner in ("red", "black") else role_names()
        return winner_label(game.winner, names)

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

    # A staff member seated at a running game is a player there (games/access.sees_record):
    # the page shows what their seat sees, no log, no points; nothing is changed or
    # deleted (the deletion's page would list every row of it).
    def get_inlines(
        self, request: HttpRequest, obj: Game | None
    ) -> list[type[InlineModelAdmin[Any, Game]]]:
        if obj is not None and not access.sees_record(request.user, obj):
            return [OnlineInline, SeatAsPlayedInline]
        return list(self.inlines)

    def has_change_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        if obj is not None and not access.sees_record(request.user, obj):
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        if obj is not None and not access.sees_record(request.user, obj):
            return False
        return super().has_delete_permission(request, obj)

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        game = self.get_object(request, unquote(object_id))
        playing = game is not None and not access.sees_record(request.user, game)
        if playing and request.method == "GET":
            self.message_user(
                request,
                _(
                    "You play in this game: until it ends you see here what your seat sees, "
                    "as on its page; its log, protocol and points are hidden."
                ),
                messages.WARNING,
            )
        return super().change_view(request, object_id, form_url, extra_context)

    def save_model(self, request: HttpRequest, obj: Game, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and "rated" in form.changed_data:
            # Rated or unrated: every rating again, without (or with) this game.
            rating_services.game_rated_changed()
        # Who may follow the game live (`spectators`): the live table's snapshot follows.
        live.snapshot_on_commit(obj.pk)

    def get_urls(self) -> list[URLPattern]:
        urls = [
            path(
                "import/",
                self.admin_site.admin_view(self.import_view),
                name="games_game_import",
            )
        ]
        return urls + super().get_urls()

    @admin.action(description=_("Export the protocols (JSON)"))
    def export_protocols(
        self, request: HttpRequest, queryset: QuerySet[Game]
    ) -> HttpResponse | None:
        games = list(queryset.order_by("pk"))
        playing = [game for game in games if not access.sees_record(request.user, game)]
        if playing:
            self.message_user(
                request,
                _(
                    "You play in: %(games)s. A protocol is exported once its game ends; "
                    "nothing was exported."
                )
                % {"games": ", ".join(str(game) for game in playing)},
                messages.ERROR,
            )
            return None
        documents = []
        for game in games:
            try:
                view = game_view(game.pk)
            except Unreplayable as unreplayable:
                self.message_user(
                    request, f"{game}: {unreplayable.message} {unreplayable.reason}", messages.ERROR
                )
                return None
            if view is not None:
                documents.append(game_protocol(view.game, view.seats, view.log))
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
            game_analyse_on_commit(game_id)
        self.message_user(
            request, _("The analysis is being built: %(count)d.") % {"count": len(ids)}
        )

    def import_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_change_permission(request):
            return redirect("admin:index")
        form = ImportForm(request.POST or None, request.FILES or None)
        # The game's host is one of the club's people (the evenings are the club's already).
        host = form.fields["host"]
        assert isinstance(host, forms.ModelChoiceField)
        host.queryset = club_people().order_by("nickname")
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["protocol"]
            try:
                if upload.size > bodies.PROTOCOL_FILE_BYTES:
                    raise Refused(str(_("The file is larger than 2 MB.")), RefusalCode.TOO_LARGE)
                try:
                    document = parsing.loads(upload.read())
                except parsing.Unreadable as unreadable:
                    raise Refused(unreadable.message, RefusalCode.INVALID) from unreadable
                except (ValueError, UnicodeDecodeError) as error:
                    raise Refused(str(_("The file is not JSON.")), RefusalCode.INVALID) from error
                game = _import(document, form.cleaned_data, member_of(request))
            except Refused as refusal:
                form.add_error("protocol", refusal.message)
            else:
                messages.success(request, _("The game is imported."))
                return redirect("admin:games_game_change", game.pk)
        context = {**self.admin_site.each_context(request), "form": form, "title": _("Import")}
        return render(request, "admin/games/import.html", context)


def _import(document: object, form: dict[str, Any], author: User) -> Game:
    """An online protocol is the online room's; a club one goes into the chosen evening."""
    evening, host = form["evening"], form["host"]
    if evening is None:
        return online_services.online_game_import(document=document, host=host, author=author)
    return game_import(document=document, evening_id=evening.pk, host=host, author=author)
