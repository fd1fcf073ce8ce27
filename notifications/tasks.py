from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from club.kernel.tenancy import each_club
from notifications.models import BotConversation, TelegramLinkCode, TelegramUpdate
from notifications.sender import notification_deliver, notifications_sweep


# The pace of sending (30 a second per club's bot) is kept by notifications.ratelimit,
# shared by every worker process through Redis. The task runs in the scope of the club that
# queued it (its club_id header), so the row is read, and sent through that club's bot.
@shared_task(ignore_result=True, acks_late=True)
def notification_send(notification_id: int) -> None:
    outcome = notification_deliver(notification_id)
    if outcome.retry_in is not None:
        # Short waits only (a 429's retry_after, backoff capped at minutes), never a long ETA.
        notification_send.apply_async((notification_id,), countdown=outcome.retry_in + 0.05)


@shared_task(ignore_result=True)
def notifications_catch_up() -> None:
    """Every minute, in each club in turn: re-send what a lost task left pending; forget
    old update ids and sign-ups in the bot abandoned for a day. Then the platform's expired
    link codes (a member's link to Telegram is one, whichever club's bot made it)."""
    now = timezone.now()
    for _club in each_club():
        _in_doubt, due = notifications_sweep()
        for notification_id in due:
            notification_send.delay(notification_id)  # queued in the club's scope
        TelegramUpdate.objects.filter(received_at__lt=now - timedelta(days=2)).delete()
        BotConversation.objects.filter(updated_at__lt=now - timedelta(days=1)).delete()
    TelegramLinkCode.objects.filter(expires_at__lt=now - timedelta(days=1)).delete()
