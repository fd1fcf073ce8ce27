"""A committed change never turns into an error page because the broker is down.

The hole it closes (#14): a sign-up committed, then publishing its notification task
failed and the member saw a 500 although they had their seat.
"""

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from kombu import Connection

from club.celery import app
from club.models import Registration, RegistrationStatus
from notifications.models import Notification
from notifications.sender import notifications_sweep
from tests.factories import make_evening, make_member

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broker_down(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The Celery app's connections go to a port where nothing listens (a real attempt)."""
    monkeypatch.setattr(app, "connection_for_write", lambda: Connection("redis://127.0.0.1:9/0"))
    monkeypatch.setattr(app, "_pool", None)
    monkeypatch.setattr(app.amqp, "_producer_pool", None)
    yield


@pytest.mark.usefixtures("migration_rows", "broker_down")
def test_a_sign_up_succeeds_and_its_message_waits_for_the_sweep(
    caplog: pytest.LogCaptureFixture,
) -> None:
    member = make_member()
    evening = make_evening()
    client = Client()
    client.force_login(member)
    with caplog.at_level("ERROR"):
        page = client.post(f"/evenings/{evening.pk}/signup/", follow=True)
    assert page.status_code == 200
    assert "Вы в игре" in page.content.decode()
    registration = Registration.objects.get(member=member, evening=evening)
    assert registration.status == RegistrationStatus.CONFIRMED
    assert "a sweep will catch up" in caplog.text
    # The notification is in the outbox, and the catch-up sweep finds it once it is due.
    (note,) = Notification.objects.filter(member=member)
    assert note.status == "pending"
    Notification.objects.filter(pk=note.pk).update(created_at=timezone.now() - timedelta(minutes=1))
    assert notifications_sweep()[1] == [note.pk]


@pytest.mark.usefixtures("migration_rows", "broker_down")
def test_an_api_sign_up_answers_with_its_outcome() -> None:
    from accounts.services import api_token_create

    member = make_member()
    evening = make_evening()
    token = api_token_create(member=member).key
    answer = Client().post(
        f"/api/v1/evenings/{evening.pk}/registration",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 201 and answer.json()["seat"] == 1
