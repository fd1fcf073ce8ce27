"""«Ок, играем» pressed in Telegram, all the way: the webhook makes the registration and the
outbox row, and a real Celery worker on the real Redis broker delivers the message to the
(fake) Bot API over HTTP."""

import pytest
from django.test import Client
from pytest_django import Settings

from club.models import Registration
from notifications.models import Notification
from tests.factories import make_evening, make_member
from tests.fake_telegram import FakeTelegram
from tests.waiting import TaskDone

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.usefixtures("celery_worker_on_redis")
def test_a_button_press_is_delivered_by_the_worker(
    fake_telegram: FakeTelegram, settings: Settings, task_done: TaskDone
) -> None:
    settings.TELEGRAM_WEBHOOK_SECRET = "e2e-secret"
    member = make_member(telegram_id=4242)
    evening = make_evening(capacity=15)
    delivered = task_done("notifications.tasks.notification_send")
    response = Client().post(
        "/telegram/webhook/",
        {
            "update_id": 99001,
            "callback_query": {
                "id": "cb-e2e",
                "chat_instance": "1",
                "data": f"su:{evening.pk}",
                "from": {"id": 4242, "is_bot": False, "first_name": "Лиса"},
            },
        },
        content_type="application/json",
        headers={"x-telegram-bot-api-secret-token": "e2e-secret"},
    )
    assert response.json()["text"] == "Вы в игре: № 1 в списке из 15."
    assert delivered.wait(timeout=30), "the worker delivered nothing"
    assert Registration.objects.get(member=member).source == "bot"
    note = Notification.objects.get(member=member)
    assert (note.status, note.chat_id, note.message_id) == ("sent", 4242, 1)
    (call,) = fake_telegram.sent()
    assert call.params["chat_id"] == 4242
    assert call.params["text"].startswith("Вы в игре! № 1 в списке из 15.")
