from django.contrib import admin, messages
from django.db import transaction
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from club.doors.admin_scope import ClubRowsAdmin
from club.kernel.queueing import queue_on_commit
from games import access
from notifications.models import Notification, NotificationStatus


@admin.register(Notification)
class NotificationAdmin(ClubRowsAdmin[Notification]):
    list_display = (
        "created_at",
        "member",
        "channel",
        "chat_id",
        "text_start",
        "status",
        "attempts",
        "sent_at",
        "last_error",
        "dedupe_key",
    )
    list_filter = ("status", "channel")
    search_fields = ("dedupe_key", "member__nickname", "text")
    list_select_related = ("member",)
    readonly_fields = [field.name for field in Notification._meta.fields]
    actions = ("send_again",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Notification]:
        """A staff member seated at a running game reads none of the messages to the other
        players at its table while it runs (their cards, partners and checks, the bot's
        answers about the game: games/access.sees_record)."""
        queryset = super().get_queryset(request)
        members, chats = access.fellow_players_now(request.user)
        if members or chats:
            queryset = queryset.exclude(Q(member_id__in=members) | Q(chat_id__in=chats))
        return queryset

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=_("text"))
    def text_start(self, notification: Notification) -> str:
        """The message as the member reads it, cut to a line for the list."""
        text = " ".join(notification.text.split())
        return text if len(text) <= 80 else text[:79] + "…"

    @admin.action(description=_("Send again (failed ones only)"), permissions=["change"])
    def send_again(self, request: HttpRequest, queryset: QuerySet[Notification]) -> None:
        ids = list(queryset.filter(status=NotificationStatus.FAILED).values_list("pk", flat=True))
        with transaction.atomic():
            Notification.objects.filter(pk__in=ids).update(
                status=NotificationStatus.PENDING, next_attempt_at=None, attempts=0, last_error=""
            )
            for notification_id in ids:
                queue_on_commit("notifications.tasks.notification_send", notification_id)
        self.message_user(
            request,
            ngettext(
                "%(count)d message queued again.", "%(count)d messages queued again.", len(ids)
            )
            % {"count": len(ids)},
            messages.SUCCESS,
        )
