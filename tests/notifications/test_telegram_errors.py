"""What python-telegram-bot's errors mean for a message: one mapping
(notifications/telegram.failure_of) that the sender acts on."""

from datetime import timedelta

import pytest
from telegram import error as tg

from notifications.models import Notification
from notifications.sender import notification_deliver
from notifications.telegram import FailureKind, failure_of
from tests.fake_telegram import FakeTelegram


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (tg.RetryAfter(7), FailureKind.RETRY_AFTER),
        (tg.ChatMigrated(-1001234), FailureKind.CHAT_MIGRATED),
        (tg.Forbidden("Forbidden: bot was blocked by the user"), FailureKind.BLOCKED),
        (tg.BadRequest("Bad Request: chat not found"), FailureKind.PERMANENT),
        (tg.InvalidToken(), FailureKind.PERMANENT),
        (tg.EndPointNotFound("Not Found"), FailureKind.PERMANENT),
        (tg.TimedOut(), FailureKind.TRANSIENT),
        (tg.NetworkError("Connection reset"), FailureKind.TRANSIENT),
        (tg.TelegramError("Internal Server Error"), FailureKind.TRANSIENT),
        (tg.Conflict("Conflict: terminated by other getUpdates request"), FailureKind.TRANSIENT),
    ],
)
def test_each_error_of_the_bot_api_means_one_thing_for_a_message(
    error: tg.TelegramError, kind: FailureKind
) -> None:
    failure = failure_of(error)
    assert failure.kind == kind and failure.message == str(error)


def test_a_429_names_its_wait_in_seconds_and_a_migration_its_new_chat() -> None:
    assert failure_of(tg.RetryAfter(7)).retry_after == 7.0
    assert failure_of(tg.RetryAfter(timedelta(seconds=2.5))).retry_after == 2.5
    assert failure_of(tg.ChatMigrated(-1001234)).new_chat_id == -1001234


@pytest.mark.django_db
def test_an_edit_the_message_already_reads_as_is_done(fake_telegram: FakeTelegram) -> None:
    """An edit sent twice: Telegram answers 400 «message is not modified», which is no
    failure (any other 400 on an edit is)."""
    post = Notification.objects.create(
        dedupe_key="post", chat_id=-100, text="Состав", status="sent", message_id=41
    )
    edit = Notification.objects.create(dedupe_key="edit", chat_id=-100, text="Состав", edit_of=post)
    fake_telegram.fail_next(400, description="Bad Request: message is not modified")
    assert notification_deliver(edit.pk).status == "sent"
    edit.refresh_from_db()
    assert edit.message_id == 41 and edit.last_error == ""
    again = Notification.objects.create(dedupe_key="again", chat_id=-100, text="!", edit_of=post)
    fake_telegram.fail_next(400, description="Bad Request: message to edit not found")
    assert notification_deliver(again.pk).status == "failed"
