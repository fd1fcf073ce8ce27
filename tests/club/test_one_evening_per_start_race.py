"""Two creators of an evening at one start, in a race: each asks first whether the start is
free, both hear yes, and the database's constraint lets one in. The other is refused as if it
had asked after the winner (the same `conflict`, naming the winner), not a 500.

The winner here is another connection that has written its evening and not yet committed:
the door's check cannot see it, its INSERT waits on the constraint's index, and the winner
commits once that wait is seen in pg_stat_activity."""

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any

import psycopg
import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts.services import api_token_create
from club.kernel import tenancy
from club.models import Evening
from tests.factories import make_evening, make_member
from tests.waiting import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def _connect(*, autocommit: bool) -> psycopg.Connection[Any]:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    return psycopg.connect(**params, autocommit=autocommit)


def _in_its_own_connection[T](door: Callable[[], T]) -> Callable[[], T]:
    def run() -> T:
        try:
            return door()
        finally:
            connection.close()  # the thread's own

    return run


def race(starts_at: datetime, door: Callable[[], Any]) -> tuple[Any, int]:
    """`door` makes or moves an evening to `starts_at` while another connection's evening
    there is written but not committed; that one commits once the door waits on it. The door's
    answer, and the winner's id."""
    with _connect(autocommit=False) as winner, _connect(autocommit=True) as watcher:
        row = winner.execute(
            "INSERT INTO club_evening (club_id, starts_at, venue, capacity, status, opens_at,"
            " created_at, arrivals, tables)"
            " VALUES (%s, %s, 'GrandDaddy', 12, 'scheduled', %s, now(), 0, 1) RETURNING id",
            [tenancy.current_club_id(), starts_at, starts_at - timedelta(days=6)],
        ).fetchone()
        assert row is not None
        with ThreadPoolExecutor(max_workers=1) as pool:
            answer = pool.submit(_in_its_own_connection(door))

            def door_waits() -> bool:
                waiting = watcher.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    " AND wait_event_type = 'Lock' AND query LIKE '%%\"club_evening\"%%'"
                ).fetchone()
                return waiting is not None and waiting[0] > 0

            assert wait_for(door_waits, timeout=60, interval=0.05)
            winner.commit()
            return answer.result(timeout=60), int(row[0])


def a_start() -> datetime:
    return (timezone.now() + timedelta(days=3)).replace(second=0, microsecond=0)


def test_the_api_loses_the_race_with_a_409_naming_the_winner() -> None:
    starts_at = a_start()
    token = api_token_create(member=make_member(is_superuser=True))
    auth = {"authorization": f"Bearer {token.key}"}

    def create() -> Any:
        payload = {"starts_at": starts_at.isoformat(), "capacity": 12}
        return Client().post(
            "/api/v1/evenings", payload, content_type="application/json", headers=auth
        )

    answer, winner = race(starts_at, create)
    assert answer.status_code == 409, answer.content
    assert (answer.json()["code"], answer.json()["evening"]) == ("conflict", winner)
    assert list(Evening.objects.values_list("pk", flat=True)) == [winner]


def admin_form(starts_at: datetime) -> dict[str, str]:
    local = timezone.localtime(starts_at)
    opens = timezone.localtime(starts_at - timedelta(days=6))
    return {
        "starts_at_0": local.strftime("%Y-%m-%d"),
        "starts_at_1": local.strftime("%H:%M:%S"),
        "venue": "GrandDaddy",
        "capacity": "12",
        "opens_at_0": opens.strftime("%Y-%m-%d"),
        "opens_at_1": opens.strftime("%H:%M:%S"),
    }


def an_admin() -> Client:
    admin = Client()
    admin.force_login(make_member(is_staff=True, is_superuser=True))
    return admin


def test_the_admin_loses_the_race_with_the_link_to_the_winner() -> None:
    starts_at = a_start()
    admin, form = an_admin(), admin_form(starts_at)
    answer, winner = race(starts_at, lambda: admin.post("/admin/club/evening/add/", form))
    # Nothing saved; the add page again, saying why, with the winner's link.
    assert (answer.status_code, answer["Location"]) == (302, "/admin/club/evening/add/")
    page = admin.get(answer["Location"]).content.decode()
    assert "На это время уже назначен другой вечер" in page
    assert f'<a href="/admin/club/evening/{winner}/change/">Открыть тот вечер</a>' in page
    assert list(Evening.objects.values_list("pk", flat=True)) == [winner]


def test_an_admin_s_move_that_loses_the_race_leaves_the_evening_where_it_was() -> None:
    """The change page moves an evening after its save commits (club/services.evening_move,
    which tells the members): the move, refused there, is said on the page again."""
    starts_at = a_start()
    moving = make_evening(starts_at=starts_at + timedelta(days=1))
    admin = an_admin()
    form = {
        **admin_form(starts_at),
        "status": "scheduled",
        "registrations-TOTAL_FORMS": "0",
        "registrations-INITIAL_FORMS": "0",
    }
    change = f"/admin/club/evening/{moving.pk}/change/"
    answer, winner = race(starts_at, lambda: admin.post(change, form))
    assert (answer.status_code, answer["Location"]) == (302, change)
    page = admin.get(change).content.decode()
    assert f'<a href="/admin/club/evening/{winner}/change/">Открыть тот вечер</a>' in page
    assert Evening.objects.get(pk=moving.pk).starts_at == starts_at + timedelta(days=1)
