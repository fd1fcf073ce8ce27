"""The hourly housekeeping keeps the tables that grow from growing without end."""

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from kombu import Connection
from pytest_django import Settings

from accounts.models import UsedSignature
from club.tasks import housekeeping, tidy_embedded_broker

pytestmark = pytest.mark.django_db


def test_expired_signatures_are_forgotten() -> None:
    now = timezone.now()
    UsedSignature.objects.create(digest="old", expires_at=now - timedelta(minutes=1))
    UsedSignature.objects.create(digest="fresh", expires_at=now + timedelta(hours=1))
    housekeeping()
    assert list(UsedSignature.objects.values_list("digest", flat=True)) == ["fresh"]


def test_the_embedded_broker_drops_delivered_messages(settings: Settings, tmp_path: Path) -> None:
    """Through kombu's own SQLAlchemy transport, as the embedded site runs it."""
    broker = tmp_path / "broker.sqlite3"
    settings.BROKER_DATABASE = broker
    with Connection(f"sqla+sqlite:///{broker}") as connection:
        queue = connection.SimpleQueue("tidy-test")
        queue.put({"n": 1})
        queue.put({"n": 2})
        queue.get(timeout=5).ack()  # delivered: kept by kombu, marked invisible
        queue.close()
    with sqlite3.connect(broker) as db:
        db.execute("UPDATE kombu_message SET timestamp = '2000-01-01 00:00:00' WHERE visible = 0")
    assert tidy_embedded_broker() == 1
    with sqlite3.connect(broker) as db:
        assert db.execute("SELECT count(*) FROM kombu_message").fetchone() == (1,)
