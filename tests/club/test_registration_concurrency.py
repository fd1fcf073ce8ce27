"""Bursts of real HTTP requests at a live server on PostgreSQL: the evening's lock keeps the
table from being overbooked, promotes once, and orders the reserve by arrival."""

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import psycopg
import pytest
from django.conf import settings
from django.db import connection
from psycopg.rows import TupleRow
from pytest_django.live_server_helper import LiveServer

from accounts.services import api_token_create
from club import seating, services
from club.models import Registration, RegistrationSource
from notifications.models import Notification
from tests.factories import make_evening, make_member

pytestmark = pytest.mark.django_db(transaction=True)
IN_FLIGHT = 50


def tokens(count: int) -> list[str]:
    return [api_token_create(member=make_member()).key for _ in range(count)]


def api_token_member(key: str) -> int:
    from accounts.models import ApiToken

    return ApiToken.objects.matching(key).values_list("user_id", flat=True).get()


def fire(
    live_server: LiveServer, requests: list[tuple[str, str, str]], *, in_flight: int = IN_FLIGHT
) -> list[httpx.Response]:
    """Send (method, path, token) requests with `in_flight` of them at once."""
    limits = httpx.Limits(max_connections=in_flight, max_keepalive_connections=in_flight)
    with httpx.Client(base_url=live_server.url, limits=limits, timeout=60) as client:

        def send(request: tuple[str, str, str]) -> httpx.Response:
            method, path, token = request
            return client.request(method, path, headers={"Authorization": f"Bearer {token}"})

        with ThreadPoolExecutor(max_workers=in_flight) as pool:
            return list(pool.map(send, requests))


def _count(
    conn: psycopg.Connection[TupleRow], query: str, params: list[object] | None = None
) -> int:
    row = conn.execute(query, params).fetchone()
    assert row is not None  # count(*) answers one row
    return int(row[0])


class Watch:
    """Samples, from its own connection, the confirmed count and the open connections."""

    def __init__(self, evening_id: int) -> None:
        self.evening_id = evening_id
        self.max_confirmed = 0
        self.max_connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run)

    def _run(self) -> None:
        params = connection.get_connection_params()
        params.pop("cursor_factory", None)
        with psycopg.connect(**params, autocommit=True) as conn:
            while not self._stop.is_set():
                confirmed = _count(
                    conn,
                    "SELECT count(*) FROM club_registration"
                    " WHERE evening_id = %s AND status = 'confirmed'",
                    [self.evening_id],
                )
                connections = _count(
                    conn, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                )
                self.max_confirmed = max(self.max_confirmed, confirmed)
                self.max_connections = max(self.max_connections, connections)

    def __enter__(self) -> "Watch":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


@pytest.fixture
def watch() -> Iterator[Callable[[int], Watch]]:
    yield Watch


def test_200_concurrent_sign_ups_fill_15_seats_exactly(
    live_server: LiveServer, watch: Callable[[int], Watch]
) -> None:
    evening = make_evening(capacity=15)
    keys = tokens(200)
    path = f"/api/v1/evenings/{evening.pk}/registration"
    with watch(evening.pk) as seen:
        responses = fire(live_server, [("POST", path, key) for key in keys])

    assert [r.status_code for r in responses] == [201] * 200
    bodies = [r.json() for r in responses]
    assert sum(b["status"] == "confirmed" for b in bodies) == 15
    assert sum(b["status"] == "reserve" for b in bodies) == 185
    assert seen.max_confirmed == 15
    # A bounded pool per process: a burst queues for connections instead of opening 200.
    pool_size = settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"]
    assert seen.max_connections <= pool_size + 3

    registrations = list(Registration.objects.filter(evening=evening).order_by("arrival"))
    assert [r.arrival for r in registrations] == list(range(1, 201))  # one per lock taken
    assert all(r.status == "confirmed" for r in registrations[:15])
    assert all(r.status == "reserve" for r in registrations[15:])
    # Each member was told the reserve position that their place in the lock order gives.
    by_member = {r.member_id: r for r in registrations}
    for key, body in zip(keys, bodies, strict=True):
        member_id = api_token_member(key)
        expected = by_member[member_id].arrival - 15
        assert body["position"] == (expected if expected > 0 else None)
    assert Notification.objects.count() == 200


def test_concurrent_cancels_and_sign_ups_keep_the_invariant(
    live_server: LiveServer, watch: Callable[[int], Watch]
) -> None:
    evening = make_evening(capacity=15)
    members = [make_member() for _ in range(35)]
    for member in members:
        services.registration_create(
            member=member, evening_id=evening.pk, source=RegistrationSource.API
        )
    seated_keys = [api_token_create(member=m).key for m in members[:10]]
    waiting_keys = [api_token_create(member=m).key for m in members[15:25]]
    path = f"/api/v1/evenings/{evening.pk}/registration"
    requests = (
        [("DELETE", path, key) for key in seated_keys]
        + [("POST", path, key) for key in tokens(40)]
        + [("POST", path, key) for key in waiting_keys]  # double taps from the reserve
    )
    with watch(evening.pk) as seen:
        responses = fire(live_server, requests)

    assert sorted({r.status_code for r in responses}) == [200, 201]
    assert seen.max_confirmed == 15
    assert Registration.objects.confirmed().filter(evening=evening).count() == 15
    assert Registration.objects.reserve().filter(evening=evening).count() == 35 + 40 - 10 - 15
    promoted = Registration.objects.filter(evening=evening, promoted_at__isnull=False)
    assert promoted.count() == 10
    # Exactly one "promoted" message per promotion, and the first ten of the reserve got them.
    assert Notification.objects.filter(dedupe_key__startswith="promoted:").count() == 10
    assert set(promoted.values_list("member_id", flat=True)) == {m.pk for m in members[15:25]}


def test_without_the_lock_the_same_burst_overbooks(
    live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: read the evening instead of locking its row, and the table is
    overbooked, because sign-ups count the free seats side by side."""
    unlocked = "SELECT arrivals, capacity, status FROM club_evening WHERE id = %(evening)s"
    monkeypatch.setattr(
        seating,
        "SIGN_UP",
        {
            "lock": unlocked,
            "seat": seating.SEAT,
            # A slow moment between counting and committing, as under load. It is long
            # next to a request's Python work (which the live server's threads take in
            # turn, under the GIL), so the sign-ups overlap even on a slow machine.
            "pause": "SELECT pg_sleep(0.5)",
            "notify": seating.NOTIFY,
            "result": seating.RESULT,
        },
    )
    evening = make_evening(capacity=15)
    path = f"/api/v1/evenings/{evening.pk}/registration"
    fire(live_server, [("POST", path, key) for key in tokens(60)])
    assert Registration.objects.confirmed().filter(evening=evening).count() > 15
