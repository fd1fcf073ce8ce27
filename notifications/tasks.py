from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from notifications.models import TelegramLinkCode, TelegramUpdate
from notifications.sender import notification_deliver, notifications_sweep


# At most 30 messages a second (Telegram's overall limit for a bot). Celery's rate limit is
# per worker node: docs/deploy.md runs one node on the `telegram` queue.
@shared_task(ignore_result=True, rate_limit="30/s", acks_late=True)
def notification_send(notification_id: int) -> None:
    outcome = notification_deliver(notification_id)
    if outcome.retry_in is not None:
        # Short waits only (a 429's retry_after, backoff capped at minutes), never a long ETA.
        notification_send.apply_async((notification_id,), countdown=outcome.retry_in)


@shared_task(ignore_result=True)
def notifications_catch_up() -> None:
    """Every minute: re-send what a lost task left pending, and forget old update ids."""
    _in_doubt, due = notifications_sweep()
    for notification_id in due:
        notification_send.delay(notification_id)
    now = timezone.now()
    TelegramUpdate.objects.filter(received_at__lt=now - timedelta(days=2)).delete()
    TelegramLinkCode.objects.filter(expires_at__lt=now - timedelta(days=1)).delete()
