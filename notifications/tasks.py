import logging

from celery import shared_task
from django.db.models import F
from django.utils import timezone

from notifications.models import Notification, NotificationStatus

logger = logging.getLogger("notifications.console")


@shared_task(ignore_result=True)
def notification_send(notification_id: int) -> None:
    """Deliver one notification. Console transport: the message is logged, nothing leaves.

    The row is claimed with a conditional UPDATE, so two workers (or a redelivered task)
    never deliver it twice.
    """
    claimed = Notification.objects.filter(
        pk=notification_id, status=NotificationStatus.PENDING
    ).update(status=NotificationStatus.SENDING, attempts=F("attempts") + 1)
    if not claimed:
        return
    notification = Notification.objects.select_related("member").get(pk=notification_id)
    recipient = notification.member or notification.chat_id
    logger.info("To %s: %s", recipient, notification.text)
    Notification.objects.filter(pk=notification_id).update(
        status=NotificationStatus.SENT, sent_at=timezone.now()
    )
