"""Reads shared by the pages, the API and the bot: a fixed number of queries each."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict, cast

from django.db.models import Count, F, Q, QuerySet, Value
from django.db.models.functions import Greatest

from accounts.models import User
from club.models import (
    RESERVE_ORDER,
    Evening,
    Registration,
    RegistrationStatus,
    free_seats,
    place_in_line,
)


class _Place(TypedDict):
    place: int


if TYPE_CHECKING:  # django-stubs' name for a model read with annotations (a dev package)
    from django_stubs_ext import WithAnnotations

    # A registration read with its place (club.models.place_in_line).
    type Placed = WithAnnotations[Registration, _Place]


@dataclass(frozen=True)
class Lineup:
    """An evening's confirmed members (seat order) and its reserve (promotion order), each
    registration carrying its `place` (Registration.objects.with_place)."""

    confirmed: list[Placed]
    reserve: list[Placed]
    by_member: dict[int, Placed] = field(default_factory=dict)

    def seat_of(self, registration: Registration) -> int | None:
        """The member's seat number: the one definition every text uses."""
        return _place_in(self.confirmed, registration)

    def position_of(self, registration: Registration) -> int | None:
        """The member's position in the reserve, from 1."""
        return _place_in(self.reserve, registration)

    def seats_left(self, capacity: int) -> int:
        return free_seats(capacity, len(self.confirmed))

    def next_reserve_position(self, *, held_back: bool = False) -> int:
        """Where a sign-up would join the reserve now: a newcomer arrives last, and
        RESERVE_ORDER places them among those waiting."""
        newcomer = self._newcomer(held_back)
        return 1 + sum(1 for r in self.reserve if reserve_key(r) < newcomer)

    def prospect(
        self,
        capacity: int,
        *,
        held_back: bool,
        held_back_sits: bool,
        started: bool = False,
        awaiting: bool = False,
    ) -> Prospect:
        """What a sign-up would get now, as club/seating.py's SQL decides it (the page says
        it before the press; tests/club/test_places.py proves the two agree): a seat when
        the newcomer may sit now (not held back, or `held_back_sits`: the last call has
        come, club.services.held_back_sits) and a seat is free beyond those the reserve
        waiting ahead of them may take now; else the reserve (always for a visitor
        `awaiting` an organiser's approval, who holds no claim while waiting either)."""
        newcomer = self._newcomer(held_back)
        claims = (
            0
            if started  # after the start the reserve holds no claim on a freed seat
            else sum(
                1
                for r in self.reserve
                if reserve_key(r) < newcomer
                and (not r.held_back or held_back_sits)
                and not r.awaiting_approval
            )
        )
        sits = not awaiting and (not held_back or held_back_sits)
        if sits and self.seats_left(capacity) > claims:
            return Prospect(seat=len(self.confirmed) + 1, position=None)
        return Prospect(seat=None, position=self.next_reserve_position(held_back=held_back))

    def promoting(self, promoted: Sequence[Placed]) -> Lineup:
        """The line-up once `promoted` (of this reserve) are seated, as a fresh read would
        number it (club.models.place_in_line: seats in arrival order, the reserve in
        RESERVE_ORDER, a tie by id), without reading it again: a promotion reads the line-up
        once. The rows are renumbered in place (their `place`), the promoted marked
        confirmed."""
        moving = {registration.pk for registration in promoted}
        for registration in promoted:
            registration.status = RegistrationStatus.CONFIRMED
        confirmed = sorted([*self.confirmed, *promoted], key=lambda r: (r.arrival, r.pk))
        reserve = [r for r in self.reserve if r.pk not in moving]
        _renumber(confirmed)
        _renumber(reserve)
        return Lineup(confirmed, reserve, self.by_member)

    def to_the_front(self, registration: Placed) -> Lineup:
        """The line-up once `registration` (of this reserve) went to the reserve's front
        (club.services.registration_promote): renumbered in place, as `promoting`."""
        reserve = [registration, *(r for r in self.reserve if r.pk != registration.pk)]
        _renumber(reserve)
        return Lineup(self.confirmed, reserve, self.by_member)

    def _newcomer(self, held_back: bool) -> tuple[Any, ...]:
        last = max((r.arrival for r in [*self.confirmed, *self.reserve]), default=0)
        return reserve_key(Registration(held_back=held_back, arrival=last + 1))


def _renumber(line: list[Placed]) -> None:
    """Each row's `place` from 1, in the line's order."""
    for place, registration in enumerate(line, start=1):
        registration.place = place


@dataclass(frozen=True)
class Prospect:
    """Where a sign-up would land: a seat (its number) or the reserve (its position)."""

    seat: int | None
    position: int | None


def reserve_key(registration: Registration) -> tuple[Any, ...]:
    """A waiting registration's place in the reserve's order (club.models.RESERVE_ORDER)
    as a sort key, for rows already read: the order's one statement in Python."""
    return tuple(getattr(registration, name) for name in RESERVE_ORDER)


@dataclass(frozen=True)
class Attendance:
    """Who is at an evening that has started, in the order of its list: those who came
    when the door was kept (`came`: someone was checked in or marked attended, as
    club.lineup.evening_settle_attendance reads it), else everyone on the list."""

    came: bool
    members: list[User]
    guests: int  # a guest is counted, never named (club.Guest)


def evening_attendance(evening: Evening | int) -> Attendance:
    """One query: the evening's seated places (confirmed or attended, but for those who
    left), narrowed to those who came once anyone has been checked in."""
    seated = list(
        Registration.objects.filter(
            evening=evening,
            status__in=[RegistrationStatus.CONFIRMED, RegistrationStatus.ATTENDED],
            left_at__isnull=True,
        )
        .select_related("member")
        .order_by("arrival")
    )
    came = [
        r for r in seated if r.checked_in_at is not None or r.status == RegistrationStatus.ATTENDED
    ]
    here = came or seated
    return Attendance(
        came=bool(came),
        members=[r.member for r in here if r.member is not None],
        guests=sum(1 for r in here if r.member is None),
    )


@dataclass(frozen=True)
class AtTheTables:
    """Where the person of one of an evening's registrations sits in its games."""

    playing: int | None  # the number of the running game they are seated in
    played: bool  # seated in one of the evening's games, running or over


# games.models.GameStatus.RUNNING, as the games' table stores it (club imports no games).
_RUNNING = "running"


def at_the_tables(registration: Registration) -> AtTheTables:
    """One query: the evening's games the registration's member or guest is seated in. It
    reads the games' seats through their relations to the club's rows (an evening's
    `games`, a seat's member or guest), as the rooms allow: club is below games and
    imports nothing of it."""
    person = (
        Q(games__seats__member_id=registration.member_id)
        if registration.member_id is not None
        else Q(games__seats__guest_id=registration.guest_id)
    )
    games = list(
        Evening.objects.filter(person, pk=registration.evening_id).values_list(
            "games__number", "games__status"
        )
    )
    playing = next((number for number, status in games if status == _RUNNING), None)
    return AtTheTables(playing=playing, played=bool(games))


def _place_in(line: list[Placed], registration: Registration) -> int | None:
    found = next((r for r in line if r.pk == registration.pk), None)
    return found.place if found is not None else None


def evening_lineup(evening: Evening | int) -> Lineup:
    """One query: the evening's active registrations, each with its place."""
    # django-stubs loses the annotation across the custom queryset's methods: say it here.
    active = cast(
        "list[Placed]",
        list(
            Registration.objects.active()
            .filter(evening=evening)
            .annotate(place=place_in_line())
            .select_related("member", "guest")
            .order_by("place")
        ),
    )
    confirmed = [r for r in active if r.status == RegistrationStatus.CONFIRMED]
    reserve = [r for r in active if r.status == RegistrationStatus.RESERVE]
    return Lineup(confirmed, reserve, {r.member_id: r for r in active if r.member_id is not None})


def upcoming_evenings() -> QuerySet[Evening]:
    """The next evenings with their seats taken and left and the reserve's length. Its
    `seats_left` is free_seats in SQL (tests/club/test_places.py proves the two agree)."""
    return Evening.objects.upcoming().annotate(
        confirmed_count=Count(
            "registrations", filter=Q(registrations__status=RegistrationStatus.CONFIRMED)
        ),
        reserve_count=Count(
            "registrations", filter=Q(registrations__status=RegistrationStatus.RESERVE)
        ),
        seats_left=Greatest(F("capacity") - F("confirmed_count"), Value(0)),
    )


def member_evenings(member: User, limit: int = 50) -> list[tuple[Registration, int | None]]:
    """The member's newest `limit` sign-ups, newest evening first, each with its place (its
    seat number or reserve position, None when neither) as the evening's line-up numbers
    it. Two queries: the window numbers whole evenings, so it reads their active rows."""
    mine = list(
        Registration.objects.filter(member=member)
        .select_related("evening")
        .order_by("-evening__starts_at")[:limit]
    )
    places = dict(
        Registration.objects.active()
        .filter(evening__in=[r.evening_id for r in mine])
        .annotate(place=place_in_line())
        .values_list("pk", "place")
    )
    return [(registration, places.get(registration.pk)) for registration in mine]
