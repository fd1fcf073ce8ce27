"""The club's week under a time machine: each sweep does what is due, once, and nothing
stale after downtime."""

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.utils import timezone

from accounts.models import User
from club import scheduling, services
from club.kernel.clubs import Club
from club.models import Evening, Registration, RegistrationSource
from notifications.models import Notification
from tests.factories import make_member

pytestmark = pytest.mark.django_db
MOSCOW = ZoneInfo("Europe/Moscow")


def at(
    year: int, month: int, day: int, hour: int = 0, minute: int = 0, *, zone: ZoneInfo = MOSCOW
) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=zone)


def sweep(moment: datetime) -> scheduling.SweepReport:
    with time_machine.travel(moment, tick=False):
        return scheduling.schedule_sweep(now=timezone.now())


@pytest.fixture(autouse=True)
def club_group() -> Club:
    club = Club.current()
    club.telegram_group_chat_id = -100500
    club.save()
    return club


def notes(prefix: str) -> int:
    return Notification.objects.filter(dedupe_key__startswith=prefix).count()


def test_a_normal_week() -> None:
    # Monday noon: the next Sunday's evening appears, sign-up opens and is announced.
    report = sweep(at(2026, 11, 30, 12, 0))
    evening = Evening.objects.get()
    assert evening.starts_at == at(2026, 12, 6, 18, 0)
    assert (evening.venue, evening.capacity) == ("GrandDaddy", 15)
    assert evening.opens_at == at(2026, 11, 30, 12, 0)
    assert report.created == report.announced == [evening.pk]
    assert sweep(at(2026, 11, 30, 12, 5)) == scheduling.SweepReport()  # twice: nothing more
    assert notes("announce:signup:") == 1

    members = [make_member(), make_member(), make_member(reminders=False)]
    with time_machine.travel(at(2026, 12, 1, 9, 0), tick=False):
        for member in members:
            services.registration_create(
                member=member, evening_id=evening.pk, source=RegistrationSource.WEB
            )
    # Sunday morning: nothing before 10:00; then the reminders, once.
    assert sweep(at(2026, 12, 6, 9, 30)).reminded == []
    assert sweep(at(2026, 12, 6, 10, 5)).reminded == [evening.pk]
    assert sweep(at(2026, 12, 6, 11, 0)).reminded == []
    assert notes("reminder:") == 2  # the member who switched reminders off gets none
    reminder = Notification.objects.filter(dedupe_key__startswith="reminder:").first()
    assert reminder is not None
    assert reminder.text.startswith("Сегодня вечер игры!")
    assert [b["callback_data"] for b in reminder.buttons[0]] == [
        f"cf:{evening.pk}",
        f"cx:{evening.pk}",
    ]

    # Sunday night, after the evening: finished, the admins are asked to mark no-shows, and
    # the next week's evening is made.
    admin = make_member(is_staff=True, telegram_id=9001)
    report = sweep(at(2026, 12, 6, 22, 30))
    evening.refresh_from_db()
    assert (evening.status, report.finished) == ("finished", [evening.pk])
    assert Notification.objects.filter(
        member=admin, dedupe_key__startswith="mark-no-shows:"
    ).exists()
    assert Evening.objects.filter(starts_at=at(2026, 12, 13, 18, 0)).exists()


def test_unconfirmed_seats_are_released_at_the_deadline_when_the_club_says_so(
    club_group: Club,
) -> None:
    club_group.release_unconfirmed_seats = True
    club_group.save()
    sweep(at(2026, 11, 30, 12, 0))
    evening = Evening.objects.get()
    seated, waiting = make_member(), make_member()
    evening.capacity = 1
    evening.save()
    with time_machine.travel(at(2026, 12, 1, 9, 0), tick=False):
        for member in (seated, waiting):
            services.registration_create(
                member=member, evening_id=evening.pk, source=RegistrationSource.WEB
            )
    assert sweep(at(2026, 12, 6, 14, 59)).released == []
    assert sweep(at(2026, 12, 6, 15, 0)).released == [evening.pk]
    assert Registration.objects.get(member=waiting).status == "confirmed"
    assert Registration.objects.get(member=seated).status == "reserve"
    assert sweep(at(2026, 12, 6, 15, 5)).released == []


def test_a_week_of_beat_downtime_catches_up_once_and_nothing_stale() -> None:
    sweep(at(2026, 11, 30, 12, 0))
    first = Evening.objects.get()
    make_member(is_staff=True, telegram_id=9001)
    report = sweep(at(2026, 12, 14, 12, 0))  # beat was down for two weeks
    first.refresh_from_db()
    assert first.status == "finished" and report.finished == [first.pk]
    assert report.reminded == []  # no reminder for an evening that has happened
    # Only the next evening is made, never the missed one in the past.
    assert list(Evening.objects.order_by("starts_at").values_list("starts_at", flat=True)) == [
        at(2026, 12, 6, 18, 0),
        at(2026, 12, 20, 18, 0),
    ]
    assert notes("announce:signup:") == 2  # the new one, once
    assert sweep(at(2026, 12, 14, 12, 1)) == scheduling.SweepReport()


def test_daylight_saving_keeps_the_local_start(club_group: Club) -> None:
    club_group.timezone = "Europe/Berlin"
    club_group.start_time = time(19, 0)
    club_group.save()
    berlin = ZoneInfo("Europe/Berlin")
    sweep(at(2026, 3, 25, 12, 0, zone=berlin))
    evening = Evening.objects.get()
    assert evening.starts_at.astimezone(berlin) == at(2026, 3, 29, 19, 0, zone=berlin)
    assert evening.starts_at.utcoffset() is None or evening.starts_at.astimezone(
        berlin
    ).utcoffset() == timedelta(hours=2)


def test_year_end() -> None:
    sweep(at(2026, 12, 28, 12, 0))
    assert Evening.objects.get().starts_at == at(2027, 1, 3, 18, 0)


def scheduled_evening_with_a_member() -> tuple[Evening, User]:
    """The evening the schedule makes on Monday, and a member signed up for it on Tuesday."""
    sweep(at(2026, 11, 30, 12, 0))
    evening = Evening.objects.get()
    member = make_member()
    with time_machine.travel(at(2026, 12, 1, 9, 0), tick=False):
        services.registration_create(
            member=member, evening_id=evening.pk, source=RegistrationSource.WEB
        )
    return evening, member


def test_a_cancelled_evening_is_not_made_again_and_its_members_are_told() -> None:
    evening, member = scheduled_evening_with_a_member()
    with time_machine.travel(at(2026, 12, 1, 9, 0), tick=False):
        services.evening_cancel(evening_id=evening.pk)
    assert Registration.objects.get(member=member).status == "cancelled"
    assert Notification.objects.get(dedupe_key__startswith="evening-cancelled:").text.startswith(
        "Вечер отменён"
    )
    sweep(at(2026, 12, 2, 12, 0))
    assert Evening.objects.count() == 1


def test_a_moved_evening_keeps_its_slot_and_its_players() -> None:
    evening, member = scheduled_evening_with_a_member()
    with time_machine.travel(at(2026, 12, 1, 9, 0), tick=False):
        services.evening_move(evening_id=evening.pk, starts_at=at(2026, 12, 5, 19, 0))
    assert Registration.objects.get(member=member).status == "confirmed"
    assert "перенесён" in Notification.objects.get(dedupe_key__startswith="evening-moved:").text
    sweep(at(2026, 12, 2, 12, 0))
    assert Evening.objects.count() == 1


def test_an_extra_evening_added_by_an_admin_is_announced_when_it_opens() -> None:
    with time_machine.travel(at(2026, 12, 1, 9, 0), tick=False):
        extra = services.evening_create(
            starts_at=at(2026, 12, 3, 19, 0), opens_at=at(2026, 12, 2, 12, 0)
        )
    assert extra.pk not in sweep(at(2026, 12, 1, 12, 0)).announced
    assert sweep(at(2026, 12, 2, 12, 0)).announced == [extra.pk]


def test_an_evening_an_admin_put_on_the_slots_day_fills_the_slot() -> None:
    with time_machine.travel(at(2026, 11, 29, 9, 0), tick=False):
        services.evening_create(starts_at=at(2026, 12, 6, 17, 0))
    assert sweep(at(2026, 11, 30, 12, 0)).created == []
    assert Evening.objects.count() == 1
