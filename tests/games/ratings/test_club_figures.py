"""The club's own figures for its organiser (games/ratings/club_figures.py): each figure
against games built to have it, the door for organisers only, another club's games never
counted, and the same number of queries whatever the history's size."""

from __future__ import annotations

from datetime import datetime, time, timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Role, User
from club.kernel.clubs import Club
from club.kernel.tenancy import club_scope
from club.models import Evening, Guest, Registration, RegistrationSource, RegistrationStatus
from games.ratings.club_figures import MINIMUM_GAMES, club_figures
from tests.factories import make_evening, make_member
from tests.games.ratings.played import BLACK_WINS, game_played
from tests.games.recording import make_host

pytestmark = pytest.mark.django_db


def past_evening(days_ago: int, capacity: int = 15) -> Evening:
    starts_at = timezone.now() - timedelta(days=days_ago)
    return make_evening(
        starts_at=starts_at, opens_at=starts_at - timedelta(days=6), capacity=capacity
    )


@pytest.fixture
def twelve() -> list[User]:
    return [make_member() for _ in range(12)]


def test_attendance_counts_people_per_evening_week_by_week(twelve: list[User]) -> None:
    host = make_host()
    guest = Guest.objects.create(name="Гость")
    monday = timezone.localdate() - timedelta(days=timezone.localdate().weekday() + 7)
    at = timezone.make_aware(datetime.combine(monday, time()))
    first = make_evening(starts_at=at + timedelta(hours=19), opens_at=at - timedelta(days=6))
    second = make_evening(starts_at=at + timedelta(days=2, hours=19), opens_at=at)
    game_played(twelve, host=host, evening=first)
    game_played(twelve, host=host, evening=first)  # the same people twice: still 12
    game_played([*twelve[:11], guest], host=host, evening=second)
    found = club_figures(timezone.localdate())
    (week,) = found.weeks
    assert (week.first_day, week.evenings, week.visits) == (monday, 2, 24)
    assert week.per_evening == 12.0


def test_newcomers_and_who_stopped_coming(twelve: list[User]) -> None:
    host = make_host()
    old = past_evening(100)
    for _ in range(5):
        game_played(twelve, host=host, evening=old)
    newcomer = make_member(nickname="Новичок")
    game_played([newcomer, *twelve[1:]], host=host, evening=past_evening(3))
    found = club_figures(timezone.localdate())
    assert [m.member_id for m in found.newcomers] == [newcomer.pk]
    # twelve[0] played 5 games 100 days ago and not since; the others played 3 days ago.
    assert [(m.member_id, m.games) for m in found.departed] == [(twelve[0].pk, 5)]


def test_red_and_black_wins_by_table_size_and_host(twelve: list[User]) -> None:
    host, other = make_host(nickname="Первый ведущий"), make_host(nickname="Второй")
    evening = past_evening(2)
    for _ in range(MINIMUM_GAMES - 1):
        game_played(twelve, host=host, evening=evening)
    game_played(twelve, host=host, evening=evening, events=BLACK_WINS)
    game_played(twelve, host=other, evening=evening, events=BLACK_WINS)
    found = club_figures(timezone.localdate())
    assert [(o.key, o.games, o.red, o.black) for o in found.by_table_size] == [(12, 6, 4, 2)]
    hosts = {o.key: o for o in found.by_host}
    assert (hosts[host.pk].games, hosts[host.pk].red, hosts[host.pk].black) == (5, 4, 1)
    assert hosts[host.pk].shown and hosts[host.pk].red_percent == 80
    assert not hosts[other.pk].shown  # 1 game of the 5 needed
    assert hosts[other.pk].name == "Второй"


def test_how_full_the_evenings_were_and_how_long_games_take(twelve: list[User]) -> None:
    evening = past_evening(5, capacity=12)
    # 12 seats taken (confirmed, or came), 2 in the reserve, 1 cancelled: as the sign-up
    # left them (a past evening takes no sign-up now).
    statuses = [RegistrationStatus.CONFIRMED] * 6 + [RegistrationStatus.ATTENDED] * 6
    statuses += [RegistrationStatus.RESERVE] * 2 + [RegistrationStatus.CANCELLED]
    Registration.objects.bulk_create(
        Registration(
            member=member, evening=evening, status=status, source=RegistrationSource.WEB,
            arrival=n,
        )
        for n, (member, status) in enumerate(
            zip([*twelve, *(make_member() for _ in range(3))], statuses, strict=True), 1
        )
    )  # fmt: skip
    host = make_host()
    for minutes in (50, 70, 90):
        game_played(twelve, host=host, evening=evening, minutes=minutes)
    found = club_figures(timezone.localdate())
    (full,) = [e for e in found.evenings if e.evening_id == evening.pk]
    assert (full.capacity, full.taken, full.reserve, full.percent) == (12, 12, 2, 100)
    assert [(d.table_size, d.games, d.median_minutes) for d in found.durations] == [(12, 3, 70)]


def test_another_clubs_games_are_never_counted(twelve: list[User]) -> None:
    game_played(twelve, host=make_host(), evening=past_evening(2))
    north = Club.objects.create(slug="north", name="Северный клуб", venue="Маяк")
    with club_scope(north):
        found = club_figures(timezone.localdate())
        assert (found.weeks, found.by_table_size, found.by_host, found.durations) == (
            [],
            [],
            [],
            [],
        )
        assert found.newcomers == [] and found.evenings == []


def test_only_the_clubs_organisers_open_the_page(twelve: list[User]) -> None:
    game_played(twelve, host=make_host(), evening=past_evening(2))
    assert Client().get("/figures/").status_code == 302
    member = Client()
    member.force_login(twelve[0])
    assert member.get("/figures/").status_code == 403
    host = Client()
    host.force_login(make_host())
    assert host.get("/figures/").status_code == 403
    organiser = Client()
    organiser.force_login(make_member(role=Role.ORGANISER))
    page = organiser.get("/figures/")
    assert page.status_code == 200
    assert twelve[0].nickname in page.content.decode()  # a newcomer of two days ago


def queries(client: Client) -> int:
    Club.forget_cached()
    Club.current()
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/figures/").status_code == 200
    return len(captured)


def test_the_page_runs_the_same_queries_whatever_the_history(twelve: list[User]) -> None:
    organiser = Client()
    organiser.force_login(make_member(role=Role.ORGANISER))
    host = make_host()
    game_played(twelve, host=host, evening=past_evening(2))
    few = queries(organiser)
    for days in (3, 10, 17, 40):
        for _ in range(2):
            game_played(twelve, host=make_host(), evening=past_evening(days), events=BLACK_WINS)
    assert queries(organiser) == few
