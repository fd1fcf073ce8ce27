"""Reads shared by the pages, the API and the bot: a fixed number of queries each."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict, cast

from django.db.models import Count, F, Q, QuerySet, Value
from django.db.models.functions import Greatest

from accounts.models import User
from club.models import Evening, Registration, RegistrationStatus, free_seats, place_in_line


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

    def next_reserve_position(self) -> int:
        """Where a sign-up would join the reserve now: a newcomer is not held back and
        arrives last, so RESERVE_ORDER puts them after everyone waiting who is not held back
        (club/seating.py's SQL seats them there)."""
        return sum(1 for r in self.reserve if not r.held_back) + 1


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
