from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from club.doors.requests import member_of
from games.models import Game
from games.ratings import services
from games.ratings.models import PlayerScore, ScoringScheme
from games.ratings.publication import LINE_LABELS
from games.rules.errors import ProtocolError
from games.rules.scoring import Scheme
from games.rules_text import rules_message


class PointsInline(admin.TabularInline[PlayerScore, Game]):
    model = PlayerScore
    extra = 0
    fields = ("seat", "member", "role", "won", "points", "lines", "rating_before", "rating_after")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


# Every field of a scheme (games/rules/scoring.Scheme), as the admin names it: the lines'
# points, the best move's flag and the bounds of the host's extra points.
SCHEME_LABELS: dict[str, Any] = {
    **{code: label for code, label in LINE_LABELS.items() if code in Scheme().to_dict()},
    "best_move_loners_black": _("the best move counts the loners (maniac, нагнетатель) black"),
    "bonus_min": _("extra points: the lowest (a penalty)"),
    "bonus_max": _("extra points: the highest"),
}


def _scheme_field(code: str, label: Any) -> forms.Field:
    if isinstance(getattr(Scheme(), code), bool):
        return forms.BooleanField(label=label, required=False)
    return forms.FloatField(label=label, min_value=-10, max_value=10)


class _SchemeFormBase(forms.ModelForm[ScoringScheme]):
    """A new version: the points of every line, starting from the current version's."""

    class Meta:
        model = ScoringScheme
        fields = ["note"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        current = ScoringScheme.objects.current().scheme().to_dict()
        for code in SCHEME_LABELS:
            if code in self.fields:
                self.fields[code].initial = current[code]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        try:
            self.scheme = Scheme.from_dict({c: cleaned[c] for c in SCHEME_LABELS if c in cleaned})
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
class ScoringSchemeAdmin(admin.ModelAdmin[ScoringScheme]):
    """Versions are history: an admin adds a new one (every game is scored again by it)
    and never edits or deletes one that games were scored by."""

    list_display = ["version", "note", "created_at", "created_by"]
    form = SchemeForm
    readonly_fields = ["version", "points", "created_at", "created_by"]

    def get_fields(  # type: ignore[override]  # admin's own annotation is wider than its use
        self, request: HttpRequest, obj: ScoringScheme | None = None
    ) -> list[str]:
        if obj is not None:
            return ["version", "note", "points", "created_at", "created_by"]
        return ["note", *SCHEME_LABELS]

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def save_model(
        self, request: HttpRequest, obj: ScoringScheme, form: _SchemeFormBase, change: bool
    ) -> None:
        created = services.scheme_version_create(
            scheme=form.scheme, note=obj.note, by=member_of(request)
        )
        obj.pk, obj.version = created.pk, created.version  # for admin's message and redirect
