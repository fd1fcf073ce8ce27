"""Reads shared by the pages, the API and the bot: a fixed number of queries each."""

from dataclasses import dataclass, field
from operator import attrgetter

from django.db.models import Count, F, IntegerField, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import Coalesce, Greatest

from accounts.models import User
from club.models import RESERVE_ORDER, SEAT_ORDER, Evening, Registration, RegistrationStatus


@dataclass(frozen=True)
class Lineup:
    """An evening's confirmed members (seat order) and its reserve (promotion order)."""

    confirmed: list[Registration]
    reserve: list[Registration]
    by_member: dict[int, Registration] = field(default_factory=dict)

    def seat_of(self, registration: Registration) -> int | None:
        """The member's seat number: the one definition every text uses."""
        return _place(self.confirmed, registration)

    def position_of(self, registration: Registration) -> int | None:
        """The member's position in the reserve, from 1."""
        return _place(self.reserve, registration)

    def seats_left(self, capacity: int) -> int:
        """The free seats (upcoming_evenings' `seats_left` is its SQL twin)."""
        return max(capacity - len(self.confirmed), 0)

    def next_reserve_position(self) -> int:
        """Where a sign-up would join the reserve now: after everyone waiting, before the
        members held back for a no-show (RESERVE_ORDER)."""
        return sum(1 for r in self.reserve if not r.held_back) + 1


def _place(ordered: list[Registration], registration: Registration) -> int | None:
    return next((n for n, r in enumerate(ordered, start=1) if r.pk == registration.pk), None)


def evening_lineup(evening: Evening | int) -> Lineup:
    """One query: the evening's active registrations in the line-up's order."""
    active = list(Registration.objects.active().filter(evening=evening).select_related("member"))
    confirmed = sorted(
        (r for r in active if r.status == RegistrationStatus.CONFIRMED),
        key=attrgetter(*SEAT_ORDER),
    )
    reserve = sorted(
        (r for r in active if r.status == RegistrationStatus.RESERVE),
        key=attrgetter(*RESERVE_ORDER),
    )
    return Lineup(confirmed, reserve, {r.member_id: r for r in active})


def upcoming_evenings() -> QuerySet[Evening]:
    """The next evenings with their seats taken and left and the reserve's length."""
    return Evening.objects.upcoming().annotate(
        confirmed_count=Count(
            "registrations", filter=Q(registrations__status=RegistrationStatus.CONFIRMED)
        ),
        reserve_count=Count(
            "registrations", filter=Q(registrations__status=RegistrationStatus.RESERVE)
        ),
        seats_left=Greatest(F("capacity") - F("confirmed_count"), Value(0)),
    )


def _ahead_in(order: tuple[str, ...]) -> Q:
    """Rows before the outer row in `order`, compared field by field (a tuple's order)."""
    ahead = Q(pk__in=[])
    for index, name in enumerate(order):
        same = {earlier: OuterRef(earlier) for earlier in order[:index]}
        ahead |= Q(**same, **{f"{name}__lt": OuterRef(name)})
    return ahead


def _place_among(order: tuple[str, ...], status: RegistrationStatus) -> CombinedExpression:
    """The outer registration's place (from 1) among its evening's `status` rows in
    `order`: the SQL twin of Lineup.seat_of / position_of."""
    ahead = (
        Registration.objects.filter(_ahead_in(order), evening=OuterRef("evening"), status=status)
        .order_by()
        .values("evening")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return Coalesce(Subquery(ahead, output_field=IntegerField()), Value(0)) + 1


def member_evenings(member: User) -> QuerySet[Registration]:
    """The member's sign-ups, newest evening first; each carries `seat_number` (its number
    on the list of the confirmed, SEAT_ORDER) and `reserve_position` (RESERVE_ORDER), as
    Lineup counts them; only the one of its own status means anything."""
    return (
        Registration.objects.filter(member=member)
        .select_related("evening")
        .annotate(
            seat_number=_place_among(SEAT_ORDER, RegistrationStatus.CONFIRMED),
            reserve_position=_place_among(RESERVE_ORDER, RegistrationStatus.RESERVE),
        )
        .order_by("-evening__starts_at")
    )
