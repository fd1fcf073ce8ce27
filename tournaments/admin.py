"""The organiser's door: a tournament made, its judges, constraints and rounds, and the
seating made (and made again after a change) by an admin action."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.widgets import AdminSplitDateTime
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from club import services as evenings
from club.admin import changeform_refused, refusal_html
from club.doors.admin_scope import ClubRowsAdmin, ClubTabularInline
from club.doors.requests import member_of
from club.kernel.errors import RefusalCode, Refused
from tournaments import services
from tournaments.models import (
    Absence,
    JudgeConflict,
    KeptApart,
    Round,
    Table,
    TableJudge,
    Tournament,
)


class TableJudgeInline(ClubTabularInline[TableJudge, Tournament]):
    model = TableJudge
    extra = 0
    autocomplete_fields = ["judge"]


class KeptApartInline(ClubTabularInline[KeptApart, Tournament]):
    model = KeptApart
    extra = 0
    raw_id_fields = ["first", "second"]


class RoundInline(ClubTabularInline[Round, Tournament]):
    model = Round
    extra = 0
    fields = ["number", "stage", "weight", "announced_at"]
    readonly_fields = ["announced_at"]


class TournamentForm(forms.ModelForm[Tournament]):
    """A new tournament names its first day's start and venue, and how many may sign up:
    its evening's (services.tournament_create makes it, with the rounds)."""

    starts_at = forms.SplitDateTimeField(
        label=_("Starts at"), required=False, widget=AdminSplitDateTime
    )
    venue = forms.CharField(label=_("Venue"), max_length=128, required=False)
    capacity = forms.IntegerField(
        label=_("Places"),
        required=False,
        min_value=1,
        max_value=500,
        help_text=_("Sign-ups before the reserve; empty: tables × players at a table."),
    )

    class Meta:
        model = Tournament
        fields = [
            "name", "ends_on", "preset", "table_size", "tables", "rounds",
            "final_players", "final_rounds", "final_weight", "hide_final",
        ]  # fmt: skip

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance._state.adding:  # its evening's: asked of a new tournament only
            self.fields["starts_at"].required = True
            self.fields["venue"].required = True

    def plan(self) -> services.TournamentPlan:
        data = self.cleaned_data
        return services.TournamentPlan(
            name=data["name"],
            starts_at=data["starts_at"],
            ends_on=data["ends_on"],
            venue=data["venue"],
            preset=data["preset"].code,
            tables=data["tables"],
            rounds=data["rounds"],
            table_size=data["table_size"],
            capacity=data.get("capacity"),
            final_players=data["final_players"],
            final_rounds=data["final_rounds"],
            final_weight=data["final_weight"],
            hide_final=data["hide_final"],
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.instance._state.adding and not self.errors:
            if not data.get("starts_at") or not data.get("venue"):
                raise forms.ValidationError(_("A new tournament needs its start and venue."))
            try:
                services.refuse_bad_plan(self.plan())
            except Refused as refusal:
                raise forms.ValidationError(refusal.message) from refusal
            # Its evening is one of the club's: none other at its start (with a link to it).
            try:
                evenings.refuse_if_evening_at(data["starts_at"])
            except Refused as refusal:
                self.add_error("starts_at", refusal_html(refusal))
        return data


@admin.register(Tournament)
class TournamentAdmin(ClubRowsAdmin[Tournament]):
    form = TournamentForm
    list_display = ["name", "evening", "tables", "rounds", "preset", "finished_at"]
    readonly_fields = ["evening", "seed", "finished_at", "created_at"]
    inlines = [TableJudgeInline, KeptApartInline, RoundInline]
    actions = ["seat_rounds", "announce_next_round", "seat_final", "finish"]

    def get_fields(  # type: ignore[override]  # admin's own annotation is wider than its use
        self, request: HttpRequest, obj: Tournament | None = None
    ) -> list[str]:
        fields = list(TournamentForm.Meta.fields)
        if obj is None:
            return [*fields[:1], "starts_at", "venue", "capacity", *fields[1:]]
        return [*fields, *self.readonly_fields]

    def get_inlines(self, request: HttpRequest, obj: Tournament | None) -> list[Any]:
        return list(self.inlines) if obj is not None else []

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except Refused as refusal:  # the service's, after the form was valid (a race)
            return changeform_refused(request, refusal)

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            if "preset" in form.changed_data:
                services.tournament_preset_changed(obj)
            return
        # The service makes the evening and the rounds with it; the admin goes on with it.
        created = services.tournament_create(plan=form.plan(), actor=member_of(request))
        obj.pk, obj.evening_id, obj.seed = created.pk, created.evening_id, created.seed
        obj.created_at = created.created_at

    @admin.action(description=_("Seat the rounds not begun (again after a change)"))
    def seat_rounds(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            try:
                seated = services.tournament_seat(
                    tournament_id=tournament.pk, actor=member_of(request)
                )
            except Refused as refusal:
                self.message_user(request, f"{tournament}: {refusal.message}", messages.ERROR)
                continue
            text = ngettext("%(t)s: %(n)d round seated.", "%(t)s: %(n)d rounds seated.", seated)
            self.message_user(request, text % {"t": tournament, "n": seated})

    def _each(
        self, request: HttpRequest, queryset: QuerySet[Tournament], act: Any, done: Any
    ) -> None:
        """Run `act(tournament)` for each chosen tournament; say `done` or the refusal."""
        for tournament in queryset:
            try:
                result = act(tournament)
            except Refused as refusal:
                self.message_user(request, f"{tournament}: {refusal.message}", messages.ERROR)
                continue
            self.message_user(request, f"{tournament}: {done(result)}")

    @admin.action(description=_("Tell the players of the next round where they play"))
    def announce_next_round(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        def act(tournament: Tournament) -> int:
            waiting = tournament.round_set.filter(
                announced_at__isnull=True, table_set__isnull=False
            )
            round_ = waiting.order_by("number").first()
            if round_ is None and not Table.objects.filter(round__tournament=tournament).exists():
                raise Refused(_("The rounds are not seated yet."), RefusalCode.CONFLICT)
            if round_ is None:
                raise Refused(_("Every seated round has been told."), RefusalCode.CONFLICT)
            return services.round_announce(round_id=round_.pk, actor=member_of(request))

        self._each(
            request, queryset, act, lambda n: _("%(n)d players told of their round.") % {"n": n}
        )

    @admin.action(description=_("Seat the final from the standings"))
    def seat_final(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        actor = member_of(request)
        self._each(
            request,
            queryset,
            lambda t: services.tournament_final(tournament_id=t.pk, actor=actor),
            lambda finalists: _("the final seated: %(n)d players.") % {"n": len(finalists)},
        )

    @admin.action(description=_("Finish: publish the results"))
    def finish(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        actor = member_of(request)
        self._each(
            request,
            queryset,
            lambda t: services.tournament_finish(tournament_id=t.pk, actor=actor),
            lambda _none: _("finished, the results are published."),
        )


@admin.register(Table)
class TableAdmin(ClubRowsAdmin[Table]):
    list_display = ["__str__", "judge", "game"]
    list_filter = ["round__tournament"]
    raw_id_fields = ["game"]
    readonly_fields = ["round", "number", "players"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Absence)
class AbsenceAdmin(ClubRowsAdmin[Absence]):
    """A player's round they cannot attend: the next seating leaves them out of it."""

    list_display = ["registration", "round"]
    raw_id_fields = ["registration"]


@admin.register(JudgeConflict)
class JudgeConflictAdmin(ClubRowsAdmin[JudgeConflict]):
    list_display = ["judge", "registration"]
    raw_id_fields = ["registration"]
    autocomplete_fields = ["judge"]
