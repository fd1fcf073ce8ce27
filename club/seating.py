"""The statements a sign-up runs while it holds the evening's lock, in plain SQL.

Every sign-up of an evening queues on that lock, so the time it is held sets how many
sign-ups a second the club can take in the rush when sign-up opens. Here the ORM would spend
several times the database's own time compiling these few statements (measured in
bench/registration_burst.py), so they are written out once, portable between PostgreSQL and
SQLite (RETURNING and FILTER need SQLite 3.35, which Python 3.13 ships).
"""

from dataclasses import dataclass
from datetime import datetime

from django.db import connection

from club.models import Evening, Registration, RegistrationStatus

EVENING = Evening._meta.db_table
REGISTRATION = Registration._meta.db_table

_LOCK = (
    f"UPDATE {EVENING} SET arrivals = arrivals + 1"  # noqa: S608
    " WHERE id = %s RETURNING arrivals, capacity, status"
)
_COUNT = (
    "SELECT"  # noqa: S608
    " COUNT(*) FILTER (WHERE status = %s),"
    " COUNT(*) FILTER (WHERE status = %s AND NOT held_back),"
    " COUNT(*) FILTER (WHERE status = %s AND held_back),"
    " MAX(id) FILTER (WHERE member_id = %s)"
    f" FROM {REGISTRATION} WHERE evening_id = %s"
)
_INSERT = (
    f"INSERT INTO {REGISTRATION}"  # noqa: S608
    " (member_id, evening_id, status, source, arrival, held_back, created_at)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id"
)


@dataclass(frozen=True)
class Arrival:
    number: int  # this sign-up's place in the order the lock was taken
    capacity: int
    status: str


@dataclass(frozen=True)
class Seats:
    confirmed: int
    waiting: int  # in the reserve, not held back
    held: int  # in the reserve, held back for no-shows
    mine: int | None  # the member's registration for this evening, if any


def lock_and_take_arrival(evening_id: int) -> Arrival | None:
    """Lock the evening's row and take the next arrival number, in one statement.

    An UPDATE takes the same row lock as SELECT ... FOR UPDATE. A sign-up that turns out
    to be a double tap leaves a gap in the numbers; they only order the reserve.
    """
    with connection.cursor() as cursor:
        cursor.execute(_LOCK, [evening_id])
        row = cursor.fetchone()
    return Arrival(*row) if row else None


def count_seats(evening_id: int, member_id: int) -> Seats:
    reserve = RegistrationStatus.RESERVE
    with connection.cursor() as cursor:
        cursor.execute(
            _COUNT, [RegistrationStatus.CONFIRMED, reserve, reserve, member_id, evening_id]
        )
        return Seats(*cursor.fetchone())


def insert_registration(
    *,
    evening: Evening,
    member_id: int,
    status: str,
    source: str,
    arrival: int,
    held_back: bool,
    now: datetime,
) -> Registration:
    with connection.cursor() as cursor:
        cursor.execute(
            _INSERT,
            [
                member_id,
                evening.pk,
                status,
                source,
                arrival,
                held_back,
                connection.ops.adapt_datetimefield_value(now),
            ],
        )
        (registration_id,) = cursor.fetchone()
    registration = Registration(
        pk=registration_id,
        evening=evening,
        member_id=member_id,
        status=status,
        source=source,
        arrival=arrival,
        held_back=held_back,
        created_at=now,
    )
    registration._state.adding = False
    return registration
