"""The outbox: notifications are rows written with the change that caused them."""

from collections.abc import Sequence

from django.db import transaction

from accounts.models import User
from notifications.models import Notification


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
    # One INSERT ... ON CONFLICT: the no-op update of the key makes PostgreSQL return the id
    # of an existing row too, and an existing row keeps its text and status.
    (row,) = Notification.objects.bulk_create(
        [
            Notification(
                dedupe_key=dedupe_key,
                member=member,
                chat_id=chat_id,
                text=text,
                buttons=[list(row) for row in buttons],
            )
        ],
        update_conflicts=True,
        unique_fields=["dedupe_key"],
        update_fields=["dedupe_key"],
    )
    from notifications.tasks import notification_send

    notification_id = row.pk
    transaction.on_commit(lambda: notification_send.delay(notification_id))
    return notification_id
