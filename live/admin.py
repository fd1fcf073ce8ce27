"""The live links in admin: who made which link to what, its uses, and revoking it. Links
are made where their key can be shown once (the game's, the evening's and the tournament's
pages), not here."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import User
from club.doors.admin_scope import ClubRowsAdmin, ClubTabularInline
from club.kernel.errors import Refused
from live.links import link_revoke
from live.models import LiveLink, LiveLinkUse


class LiveLinkUseInline(ClubTabularInline[LiveLinkUse, LiveLink]):
    model = LiveLinkUse
    extra = 0
    fields = ("at", "what", "ip", "user_agent")
    readonly_fields = fields
    can_delete = False
    max_num = 0
    ordering = ["-at"]

    def has_add_permission(self, request: HttpRequest, obj: LiveLink | None = None) -> bool:
        return False


@admin.register(LiveLink)
class LiveLinkAdmin(ClubRowsAdmin[LiveLink]):
    list_display = (
        *("key_start", "kind", "game", "evening", "table", "tournament", "label"),
        *("delay_seconds", "created_by", "created_at", "revoked_at"),
    )
    list_filter = ("kind", ("revoked_at", admin.EmptyFieldListFilter))
    list_select_related = ("game__evening", "evening", "tournament", "created_by")
    readonly_fields = [field.name for field in LiveLink._meta.fields]
    inlines = [LiveLinkUseInline]
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Revoke the chosen links"))
    def revoke(self, request: HttpRequest, queryset: QuerySet[LiveLink]) -> None:
        author = request.user
        assert isinstance(author, User)
        revoked = 0
        for link in queryset.filter(revoked_at__isnull=True):
            try:
                link_revoke(author=author, link_id=link.pk)
            except Refused as refusal:
                self.message_user(request, f"{link}: {refusal.message}", messages.ERROR)
            else:
                revoked += 1
        self.message_user(
            request,
            ngettext("%(count)d link revoked.", "%(count)d links revoked.", revoked)
            % {"count": revoked},
        )
