"""Reads shared by the pages, the API and the bot: a fixed number of queries each."""

from dataclasses import dataclass, field

from django.db.models import Count, Q, QuerySet

from accounts.models import User
from club.models import Evening, Registration, RegistrationStatus


@dataclass(frozen=True)
class Lineup:
    """An evening's confirmed members (seat order) and its reserve (promotion order)."""

    confirmed: list[Registration]
    reserve: list[Registration]
    by_member: dict[int, Registration] = field(default_factory=dict)

    def seat_of(self, registration: Registration) -> int | None:
        for seat, confirmed in enumerate(self.confirmed, start=1):
            if confirmed.pk == registration.pk:
                return seat
        return None

    def position_of(self, registration: Registration) -> int | None:
        for position, waiting in enumerate(self.reserve, start=1):
            if waiting.pk == registration.pk:
                return position
        return None


def evening_lineup(evening: Evening) -> Lineup:
    active = list(
        Registration.objects.active()
        .filter(evening=evening)
        .select_related("member")
        .order_by("held_back", "arrival")
    )
    confirmed = sorted(
        (r for r in active if r.status == RegistrationStatus.CONFIRMED), key=lambda r: r.arrival
    )
    reserve = [r for r in active if r.status == RegistrationStatus.RESERVE]
    return Lineup(confirmed, reserve, {r.member_id: r for r in active})


def upcoming_evenings() -> QuerySet[Evening]:
    return Evening.objects.upcoming().annotate(
        confirmed_count=Count(
            "registrations", filter=Q(registrations__status=RegistrationStatus.CONFIRMED)
        )
    )


def member_evenings(member: User) -> QuerySet[Registration]:
    return (
        Registration.objects.filter(member=member)
        .select_related("evening")
        .order_by("-evening__starts_at")
    )
