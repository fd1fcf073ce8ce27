"""The organiser's actions racing members' own sign-ups on PostgreSQL, each thread on its
own connection: the evening's lock keeps the seats from being oversold, the reserve moves
up in its order (but for the organiser's deliberate moves), each promotion happens once,
and each member is told once of each thing."""

import contextlib
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import User
from club import lineup, services
from club.kernel.clubs import Club
from club.kernel.errors import Refused
from club.models import (
    Evening,
    LineupAction,
    LineupChange,
    Registration,
    RegistrationSource,
    RegistrationStatus,
)
from notifications.models import Notification
from tests.club.test_registration_concurrency import Watch
from tests.factories import make_evening, make_member, sign_up_many
from tests.games.recording import make_host

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]


def on_own_connection(work: Callable[[], object]) -> Callable[[], object]:
    """`work` in a thread with a database connection of its own, closed after."""

    def run() -> object:
        try:
            return work()
        finally:
            connection.close()

    return run


def sign_up(member: User, evening: Evening, start: threading.Barrier) -> Callable[[], object]:
    def work() -> object:
        start.wait()
        return services.registration_create(
            member=member, evening_id=evening.pk, source=RegistrationSource.WEB
        )

    return on_own_connection(work)


def check_the_evening(evening: Evening, moved: set[int]) -> None:
    """0 oversold, no free seat beside a waiting reserve, FIFO but for the organiser's moves,
    each promotion told once, each member told once of their place."""
    evening.refresh_from_db()
    rows = list(Registration.objects.filter(evening=evening).select_related("member"))
    confirmed = [r for r in rows if r.status == RegistrationStatus.CONFIRMED]
    reserve = [r for r in rows if r.status == RegistrationStatus.RESERVE]
    assert len(confirmed) <= evening.capacity
    assert not reserve or len(confirmed) == evening.capacity
    promoted = [r for r in confirmed if r.promoted_at is not None and r.pk not in moved]
    reserve = [r for r in reserve if r.pk not in moved]
    if promoted and reserve:
        # Everyone the reserve promoted by itself arrived before everyone still waiting.
        assert max(r.arrival for r in promoted) < min(r.arrival for r in reserve)
    keys = Counter(Notification.objects.values_list("dedupe_key", flat=True))
    assert all(count == 1 for count in keys.values())
    for registration in promoted:
        assert keys[f"promoted:{registration.pk}:{registration.arrival}"] == 1
    for registration in reserve:
        assert not [k for k in keys if k.startswith(f"promoted:{registration.pk}:")]
    told = Counter(
        member_id
        for member_id, key in Notification.objects.values_list("member_id", "dedupe_key")
        if key.split(":")[0] in ("seat", "reserve")
    )
    members = {r.member_id for r in rows if r.member_id is not None}
    assert set(told) <= members
    assert all(count == 1 for count in told.values())


def test_the_organiser_s_actions_race_sign_ups_without_overselling_or_jumping_the_queue() -> None:
    club = Club.current()
    host = make_host()
    evening = make_evening(
        capacity=club.min_players,
        starts_at=timezone.now() + timedelta(hours=2),
        opens_at=timezone.now() - timedelta(days=1),
    )
    early = [s.registration for s in sign_up_many(evening, 2 * club.min_players)]
    newcomers = [make_member() for _ in range(16)]
    walk_ins = [make_member() for _ in range(2)]
    start = threading.Barrier(len(newcomers) + 1)
    moved: set[int] = set()

    def organise() -> object:
        start.wait()
        for registration in early[:3]:
            lineup.lineup_remove(registration_id=registration.pk, reason="no_show", actor=host)
        for member in walk_ins:
            lineup.lineup_add_member(evening_id=evening.pk, member_id=member.pk, actor=host)
        lineup.lineup_add_guest(evening_id=evening.pk, name="Мария", of_age=True, actor=host)
        lineup.evening_open_second_table(evening_id=evening.pk, actor=host)
        last = Registration.objects.reserve().filter(evening=evening).last()
        if last is not None:
            moved.add(
                lineup.lineup_move_to_seat(registration_id=last.pk, actor=host).registration.pk
            )
        lineup.lineup_remove(registration_id=early[5].pk, reason="by_phone", actor=host)
        return None

    with Watch(evening.pk) as watch, ThreadPoolExecutor(max_workers=len(newcomers) + 1) as pool:
        futures = [pool.submit(sign_up(member, evening, start)) for member in newcomers]
        futures.append(pool.submit(on_own_connection(organise)))
        for future in futures:
            future.result()
    evening.refresh_from_db()
    assert evening.capacity == 2 * club.min_players
    assert watch.max_confirmed <= evening.capacity
    check_the_evening(evening, moved)
    changes = Counter(LineupChange.objects.values_list("action", flat=True))
    assert changes[LineupAction.SECOND_TABLE] == 1 and changes[LineupAction.REMOVED] == 4


def test_two_organisers_open_the_second_table_once_while_members_sign_up() -> None:
    club = Club.current()
    hosts = [make_host(), make_host()]
    evening = make_evening(
        capacity=club.min_players,
        starts_at=timezone.now() + timedelta(hours=2),
        opens_at=timezone.now() - timedelta(days=1),
    )
    sign_up_many(evening, 2 * club.min_players)
    newcomers = [make_member() for _ in range(12)]
    start = threading.Barrier(len(newcomers) + len(hosts))
    opened: list[int] = []

    def open_table(host: User) -> Callable[[], object]:
        def work() -> object:
            start.wait()
            with contextlib.suppress(Refused):  # the other organiser was first
                opened.append(
                    len(lineup.evening_open_second_table(evening_id=evening.pk, actor=host))
                )
            return None

        return on_own_connection(work)

    with ThreadPoolExecutor(max_workers=start.parties) as pool:
        futures = [pool.submit(sign_up(member, evening, start)) for member in newcomers]
        futures += [pool.submit(open_table(host)) for host in hosts]
        for future in futures:
            future.result()
    assert len(opened) == 1
    check_the_evening(evening, set())


def test_a_message_and_check_ins_racing_sign_ups_tell_each_member_once() -> None:
    host = make_host()
    evening = make_evening(
        capacity=12,
        starts_at=timezone.now() + timedelta(hours=2),
        opens_at=timezone.now() - timedelta(days=1),
    )
    seated = [s.registration for s in sign_up_many(evening, 12)]
    newcomers = [make_member() for _ in range(12)]
    start = threading.Barrier(len(newcomers) + 2)
    reaches: list[lineup.Reach] = []

    def message() -> object:
        start.wait()
        reaches.append(
            lineup.evening_message(
                evening_id=evening.pk, text="Начинаем в 18:30", actor=host, include_reserve=True
            )
        )
        return None

    def door() -> object:
        start.wait()
        for registration in seated:
            lineup.lineup_check_in(registration_id=registration.pk, actor=host)
        return None

    with ThreadPoolExecutor(max_workers=start.parties) as pool:
        futures = [pool.submit(sign_up(member, evening, start)) for member in newcomers]
        futures += [pool.submit(on_own_connection(message)), pool.submit(on_own_connection(door))]
        for future in futures:
            future.result()
    (reach,) = reaches
    change = LineupChange.objects.get(action=LineupAction.MESSAGE)
    keys = list(
        Notification.objects.filter(
            dedupe_key__startswith=f"evening-message:{change.pk}:"
        ).values_list("member_id", flat=True)
    )
    assert len(keys) == len(set(keys)) == reach.members
    assert reach.members >= 12  # the seated at least; newcomers as the lock ordered them
    assert Registration.objects.filter(evening=evening, checked_in_at__isnull=False).count() == 12
    check_the_evening(evening, set())


def test_two_organisers_take_one_removal_back_once_while_members_sign_up_for_its_seat() -> None:
    """The freed seat is raced by sign-ups and by two «Вернуть» at once: the place comes back
    once (a seat if it was still free, else the reserve's front), nobody is oversold, and
    the member is told once that they are back."""
    hosts = [make_host(), make_host()]
    evening = make_evening(
        capacity=12,
        starts_at=timezone.now() + timedelta(hours=2),
        opens_at=timezone.now() - timedelta(days=1),
    )
    seated = [s.registration for s in sign_up_many(evening, 12)]
    lineup.lineup_remove(registration_id=seated[3].pk, reason="no_show", actor=hosts[0])
    change = LineupChange.objects.get(action=LineupAction.REMOVED)
    newcomers = [make_member() for _ in range(8)]
    start = threading.Barrier(len(newcomers) + len(hosts))
    restored: list[lineup.Restored] = []

    def take_back(host: User) -> Callable[[], object]:
        def work() -> object:
            start.wait()
            with contextlib.suppress(Refused):  # the other organiser was first
                restored.append(
                    lineup.lineup_remove_undo(
                        registration_id=seated[3].pk, change_id=change.pk, actor=host
                    )
                )
            return None

        return on_own_connection(work)

    with Watch(evening.pk) as watch, ThreadPoolExecutor(max_workers=start.parties) as pool:
        futures = [pool.submit(sign_up(member, evening, start)) for member in newcomers]
        futures += [pool.submit(take_back(host)) for host in hosts]
        for future in futures:
            future.result()
    (back,) = restored
    assert watch.max_confirmed <= evening.capacity
    place = Registration.objects.get(pk=seated[3].pk)
    if back.undone_as == lineup.UndoneAs.SEAT:
        assert place.status == RegistrationStatus.CONFIRMED
    else:  # a newcomer was first to the seat: they keep it, the place waits first
        assert back.undone_as == lineup.UndoneAs.RESERVE_FRONT and back.place == 1
        first = Registration.objects.reserve().filter(evening=evening).first()
        assert first is not None and first.pk == place.pk
    check_the_evening(evening, {place.pk})
    (restoration,) = LineupChange.objects.filter(action=LineupAction.RESTORED)
    told = Notification.objects.filter(member=place.member, dedupe_key__startswith="restored:")
    assert list(told.values_list("dedupe_key", flat=True)) == [
        f"restored:{place.pk}:{restoration.pk}"
    ]
