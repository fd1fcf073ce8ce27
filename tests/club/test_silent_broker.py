"""A broker that accepts connections and never answers (a Redis stopped with SIGSTOP) costs a
request about a second, not its driver's timeouts: every publish is bounded
(club/kernel/queueing.py, PUBLISH_DEADLINE), and what the member is told is still true: the
sign-up is saved, and its message goes when the broker answers again.

The hole it closes (#37): with the broker's Redis stopped, a sign-up, a password reset and
a bot update each took 15.1–20.4 s (the driver's socket timeouts, times the publish's
round trips and its retry), once per worker every ~45 s.

No tight timing is asserted: the bound here is generous (a loaded 2-core machine), and
well under the one timeout of a single round trip the old publish waited out several times.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from club.celery import app
from club.kernel import queueing
from club.models import Registration, RegistrationStatus
from notifications.models import Notification, NotificationStatus
from notifications.tasks import notifications_catch_up
from tests.bot.test_webhook import SECRET, button
from tests.factories import make_evening, make_member

pytestmark = pytest.mark.django_db(transaction=True)

# The request's whole answer, publish included, on a loaded machine: far under the 5 s of
# one socket timeout of the broker's driver, which the old publish waited out 3–4 times.
GENEROUS = 4.0


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A Redis stand-in: a socket that accepts every connection and never says a word."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except TimeoutError:
                continue
            except OSError:
                return

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    stop.set()
    thread.join(5)
    for connection in accepted:
        connection.close()
    listener.close()


@pytest.fixture
def broker_at(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """Point the Celery app's publishing at `url` with the settings' transport options (the
    real code path: the app's connection and producer pools are made anew)."""
    real = app.conf.broker_write_url

    def point(url: str) -> None:
        app.conf["broker_write_url"] = url
        monkeypatch.setattr(app, "_pool", None)
        monkeypatch.setattr(app.amqp, "_producer_pool", None)

    yield point
    app.conf["broker_write_url"] = real


def _timed[T](call: Callable[[], T]) -> tuple[T, float]:
    started = time.monotonic()
    result = call()
    return result, time.monotonic() - started


@pytest.mark.usefixtures("migration_rows", "celery_worker_on_redis")
def test_with_a_silent_broker_a_sign_up_answers_at_once_and_its_letter_goes_later(
    silent_server: str, broker_at: Callable[[str], None]
) -> None:
    member = make_member()  # no Telegram: told by email
    evening = make_evening()
    client = Client()
    client.force_login(member)
    broker_at(silent_server)
    page, took = _timed(lambda: client.post(f"/evenings/{evening.pk}/signup/", follow=True))
    assert page.status_code == 200 and "Вы в игре" in page.content.decode()
    assert took < GENEROUS, took
    registration = Registration.objects.get(member=member, evening=evening)
    assert registration.status == RegistrationStatus.CONFIRMED
    (letter_row,) = Notification.objects.filter(member=member)
    assert letter_row.status == NotificationStatus.PENDING and mail.outbox == []
    # The broker answers again: the outbox's minute sweep finds the row and the worker sends it.
    broker_at(app.conf.broker_url)
    queueing.BROKER.reset()
    Notification.objects.filter(pk=letter_row.pk).update(
        created_at=timezone.now() - timedelta(minutes=1)
    )
    notifications_catch_up()
    for _ in range(200):
        if Notification.objects.get(pk=letter_row.pk).status == NotificationStatus.SENT:
            break
        time.sleep(0.05)
    assert Notification.objects.get(pk=letter_row.pk).status == NotificationStatus.SENT
    assert [m.to for m in mail.outbox] == [[member.email]]


@pytest.mark.usefixtures("migration_rows")
def test_with_a_silent_broker_a_password_reset_answers_at_once(
    silent_server: str, broker_at: Callable[[str], None]
) -> None:
    member = make_member(email="raven@example.com")
    broker_at(silent_server)
    answer, took = _timed(
        lambda: Client().post("/accounts/password/reset/", {"email": "raven@example.com"})
    )
    assert answer.status_code == 302 and took < GENEROUS, took
    # The letter is sent by the request itself (the member waits for it), broker or none.
    (row,) = Notification.objects.filter(member=member)
    assert row.status == NotificationStatus.SENT
    assert [m.to for m in mail.outbox] == [["raven@example.com"]]


@pytest.mark.usefixtures("migration_rows")
def test_with_a_silent_broker_a_bot_update_answers_at_once(
    silent_server: str, broker_at: Callable[[str], None], settings: Settings
) -> None:
    settings.TELEGRAM_WEBHOOK_SECRET = SECRET
    member = make_member(telegram_id=777)
    evening = make_evening(capacity=15)
    broker_at(silent_server)
    answer, took = _timed(
        lambda: Client().post(
            "/telegram/webhook/",
            button(f"su:{evening.pk}"),
            content_type="application/json",
            headers={"x-telegram-bot-api-secret-token": SECRET},
        )
    )
    assert answer.status_code == 200 and took < GENEROUS, took
    assert answer.json()["text"] == "Вы в игре: № 1 в списке из 15."
    assert Registration.objects.get(member=member).status == RegistrationStatus.CONFIRMED


def test_a_publish_to_a_silent_broker_gives_up_near_the_deadline(
    silent_server: str, broker_at: Callable[[str], None]
) -> None:
    broker_at(silent_server)
    queued, took = _timed(lambda: queueing.publish("club.tasks.schedule_sweep"))
    assert queued is False
    assert took < GENEROUS, took
    assert not queueing.BROKER.closed  # the next publishes skip it for a while
