"""A Redis that accepts connections and never answers (stopped with SIGSTOP) holds one
request for its socket timeout, not every request: the publish and the throttles are
bounded, and a breaker skips the dependency for a while after it failed (club/kernel/breaker.py).

The hole it closes (found by the attack review of #24): with a hung Redis, a sign-up took
30 s and answered 500 after its registration was saved (a publish without a socket
timeout), the webhook too; each login paid 2 s per throttle call."""

from __future__ import annotations

from typing import NoReturn

import pytest
from django.conf import settings as django_settings
from django.test import Client
from kombu import Connection
from kombu.exceptions import OperationalError
from pytest_django import Settings
from redis.exceptions import RedisError

from club.celery import app as celery_app
from club.kernel import queueing, throttle
from club.kernel.cache import CACHE
from tests.club.test_healthz import frozen_redis  # noqa: F401 (the fixture)
from tests.factories import PASSWORD, make_member

pytestmark = pytest.mark.django_db


def test_the_brokers_socket_timeouts_bound_a_publish_to_a_hung_redis(frozen_redis: str) -> None:  # noqa: F811
    options = {"socket_timeout": 1, "socket_connect_timeout": 1}
    assert set(options) <= set(django_settings.CELERY_BROKER_TRANSPORT_OPTIONS)
    hung = Connection(frozen_redis, transport_options=options)
    with hung as connection, pytest.raises((OSError, RedisError, OperationalError)):
        connection.SimpleQueue("hung").put({"x": 1}, retry=False)


def test_after_a_failed_publish_the_next_ones_do_not_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def hangs(name: str, **kwargs: object) -> NoReturn:
        calls.append(name)
        raise TimeoutError("the broker did not answer")

    monkeypatch.setattr(celery_app, "send_task", hangs)  # the app queueing sends with
    assert queueing.publish("club.tasks.schedule_sweep") is False
    assert queueing.publish("club.tasks.schedule_sweep") is False
    assert calls == ["club.tasks.schedule_sweep"]  # the second was not tried


def test_a_hung_cache_costs_one_login_its_timeout_and_the_next_nothing(
    settings: Settings,
    frozen_redis: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": frozen_redis,
            "OPTIONS": {"socket_timeout": 0.3, "socket_connect_timeout": 0.3},
        }
    }
    make_member(nickname="Ворон")
    client = Client()
    client.post("/accounts/login/", {"username": "Ворон", "password": "wrong"})
    assert not CACHE.closed
    tried: list[str] = []
    monkeypatch.setattr(throttle, "get_usage", lambda *a, **k: tried.append("cache"))
    answer = client.post("/accounts/login/", {"username": "Ворон", "password": PASSWORD})
    assert answer.status_code == 302 and tried == []  # let in, without asking the cache
