"""A handler of the bot exercised alone: a `Chat` made from the parts of an update the
handler reads, and what it said, sent through the fake Bot API (tests/fake_telegram.py)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from bot.chat import Chat
from bot.updates import Incoming
from notifications.models import Notification, NotificationStatus
from notifications.sender import notification_deliver
from tests.fake_telegram import FakeTelegram

_update_ids = itertools.count(900_000)


def chat_of(telegram_id: int, *, text: str = "", data: str = "") -> Chat:
    """The chat of a private message (`text`) or of a button press (`data`)."""
    return Chat(
        Incoming(
            next(_update_ids),
            telegram_id,
            telegram_id,
            "vera_tg",
            text=text,
            callback_id=f"cb-{telegram_id}" if data else "",
            data=data,
        )
    )


@dataclass(frozen=True)
class Said:
    text: str
    callback_data: list[str]  # the buttons', row after row


def said(fake: FakeTelegram, chat_id: int) -> list[Said]:
    """Send every reply written so far through the fake Bot API, and return what reached
    the chat (the per-chat pace, tested on its own, is waved through)."""
    pending = Notification.objects.filter(status=NotificationStatus.PENDING).order_by("pk")
    for pk in pending.values_list("pk", flat=True):
        notification_deliver(pk)
        Notification.objects.filter(status=NotificationStatus.SENT).update(
            sent_at=timezone.now() - timedelta(minutes=5)
        )
    return [
        Said(
            call.params["text"],
            [
                button.get("callback_data", "")
                for row in (call.params.get("reply_markup") or {}).get("inline_keyboard", [])
                for button in row
            ],
        )
        for call in fake.sent()
        if call.params["chat_id"] == chat_id
    ]
