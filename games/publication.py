"""How a seated member is named to whoever is looking (RULES.md §C).

A member who refused publication is «Игрок N» (their seat) to everyone but themselves, the
game's host and the admins; the same rule serves the game page, the API and the protocol
that the API publishes.
"""

from typing import Any

from django.utils.translation import gettext as _

from games.models import Game, Seat
from games.services import can_record


def visible_nick(seat: Seat, game: Game, viewer: Any) -> str:
    member = seat.member
    if member.publication_consent:
        return member.nickname
    if (
        viewer is not None
        and viewer.is_authenticated
        and (viewer.pk == member.pk or can_record(viewer, game))
    ):
        return member.nickname
    return _("Player %(seat)d") % {"seat": seat.number}


def visible_nicks(seats: list[Seat], game: Game, viewer: Any) -> dict[int, str]:
    return {seat.number: visible_nick(seat, game, viewer) for seat in seats}
