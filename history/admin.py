"""A club's imports of its past and the claims on the players of its records, in Django
admin: read only, scoped to the club in scope like every club's rows
(club/doors/admin_scope.py); an import is undone and a claim decided by an action, through
the same services as the pages (history/imports/)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from club.doors.admin_scope import ClubRowsAdmin
from club.kernel.errors import Refused
from history.imports import claims, services
from history.models import HistoryClaim, HistoryImport


class _ReadOnly[R: HistoryImport | HistoryClaim](ClubRowsAdmin[R]):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


def _done(
    admin_: admin.ModelAdmin[HistoryImport] | admin.ModelAdmin[HistoryClaim],
    request: HttpRequest,
    done: int,
    refusals: list[str],
) -> None:
    for refusal in refusals:
        admin_.message_user(request, refusal, messages.ERROR)
    if done:
        admin_.message_user(request, _("Done: %(count)d.") % {"count": done}, messages.SUCCESS)


@admin.register(HistoryImport)
class HistoryImportAdmin(_ReadOnly[HistoryImport]):
    list_display = ["filename", "source", "status", "progress", "games", "created_at", "author"]
    list_filter = ["status", "source"]
    fields = readonly_fields = (
        "filename", "sha256", "source", "status", "progress", "counts", "problems",
        "author", "created_at", "imported_at", "undone_at",
    )  # fmt: skip
    actions = ["undo_imports"]

    @admin.display(description=gettext_lazy("games"))
    def games(self, row: HistoryImport) -> int:
        return int(row.counts.get("games", 0))

    @admin.action(description=gettext_lazy("Undo the chosen imports"))
    def undo_imports(self, request: HttpRequest, queryset: QuerySet[HistoryImport]) -> None:
        done, refusals = 0, []
        for row in queryset:
            try:
                services.import_undo(history_import_id=row.pk)
            except Refused as refusal:
                refusals.append(f"{row.filename}: {refusal.message}")
            else:
                done += 1
        _done(self, request, done, refusals)


@admin.register(HistoryClaim)
class HistoryClaimAdmin(_ReadOnly[HistoryClaim]):
    list_display = ["member", "player", "status", "created_at", "decided_by", "decided_at"]
    list_filter = ["status"]
    fields = readonly_fields = (
        "member",
        "player",
        "status",
        "created_at",
        "decided_by",
        "decided_at",
    )
    actions = ["approve_claims", "refuse_claims"]

    @admin.display(description=gettext_lazy("player of the records"))
    def player(self, row: HistoryClaim) -> str:
        return row.guest.name

    @admin.action(description=gettext_lazy("Approve the chosen claims"))
    def approve_claims(self, request: HttpRequest, queryset: QuerySet[HistoryClaim]) -> None:
        self._decide(request, queryset, approve=True)

    @admin.action(description=gettext_lazy("Refuse the chosen claims"))
    def refuse_claims(self, request: HttpRequest, queryset: QuerySet[HistoryClaim]) -> None:
        self._decide(request, queryset, approve=False)

    def _decide(
        self, request: HttpRequest, queryset: QuerySet[HistoryClaim], *, approve: bool
    ) -> None:
        assert isinstance(request.user, User)
        done, refusals = 0, []
        for row in queryset:
            try:
                claims.claim_decide(claim_id=row.pk, actor=request.user, approve=approve)
            except Refused as refusal:
                refusals.append(refusal.message)
            else:
                done += 1
        _done(self, request, done, refusals)
