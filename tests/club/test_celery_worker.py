"""A real Celery worker consuming from the real Redis broker runs the club's tasks."""

import threading
from datetime import timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from club.celery import app
from club.tasks import clear_expired_sessions

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_app_uses_the_redis_broker() -> None:
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    assert app.connection_for_write().transport_cls == "redis"


def test_a_worker_on_redis_clears_expired_sessions() -> None:
    fresh = SessionStore()
    fresh.create()
    expired = SessionStore()
    expired.create()
    Session.objects.filter(session_key=expired.session_key).update(
        expire_date=timezone.now() - timedelta(days=1)
    )
    finished = threading.Event()

    def on_finished(sender=None, **kwargs) -> None:
        if sender is not None and sender.name == clear_expired_sessions.name:
            finished.set()

    task_postrun.connect(on_finished, weak=False)
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
            clear_expired_sessions.delay()
            assert finished.wait(timeout=30), "the worker did not run the task"
    finally:
        task_postrun.disconnect(on_finished)
    keys = set(Session.objects.values_list("session_key", flat=True))
    assert fresh.session_key in keys
    assert expired.session_key not in keys
