"""A tournament's frame for its stream overlays (live/overlays.py): which of its games the
overlay follows and the next game's line-up, as a visitor reads them (docs/live.md «Stream
overlays»); its standings are the tournament's live standings' (tournaments/live.py).

The frame is built from the database once per change and kept in the cache under the
tournament's evening's stamp (games/live.py draws a new stamp when a game is seated, begins,
ends, is scored or its spectators setting changes, tournaments.services when the rounds or
the final are seated and when the tournament finishes; games/live_evening.frame_read
rebuilds a frame kept under another stamp), so a poll reads it from the cache.

- **The game followed**: the final's game under way, else the last round's first game under
  way, else the last game begun (its result stays up between the rounds).
- **The next game**: the first table, in the rounds' order, whose game has not begun; its
  seats named as the tournament's seating is published (games.access.may_see_name for a
  visitor; a guest unnamed).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from club.kernel.cache import cache_get, cache_set
from club.kernel.errors import RefusalCode, Refused
from club.kernel.tenancy import club_cache_key
from club.models import Registration
from games import access, live_evening
from games.live_evening import KeptFrame
from tournaments.models import Stage, Table, Tournament

# A tournament's evening never changes: kept a day, one cache read per poll.
EVENING_SECONDS = 24 * 3600


def _key(tournament_id: int) -> str:
    return club_cache_key(f"live:overlay:tournament:{tournament_id}")


def _evening_key(tournament_id: int) -> str:
    return club_cache_key(f"live:overlay:tournament-evening:{tournament_id}")


def _not_found() -> Refused:
    return Refused(_("There is no such tournament."), RefusalCode.NOT_FOUND)


def tournament_evening(tournament_id: int) -> int:
    """The tournament's evening (kept: a poll reads no PostgreSQL)."""
    kept = cache_get(_evening_key(tournament_id))
    if isinstance(kept, int):
        return kept
    evening_id = (
        Tournament.objects.filter(pk=tournament_id).values_list("evening_id", flat=True).first()
    )
    if evening_id is None:
        raise _not_found()
    cache_set(_evening_key(tournament_id), evening_id, EVENING_SECONDS)
    return evening_id


def _named(registration: Registration | None) -> tuple[str | None, bool]:
    """A registration's nickname as a visitor may read it (None: unnamed), and whether it
    is a guest's."""
    if registration is None or registration.member is None:
        return None, True
    shown = access.may_see_name(registration.member, None)
    return (registration.member.nickname if shown else None), False


def _followed(tables: list[Table]) -> int | None:
    begun = [t for t in tables if t.game is not None and t.game.last_seq > 0]
    running = [t for t in begun if t.game is not None and not t.game.finished]
    final = [t for t in running if t.round.stage == Stage.FINAL]
    if final:
        return final[0].game_id
    if running:
        last_round = max(t.round.number for t in running)
        return next(t.game_id for t in running if t.round.number == last_round)
    return begun[-1].game_id if begun else None


def tournament_frame_build(tournament_id: int, stamp: str = "") -> KeptFrame:
    """The tournament's frame from the database (a fixed number of queries)."""
    if not Tournament.objects.filter(pk=tournament_id).exists():
        raise _not_found()
    tables = list(
        Table.objects.filter(round__tournament_id=tournament_id)
        .select_related("round", "game")
        .order_by("round__number", "number")
    )
    waiting = next((t for t in tables if t.game is None or t.game.last_seq == 0), None)
    next_game: dict[str, Any] | None = None
    if waiting is not None:
        by_id = Registration.objects.select_related("member").in_bulk(waiting.players)
        seats = []
        for seat, registration_id in enumerate(waiting.players, 1):
            nick, guest = _named(by_id.get(registration_id))
            seats.append({"no": seat, "nick": nick, "guest": guest})
        next_game = {
            "game": waiting.game_id,
            "number": waiting.number,
            "round": waiting.round.number,
            "seats": seats,
        }
    frame = {"followed": _followed(tables), "next": next_game}
    public = live_evening.variant(frame, [])
    return {"stamp": stamp, "differs": False, "public": public, "members": public}


def tournament_frame(tournament_id: int) -> KeptFrame:
    """The tournament's kept frame, built again once after a change of its evening."""
    return live_evening.frame_read(
        _key(tournament_id),
        tournament_evening(tournament_id),
        lambda stamp: tournament_frame_build(tournament_id, stamp),
    )
