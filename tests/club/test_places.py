"""A member's seat number and reserve position have one definition (club.models'
SEAT_ORDER and RESERVE_ORDER, numbered by club.models.place_in_line for every read),
and every text uses it; the sign-up's SQL (club/seating.py) numbers a new sign-up the same way.

The hole it closes (#14): reminders numbered only the seated members who had reminders on,
so a member after one who had turned them off read the wrong seat.
"""

import contextlib
from datetime import datetime, time, timedelta

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from club import queries, scheduling, seating, services
from club.kernel.clubs import Club
from club.kernel.errors import Refused
from club.models import Evening, Registration, RegistrationSource
from notifications.models import Notification
from tests.examples import examples
from tests.factories import make_evening, make_member

pytestmark = pytest.mark.django_db


def test_a_reminder_names_the_members_seat_whatever_the_others_reminders() -> None:
    club = Club.current()
    tomorrow = timezone.localdate(timezone=club.zone) + timedelta(days=1)
    starts = datetime.combine(tomorrow, time(18, 0), tzinfo=club.zone)
    evening = make_evening(starts_at=starts, opens_at=starts - timedelta(days=6))
    members = [make_member(telegram_id=30_000 + n) for n in range(3)]
    members[1].reminders = False
    members[1].save()
    for member in members:
        services.registration_create(
            member=member, evening_id=evening.pk, source=RegistrationSource.WEB,
            now=starts - timedelta(days=1),
        )  # fmt: skip
    scheduling.schedule_sweep(now=datetime.combine(tomorrow, time(10, 30), tzinfo=club.zone))
    texts = dict(
        Notification.objects.filter(dedupe_key__startswith="reminder:").values_list(
            "member_id", "text"
        )
    )
    assert set(texts) == {members[0].pk, members[2].pk}
    assert "Вы № 1 в списке." in texts[members[0].pk]
    assert "Вы № 3 в списке." in texts[members[2].pk]


OPERATIONS = st.lists(
    st.tuples(
        st.sampled_from(["sign_up", "held_back", "cancel", "capacity", "last_call"]),
        st.integers(0, 9),
    ),
    min_size=1,
    max_size=30,
)


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(operations=OPERATIONS)
def test_the_sign_up_sql_numbers_places_as_the_lineup_does(
    operations: list[tuple[str, int]],
) -> None:
    """One rule of free seats and the reserve's order: what the page says a sign-up will
    get (queries.Lineup.prospect) is what the sign-up's SQL gives, with the held-back
    before and after the last call, and an admin's capacity below the confirmed (no seat
    is ever negative)."""
    evening = make_evening(capacity=3)
    members = [make_member() for _ in range(10)]
    held_back_sits = False
    for action, index in operations:
        member = members[index]
        if action == "cancel":
            with contextlib.suppress(Refused):
                services.registration_cancel(member=member, evening_id=evening.pk)
            continue
        if action == "capacity":  # an admin's edit, as the admin's form saves it
            Evening.objects.filter(pk=evening.pk).update(capacity=index % 5)
            evening.refresh_from_db()
            continue
        if action == "last_call":
            held_back_sits = not held_back_sits
            continue
        before = queries.evening_lineup(evening)
        assert before.seats_left(evening.capacity) >= 0
        held_back = action == "held_back"
        expected = before.prospect(
            evening.capacity, held_back=held_back, held_back_sits=held_back_sits
        )
        outcome = seating.sign_up(
            evening_id=evening.pk,
            member_id=member.pk,
            source=RegistrationSource.WEB,
            held_back=held_back,
            held_back_sits=held_back_sits,
            now=timezone.now(),
            seat_text="",
            reserve_text="",
        )
        if outcome.written is None:
            continue  # already in
        seated = outcome.written.status == "confirmed"
        assert (seated, outcome.written.place) == (
            (True, expected.seat) if expected.seat else (False, expected.position)
        )
        lineup = queries.evening_lineup(evening)
        registration = Registration.objects.get(pk=outcome.written.registration_id)
        read = lineup.seat_of(registration) or lineup.position_of(registration)
        assert outcome.written.place == read
        (listed,) = (p for r, p in queries.member_evenings(member) if r.evening_id == evening.pk)
        assert listed == read
        # The reserve's order as Python sorts rows already read is the order SQL numbers.
        assert sorted(lineup.reserve, key=queries.reserve_key) == lineup.reserve
    Registration.objects.filter(evening=evening).delete()


MOMENTS = st.sampled_from([-3, -1, 0, 1, 3])  # days from now


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    status=st.sampled_from(["scheduled", "closed", "finished", "cancelled"]),
    opens=MOMENTS,
    starts=MOMENTS,
)
def test_the_sign_up_sql_is_open_exactly_when_the_model_says(
    status: str, opens: int, starts: int
) -> None:
    """Evening.signup_refusal is the rule; the sign-up's one SQL message asks the same."""
    now = timezone.now()
    opens_at, starts_at = now + timedelta(days=opens), now + timedelta(days=starts, hours=1)
    if opens_at > starts_at:
        return  # the database refuses such an evening
    evening = make_evening(status=status, opens_at=opens_at, starts_at=starts_at)
    outcome = seating.sign_up(
        evening_id=evening.pk,
        member_id=make_member().pk,
        source=RegistrationSource.WEB,
        held_back=False,
        held_back_sits=False,
        now=now,
        seat_text="",
        reserve_text="",
    )
    assert (outcome.written is not None) == (evening.signup_refusal(now) is None)


@settings(max_examples=examples(20), deadline=None)
@given(capacity=st.integers(1, 4), signed_up=st.integers(0, 6))
def test_the_upcoming_evenings_seats_left_is_the_lineups(capacity: int, signed_up: int) -> None:
    """Its SQL twin: an admin may lower the capacity below the confirmed (never negative)."""
    evening = make_evening(capacity=6)
    for _ in range(signed_up):
        services.registration_create(
            member=make_member(), evening_id=evening.pk, source=RegistrationSource.WEB
        )
    evening.capacity = capacity
    evening.save(update_fields=["capacity"])
    listed = queries.upcoming_evenings().get(pk=evening.pk)
    # An annotation of the query (django-stubs cannot see it on the model): the row's own.
    assert vars(listed)["seats_left"] == queries.evening_lineup(evening).seats_left(capacity)
    Registration.objects.filter(evening=evening).delete()
