"""The rules of registration, through the services every door calls."""

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from accounts.models import MembershipStatus, User
from accounts.services import member_set_status
from club import services
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from club.models import Evening, EveningStatus, Registration, RegistrationSource
from notifications.models import Notification
from tests.factories import EveningFields, make_evening, make_member, sign_up_many

pytestmark = pytest.mark.django_db
WEB = RegistrationSource.WEB


def sign_up(member: User, evening: Evening, now: datetime | None = None) -> services.SignUp:
    return services.registration_create(member=member, evening_id=evening.pk, source=WEB, now=now)


def statuses(evening: Evening) -> dict[str, str]:
    return dict(
        Registration.objects.filter(evening=evening).values_list("member__nickname", "status")
    )


def notes(member: User) -> list[str]:
    return list(
        Notification.objects.filter(member=member)
        .order_by("id")
        .values_list("dedupe_key", flat=True)
    )


def test_seats_go_first_come_then_the_reserve_in_order() -> None:
    evening = make_evening(capacity=3)
    results = sign_up_many(evening, 5)
    assert [(r.registration.status, r.seat, r.position) for r in results] == [
        ("confirmed", 1, None),
        ("confirmed", 2, None),
        ("confirmed", 3, None),
        ("reserve", None, 1),
        ("reserve", None, 2),
    ]
    text = Notification.objects.get(member=results[0].member).text
    assert text.startswith("Вы в игре! № 1 в списке из 3.")
    assert "GrandDaddy" in text
    assert "резерве, позиция 2" in Notification.objects.get(member=results[4].member).text


def test_a_double_tap_returns_the_same_registration() -> None:
    evening = make_evening(capacity=1)
    member, waiting = make_member(), make_member()
    first = sign_up(member, evening)
    again = sign_up(member, evening)
    assert (first.created, again.created) == (True, False)
    assert again.registration.pk == first.registration.pk and again.seat == 1
    sign_up(waiting, evening)
    assert sign_up(waiting, evening).position == 1
    assert Registration.objects.count() == 2
    assert len(notes(member)) == 1


def test_cancelling_a_seat_promotes_the_first_of_the_reserve_and_tells_them() -> None:
    evening = make_evening(capacity=2)
    a, _b, c, d = (r.member for r in sign_up_many(evening, 4))
    services.registration_cancel(member=a, evening_id=evening.pk)
    registration = Registration.objects.get(member=c)
    assert registration.status == "confirmed" and registration.promoted_at is not None
    assert Registration.objects.get(member=d).status == "reserve"
    assert [key.split(":")[0] for key in notes(c)] == ["reserve", "promoted"]
    assert Notification.objects.filter(dedupe_key__startswith="promoted:").count() == 1
    assert Notification.objects.get(member=c, dedupe_key__startswith="promoted").text.startswith(
        "Освободилось место"
    )
    assert notes(a)[-1].startswith("cancelled:")


def test_leaving_the_reserve_promotes_nobody() -> None:
    evening = make_evening(capacity=1)
    a, b, c = (r.member for r in sign_up_many(evening, 3))
    services.registration_cancel(member=b, evening_id=evening.pk)
    assert statuses(evening) == {
        a.nickname: "confirmed",
        b.nickname: "cancelled",
        c.nickname: "reserve",
    }
    assert services.registration_create(member=c, evening_id=evening.pk, source=WEB).position == 1


def test_signing_up_again_after_cancelling_gets_a_free_seat_or_the_end_of_the_reserve() -> None:
    evening = make_evening(capacity=2)
    a, b, c = (r.member for r in sign_up_many(evening, 3))
    services.registration_cancel(member=c, evening_id=evening.pk)
    again = sign_up(c, evening)
    assert again.created and again.position == 1
    d = make_member()
    sign_up(d, evening)
    services.registration_cancel(member=a, evening_id=evening.pk)  # c moves up
    services.registration_cancel(member=c, evening_id=evening.pk)  # d moves up
    again = sign_up(a, evening)
    assert (again.registration.status, again.position) == ("reserve", 1)
    services.registration_cancel(member=b, evening_id=evening.pk)
    assert Registration.objects.get(member=a).status == "confirmed"
    assert again.registration.pk == Registration.objects.get(member=a).pk


def test_the_age_is_checked_on_the_evenings_date_in_the_clubs_zone() -> None:
    moscow = Club.current().zone
    starts_at = timezone.now().astimezone(moscow).replace(hour=18, minute=0) + timedelta(days=3)
    evening = make_evening(starts_at=starts_at)
    day = starts_at.date()
    turns_21_that_day = make_member(birth_date=day.replace(year=day.year - 21))
    turns_21_next_day = make_member(
        birth_date=(day + timedelta(days=1)).replace(year=day.year - 21)
    )
    assert sign_up(turns_21_that_day, evening).seat == 1
    with pytest.raises(Refused) as refused:
        sign_up(turns_21_next_day, evening)
    assert refused.value.code == RefusalCode.UNDERAGE
    assert "21" in refused.value.message
    assert not Registration.objects.filter(member=turns_21_next_day).exists()


@pytest.mark.parametrize(
    ("evening_fields", "code", "message"),
    [
        (
            {"opens_at": timezone.now() + timedelta(days=1)},
            RefusalCode.NOT_OPEN,
            "Запись откроется",
        ),
        ({"status": EveningStatus.CLOSED}, RefusalCode.CLOSED, "Запись на этот вечер закрыта."),
        ({"status": EveningStatus.CANCELLED}, RefusalCode.CLOSED, "Этот вечер отменён."),
        (
            {
                "starts_at": timezone.now() - timedelta(hours=1),
                "opens_at": timezone.now() - timedelta(days=2),
            },
            RefusalCode.CLOSED,
            "Этот вечер уже прошёл.",
        ),
    ],
)
def test_sign_up_is_refused_outside_its_window(
    evening_fields: EveningFields, code: RefusalCode, message: str
) -> None:
    evening = make_evening(**evening_fields)
    with pytest.raises(Refused) as refused:
        sign_up(make_member(), evening)
    assert (refused.value.code, message in refused.value.message) == (code, True)
    assert not Registration.objects.exists() and not Notification.objects.exists()


def test_suspended_and_banned_members_cannot_sign_up() -> None:
    evening = make_evening()
    for status in (MembershipStatus.SUSPENDED, MembershipStatus.BANNED):
        member = member_set_status(member=make_member(), status=status)
        with pytest.raises(Refused) as refused:
            sign_up(member, evening)
        assert refused.value.code == RefusalCode.SUSPENDED
    assert not Registration.objects.exists()


def test_an_unknown_evening_is_refused() -> None:
    with pytest.raises(Refused) as refused:
        services.registration_create(member=make_member(), evening_id=999_999, source=WEB)
    assert refused.value.code == RefusalCode.NOT_FOUND


def test_attendance_is_confirmed_by_a_member_with_a_seat_once() -> None:
    evening = make_evening(capacity=1)
    seated, waiting = (r.member for r in sign_up_many(evening, 2))
    first = services.registration_confirm_attendance(member=seated, evening_id=evening.pk)
    again = services.registration_confirm_attendance(member=seated, evening_id=evening.pk)
    assert first.attendance_confirmed_at == again.attendance_confirmed_at is not None
    with pytest.raises(Refused) as refused:
        services.registration_confirm_attendance(member=waiting, evening_id=evening.pk)
    assert refused.value.code == RefusalCode.CONFLICT
    assert refused.value.message.startswith("Подтвердить участие может только")


def test_unconfirmed_seats_go_to_the_reserve_at_the_deadline_when_the_club_says_so() -> None:
    club = Club.current()
    starts_at = timezone.now() + timedelta(hours=10)
    evening = make_evening(capacity=2, starts_at=starts_at)
    a, b, c, d = (r.member for r in sign_up_many(evening, 4))
    services.registration_confirm_attendance(member=a, evening_id=evening.pk)
    at_deadline = starts_at - timedelta(hours=club.confirmation_deadline_hours)

    assert services.evening_release_unconfirmed(evening_id=evening.pk, now=at_deadline) == 0
    assert statuses(evening)[b.nickname] == "confirmed"  # the setting is off by default

    club.release_unconfirmed_seats = True
    club.save()
    early = at_deadline - timedelta(minutes=1)
    assert services.evening_release_unconfirmed(evening_id=evening.pk, now=early) == 0
    assert services.evening_release_unconfirmed(evening_id=evening.pk, now=at_deadline) == 1
    assert statuses(evening) == {
        a.nickname: "confirmed",
        b.nickname: "reserve",
        c.nickname: "confirmed",
        d.nickname: "reserve",
    }
    reserve = list(Registration.objects.reserve().filter(evening=evening))
    assert [r.member for r in reserve] == [d, b]  # b goes to the end
    assert "не подтвердили" in Notification.objects.get(dedupe_key__startswith="released:").text
    assert notes(c)[-1].startswith("promoted:")
    # Once only: a second run (or a catch-up run) changes nothing.
    assert services.evening_release_unconfirmed(evening_id=evening.pk, now=at_deadline) == 0


def test_raising_the_capacity_promotes_at_once_and_lowering_it_unseats_nobody() -> None:
    evening = make_evening(capacity=2)
    members = [r.member for r in sign_up_many(evening, 5)]
    services.evening_set_capacity(evening_id=evening.pk, capacity=4)
    assert [statuses(evening)[m.nickname] for m in members] == [
        "confirmed",
        "confirmed",
        "confirmed",
        "confirmed",
        "reserve",
    ]
    services.evening_set_capacity(evening_id=evening.pk, capacity=1)
    assert Registration.objects.confirmed().filter(evening=evening).count() == 4
    services.registration_cancel(member=members[0], evening_id=evening.pk)
    assert statuses(evening)[members[4].nickname] == "reserve"  # still over the new capacity
    with pytest.raises(Refused):
        services.evening_set_capacity(evening_id=evening.pk, capacity=0)


def test_an_admin_moves_a_member_to_the_front_of_the_reserve() -> None:
    evening = make_evening(capacity=1)
    a, b, c = (r.registration for r in sign_up_many(evening, 3))
    result = services.registration_promote(registration_id=c.pk)
    assert (result.registration.status, result.position) == ("reserve", 1)
    services.registration_cancel(member=a.signed_member, evening_id=evening.pk)
    assert statuses(evening)[c.signed_member.nickname] == "confirmed"
    assert statuses(evening)[b.signed_member.nickname] == "reserve"
    with pytest.raises(Refused):
        services.registration_promote(registration_id=c.pk)


def test_attendance_is_marked_after_the_start() -> None:
    evening = make_evening(capacity=2)
    a, b = (r.registration for r in sign_up_many(evening, 2))
    with pytest.raises(Refused):
        services.registration_mark_attendance(registration_id=a.pk, attended=True)
    later = evening.starts_at + timedelta(hours=1)
    services.registration_mark_attendance(registration_id=a.pk, attended=True, now=later)
    services.registration_mark_attendance(registration_id=b.pk, attended=False, now=later)
    assert sorted(statuses(evening).values()) == ["attended", "no_show"]


def test_members_with_no_shows_go_to_the_reserve_first_when_the_club_says_so() -> None:
    club = Club.current()
    club.noshow_penalty_count, club.noshow_penalty_window = 2, 3
    club.save()
    flaky, reliable = make_member(nickname="Прогульщик"), make_member(nickname="Надёжный")
    for days_ago in (30, 20):
        past = make_evening(
            starts_at=timezone.now() - timedelta(days=days_ago),
            opens_at=timezone.now() - timedelta(days=days_ago + 5),
        )
        Registration.objects.create(
            evening=past, member=flaky, status="no_show", source=WEB, arrival=1
        )
    starts_at = timezone.now() + timedelta(days=2)
    evening = make_evening(capacity=2, starts_at=starts_at)
    held = sign_up(flaky, evening)
    assert (held.registration.status, held.registration.held_back) == ("reserve", True)
    assert sign_up(reliable, evening).seat == 1
    other = make_member()
    assert sign_up(other, evening).seat == 2
    services.registration_cancel(member=other, evening_id=evening.pk)
    assert statuses(evening)["Прогульщик"] == "reserve"  # still before the last call
    last_call = starts_at - timedelta(hours=club.confirmation_deadline_hours)
    promoted = services.evening_fill_seats(evening_id=evening.pk, now=last_call)
    assert [r.member for r in promoted] == [flaky]


def test_evening_create_takes_the_clubs_defaults() -> None:
    starts_at = timezone.now() + timedelta(days=10)
    evening = services.evening_create(starts_at=starts_at)
    assert (evening.venue, evening.capacity) == ("GrandDaddy", 15)
    assert evening.opens_at < evening.starts_at
    with pytest.raises(Refused):
        services.evening_create(starts_at=timezone.now() - timedelta(days=1))
    with pytest.raises(Refused):
        services.evening_create(starts_at=starts_at, opens_at=starts_at + timedelta(hours=1))
