"""A real Celery worker consuming from the real Redis broker runs the club's tasks."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from club.celery import app
from club.tasks import clear_expired_sessions
from tests.waiting import TaskDone

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_app_uses_the_redis_broker() -> None:
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    assert app.connection_for_write().transport_cls == "redis"


@pytest.mark.usefixtures("celery_worker_on_redis")
def test_a_worker_on_redis_clears_expired_sessions(task_done: TaskDone) -> None:
    fresh = SessionStore()
    fresh.create()
    expired = SessionStore()
    expired.create()
    Session.objects.filter(session_key=expired.session_key).update(
        expire_date=timezone.now() - timedelta(days=1)
    )
    finished = task_done(clear_expired_sessions.name)
    clear_expired_sessions.delay()
    assert finished.wait(timeout=30), "the worker did not run the task"
    keys = set(Session.objects.values_list("session_key", flat=True))
    assert fresh.session_key in keys
    assert expired.session_key not in keys
