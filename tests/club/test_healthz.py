import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_healthz_is_ok_when_database_and_broker_answer(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "broker": "ok", "cache": "ok", "status": "ok"}


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
    assert body == {
        "database": "ok",
        "broker": "failing",
        "cache": "ok",
        "status": "failing: broker",
    }
    # Hosts, ports and driver messages are for the log, not for anyone who asks (#14).
    assert "127.0.0.1" not in response.content.decode()
    assert "9" not in response.content.decode()


def test_healthz_names_the_database_when_it_is_down(client: Client, monkeypatch, caplog) -> None:
    from club import health

    def broken_cursor(*args, **kwargs):
        raise OSError("connection to 10.1.2.3:5432 refused (secret-db-host)")

    monkeypatch.setattr(health.connection, "cursor", broken_cursor)
    with caplog.at_level("ERROR"):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "failing: database"
    assert "secret-db-host" not in response.content.decode()
    assert "secret-db-host" in caplog.text
