import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_healthz_is_ok_when_database_and_broker_answer(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "broker": "ok", "status": "ok"}


def test_healthz_names_the_broker_when_it_is_down(client: Client, monkeypatch) -> None:
    from kombu import Connection

    from club import health

    # A real connection attempt to a port where nothing listens.
    monkeypatch.setattr(
        health.celery_app, "connection_for_write", lambda: Connection("redis://127.0.0.1:9/0")
    )
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["database"] == "ok"
    assert body["broker"] != "ok"
    assert body["status"] == "failing: broker"


def test_healthz_names_the_database_when_it_is_down(client: Client, monkeypatch) -> None:
    from club import health

    def broken_cursor(*args, **kwargs):
        raise OSError("connection refused")

    monkeypatch.setattr(health.connection, "cursor", broken_cursor)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "failing: database"
