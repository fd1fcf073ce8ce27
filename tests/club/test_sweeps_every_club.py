"""Beat's sweeps on a site with several clubs: each club's work in its own scope, by its own
settings (its time zone, its day and hour), and no club's rows touched by another's sweep.
Beat publishes outside every club: with two clubs, a sweep that forgot the scope would
raise NoClubInScope here."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager as ContextManager
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from club import services, tasks
from club.celery import app
from club.kernel import queueing, tenancy
from club.kernel.clubs import Club, Weekday
from club.kernel.tenancy import club_scope
from club.models import Evening, Registration, RegistrationStatus
from notifications.models import Notification
from tests.factories import make_evening, make_member, sign_up_many

pytestmark = pytest.mark.django_db

UTC = ZoneInfo("UTC")
MOSCOW = ZoneInfo("Europe/Moscow")
VLADIVOSTOK = ZoneInfo("Asia/Vladivostok")
BERLIN = ZoneInfo("Europe/Berlin")


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


@pytest.fixture
def clubs() -> tuple[Club, Club]:
    """The first club in Moscow and a second one in Vladivostok, 7 hours east: both play
    on Sunday at 18:00 local time and have a group for the announcements."""
    first = Club.current()
    first.telegram_group_chat_id = -100500
    first.save()
    second = Club.objects.create(
        slug="east",
        name="East",
        timezone="Asia/Vladivostok",
        weekday=Weekday.SUNDAY,
        start_time=time(18, 0),
        telegram_group_chat_id=-100600,
    )
    return first, second


@pytest.fixture
def inline_publish(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int | None]]:
    """A publish runs its task at once, in the caller's scope (as the worker would open it
    from the header), and is recorded with that scope."""
    published: list[tuple[str, int | None]] = []

    def publish(task_name: str, *args: object, countdown: float | None = None) -> bool:
        published.append((task_name, tenancy.scoped_club_id()))
        app.tasks[task_name](*args)
        return True

    monkeypatch.setattr(queueing, "publish", publish)
    return published


def beat(task_name: str, moment: datetime) -> object:
    """Run a beat entry's task as the worker does for beat: outside every club's scope."""
    assert tenancy.scoped_club_id() is None
    app.loader.import_default_modules()  # every app's tasks, as `celery worker` loads them
    with time_machine.travel(moment, tick=False):
        return app.tasks[task_name]()


def evenings(club: Club) -> list[Evening]:
    return list(Evening.all_clubs.filter(club=club).order_by("starts_at"))


def announced(club: Club) -> list[Notification]:
    return list(Notification.all_clubs.filter(club=club, dedupe_key__startswith="announce:signup:"))


@pytest.mark.usefixtures("inline_publish")
def test_each_club_gets_its_sunday_made_and_announced_at_its_own_local_times(
    clubs: tuple[Club, Club],
) -> None:
    moscow, east = clubs
    # Monday 03:00 UTC: 06:00 in Moscow, 13:00 in Vladivostok. Each club's Sunday is made;
    # sign-up opens at noon local time, so only the eastern club's is announced.
    assert beat("club.tasks.schedule_sweep", utc(2026, 11, 30, 3, 0)) == [moscow.pk, east.pk]
    (west_evening,) = evenings(moscow)
    (east_evening,) = evenings(east)
    assert west_evening.starts_at == datetime(2026, 12, 6, 18, 0, tzinfo=MOSCOW)
    assert east_evening.starts_at == datetime(2026, 12, 6, 18, 0, tzinfo=VLADIVOSTOK)
    assert east_evening.opens_at == datetime(2026, 11, 30, 12, 0, tzinfo=VLADIVOSTOK)
    assert (announced(moscow), [n.chat_id for n in announced(east)]) == ([], [-100600])
    assert "18:00" in announced(east)[0].text

    # Noon in Moscow (09:00 UTC): now the first club's, once; the eastern one not again.
    beat("club.tasks.schedule_sweep", utc(2026, 11, 30, 9, 1))
    assert [n.chat_id for n in announced(moscow)] == [-100500]
    assert "18:00" in announced(moscow)[0].text
    assert len(announced(east)) == 1

    # Sunday 13:00 UTC: the eastern evening (08:00–12:00 UTC) is over and next week's is
    # made; Moscow's starts at 15:00 UTC and is untouched. The eastern club's admin, not
    # the first club's, is asked to mark who came.
    with club_scope(moscow):
        west_admin = make_member(is_staff=True)
    with club_scope(east):
        east_admin = make_member(is_staff=True)
    beat("club.tasks.schedule_sweep", utc(2026, 12, 6, 13, 0))
    asked = Notification.all_clubs.filter(dedupe_key__startswith="mark-no-shows:")
    assert [(n.member_id, n.club_id) for n in asked] == [(east_admin.pk, east.pk)]
    assert west_admin.pk not in {n.member_id for n in asked}
    east_evening.refresh_from_db()
    west_evening.refresh_from_db()
    assert (east_evening.status, west_evening.status) == ("finished", "scheduled")
    assert [e.starts_at for e in evenings(east)] == [
        datetime(2026, 12, 6, 18, 0, tzinfo=VLADIVOSTOK),
        datetime(2026, 12, 13, 18, 0, tzinfo=VLADIVOSTOK),
    ]
    assert len(evenings(moscow)) == 1


@pytest.mark.usefixtures("inline_publish")
def test_each_club_is_swept_in_a_task_of_its_own_queued_in_its_scope(
    clubs: tuple[Club, Club], inline_publish: list[tuple[str, int | None]]
) -> None:
    moscow, east = clubs
    beat("club.tasks.schedule_sweep", utc(2026, 11, 30, 3, 0))
    assert inline_publish == [
        ("club.tasks.club_schedule_sweep", moscow.pk),
        ("club.tasks.club_schedule_sweep", east.pk),
    ]
    # A club's own task outside every scope is refused, not run for a guessed club.
    with pytest.raises(tenancy.NoClubInScope):
        tasks.club_schedule_sweep()


@pytest.mark.usefixtures("inline_publish")
def test_a_club_in_berlin_keeps_18_00_local_across_the_switch_to_summer_time(
    clubs: tuple[Club, Club],
) -> None:
    _moscow, east = clubs
    berlin = Club.objects.create(slug="berlin", name="Berlin", timezone="Europe/Berlin")
    # Summer time begins on Sunday 28 March 2027 at 02:00 in Berlin (01:00 UTC).
    beat("club.tasks.schedule_sweep", utc(2027, 3, 15, 12, 0))
    beat("club.tasks.schedule_sweep", utc(2027, 3, 21, 22, 0))  # the first is over
    made = evenings(berlin)
    assert [e.starts_at.astimezone(BERLIN).time() for e in made] == [time(18, 0)] * 2
    assert [e.starts_at for e in made] == [utc(2027, 3, 21, 17, 0), utc(2027, 3, 28, 16, 0)]
    # The eastern club, without summer time, keeps its 08:00 UTC.
    assert {e.starts_at.astimezone(UTC).time() for e in evenings(east)} == {time(8, 0)}


def leaving(evening: Evening) -> tuple[Registration, Registration]:
    """The evening's one seat, given up with «Не смогу» (its undo window running), and the
    member waiting for it in the reserve."""
    seated, waiting = (result.registration for result in sign_up_many(evening, 2))
    services.registration_cancel(
        member=seated.signed_member,
        evening_id=evening.pk,
        undo_window=services.UNDO_WINDOW,
        now=timezone.now(),
    )
    return seated, waiting


def test_places_are_given_up_in_every_club_each_in_its_own(clubs: tuple[Club, Club]) -> None:
    moscow, east = clubs
    with club_scope(moscow):
        west_places = leaving(make_evening(capacity=1))
    with club_scope(east):
        east_places = leaving(make_evening(capacity=1))
    later = timezone.now() + services.UNDO_WINDOW + timedelta(seconds=1)
    assert beat("club.tasks.registrations_leave_due", later) == 2
    for seated, waiting in (west_places, east_places):
        seated.refresh_from_db()
        waiting.refresh_from_db()
        assert (seated.status, waiting.status) == (
            RegistrationStatus.CANCELLED,
            RegistrationStatus.CONFIRMED,
        )
        # The promotion's message is its club's.
        note = Notification.all_clubs.get(member=waiting.member, dedupe_key__startswith="prom")
        assert note.club_id == seated.club_id
    assert beat("club.tasks.registrations_leave_due", later) == 0


def test_housekeeping_runs_with_several_clubs(clubs: tuple[Club, Club]) -> None:
    beat("club.tasks.housekeeping", timezone.now())


def test_a_task_queued_in_a_transaction_goes_to_the_club_that_asked(
    clubs: tuple[Club, Club],
    inline_publish: list[tuple[str, int | None]],
    django_capture_on_commit_callbacks: Callable[..., ContextManager[object]],
) -> None:
    """The commit may come after the scope closed: the club is the one at the call."""
    _moscow, east = clubs
    with club_scope(east):
        evening = make_evening()
    # The scope closes first, then the transaction commits.
    with (
        django_capture_on_commit_callbacks(execute=True),
        transaction.atomic(),
        club_scope(east),
    ):
        queueing.queue_on_commit("club.tasks.lineup_sync", evening.pk)
    assert inline_publish == [("club.tasks.lineup_sync", east.pk)]


def test_a_sweeps_links_lead_to_the_club_it_works_for(clubs: tuple[Club, Club]) -> None:
    moscow, east = clubs
    links = {club_id: reverse("evening", args=[7]) for club_id in tenancy.each_club()}
    assert links == {moscow.pk: "/evenings/7/", east.pk: "/c/east/evenings/7/"}
    assert reverse("evening", args=[7]) == "/evenings/7/"  # restored after the loop
