"""A promotion's work on the database, pinned (#39): the evening's line-up is read once under
its lock (the free seats, the reserve in its order, the positions before), and the seats and
positions after it are numbered from that read in memory, as a fresh read numbers them."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from club import services
from club.kernel.clubs import Club
from club.models import Evening, Registration, RegistrationSource, RegistrationStatus
from club.queries import evening_lineup
from notifications.models import Notification
from tests.factories import make_evening, make_member, sign_up_many

pytestmark = pytest.mark.django_db

SEATS, RESERVE = 12, 10
# A seated member gives up their seat (no undo window): the evening locked (1), their
# registration (1) and its cancellation (1) and message (1: a member without Telegram is
# told by email, one row); the promotion: the line-up (1), the promoted's seat (1) and
# message (1), the one who moved up to the reserve's third place told (1); the transaction
# in the test's (2 savepoints). Before #39: 14, the line-up read three times.
CANCEL_QUERIES = 10
# The organiser adds two seats: the evening locked and its capacity (2), the line-up (1),
# two promoted (2) and told (2), the two who moved up to the second and third places told
# (2), 2 savepoints. Before #39: 15, the line-up read three times.
CAPACITY_QUERIES = 11


def _lineup_reads(captured: CaptureQueriesContext) -> int:
    """The queries that number the evening's rows (club.models.place_in_line)."""
    return sum(1 for q in captured.captured_queries if "ROW_NUMBER" in q["sql"])


def _full_evening() -> tuple[Evening, list[User]]:
    evening = make_evening(capacity=SEATS)
    return evening, [signed.member for signed in sign_up_many(evening, SEATS + RESERVE)]


def test_a_freed_seat_reads_the_line_up_once() -> None:
    evening, members = _full_evening()
    with CaptureQueriesContext(connection) as captured:
        services.registration_cancel(member=members[0], evening_id=evening.pk)
    assert _lineup_reads(captured) == 1
    assert len(captured) == CANCEL_QUERIES, [q["sql"][:90] for q in captured]
    assert_told_as_read(evening)


def test_added_seats_read_the_line_up_once() -> None:
    evening, _members = _full_evening()
    with CaptureQueriesContext(connection) as captured:
        services.evening_set_capacity(evening_id=evening.pk, capacity=SEATS + 2)
    assert _lineup_reads(captured) == 1
    assert len(captured) == CAPACITY_QUERIES, "\n".join(q["sql"][:70] for q in captured)
    assert_told_as_read(evening)


def test_an_admins_promotion_reads_the_line_up_once() -> None:
    evening, members = _full_evening()
    last = Registration.objects.get(evening=evening, member=members[-1])
    Registration.objects.filter(evening=evening, member=members[2]).update(
        status=RegistrationStatus.CANCELLED
    )  # a free seat, nobody promoted into it yet
    with CaptureQueriesContext(connection) as captured:
        signed = services.registration_promote(registration_id=last.pk)
    assert _lineup_reads(captured) == 1
    assert signed.registration.status == RegistrationStatus.CONFIRMED
    assert_told_as_read(evening)


def test_a_held_back_member_promoted_after_the_last_call_gets_their_arrivals_seat() -> None:
    """The seat numbered in memory follows the arrival, as the line-up's read does: a
    held-back member who signed up first and waited sits first once promoted."""
    club = Club.current()
    club.noshow_penalty_count, club.noshow_penalty_window = 1, 3
    club.save()
    evening = make_evening(
        capacity=2,
        starts_at=timezone.now() + timedelta(hours=club.confirmation_deadline_hours, minutes=-30),
    )
    held, first, second = make_member(), make_member(), make_member()
    Registration.objects.create(
        evening=evening, member=held, status=RegistrationStatus.RESERVE,
        source=RegistrationSource.WEB, arrival=1, held_back=True,
    )  # fmt: skip
    for arrival, member in enumerate((first, second), start=2):
        Registration.objects.create(
            evening=evening, member=member, status=RegistrationStatus.CONFIRMED,
            source=RegistrationSource.WEB, arrival=arrival,
        )  # fmt: skip
    Evening.objects.filter(pk=evening.pk).update(arrivals=3)
    services.registration_cancel(member=first, evening_id=evening.pk)
    assert evening_lineup(evening).seat_of(Registration.objects.get(member=held)) == 1
    assert_told_as_read(evening)


def assert_told_as_read(evening: Evening) -> None:
    """Every promotion message and reserve notice of the evening names the seat or the
    position a fresh read of the line-up gives."""
    lineup = evening_lineup(evening)
    for row in Notification.objects.filter(dedupe_key__startswith="promoted:"):
        registration = Registration.objects.get(pk=int(row.dedupe_key.split(":")[1]))
        if registration.evening_id != evening.pk:
            continue
        assert _number(row.text, "№ ") == lineup.seat_of(registration), row.text
    for row in Notification.objects.filter(dedupe_key__startswith="reserve-up:"):
        registration = Registration.objects.get(pk=int(row.dedupe_key.split(":")[1]))
        if registration.evening_id != evening.pk or registration.status != "reserve":
            continue
        assert _number(row.text, "позиция ") == lineup.position_of(registration), row.text


def _number(text: str, after: str) -> int:
    found = re.search(re.escape(after) + r"(\d+)", text)
    assert found is not None, text
    return int(found[1])
