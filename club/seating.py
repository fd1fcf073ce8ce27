"""A sign-up's write, as one message to the database: lock, seat or reserve, outbox, commit.

Every sign-up of an evening queues on the evening's row lock, so the time that lock is held
sets how many sign-ups a second the club takes in the rush when sign-up opens. Held across
several round trips, the lock also waits for the Python thread to be scheduled again after
each answer, which under load (threads of a process sharing the GIL, two cores shared with
the database) cost 10 ms and more per sign-up (docs/benchmarks.md). So the whole write is a
few statements whose decisions are made in SQL, each reading what the previous one left:

1. LOCK: the UPDATE that takes the evening's row lock and the next arrival number.
2. SEAT: insert (or revive a cancelled) registration, confirmed while the confirmed are
   fewer than the capacity, else in the reserve; nothing when the evening is not open or
   the member is already in (a double tap).
3. NOTIFY: the outbox row telling the member their seat or reserve position.
4. RESULT: this sign-up's registration with its seat number or reserve position.

On PostgreSQL they travel as one simple-protocol query: the server runs them as one implicit
transaction (READ COMMITTED gives each statement a fresh snapshot, so SEAT counts what was
committed before LOCK got the row) and commits before it answers, so the lock is held for
the server's own work only. SQLite, which serializes writers anyway, runs the same
statements one by one in a transaction. The rule (a seat while seats are free, then the
reserve in arrival order, held-back members last and seated only from the last call on) is
written here once, for both; when the last call has come is the caller's word
(club.services.held_back_sits), as it is for the promotions (club.services.fill_seats).
"""

import hashlib
import re
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from django.db import connection, transaction

from club.models import Evening, EveningStatus, Registration, RegistrationStatus
from notifications.models import NotificationChannel, NotificationStatus
from notifications.services import outbox_insert

EVENING = Evening._meta.db_table
REGISTRATION = Registration._meta.db_table

# Stands for the seat number or reserve position in the pre-rendered message texts.
PLACE = "⟨№⟩"

LOCK = (
    f"UPDATE {EVENING} SET arrivals = arrivals + 1"  # noqa: S608
    " WHERE id = %(evening)s RETURNING arrivals, capacity, status"
)
SEAT = (
    f"INSERT INTO {REGISTRATION}"  # noqa: S608
    " (club_id, member_id, guest_id, evening_id, status, source, arrival, held_back,"
    "  awaiting_approval, created_at)"
    " SELECT e.club_id, %(member)s, %(guest)s, e.id,"
    # A seat when this sign-up may take one now (not held back, or the last call has come:
    # club.services.held_back_sits) and a seat is free beyond those the reserve waiting
    # ahead of it may take now (RESERVE_ORDER: the held-back after the rest, a newcomer
    # last). After the start the reserve holds no claim: the organiser seats whom they choose.
    # A visitor awaiting approval (Club.visitors) never takes a seat by itself, nor holds a
    # claim on one.
    "  CASE WHEN NOT %(awaiting)s AND (NOT %(held_back)s OR %(held_back_sits)s) AND e.capacity >"
    f"   (SELECT COUNT(*) FROM {REGISTRATION} c"
    "     WHERE c.evening_id = e.id AND (c.status = %(confirmed)s"
    "      OR c.status = %(reserve)s AND %(now)s < e.starts_at AND NOT c.awaiting_approval"
    "       AND (NOT c.held_back OR %(held_back)s AND %(held_back_sits)s)))"
    "  THEN %(confirmed)s ELSE %(reserve)s END,"
    "  %(source)s, e.arrivals, %(held_back)s, %(awaiting)s, %(now)s"
    f" FROM {EVENING} e"
    " WHERE e.id = %(evening)s AND (e.status = %(scheduled)s"
    "  AND e.opens_at <= %(now)s AND %(now)s < e.starts_at"
    # The organiser adds at the door too: after the start, and to a closed list.
    "  OR %(door)s AND e.status IN (%(scheduled)s, %(closed)s))"
    " ON CONFLICT (evening_id, member_id) DO UPDATE SET"
    "  status = excluded.status, source = excluded.source, arrival = excluded.arrival,"
    "  held_back = excluded.held_back, awaiting_approval = excluded.awaiting_approval,"
    "  attendance_confirmed_at = NULL,"
    "  promoted_at = NULL, cancelled_at = NULL, checked_in_at = NULL, left_at = NULL"
    f" WHERE {REGISTRATION}.status = %(cancelled)s"
    # At the door, someone taken off as not come (or gone) who turns up is put back.
    f"  OR %(door)s AND {REGISTRATION}.status IN (%(no_show)s, %(attended)s)"
)
# The registration this sign-up wrote (its arrival is the number LOCK took), with its seat
# number (the confirmed, itself included) or reserve position (those served before it: the
# others not held back, and the held-back too when it is held back itself).
_MINE = (
    "SELECT r.id, r.status, r.member_id, r.arrival, e.club_id,"  # noqa: S608
    "  CASE WHEN r.status = %(confirmed)s"
    f"  THEN (SELECT COUNT(*) FROM {REGISTRATION} c"
    "     WHERE c.evening_id = r.evening_id AND c.status = %(confirmed)s)"
    f"  ELSE 1 + (SELECT COUNT(*) FROM {REGISTRATION} c"
    "     WHERE c.evening_id = r.evening_id AND c.status = %(reserve)s AND c.id <> r.id"
    "      AND (NOT c.held_back OR r.held_back))"
    "  END AS place"
    f" FROM {REGISTRATION} r JOIN {EVENING} e ON e.id = r.evening_id"
    " WHERE r.evening_id = %(evening)s AND r.arrival = e.arrivals"
    "  AND (r.member_id = %(member)s OR r.guest_id = %(guest)s)"
)
# One row per channel the member is told by (notifications/channels.py): the first
# channel's row has the message's key, a second one's the key with the channel added. The
# outbox's own INSERT (notifications.services.outbox_insert), its rows this SELECT of its
# columns: a key names the registration and its arrival, so it is new on every sign-up.
NOTIFY = outbox_insert(
    "SELECT m.club_id,"  # noqa: S608
    "  CASE WHEN m.status = %(confirmed)s THEN 'seat:' ELSE 'reserve:' END"
    "   || CAST(m.id AS TEXT) || ':' || CAST(m.arrival AS TEXT) || c.suffix,"
    "  m.member_id, NULL, c.channel, '',"
    "  REPLACE(CASE WHEN m.status = %(confirmed)s THEN %(seat_text)s ELSE %(reserve_text)s END,"
    "   %(place_mark)s, CAST(m.place AS TEXT)),"
    "  '[]', %(pending)s, 0, '', %(now)s, NULL, TRUE, ''"
    f" FROM ({_MINE}) m,"
    "  (SELECT CAST(%(first_channel)s AS TEXT) AS channel, '' AS suffix"
    "   UNION ALL SELECT CAST(%(second_channel)s AS TEXT), ':' || %(second_channel)s) c"
    # A guest has no channel to be told by.
    " WHERE c.channel <> '' AND m.member_id IS NOT NULL"
)
RESULT = f"SELECT m.id, m.status, m.arrival, m.place FROM ({_MINE}) m"  # noqa: S608

# The statements in order, by name; a test swaps them to show the race without the lock.
SIGN_UP = {"lock": LOCK, "seat": SEAT, "notify": NOTIFY, "result": RESULT}

Rows = dict[str, list[tuple[Any, ...]]]  # each statement's rows, by its name


@dataclass(frozen=True)
class Written:
    registration_id: int
    status: str
    arrival: int
    place: int  # seat number when confirmed, reserve position otherwise
    notification_ids: tuple[int, ...]  # the outbox rows telling the member, one a channel


@dataclass(frozen=True)
class Outcome:
    found: bool  # False: no such evening
    capacity: int
    status: str
    written: Written | None  # None: refused by the evening's state, or a double tap


def sign_up(
    *,
    evening_id: int,
    member_id: int | None,
    source: str,
    held_back: bool,
    held_back_sits: bool,
    now: datetime,
    seat_text: str,
    reserve_text: str,
    channels: Sequence[str] = (NotificationChannel.TELEGRAM,),
    guest_id: int | None = None,
    door: bool = False,
    awaiting: bool = False,
) -> Outcome:
    """Run the sign-up's statements as one transaction. The texts carry PLACE where the
    seat number or position goes; `channels` (one or two) are the member's
    (notifications.channels.member_channels). Call it outside any transaction: it is its
    own.

    `held_back`: the no-show rule sends this member after the rest of the reserve;
    `held_back_sits`: the held-back may take free seats now (club.services.held_back_sits,
    the one place that says when: from the last call on).

    A member's or a guest's (`guest_id`, with `member_id` None and no `channels`: the
    organiser's line-up). `door`: the organiser adds at the door, which the evening's
    sign-up window does not bound (after the start, a closed list), though a finished or
    cancelled one does. `awaiting`: a visitor the club lets in by approval (Club.visitors)
    goes to the reserve to wait for an organiser, whatever seats are free."""
    params = {
        "evening": evening_id,
        "member": member_id,
        "guest": guest_id,
        "door": door,
        "source": source,
        "held_back": held_back,
        "held_back_sits": held_back_sits,
        "awaiting": awaiting,
        "now": now,
        "seat_text": seat_text,
        "reserve_text": reserve_text,
        "place_mark": PLACE,
        "first_channel": channels[0] if channels else "",
        "second_channel": channels[1] if len(channels) > 1 else "",
        "confirmed": RegistrationStatus.CONFIRMED,
        "reserve": RegistrationStatus.RESERVE,
        "cancelled": RegistrationStatus.CANCELLED,
        "no_show": RegistrationStatus.NO_SHOW,
        "attended": RegistrationStatus.ATTENDED,
        "scheduled": EveningStatus.SCHEDULED,
        "closed": EveningStatus.CLOSED,
        "pending": NotificationStatus.PENDING,
    }
    rows = _run(SIGN_UP, params)
    lock, result, notify = rows["lock"], rows["result"], rows["notify"]
    if not lock:
        return Outcome(found=False, capacity=0, status="", written=None)
    _arrival, capacity, status = lock[0]
    written = None
    if result:
        registration_id, status, arrival, place = result[0]
        written = Written(registration_id, status, arrival, place, tuple(r[0] for r in notify))
    return Outcome(found=True, capacity=capacity, status=status, written=written)


def _run(statements: dict[str, str], params: dict[str, Any]) -> Rows:
    """Each statement's rows (empty for those that return none), in one transaction."""
    # As atomic(durable=True) checks: only a test case's wrapping transaction may be open.
    if connection.atomic_blocks and not getattr(
        connection.atomic_blocks[-1], "_from_testcase", False
    ):
        raise RuntimeError("A sign-up runs in a transaction of its own.")
    if connection.vendor == "postgresql":
        return _run_on_postgresql(statements, params)
    rows: Rows = {}
    with transaction.atomic(durable=True), connection.cursor() as cursor:
        for name, sql in statements.items():
            cursor.execute(sql, _for_sqlite(params))
            rows[name] = cursor.fetchall() if cursor.description else []
    return rows


_NAMED = re.compile(r"%\((\w+)\)s")
# Per database connection, the names of the statements prepared on it.
_prepared: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class _Prepared:
    name: str
    definition: str  # PREPARE name AS sql-with-$n
    arguments: list[str]  # the parameters' names, in $n order


@cache
def _prepare(sql: str) -> _Prepared:
    arguments: list[str] = []

    def number(match: re.Match[str]) -> str:
        if match[1] not in arguments:
            arguments.append(match[1])
        return f"${arguments.index(match[1]) + 1}"

    body = _NAMED.sub(number, sql)
    name = "club_sign_up_" + hashlib.sha256(sql.encode()).hexdigest()[:16]
    return _Prepared(name, f"PREPARE {name} AS {body}", arguments)


def _run_on_postgresql(statements: dict[str, str], params: dict[str, Any]) -> Rows:
    """The statements as one simple-protocol query of EXECUTEs: one implicit transaction.

    Django's psycopg cursors bind parameters client-side, so a query holding several
    statements goes out as one message. Each statement is prepared once per connection, so
    the server plans it once rather than on every sign-up, with the lock held.
    """
    prepared = [_prepare(sql) for sql in statements.values()]
    values: list[Any] = []
    calls = []
    for p in prepared:
        arguments = f"({', '.join(['%s'] * len(p.arguments))})" if p.arguments else ""
        calls.append(f"EXECUTE {p.name}{arguments}")
        values += [params[argument] for argument in p.arguments]
    connection.ensure_connection()
    known = _prepared.setdefault(connection.connection, set())
    with connection.cursor() as cursor:
        missing = [p for p in prepared if p.name not in known]
        if missing:
            cursor.execute("; ".join(p.definition for p in missing))
            known.update(p.name for p in missing)
        cursor.execute("; ".join(calls), values)
        rows: Rows = {}
        for name in statements:
            rows[name] = cursor.fetchall() if cursor.description else []
            cursor.nextset()
    return rows


def _for_sqlite(params: dict[str, Any]) -> dict[str, Any]:
    now = connection.ops.adapt_datetimefield_value(params["now"])
    return {**params, "now": now}
