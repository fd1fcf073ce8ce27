"""The outbox: notifications are rows written with the change that caused them."""

from collections.abc import Sequence
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.languages import member_language, speaking
from accounts.models import NotifyBy, User
from club.kernel import tenancy
from club.kernel.queueing import queue_on_commit
from notifications.channels import email_reaches, member_channels, row_key
from notifications.models import (
    Notification,
    NotificationChannel,
    NotificationStatus,
)

_TABLE = Notification._meta.db_table
# The outbox's one INSERT, which a sign-up's own statements use too (club/seating.py): its
# rows are a VALUES list or a SELECT of OUTBOX_COLUMNS, in order. One statement, as sign-ups
# write it while they hold the evening's lock. The no-op update of the key makes the
# database return the id of an existing row too; that row keeps its text and status, so
# writing the same notification twice changes nothing.
OUTBOX_COLUMNS = (
    "club_id", "dedupe_key", "member_id", "chat_id", "channel", "subject", "text", "buttons",
    "status", "attempts", "last_error", "created_at", "edit_of_id", "mailable", "language",
)  # fmt: skip


def outbox_insert(rows: str) -> str:
    """The INSERT of the outbox's rows `rows` (SQL giving OUTBOX_COLUMNS), returning each
    row's id, new or existing."""
    return (
        f"INSERT INTO {_TABLE} ({', '.join(OUTBOX_COLUMNS)}) {rows}"
        " ON CONFLICT (club_id, dedupe_key)"
        " DO UPDATE SET dedupe_key = excluded.dedupe_key RETURNING id"
    )


_INSERT = outbox_insert(f"VALUES ({', '.join(['%s'] * 9)}, 0, '', %s, %s, %s, %s)")

Buttons = Sequence[Sequence[dict[str, str]]]


def notification_enqueue(
    *,
    dedupe_key: str,
    text: str,
    member: User | None = None,
    chat_id: int | None = None,
    buttons: Buttons = (),
    edit_of: Notification | None = None,
    subject: str = "",
    link: str = "",
) -> int:
    """Write a notification unless one with this key exists, and send it after the commit.

    A message to a member (no `chat_id`) goes by the member's channels (`member_notify`);
    one to a chat goes to that chat in Telegram. Call it inside the transaction of the
    change, so that both commit or neither does. Returns the (first) row's id, new or
    existing.
    """
    if member is not None and chat_id is None:
        return member_notify(
            member=member,
            dedupe_key=dedupe_key,
            text=text,
            buttons=buttons,
            subject=subject,
            link=link,
        )[0]
    return _write(
        dedupe_key=dedupe_key,
        member=member,
        chat_id=chat_id,
        channel=NotificationChannel.TELEGRAM,
        text=text,
        buttons=buttons,
        edit_of=edit_of,
    )


def member_notify(
    *,
    member: User,
    dedupe_key: str,
    text: str,
    buttons: Buttons = (),
    subject: str = "",
    link: str = "",
    email: bool = True,
    language: str = "",
) -> list[int]:
    """Tell a member something by each of their channels (notifications/channels.py):
    Telegram when linked, email otherwise, or both, as the member chose. One row per
    channel, each sent once after the commit; a repeat of `dedupe_key` writes nothing.
    `email=False` leaves email out (member_channels): a member only email reaches gets no
    row, and the Telegram row never turns into a letter (email_fallback).

    `buttons` are Telegram's (an email shows the ones with a link and leaves the others
    out); `link`, a page of the site, is added to the email as its way to act (a page's
    address, which Telegram could not open from a developer's machine); `subject` is the
    email's (empty: the club's name and the text's first sentence). The text, its buttons
    and its subject are composed in the member's language (compose them inside
    `accounts.languages.speaking_to(member)`); `language` says which, the member's when
    empty, and a letter wraps the text in it. Call it inside the transaction of the
    change. Returns the rows' ids, the first channel's first.
    """
    language = language or member_language(member)
    ids = []
    for index, channel in enumerate(member_channels(member, email=email)):
        by_email = channel == NotificationChannel.EMAIL
        ids.append(
            _write(
                dedupe_key=row_key(dedupe_key, channel, first=index == 0),
                member=member,
                chat_id=None,
                channel=channel,
                subject=subject if by_email else "",
                text=text,
                buttons=[*buttons, *_site_link(link, language)] if by_email else buttons,
                mailable=email,
                language=language,
            )
        )
    return ids


# A row whose key starts so carries a secret (a password-reset link): once sent, its text
# is not kept (notifications/sender.py), so the outbox in admin never shows a live link.
CONFIDENTIAL_KEY_PREFIX = "secret:"


def member_email(
    *, member: User, dedupe_key: str, subject: str, text: str, secret: bool = False
) -> int:
    """A letter that only email can carry (a password-reset link: the member asked for it
    by their address), through the outbox's email channel, written in the member's
    language (compose it inside `speaking_to(member)`). `secret`: its text is dropped once
    it is sent. Returns the row's id."""
    if secret:
        dedupe_key = CONFIDENTIAL_KEY_PREFIX + dedupe_key
    with transaction.atomic():
        return _write(
            dedupe_key=dedupe_key,
            member=member,
            chat_id=None,
            channel=NotificationChannel.EMAIL,
            subject=subject,
            text=text,
            buttons=(),
            language=member_language(member),
        )


def email_fallback(notification: Notification) -> int | None:
    """A member's Telegram row that cannot go (Telegram not linked, or the bot blocked)
    goes by email instead when the member left the choice to the club (auto) and has an
    address and the message does not leave email out (`mailable`): a second row, keyed as
    member_notify keys an email row, so it is written once. The id of that row, or None."""
    member = notification.member
    if (
        member is None
        or not notification.mailable
        or notification.chat_id not in (None, member.telegram_id)
        or member.notify_by != NotifyBy.AUTO
        or not email_reaches(member)
    ):
        return None
    with transaction.atomic():
        return _write(
            dedupe_key=row_key(notification.dedupe_key, NotificationChannel.EMAIL, first=False),
            member=member,
            chat_id=None,
            channel=NotificationChannel.EMAIL,
            text=notification.text,
            buttons=notification.buttons,
            language=notification.language,
        )


def _site_link(link: str, language: str) -> list[list[dict[str, str]]]:
    if not link:
        return []
    with speaking(language):
        return [[{"text": _("Open on the site"), "url": link}]]


def _write(
    *,
    dedupe_key: str,
    member: User | None,
    chat_id: int | None,
    channel: str,
    text: str,
    buttons: Buttons,
    subject: str = "",
    edit_of: Notification | None = None,
    mailable: bool = True,
    language: str = "",
) -> int:
    buttons_value = Notification._meta.get_field("buttons").get_db_prep_save(
        [list(row) for row in buttons], connection
    )
    with connection.cursor() as cursor:
        cursor.execute(
            _INSERT,
            [
                tenancy.current_club_id(),
                dedupe_key,
                member.pk if member else None,
                chat_id,
                channel,
                subject[:200],
                text,
                buttons_value,
                NotificationStatus.PENDING,
                connection.ops.adapt_datetimefield_value(timezone.now()),
                edit_of.pk if edit_of else None,
                mailable,
                language,
            ],
        )
        (notification_id,) = cursor.fetchone()
    assert isinstance(notification_id, int)
    notification_send_on_commit(notification_id)
    return notification_id


def notification_send_on_commit(notification_id: int) -> None:
    """Send the row once the transaction that wrote it commits (at once outside one)."""
    queue_on_commit("notifications.tasks.notification_send", notification_id)


def chat_post_sync(
    *,
    dedupe_key: str,
    chat_id: int,
    text: str,
    buttons: Buttons = (),
    pause: timedelta = timedelta(0),
) -> int | None:
    """Keep a post to a chat saying `text`: post it the first time; later, when the text
    has changed, edit the message Telegram already has (a row with `edit_of`). A row still
    waiting to go — the post, or an edit — takes the new text itself, so a burst of changes
    makes one message; an edit waits `pause` after the one before it went. Returns the row
    written, or None for no change."""
    with transaction.atomic():
        post = Notification.objects.select_for_update().filter(dedupe_key=dedupe_key).first()
        if post is None:
            return notification_enqueue(
                dedupe_key=dedupe_key, chat_id=chat_id, text=text, buttons=buttons
            )
        latest = post.edits.order_by("-pk").first() or post
        if latest.text == text:
            return None
        if latest.status == NotificationStatus.PENDING:
            Notification.objects.filter(pk=latest.pk).update(text=text, buttons=list(buttons))
            return latest.pk
        if post.status in (NotificationStatus.FAILED, NotificationStatus.SKIPPED):
            return None  # nothing reached the chat: there is nothing to edit
        edit_id = notification_enqueue(
            dedupe_key=f"{dedupe_key}:edit:{post.edits.count() + 1}",
            chat_id=chat_id,
            text=text,
            buttons=buttons,
            edit_of=post,
        )
        if pause and latest.sent_at is not None:
            Notification.objects.filter(pk=edit_id).update(next_attempt_at=latest.sent_at + pause)
        return edit_id
