"""Online games as the club plays them between Sundays (RULES.md §D): the platform runs the
game, the host only moderates.

A host creates a game for ten members; the roles are dealt at once and told privately (the
mafia learn each other and get a chat for the 30 minutes before the start). Every action,
a player's or the host's, is a protocol event appended to the game's log under the game's
row lock and judged by the online engine (games/rules/online/, through log.append); what
follows it, and the schedule, is sweep.py's; what the players are told, announce.py's; what
each may see, table.py's.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import roles
from accounts.models import User
from accounts.services import refuse_unless_active, refuse_unless_may_play
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from club.kernel.parsing import storable_text
from games import access
from games.models import Game, Ruleset, Seat
from games.online import announce, texts
from games.online.log import append
from games.online.models import MafiaMessage, OnlineTable
from games.online.sweep import after_action
from games.online.table import Table, online_table
from games.protocols import next_online_number, protocol_read, protocol_store
from games.rules.errors import ProtocolError
from games.rules.online import BLACK_ROLES, LINEUP, OnlineOptions, Reason
from games.rules_text import rule_refused

PLAYERS = sum(LINEUP.values())
MAFIA_CHAT = timedelta(minutes=30)
# RULES.md §D: a modkill for inactivity is announced at least this long before the night.
INACTIVITY_NOTICE = timedelta(minutes=30)
FAST_NIGHT_MINUTES = (5, 10)  # «через 5 (или 10) минут наступит фаст-ночь»
PLAYER_ACTIONS = {"vote", "fast", "unfast", "post", "revote", "shot", "don_check", "com_check"}
HOST_ACTIONS = {"warning", "modkill", "extend", "day_end", "night_end"}
# The field of each player action that names the player's own seat.
OWN_SEAT = {
    "vote": "voter",
    "fast": "voter",
    "unfast": "voter",
    "revote": "voter",
    "post": "seat",
    "shot": "by",
}


# --- creating a game -------------------------------------------------------------------


def online_game_create(
    *,
    host: User,
    member_ids: list[int],
    starts_at: datetime,
    day_minutes: int = 720,
    night_minutes: int = 240,
    fast_night_minutes: int = 5,
    options: Mapping[str, Any] | None = None,
    rng: random.Random | None = None,
) -> Game:
    access.refuse_unless_may_host(host)
    if len(member_ids) != PLAYERS or len(set(member_ids)) != PLAYERS:
        raise Refused(_("An online game is for ten different members."), RefusalCode.INVALID)
    access.refuse_host_at_table(host, member_ids)
    if not 10 <= day_minutes <= 7 * 24 * 60 or not 10 <= night_minutes <= 7 * 24 * 60:
        raise Refused(_("A phase lasts from 10 minutes to a week."), RefusalCode.INVALID)
    if fast_night_minutes not in FAST_NIGHT_MINUTES:
        raise Refused(
            _("The fast night comes 5 or 10 minutes after the fast."), RefusalCode.INVALID
        )
    try:
        readings = OnlineOptions.from_dict(options or {})
    except ProtocolError as error:
        raise rule_refused(error) from error
    if starts_at < timezone.now() - timedelta(minutes=1):
        raise Refused(_("The start is in the past."), RefusalCode.INVALID)
    members = {m.pk: m for m in roles.club_members().filter(pk__in=member_ids)}
    if len(members) != PLAYERS:
        raise Refused(_("Some of the invited are not members of the club."), RefusalCode.INVALID)
    club = Club.current()
    day = timezone.localdate(starts_at, club.zone)  # the member's age on the club's date
    for member in members.values():
        refuse_unless_may_play(member, on=day, club=club)
    rng = rng or random.SystemRandom()
    cards = [role for role, count in LINEUP.items() for _ in range(count)]
    rng.shuffle(cards)
    order = list(member_ids)
    rng.shuffle(order)
    with transaction.atomic():
        number = next_online_number()
        game = Game.objects.create(
            evening=None,
            number=number,
            host=host,
            ruleset=Ruleset.ONLINE,
            options=readings.to_dict(),
            lineup=dict(LINEUP),
        )
        seats = Seat.objects.bulk_create(
            Seat(game=game, number=n, member=members[m], role=role)
            for n, (m, role) in enumerate(zip(order, cards, strict=True), start=1)
        )
        OnlineTable.objects.create(
            game=game,
            starts_at=starts_at,
            day_minutes=day_minutes,
            night_minutes=night_minutes,
            fast_night_minutes=fast_night_minutes,
            deadline_at=starts_at,
        )
        _tell_the_deal(game, seats, members, starts_at)
    return game


def _tell_the_deal(
    game: Game, seats: list[Seat], members: dict[int, User], starts_at: datetime
) -> None:
    """Each player's card, in private; a mafioso's with the seats of their partners."""
    mafia = [s for s in seats if s.role in BLACK_ROLES]
    for seat in seats:
        partners = [f"{s.number}. {s.player.nickname}" for s in mafia if s != seat]
        announce.tell(
            game,
            seat.player,
            f"deal:{seat.number}",
            partial(
                texts.online_dealt,
                number=game.number,
                seat=seat.number,
                role=seat.role,
                starts_at=starts_at,
                partners=partners if seat.role in BLACK_ROLES else [],
            ),
        )


# --- acting --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Acted:
    """An action taken: the table after it, and what it did and what remains in words."""

    table: Table
    event: Mapping[str, Any]  # as the engine took it (the player's own seat filled in)
    answer: str


def online_act(*, game_id: int, user: User, event: Mapping[str, Any]) -> Acted:
    """A player's or the host's action, as a protocol event judged by the engine."""
    refuse_unless_active(user)
    if not isinstance(event, Mapping) or not isinstance(event.get("type"), str):
        raise Refused(_("An action is an object with a type."), RefusalCode.INVALID)
    kind = event["type"]
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id, ruleset=Ruleset.ONLINE).first()
        if game is None:
            raise Refused(_("There is no such game."), RefusalCode.NOT_FOUND)
        found = online_table(game.pk)
        assert found is not None
        shaped = dict(event)
        if kind in PLAYER_ACTIONS:
            seat = found.seat_of(user)
            if seat is None:
                raise Refused(_("Only the game's players act in it."), RefusalCode.FORBIDDEN)
            if kind in OWN_SEAT:
                shaped[OWN_SEAT[kind]] = seat.number  # a player acts for their own seat only
            if kind in ("don_check", "com_check"):
                needed = "don" if kind == "don_check" else "commissar"
                if seat.role != needed:
                    raise Refused(_("That check is not yours to make."), RefusalCode.FORBIDDEN)
        elif kind in HOST_ACTIONS:
            if not found.runs(user):
                raise Refused(_("Only the game's host moderates it."), RefusalCode.FORBIDDEN)
        else:
            raise Refused(_("That is not an action of the online game."), RefusalCode.INVALID)
        _refuse_late_inactivity_modkill(found, shaped, timezone.now())
        resolutions, out_before = found.state.resolutions, len(found.state.eliminated)
        append(found, shaped, user)
        state = found.state
        after_action(
            found,
            kind,
            shaped,
            # The host closed a phase, everyone fasted, or a catastrophe round is complete.
            resolved=state.resolutions > resolutions,
            removed=[
                e.seat
                for e in state.eliminated[out_before:]
                if e.reason in (Reason.MODKILL, Reason.WARNINGS)
            ],
        )
        nick = {s.number: s.player.nickname for s in found.seats}
        return Acted(found, shaped, texts.online_answer(state, shaped, nick))


def _refuse_late_inactivity_modkill(found: Table, event: Mapping[str, Any], now: datetime) -> None:
    """A modkill for inactivity is announced at least 30 minutes before the night: later,
    only with the host's reason for the exception (`override`)."""
    if event.get("type") != "modkill" or event.get("inactivity") is not True:
        return
    state, night_at = found.state, found.table.deadline_at
    if state.phase.value != "day" or not state.open or night_at is None:
        return
    override = event.get("override")
    if night_at - now >= INACTIVITY_NOTICE or (isinstance(override, str) and override.strip()):
        return
    raise Refused(
        _(
            "A modkill for inactivity comes at least 30 minutes before the night; "
            "to make an exception, give the reason."
        ),
        RefusalCode.LATE_MODKILL,
    )


def online_mafia_say(*, game_id: int, user: User, text: str) -> None:
    refuse_unless_active(user)
    found = online_table(game_id)
    if found is None:
        raise Refused(_("There is no such game."), RefusalCode.NOT_FOUND)
    seat = found.seat_of(user)
    if seat is None or seat.role not in BLACK_ROLES:
        raise Refused(_("The chat is the mafia's."), RefusalCode.FORBIDDEN)
    now = timezone.now()
    if not found.table.starts_at - MAFIA_CHAT <= now < found.table.starts_at:
        raise Refused(
            _("The mafia's chat is open for the 30 minutes before the start."), RefusalCode.CONFLICT
        )
    text = (text or "").strip()
    if not 1 <= len(text) <= 2000 or not storable_text(text):
        raise Refused(_("A message is 1 to 2000 characters."), RefusalCode.INVALID)
    MafiaMessage.objects.create(game=found.game, seat=seat.number, text=text)


def online_game_import(*, document: Any, host: User, author: User) -> Game:
    """An online game from a protocol document (admin): no evening, numbered after the
    other online games; an unfinished one is taken on by the phase sweep at once."""
    imported = protocol_read(document, host=host)
    if imported.parsed.ruleset != Ruleset.ONLINE:
        raise Refused(
            _("A club game is imported into its evening: choose the evening."), RefusalCode.INVALID
        )
    stamped = [e["at"] for e in imported.events if isinstance(e.get("at"), str)]
    now = timezone.now()
    with transaction.atomic():
        game = protocol_store(
            imported, evening=None, number=next_online_number(), host=host, author=author
        )
        OnlineTable.objects.create(
            game=game,
            starts_at=datetime.fromisoformat(stamped[0]) if stamped else now,
            deadline_at=None if game.finished else now,
        )
    return game
