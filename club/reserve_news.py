"""Members waiting in the reserve hear of their moves up when it matters: once, as they
come within the club's `reserve_news_within` places of the front (default: the first
three), not at every move. A member who gets a seat is told so by the promotion itself
(club.services.fill_seats), with their number on the list.

A change to the reserve reads the positions before it (`positions`) and, once made, tells
whoever crossed the line (`tell_moved_up`); both run under the evening's lock. The dedupe
key is the member's place in the queue (registration and arrival), so a member is told once
however many changes move them, and a sign-up that lands within the first places is told
by its own confirmation, never again here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from accounts.languages import speaking_to
from accounts.models import User
from club import texts
from club.kernel.clubs import Club
from club.models import Evening
from club.queries import evening_lineup
from notifications.services import notification_enqueue

if TYPE_CHECKING:
    from club.queries import Placed


def positions(evening: Evening, reserve: Sequence[Placed] | None = None) -> dict[int, int]:
    """Each waiting registration's reserve position, by registration id: of `reserve` (the
    reserve as the caller read it), else read (one query)."""
    return {
        r.pk: r.place for r in (evening_lineup(evening).reserve if reserve is None else reserve)
    }


def tell_moved_up(
    evening: Evening,
    before: dict[int, int],
    club: Club,
    reserve: Sequence[Placed] | None = None,
) -> list[User]:
    """Tell every member who was waiting further back than the line and is within it now:
    in `reserve` (the reserve as it stands now, when the caller has it: a promotion's,
    club.queries.Lineup.promoting), else as read. Returns the members told (new rows or
    not)."""
    line = club.reserve_news_within
    if not line:
        return []
    told = []
    for registration in evening_lineup(evening).reserve if reserve is None else reserve:
        was = before.get(registration.pk)
        member = registration.member  # a guest has no channel to be told by
        if member is None or was is None or was <= line or registration.place > line:
            continue
        with speaking_to(member):
            notification_enqueue(
                dedupe_key=f"reserve-up:{registration.pk}:{registration.arrival}",
                member=member,
                text=texts.reserve_moved_up(
                    position=registration.place, when=texts.evening_when(evening, club)
                ),
                link=texts.evening_link(evening),
            )
        told.append(member)
    return told
