"""Delivering one outbox row: claim it, respect Telegram's limits, send, record the outcome
(`notification_deliver`: `_claim`, `_prepare`, `_send`, then `_finish` or `_finish_failed`,
which reads Telegram's refusal through `notifications.telegram.failure_of`). An email row
takes the same claim, the same "begun" mark and the same retries (`_deliver_email`); the
mail server's refusal is read by `notifications.mail.failure_of`.

A Telegram row to a member whose Telegram cannot be reached (not linked, or the bot
blocked) is skipped; when the member left the choice to the club (auto), the message goes
by email instead (`notifications.services.email_fallback`).

The row is claimed with a conditional UPDATE (pending → sending), so two workers, or a task
delivered twice, never send it twice; it is marked sent right after Telegram answers. A
worker killed after the claim leaves the row in `sending`: if it never began the Bot API call
(`call_started_at` is empty) the sweep puts it back to be sent; if the call had begun, the
message may or may not have arrived, and the sweep reports it failed "in doubt" for an admin
instead of risking a duplicate.

Each row goes through its club's bot (club/kernel/bots.py): the worker runs in the row's
club's scope (the task carries the club), and the chat's pace counts that club's rows only,
which are that bot's. Bots are paced each on its own (notifications/ratelimit.py): a busy
bot puts its message back for later and frees the worker for another club's message.

A 429 pauses the whole bot for the retry_after Telegram names (notifications/ratelimit.py):
the message and every other one of that bot wait it out without a call, and without losing
an attempt; other clubs' bots go on.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import F, Q
from django.utils import timezone
from telegram.error import TelegramError

from club.kernel.bots import club_bot
from notifications import mail, telegram
from notifications.models import (
    Notification,
    NotificationChannel,
    NotificationStatus,
    TelegramBlock,
)
from notifications.ratelimit import pause_sending, wait_for_send_slot
from notifications.services import CONFIDENTIAL_KEY_PREFIX, email_fallback
from notifications.signals import chat_migrated

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
MAX_BACKOFF_SECONDS = 300
# A private chat takes about one message a second, with a short burst allowed.
PRIVATE_BURST, PRIVATE_WINDOW = 3, timedelta(seconds=3)
# A group takes twenty a minute.
GROUP_BURST, GROUP_WINDOW = 20, timedelta(minutes=1)
IN_DOUBT_AFTER = timedelta(minutes=5)
# A mail server's 4xx: the first retry after half a minute, then 1, 2, 4, 5, 5, 5 min
# (about 22 minutes in all over MAX_ATTEMPTS).
NOT_NOW_FIRST_WAIT = 30.0
KEPT_AFTER_SENDING = "(sent; its link is not kept)"


@dataclass(frozen=True)
class Outcome:
    status: str
    retry_in: float | None = None  # seconds until the next attempt, when one is due


def _release(
    notification_id: int, seconds: float, error: str = "", *, attempted: bool = True
) -> Outcome:
    """Back to pending, due again in `seconds`. A wait Telegram asked for (429) is not an
    attempt (`attempted=False`): the claim's attempt is given back, so waiting, however
    long, never uses up the tries a message has against real failures."""
    fields: dict[str, object] = {
        "status": NotificationStatus.PENDING,
        "next_attempt_at": timezone.now() + timedelta(seconds=seconds),
        "last_error": error[:1000],
    }
    if not attempted:
        fields["attempts"] = F("attempts") - 1
    Notification.objects.filter(pk=notification_id).update(**fields)
    return Outcome(NotificationStatus.PENDING, retry_in=seconds)


def _finish(notification_id: int, status: str, **fields: object) -> Outcome:
    Notification.objects.filter(pk=notification_id).update(status=status, **fields)
    return Outcome(status)


def _chat_is_busy(chat_id: int) -> float | None:
    """Seconds to wait before this chat may take another message, or None."""
    private = chat_id > 0
    burst = PRIVATE_BURST if private else GROUP_BURST
    window = PRIVATE_WINDOW if private else GROUP_WINDOW
    since = timezone.now() - window
    recent = [
        sent
        for sent in Notification.objects.filter(
            chat_id=chat_id, status=NotificationStatus.SENT, sent_at__gte=since
        )
        .order_by("-sent_at")
        .values_list("sent_at", flat=True)[:burst]
        if sent is not None
    ]
    if len(recent) < burst:
        return None
    return max(0.2, (recent[-1] + window - timezone.now()).total_seconds())


def notification_deliver(notification_id: int) -> Outcome:
    """Claim the row, send it once it may go, and finish it with what Telegram (or the mail
    server) answered."""
    notification = _claim(notification_id)
    if isinstance(notification, Outcome):
        return notification  # another worker has it, or its time has not come
    if notification.channel == NotificationChannel.EMAIL:
        return _deliver_email(notification)
    call = _prepare(notification)
    if isinstance(call, Outcome):
        return call  # skipped, written to the console, or held back for now
    try:
        message_id = _send(notification, call)
    except TelegramError as error:
        return _finish_failed(notification, call.chat_id, telegram.failure_of(error))
    return _finish(
        notification_id,
        NotificationStatus.SENT,
        sent_at=timezone.now(),
        message_id=message_id,
        last_error="",
    )


def _claim(notification_id: int) -> Notification | Outcome:
    """pending → sending with a conditional UPDATE, so one worker wins; the row as claimed,
    or the outcome for a row that is not (yet) to be sent."""
    now = timezone.now()
    claimed = Notification.objects.filter(
        Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now),
        pk=notification_id,
        status=NotificationStatus.PENDING,
    ).update(
        status=NotificationStatus.SENDING,
        attempts=F("attempts") + 1,
        claimed_at=now,
        call_started_at=None,
    )
    if not claimed:
        # A retry that arrives a moment before its time is put back, not dropped.
        due = (
            Notification.objects.filter(pk=notification_id, status=NotificationStatus.PENDING)
            .values_list("next_attempt_at", flat=True)
            .first()
        )
        if due is not None and due > now:
            return Outcome(NotificationStatus.PENDING, retry_in=(due - now).total_seconds())
        return Outcome("not_due")
    return Notification.objects.select_related("member").get(pk=notification_id)


@dataclass(frozen=True)
class _Call:
    chat_id: int
    edits: int | None  # the message an edit rewrites; None for a new message


def _prepare(notification: Notification) -> _Call | Outcome:
    """Where a claimed row goes and whether it may go now: nowhere (skipped), to the
    console, or after the chat's pace, its post (an edit waits for the message it edits)
    and the bot's pause allow."""
    notification_id = notification.pk
    member = notification.member
    chat_id = notification.chat_id or (member.telegram_id if member else None)
    if chat_id is None or (
        member is not None and TelegramBlock.objects.filter(telegram_id=chat_id).exists()
    ):
        email_fallback(notification)
        return _finish(notification_id, NotificationStatus.SKIPPED)
    if notification.chat_id != chat_id:
        Notification.objects.filter(pk=notification_id).update(chat_id=chat_id)
    if club_bot().console:
        verb = "edits a message in" if notification.edit_of_id else "to"
        # The buttons too, each as [its text]: a tester sees the choices a member gets.
        shown = " ".join(
            f"[{button.get('text', '')}]" for row in notification.buttons for button in row
        )
        text = f"{notification.text}\n{shown}" if shown else notification.text
        logger.info("Telegram (console) %s %s: %s", verb, chat_id, text)
        return _finish(notification_id, NotificationStatus.SENT, sent_at=timezone.now())
    wait = _chat_is_busy(chat_id)
    if wait is not None:
        return _release(notification_id, wait)
    edits = None
    if notification.edit_of_id is not None:
        edits = Notification.objects.filter(pk=notification.edit_of_id).values_list(
            "message_id", flat=True
        )[0]
        if edits is None:  # the post itself is not out yet: edit it when it is
            if notification.attempts >= MAX_ATTEMPTS:
                return _finish(notification_id, NotificationStatus.FAILED, last_error="No post.")
            return _release(notification_id, 5.0 * notification.attempts)
    turn = wait_for_send_slot()
    if turn.paused:  # another message's 429: the whole bot waits, this one with it
        return _release(
            notification_id, turn.wait, "Telegram paused the bot (429).", attempted=False
        )
    if turn.wait:  # the club's bot is busy for now: the worker takes another message
        return _release(notification_id, turn.wait, "The club's bot is busy.", attempted=False)
    return _Call(chat_id, edits)


def _send(notification: Notification, call: _Call) -> int:
    """The Bot API call, marked begun first (a worker killed from here leaves the row in
    doubt); the id of the message sent or edited. Raises telegram.error.* on failure."""
    Notification.objects.filter(pk=notification.pk).update(call_started_at=timezone.now())
    if call.edits is None:
        return telegram.send_message(call.chat_id, notification.text, notification.buttons)
    telegram.edit_message(call.chat_id, call.edits, notification.text, notification.buttons)
    return call.edits


def _finish_failed(notification: Notification, chat_id: int, failure: telegram.Failure) -> Outcome:
    """The row after Telegram refused it, as `telegram.failure_of` reads the refusal."""
    notification_id = notification.pk
    match failure.kind:
        case telegram.FailureKind.RETRY_AFTER:
            # Telegram's limit is the bot's, not this message's: every sender stops until then.
            paused = pause_sending(failure.retry_after)
            return _release(notification_id, paused, failure.message, attempted=False)
        case telegram.FailureKind.CHAT_MIGRATED:
            # The group became a supergroup: everything waiting for it goes to the new chat,
            # and this row is sent there at once (healthchecks' Telegram transport does so).
            Notification.objects.filter(
                chat_id=chat_id,
                status__in=[NotificationStatus.PENDING, NotificationStatus.SENDING],
            ).update(chat_id=failure.new_chat_id)
            chat_migrated.send(Notification, old_chat_id=chat_id, new_chat_id=failure.new_chat_id)
            return _release(notification_id, 0.0, failure.message)
        case telegram.FailureKind.BLOCKED:
            if notification.member is not None:
                # This club's bot only: another club's bot may still write to them.
                TelegramBlock.objects.get_or_create(telegram_id=chat_id)
                email_fallback(notification)
            return _failed(notification_id, failure)
        case telegram.FailureKind.PERMANENT:  # trying again cannot help
            return _failed(notification_id, failure)
        case telegram.FailureKind.TRANSIENT:
            if notification.attempts >= MAX_ATTEMPTS:
                return _failed(notification_id, failure)
            # 0.5 s, 1 s, 2 s, …: a passing 5xx is usually gone by the first retry.
            backoff = min(MAX_BACKOFF_SECONDS, 0.5 * 2 ** (notification.attempts - 1))
            return _release(notification_id, backoff, failure.message)


def _deliver_email(notification: Notification) -> Outcome:
    """An email row: sent through Django's mail API, marked begun first (as a Telegram
    call is: a worker killed while the mail server talks leaves the row in doubt); the
    server's 5xx fails it with the server's reply as the reason, a 4xx or a network error
    is tried again later (`_email_backoff`), up to MAX_ATTEMPTS."""
    notification_id, member = notification.pk, notification.member
    if member is None or not member.email:
        return _finish(notification_id, NotificationStatus.SKIPPED, last_error="No address.")
    message = mail.letter(notification, member)
    Notification.objects.filter(pk=notification_id).update(call_started_at=timezone.now())
    try:
        message.send()
    except Exception as error:  # the backend's refusal, whatever it is, is read below
        failure = mail.failure_of(error)
        logger.warning("Email %s to %s failed: %s", notification_id, member.pk, failure.message)
        if failure.permanent or notification.attempts >= MAX_ATTEMPTS:
            return _finish(notification_id, NotificationStatus.FAILED, last_error=failure.message)
        return _release(notification_id, _email_backoff(notification, failure), failure.message)
    kept = (
        {"text": KEPT_AFTER_SENDING}
        if notification.dedupe_key.startswith(CONFIDENTIAL_KEY_PREFIX)
        else {}
    )
    return _finish(
        notification_id, NotificationStatus.SENT, sent_at=timezone.now(), last_error="", **kept
    )


def _email_backoff(notification: Notification, failure: mail.MailFailure) -> float:
    """Seconds to the letter's next try: as a Telegram 5xx's (0.5 s, 1 s, 2 s, …) after a
    network error; after a server's 4xx from NOT_NOW_FIRST_WAIT up, doubling to the cap, so
    the tries span the minutes a greylist (commonly 1–5 min) or a provider's rate limit
    asks for. A spread of a fifth either way, so an evening's fifty letters refused
    together do not come back together to the same rate limit."""
    first = NOT_NOW_FIRST_WAIT if failure.not_now else 0.5
    backoff: float = min(MAX_BACKOFF_SECONDS, first * 2.0 ** (notification.attempts - 1))
    return backoff * random.uniform(0.8, 1.2) if failure.not_now else backoff


def _failed(notification_id: int, failure: telegram.Failure) -> Outcome:
    return _finish(notification_id, NotificationStatus.FAILED, last_error=failure.message[:1000])


def notifications_sweep() -> tuple[int, list[int]]:
    """Catch up on what a lost task or a killed worker left behind: rows stuck in sending
    are reported in doubt; the ids of pending rows whose time has come are returned."""
    now = timezone.now()
    stuck = Notification.objects.filter(
        status=NotificationStatus.SENDING, claimed_at__lt=now - IN_DOUBT_AFTER
    )
    # Claimed, but the worker died before calling Telegram: nothing went out, send it again.
    stuck.filter(call_started_at__isnull=True).update(
        status=NotificationStatus.PENDING, next_attempt_at=None
    )
    in_doubt = stuck.filter(call_started_at__isnull=False).update(
        status=NotificationStatus.FAILED,
        last_error="Interrupted while sending: it may or may not have been delivered.",
    )
    due = list(
        Notification.objects.filter(
            Q(next_attempt_at__isnull=True, created_at__lt=now - timedelta(seconds=30))
            | Q(next_attempt_at__lte=now - timedelta(seconds=30)),
            status=NotificationStatus.PENDING,
        ).values_list("pk", flat=True)[:1000]
    )
    return in_doubt, due
