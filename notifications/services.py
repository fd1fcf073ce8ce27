"""The outbox: notifications are rows written with the change that caused them."""

import secrets
from collections.abc import Sequence
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User
from notifications.models import Notification, NotificationStatus, TelegramLinkCode

_TABLE = Notification._meta.db_table
# One statement, as sign-ups write it while they hold the evening's lock. The no-op update
# of the key makes the database return the id of an existing row too; that row keeps its
# text and status, so writing the same notification twice changes nothing.
_INSERT = (
    f"INSERT INTO {_TABLE}"  # noqa: S608
    " (dedupe_key, member_id, chat_id, text, buttons, status, attempts, last_error, created_at)"
    " VALUES (%s, %s, %s, %s, %s, %s, 0, '', %s)"
    " ON CONFLICT (dedupe_key) DO UPDATE SET dedupe_key = excluded.dedupe_key RETURNING id"
)


def notification_enqueue(
    *,
    dedupe_key: str,
    text: str,
    member: User | None = None,
    chat_id: int | None = None,
    buttons: Sequence[Sequence[dict[str, str]]] = (),
) -> int:
    """Write a notification unless one with this key exists, and send it after the commit.

    Call it inside the transaction of the change, so that both commit or neither does.
    Returns the row's id, new or existing.
    """
    buttons_value = Notification._meta.get_field("buttons").get_db_prep_save(
        [list(row) for row in buttons], connection
    )
    with connection.cursor() as cursor:
        cursor.execute(
            _INSERT,
            [
                dedupe_key,
                member.pk if member else None,
                chat_id,
                text,
                buttons_value,
                NotificationStatus.PENDING,
                connection.ops.adapt_datetimefield_value(timezone.now()),
            ],
        )
        (notification_id,) = cursor.fetchone()
    from notifications.tasks import notification_send

    transaction.on_commit(lambda: notification_send.delay(notification_id))
    return notification_id


LINK_CODE_LIFETIME_MINUTES = 10


def telegram_link_code_create(*, member: User) -> str:
    """A single-use code for https://t.me/<bot>?start=<code> (at most 64 characters)."""
    code = secrets.token_urlsafe(24)  # 32 characters of [A-Za-z0-9_-], as deep links allow
    TelegramLinkCode.objects.create(
        code=code,
        member=member,
        expires_at=timezone.now() + timedelta(minutes=LINK_CODE_LIFETIME_MINUTES),
    )
    return code
