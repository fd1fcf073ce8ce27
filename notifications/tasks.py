from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from notifications.models import BotConversation, TelegramLinkCode, TelegramUpdate
from notifications.sender import notification_deliver, notifications_sweep


# The pace of sending (30 a second for the whole bot) is kept by notifications.ratelimit,
# shared by every worker process through Redis.
@shared_task(ignore_result=True, acks_late=True)
def notification_send(notification_id: int) -> None:
    outcome = notification_deliver(notification_id)
    if outcome.retry_in is not None:
        # Short waits only (a 429's retry_after, backoff capped at minutes), never a long ETA.
        notification_send.apply_async((notification_id,), countdown=outcome.retry_in + 0.05)


@shared_task(ignore_result=True)
def notifications_catch_up() -> None:
    """Every minute: re-send what a lost task left pending; forget old update ids, expired
    link codes and sign-ups in the bot abandoned for a day."""
    _in_doubt, due = notifications_sweep()
    for notification_id in due:
        notification_send.delay(notification_id)
    now = timezone.now()
    TelegramUpdate.objects.filter(received_at__lt=now - timedelta(days=2)).delete()
    TelegramLinkCode.objects.filter(expires_at__lt=now - timedelta(days=1)).delete()
    BotConversation.objects.filter(updated_at__lt=now - timedelta(days=1)).delete()  # abandoned
