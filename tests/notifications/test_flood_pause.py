"""A 429 pauses the whole bot for the retry_after Telegram names, shared through Redis by
every sender, and a wait is never a failed attempt (issue 24, item 10: a 429 delayed only
its own message, so 20 s of 429 drew 469 calls, and 429s used up the 8 attempts)."""

import os
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import time_machine
from django.db import connection
from django.utils import timezone
from pytest_django import Settings

from notifications.models import Notification
from notifications.ratelimit import PROBE_SECONDS, pause_sending
from notifications.sender import MAX_ATTEMPTS, notification_deliver
from tests.fake_telegram import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]


def row(chat_id: int) -> Notification:
    return Notification.objects.create(dedupe_key=f"flood:{chat_id}", chat_id=chat_id, text="Игра")


@pytest.mark.django_db
def test_a_429_pauses_every_message_of_the_bot_until_retry_after(
    fake_telegram: FakeTelegram,
) -> None:
    first, second, third = row(6001), row(6002), row(6003)
    fake_telegram.fail_next(429, retry_after=30)
    assert notification_deliver(first.pk).status == "pending"
    # The other messages wait out the same pause, without a call to Telegram.
    for other in (second, third):
        outcome = notification_deliver(other.pk)
        assert outcome.status == "pending" and outcome.retry_in is not None
        assert 29 < outcome.retry_in <= 30
    assert [call.status for call in fake_telegram.send_calls()] == [429]
    with time_machine.travel(timezone.now() + timedelta(seconds=29)):
        Notification.objects.update(next_attempt_at=None)  # even a task that came early
        assert {notification_deliver(n.pk).status for n in (first, second, third)} == {"pending"}
    assert len(fake_telegram.send_calls()) == 1
    with time_machine.travel(timezone.now() + timedelta(seconds=31)) as clock:
        # The first call after the pause goes alone; the others follow once it got through.
        statuses = [notification_deliver(n.pk).status for n in (first, second, third)]
        assert statuses == ["sent", "pending", "pending"]
        clock.shift(PROBE_SECONDS)
        assert [notification_deliver(n.pk).status for n in (second, third)] == ["sent"] * 2
    assert sorted(call.params["chat_id"] for call in fake_telegram.sent()) == [6001, 6002, 6003]
    assert set(Notification.objects.values_list("attempts", flat=True)) == {1}


@pytest.mark.django_db(transaction=True)
def test_a_pause_stops_the_senders_of_every_worker_process(fake_telegram: FakeTelegram) -> None:
    """The pause lives in Redis: a sender in another process makes no call either."""
    first, second = row(6011), row(6012)
    fake_telegram.fail_next(429, retry_after=60)
    assert notification_deliver(first.pk).status == "pending"
    paused_at = timezone.now()
    env = {
        **os.environ,
        "DATABASE_URL": os.environ["DATABASE_URL"].rsplit("/", 1)[0]
        + "/"
        + connection.settings_dict["NAME"],
        "TELEGRAM_BOT_TOKEN": fake_telegram.token,
        "TELEGRAM_API_BASE_URL": fake_telegram.url,
        "DJANGO_SETTINGS_MODULE": "club.settings",
    }
    script = (
        "import django; django.setup()\n"
        "from notifications.sender import notification_deliver\n"
        f"print(notification_deliver({second.pk}).status)\n"
    )
    other_worker = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert other_worker.stdout.split() == ["pending"], other_worker.stderr[-2000:]
    assert [call.status for call in fake_telegram.send_calls()] == [429]
    second.refresh_from_db()
    assert (second.status, second.attempts) == ("pending", 0)
    # Put back until the pause ends, a minute after the 429 (not after the other process,
    # which may take seconds to start on a loaded machine).
    assert second.next_attempt_at is not None
    assert second.next_attempt_at > paused_at + timedelta(seconds=50)


@pytest.mark.django_db
def test_429s_never_use_up_a_messages_attempts(fake_telegram: FakeTelegram) -> None:
    """Seven 500s and any number of 429s: the message is still delivered on its eighth try."""
    note = row(6021)
    for _ in range(MAX_ATTEMPTS - 1):
        fake_telegram.fail_next(429, retry_after=2)
        fake_telegram.fail_next(500)
    calls = deliver_until_settled(fake_telegram, [note.pk])
    note.refresh_from_db()
    assert (note.status, note.attempts) == ("sent", MAX_ATTEMPTS)
    assert [status for _, status in calls].count(429) == MAX_ATTEMPTS - 1


@pytest.mark.django_db
def test_mixed_429_and_500_answers_deliver_every_message_once(fake_telegram: FakeTelegram) -> None:
    notes = [row(6100 + n) for n in range(6)]
    for _ in range(12):
        fake_telegram.fail_next(429, retry_after=3)
        fake_telegram.fail_next(500)
    calls = deliver_until_settled(fake_telegram, [n.pk for n in notes])
    assert set(Notification.objects.values_list("status", flat=True)) == {"sent"}
    assert sorted(c.params["chat_id"] for c in fake_telegram.sent()) == [6100 + n for n in range(6)]
    # Only the 500s were attempts that failed.
    for note in Notification.objects.all():
        failed = [c for c in fake_telegram.refused if c.params["chat_id"] == note.chat_id]
        assert note.attempts == 1 + sum(c.status == 500 for c in failed)
    # No call in the three seconds after any 429.
    for at, status in calls:
        if status == 429:
            assert not [later for later, _ in calls if at < later < at + timedelta(seconds=3)]


def deliver_until_settled(fake: FakeTelegram, ids: list[int]) -> list[tuple[datetime, int]]:
    """What the send tasks do, on a clock the test moves: deliver every due message; when
    none is due, move to the next one's time. Returns each Bot API call's time and answer."""
    calls: list[tuple[datetime, int]] = []
    with time_machine.travel(timezone.now()) as clock:
        for _ in range(500):
            waiting = Notification.objects.filter(pk__in=ids, status="pending").order_by("pk")
            if not waiting:
                return calls
            now = timezone.now()
            due = [n for n in waiting if n.next_attempt_at is None or n.next_attempt_at <= now]
            if not due:
                # None of them is due, so every one has its time.
                times = [n.next_attempt_at for n in waiting if n.next_attempt_at is not None]
                clock.move_to(min(times) + timedelta(seconds=0.01))
                continue
            for note in due:
                before = len(fake.send_calls())
                at = timezone.now()
                notification_deliver(note.pk)
                calls += [(at, call.status) for call in fake.send_calls()[before:]]
    raise AssertionError("the messages never settled")


@pytest.mark.django_db
def test_without_redis_the_pause_holds_in_the_process(
    fake_telegram: FakeTelegram, settings: Settings, tmp_path: Path
) -> None:
    """The embedded site (`make run`: SQLite broker, no Redis) keeps the pause in memory."""
    settings.CELERY_BROKER_URL = f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}"
    first, second = row(6031), row(6032)
    fake_telegram.fail_next(429, retry_after=10)
    assert notification_deliver(first.pk).status == "pending"
    assert notification_deliver(second.pk).status == "pending"
    assert [call.status for call in fake_telegram.send_calls()] == [429]
    with time_machine.travel(timezone.now() + timedelta(seconds=11)):
        assert [notification_deliver(n.pk).status for n in (first, second)] == ["sent", "sent"]


def test_a_pause_redis_cannot_record_still_makes_the_message_wait(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    """After a 429 the message's fate is known: a Redis that fails then must not leave it
    "sending", to be reported in doubt."""
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    with caplog.at_level("WARNING"):
        assert pause_sending(7.0, bot="123456") == 7.0
    assert "Could not share a Telegram pause" in caplog.text
