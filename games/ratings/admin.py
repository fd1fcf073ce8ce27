from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from club.doors.admin_scope import (
    ClubRowsAdmin,
    ClubTabularInline,
    PlatformRowsAdmin,
)
from club.doors.requests import member_of
from club.kernel.clubs import Club
from club.kernel.parsing import whole_number
from games.models import Game
from games.ratings import analysis, services
from games.ratings.models import (
    PlayerScore,
    RatingForecast,
    ScoringPreset,
    ScoringScheme,
    SeasonPreset,
)
from games.ratings.publication import LINE_LABELS
from games.rules.errors import ProtocolError
from games.rules.forecast import COIN
from games.rules.scoring import TIE_BREAKERS, Scheme
from games.rules_text import rules_message


class PointsInline(ClubTabularInline[PlayerScore, Game]):
    model = PlayerScore
    extra = 0
    fields = ("seat", "member", "role", "won", "points", "lines", "rating_before", "rating_after")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


# Every field of a scheme (games/rules/scoring.Scheme) a new version sets, as the admin
# names it: the lines' points, the best move's flag, the bounds of the host's extra points,
# a critical day's weight and first-night compensation's cap (the tie-breakers: below).
SCHEME_LABELS: dict[str, Any] = {
    **{code: label for code, label in LINE_LABELS.items() if code in Scheme().to_dict()},
    "best_move_loners_black": _("the best move counts the loners (maniac, нагнетатель) black"),
    "best_move_red_only": _("only a red player's best move scores"),
    "bonus_min": _("extra points: the lowest (a penalty)"),
    "bonus_max": _("extra points: the highest"),
    "critical_day_factor": _("a critical day's nominations and votes count this many times"),
    "first_night_compensation": _("first-night compensation (Ci): its cap, 0 for none"),
}


def _scheme_field(code: str, label: Any) -> forms.Field:
    if isinstance(getattr(Scheme(), code), bool):
        return forms.BooleanField(label=label, required=False)
    return forms.FloatField(label=label, min_value=-10, max_value=10)


class _SchemeFormBase(forms.ModelForm[ScoringScheme]):
    """A new version of a preset: every field, starting from that preset's newest version."""

    tie_breakers = forms.CharField(
        label=_("tie-breakers, in order"),
        required=False,
        help_text=_("Comma-separated, after the points: %(names)s.")
        % {"names": ", ".join(f"«{name}»" for name in TIE_BREAKERS)},  # codes, as typed
    )

    class Meta:
        model = ScoringScheme
        fields = ["preset", "note"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        fixed = getattr(self, "fixed_preset", None)  # ScoringSchemeAdmin.get_form
        if fixed is not None:
            self.initial["preset"] = fixed
        chosen = ScoringPreset.objects.filter(pk=self.initial.get("preset") or 0).first()
        if "preset" in self.fields:
            # The points below are this preset's: choosing another here would store them
            # under its name (the add page is opened for one preset: ScoringSchemeAdmin).
            self.fields["preset"].disabled = True
        current = ScoringScheme.objects.current(chosen).scheme().to_dict()
        for code in [*SCHEME_LABELS, "tie_breakers"]:
            if code in self.fields:
                value = current[code]
                self.fields[code].initial = ", ".join(value) if code == "tie_breakers" else value

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        raw = {c: cleaned[c] for c in SCHEME_LABELS if c in cleaned}
        if "tie_breakers" in cleaned:
            raw["tie_breakers"] = [
                t.strip() for t in cleaned["tie_breakers"].split(",") if t.strip()
            ]
        try:
            self.scheme = Scheme.from_dict(raw)
        except ProtocolError as error:
            raise forms.ValidationError(rules_message(error)) from error
        return cleaned


# One field per scheme field, declared on the class so that admin's form factory knows them.
SchemeForm = type(
    "SchemeForm",
    (_SchemeFormBase,),
    {code: _scheme_field(code, label) for code, label in SCHEME_LABELS.items()},
)


@admin.register(ScoringScheme)
class ScoringSchemeAdmin(PlatformRowsAdmin[ScoringScheme]):
    """Versions are history: an admin adds a new one to a preset (every game is scored
    again by it) and never edits or deletes one that games were scored by."""

    list_display = ["preset", "version", "note", "created_at", "created_by"]
    list_filter = ["preset"]
    form = SchemeForm
    readonly_fields = ["version", "points", "created_at", "created_by"]

    def get_fields(  # type: ignore[override]  # admin's own annotation is wider than its use
        self, request: HttpRequest, obj: ScoringScheme | None = None
    ) -> list[str]:
        if obj is not None:
            return ["preset", "version", "note", "points", "created_at", "created_by"]
        return ["preset", "note", *SCHEME_LABELS, "tie_breakers"]

    def get_readonly_fields(
        self, request: HttpRequest, obj: ScoringScheme | None = None
    ) -> list[str]:
        return [*self.readonly_fields, "preset"] if obj is not None else self.readonly_fields

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def get_form(  # type: ignore[override]  # admin's own annotation is wider than its use
        self, request: HttpRequest, obj: ScoringScheme | None = None, **kwargs: Any
    ) -> type[forms.ModelForm[ScoringScheme]]:
        form = super().get_form(request, obj, **kwargs)
        preset = whole_number(request.GET.get("preset", ""))
        if obj is None and preset:  # the add page's preset, for its post too
            return type(form.__name__, (form,), {"fixed_preset": preset})
        return form

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """A version is added to one preset, the form starting from its newest points: without
        `?preset=`, the admin first chooses which (a form whose preset could be changed kept
        the first preset's points under the other's name)."""
        chosen = ScoringPreset.objects.filter(pk=whole_number(request.GET.get("preset", "")) or 0)
        if not chosen.exists():
            context = {
                **self.admin_site.each_context(request),
                "opts": self.opts,
                "title": _("Add a version: which preset?"),
                "presets": ScoringPreset.objects.all(),
            }
            return render(request, "admin/ratings/choose_preset.html", context)
        return super().add_view(request, form_url, extra_context)

    def save_model(
        self, request: HttpRequest, obj: ScoringScheme, form: _SchemeFormBase, change: bool
    ) -> None:
        created = services.scheme_version_create(
            scheme=form.scheme, note=obj.note, by=member_of(request), preset=obj.preset
        )
        obj.pk, obj.version = created.pk, created.version  # for admin's message and redirect


@admin.register(ScoringPreset)
class ScoringPresetAdmin(PlatformRowsAdmin[ScoringPreset]):
    """The presets (docs/scoring.md); their points are their versions («Scoring schemes»)."""

    list_display = ["preset_name", "code", "source"]

    @admin.display(description=_("versions"))
    def versions(self, preset: ScoringPreset) -> str:
        """Its versions, newest first, and the way to add one starting from its points."""
        add = reverse("admin:ratings_scoringscheme_add") + f"?preset={preset.pk}"
        rows = format_html_join(
            "",
            '<li><a href="{}">{}</a> · {}</li>',
            (
                (reverse("admin:ratings_scoringscheme_change", args=[v.pk]), v, v.note)
                for v in preset.versions.order_by("-version")
            ),
        )
        return format_html(
            '<ul>{}</ul><a href="{}" class="addlink">{}</a>', rows, add, _("Add a version")
        )

    @admin.display(description=_("name"))
    def preset_name(self, preset: ScoringPreset) -> str:
        return str(preset.label)

    def get_readonly_fields(
        self, request: HttpRequest, obj: ScoringPreset | None = None
    ) -> list[str]:
        return ["code", "versions"] if obj is not None else []

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(SeasonPreset)
class SeasonPresetAdmin(ClubRowsAdmin[SeasonPreset]):
    """Which preset scores which seasons; a change scores the games again (in the worker)."""

    list_display = ["since", "preset", "note", "created_by"]
    fields = ["since", "preset", "note"]

    def save_model(self, request: HttpRequest, obj: SeasonPreset, form: Any, change: bool) -> None:
        services.season_preset_save(obj, by=member_of(request))

    def delete_model(self, request: HttpRequest, obj: SeasonPreset) -> None:
        services.season_preset_delete(obj)

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        for row in queryset:
            services.season_preset_delete(row)


@admin.register(RatingForecast)
class RatingForecastAdmin(ClubRowsAdmin[RatingForecast]):
    """How well each system foresees the club's games (games/rules/forecast.py): read only,
    kept by the worker after every analysed game, beside the club's choice of system."""

    list_display = ["system_name", "chosen", "games", "loss", "base_loss", "gain", "updated_at"]
    list_display_links = None

    @admin.display(description=_("rating system"))
    def system_name(self, row: RatingForecast) -> str:
        choices = dict(Club._meta.get_field("rating_system").choices or [])
        return str(choices.get(row.system, row.system))

    @admin.display(description=_("the club's"))
    def chosen(self, row: RatingForecast) -> str:
        return str(_("chosen")) if row.system == Club.current().rating_system else ""

    @admin.display(description=_("log-loss"), ordering="log_loss")
    def loss(self, row: RatingForecast) -> str:
        return _figure(row.log_loss)

    @admin.display(description=_("base rate alone"))
    def base_loss(self, row: RatingForecast) -> str:
        return _figure(row.base_log_loss)

    @admin.display(description=_("gain on the base rate"))
    def gain(self, row: RatingForecast) -> str:
        return _figure(row.base_log_loss - row.log_loss, signed=True)

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if not RatingForecast.objects.exists():
            analysis.forecasts_update()  # before the worker's first analysed game
        return super().changelist_view(
            request,
            {
                **(extra_context or {}),
                "coin": _figure(COIN),
                "title": capfirst(_("how sure the ratings are")),
            },
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


def _figure(value: float, *, signed: bool = False) -> str:
    """A log-loss as the admin's language writes a number («0,6931»), a gain with its sign
    («+0,0266», «−0,0010»)."""
    shown = number_format(abs(value) if signed else value, 4)
    return f"{'+' if value >= 0 else '−'}{shown}" if signed else shown
