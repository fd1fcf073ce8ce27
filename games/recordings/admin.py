from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from club.doors.admin_scope import ClubRowsAdmin
from club.doors.requests import member_of
from club.kernel.errors import Refused
from games import access
from games.recordings import services as recordings
from games.recordings.models import Recording, RecordingDeletion, RecordingStatus


@admin.register(Recording)
class RecordingAdmin(ClubRowsAdmin[Recording]):
    """Recordings are personal data: admins see and delete them (with an audit row), the
    retention sweep deletes them on time; nothing is edited by hand."""

    list_display = [
        "game",
        "original_name",
        "status",
        "replacement",
        "progress",
        "size",
        "stored_size",
        "created_at",
        "deleted_at",
    ]
    list_filter = ["status"]
    readonly_fields = [f.name for f in Recording._meta.fields]
    actions = ["delete_now"]

    # The sound and what was heard in it (who spoke when, at night too) are the game's
    # record: not for a staff member seated at it while it runs (games/access.sees_record).
    AT_THE_TABLE_HIDDEN = ("file", "voiced", "transcript", "speakers")

    def get_fields(  # type: ignore[override]  # admin's own annotation is wider than its use
        self, request: HttpRequest, obj: Recording | None = None
    ) -> list[str]:
        fields = [str(name) for name in super().get_fields(request, obj)]
        if obj is not None and not access.sees_record(request.user, obj.game):
            return [name for name in fields if name not in self.AT_THE_TABLE_HIDDEN]
        return fields

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
                recordings.recording_delete(recording_id=recording_id, user=member_of(request))
                count += 1
            except Refused as refusal:
                messages.error(request, refusal.message)
        self.message_user(request, _("Recordings deleted: %(count)d.") % {"count": count})


@admin.register(RecordingDeletion)
class RecordingDeletionAdmin(ClubRowsAdmin[RecordingDeletion]):
    list_display = ["deleted_at", "reason", "game", "file_name", "size", "due_at", "by"]
    list_filter = ["reason"]
    readonly_fields = [f.name for f in RecordingDeletion._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # the audit is kept
