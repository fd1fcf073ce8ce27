"""Delivering outbox rows to the (fake) Bot API: every answer Telegram can give."""

from datetime import timedelta
from typing import Any, NoReturn

import pytest
import time_machine
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from club.kernel.clubs import Club
from notifications.models import Notification, TelegramBlock
from notifications.sender import notification_deliver, notifications_sweep
from tests.factories import make_member
from tests.fake_telegram import FakeTelegram

pytestmark = pytest.mark.django_db


def row(**fields: Any) -> Notification:
    fields.setdefault("dedupe_key", f"test:{Notification.objects.count()}")
    fields.setdefault("text", "Вы в игре!")
    return Notification.objects.create(**fields)


def test_a_message_is_sent_once_with_its_buttons_and_message_id(
    fake_telegram: FakeTelegram,
) -> None:
    member = make_member(telegram_id=5001)
    buttons = [[{"text": "Ок, играем", "callback_data": "su:7"}]]
    note = row(member=member, buttons=buttons)
    assert notification_deliver(note.pk).status == "sent"
    assert notification_deliver(note.pk).status == "not_due"  # never sent twice
    (call,) = fake_telegram.sent()
    assert call.params["chat_id"] == 5001 and call.params["text"] == "Вы в игре!"
    assert call.params["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == "su:7"
    note.refresh_from_db()
    assert (note.status, note.message_id, note.chat_id, note.attempts) == ("sent", 1, 5001, 1)


def test_429_waits_the_time_telegram_names(fake_telegram: FakeTelegram) -> None:
    note = row(chat_id=5002)
    fake_telegram.fail_next(429, retry_after=7)
    outcome = notification_deliver(note.pk)
    assert (outcome.status, outcome.retry_in) == ("pending", 7.0)
    note.refresh_from_db()
    assert note.next_attempt_at is not None
    assert note.next_attempt_at > timezone.now() + timedelta(seconds=6)
    early = notification_deliver(note.pk)  # not before its time, and not dropped either
    assert early.status == "pending" and early.retry_in is not None
    assert 6 < early.retry_in <= 7
    with time_machine.travel(timezone.now() + timedelta(seconds=8)):
        assert notification_deliver(note.pk).status == "sent"
    note.refresh_from_db()
    assert note.attempts == 1  # the 429 was a wait, not a failed attempt


def test_403_marks_the_member_unreachable_and_stops(fake_telegram: FakeTelegram) -> None:
    member = make_member(telegram_id=5003)
    note = row(member=member)
    fake_telegram.fail_next(403)
    assert notification_deliver(note.pk).status == "failed"
    assert TelegramBlock.objects.filter(telegram_id=5003).exists()
    later = row(member=member)
    assert notification_deliver(later.pk).status == "skipped"
    assert fake_telegram.sent() == []


def test_chat_not_found_stops_with_the_error_recorded(fake_telegram: FakeTelegram) -> None:
    note = row(chat_id=5004)
    fake_telegram.fail_next(400)
    assert notification_deliver(note.pk).status == "failed"
    note.refresh_from_db()
    assert "chat not found" in note.last_error.lower()


def test_5xx_retries_with_backoff_up_to_a_limit(fake_telegram: FakeTelegram) -> None:
    note = row(chat_id=5005)
    fake_telegram.fail_next(500)
    outcome = notification_deliver(note.pk)
    assert (outcome.status, outcome.retry_in) == ("pending", 0.5)
    Notification.objects.filter(pk=note.pk).update(next_attempt_at=None, attempts=8)
    fake_telegram.fail_next(500)
    assert notification_deliver(note.pk).status == "failed"


def test_a_member_without_telegram_is_skipped(fake_telegram: FakeTelegram) -> None:
    note = row(member=make_member())
    assert notification_deliver(note.pk).status == "skipped"


def test_a_private_chat_gets_a_short_burst_then_waits(fake_telegram: FakeTelegram) -> None:
    notes = [row(chat_id=5006) for _ in range(4)]
    outcomes = [notification_deliver(n.pk) for n in notes]
    assert [o.status for o in outcomes] == ["sent", "sent", "sent", "pending"]
    retry_in = outcomes[-1].retry_in
    assert retry_in is not None and 0 < retry_in <= 3


def test_console_mode_logs_and_sends_nothing(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    settings.TELEGRAM_CONSOLE_MODE = True
    note = row(chat_id=5007, text="Привет из консоли")
    with caplog.at_level("INFO"):
        assert notification_deliver(note.pk).status == "sent"
    assert "Привет из консоли" in caplog.text


def test_the_sweep_reports_rows_stuck_in_sending_and_requeues_due_ones() -> None:
    ten_minutes_ago = timezone.now() - timedelta(minutes=10)
    stuck = row(
        chat_id=1, status="sending", claimed_at=ten_minutes_ago, call_started_at=ten_minutes_ago
    )
    due = row(chat_id=2)
    Notification.objects.filter(pk=due.pk).update(created_at=timezone.now() - timedelta(minutes=2))
    fresh = row(chat_id=3)
    in_doubt, ids = notifications_sweep()
    assert in_doubt == 1 and ids == [due.pk]
    stuck.refresh_from_db()
    assert stuck.status == "failed" and "may or may not" in stuck.last_error
    assert fresh.pk not in ids


def test_admin_sends_failed_rows_again(admin_client_: Client) -> None:
    failed = row(chat_id=5008, status="failed", attempts=8, last_error="boom")
    sent = row(chat_id=5009, status="sent")
    admin_client_.post(
        "/admin/notifications/notification/",
        {"action": "send_again", "_selected_action": [failed.pk, sent.pk]},
    )
    failed.refresh_from_db()
    sent.refresh_from_db()
    assert (failed.status, failed.attempts, failed.last_error) == ("pending", 0, "")
    assert sent.status == "sent"
    body = admin_client_.get(
        "/admin/notifications/notification/", {"status__exact": "pending"}
    ).content.decode()
    assert "test:0" in body


def test_the_catch_up_task_requeues_and_forgets_what_is_old(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from notifications import tasks
    from notifications.models import BotConversation, TelegramUpdate

    due = row(chat_id=7001)
    Notification.objects.filter(pk=due.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    old = TelegramUpdate.objects.create(update_id=1)
    TelegramUpdate.objects.filter(pk=old.pk).update(received_at=timezone.now() - timedelta(days=3))
    fresh = TelegramUpdate.objects.create(update_id=2)
    talk = BotConversation.objects.create(telegram_id=1, state="nickname")
    BotConversation.objects.filter(pk=talk.pk).update(updated_at=timezone.now() - timedelta(days=2))
    sent: list[int] = []
    monkeypatch.setattr(tasks.notification_send, "delay", sent.append)
    tasks.notifications_catch_up()
    assert sent == [due.pk]
    assert list(TelegramUpdate.objects.values_list("pk", flat=True)) == [fresh.pk]
    assert not BotConversation.objects.exists()


class WorkerKilled(BaseException):
    """What a SIGKILL looks like from inside: nothing after it runs."""


def test_a_worker_killed_before_the_call_leaves_a_row_that_is_sent_again(
    fake_telegram: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hole it closes (#14): such a row was reported "may or may not have been
    delivered" although no call was made, and waited for an admin for ever."""
    note = row(chat_id=5010)

    def killed() -> None:
        raise WorkerKilled

    monkeypatch.setattr("notifications.sender.wait_for_send_slot", killed)
    with pytest.raises(WorkerKilled):
        notification_deliver(note.pk)
    monkeypatch.undo()
    note.refresh_from_db()
    assert (note.status, note.call_started_at) == ("sending", None)
    with time_machine.travel(timezone.now() + timedelta(minutes=6)):
        in_doubt, due = notifications_sweep()
        assert (in_doubt, due) == (0, [note.pk])
        assert notification_deliver(note.pk).status == "sent"
    assert len(fake_telegram.sent()) == 1


def test_a_worker_killed_during_the_call_leaves_a_row_in_doubt(
    fake_telegram: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    note = row(chat_id=5011)

    def killed(*args: object, **kwargs: object) -> NoReturn:
        raise WorkerKilled

    monkeypatch.setattr("notifications.telegram.send_message", killed)
    with pytest.raises(WorkerKilled):
        notification_deliver(note.pk)
    with time_machine.travel(timezone.now() + timedelta(minutes=6)):
        in_doubt, due = notifications_sweep()
    assert (in_doubt, due) == (1, [])
    note.refresh_from_db()
    assert note.status == "failed" and "may or may not" in note.last_error


def test_a_group_upgraded_to_a_supergroup_keeps_getting_the_clubs_posts(
    fake_telegram: FakeTelegram,
) -> None:
    """The hole it closes (#14): ChatMigrated was a permanent failure, so the club's group
    posts stopped for ever."""
    club = Club.current()
    club.telegram_group_chat_id = -100
    club.save()
    fake_telegram.migrate_chat(-100, -1001234)
    post, waiting = row(chat_id=-100, text="Разбор игры"), row(chat_id=-100, text="Состав")
    outcome = notification_deliver(post.pk)
    assert outcome.status == "pending" and outcome.retry_in == 0.0
    assert notification_deliver(post.pk).status == "sent"
    assert notification_deliver(waiting.pk).status == "sent"
    assert [(c.params["chat_id"], c.params["text"]) for c in fake_telegram.sent()] == [
        (-1001234, "Разбор игры"),
        (-1001234, "Состав"),
    ]
    assert Club.current().telegram_group_chat_id == -1001234
