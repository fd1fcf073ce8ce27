"""Starting a club game: whom the evening's tables may seat, the line-up dealt, the game
and its seats written under the evening's lock (the engine judges the table first)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.services import refuse_unless_may_play
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from club.kernel.parsing import whole_number
from club.models import (
    TABLE_MAX_SEATS,
    Evening,
    EveningStatus,
    Guest,
    Registration,
    RegistrationStatus,
    table_shares,
)
from games import access, live
from games.models import Game, GameStatus, Role, Seat
from games.rules.club import ClubGame, carried_immunity
from games.rules.errors import ProtocolError
from games.rules.options import ClubOptions
from games.rules_text import rule_refused


@dataclass(frozen=True)
class GuestAt:
    """A guest of the evening (club.Guest's id) in a seat, where a member is named by id."""

    guest_id: int


# Who takes a seat of a live game: a member (their id) or one of the evening's guests.
type Player = int | GuestAt


@dataclass(frozen=True)
class Present:
    """One of the evening's seated people, as the host's «Новая игра» offers them."""

    member: User | None
    guest: Guest | None
    attendance_confirmed: bool  # pressed «Подтверждаю»
    came: bool  # checked in at the door

    @property
    def key(self) -> str:
        """The form's value: a member's id, or «g» and a guest's id."""
        if self.member is not None:
            return str(self.member.pk)
        assert self.guest is not None
        return f"g{self.guest.pk}"

    @property
    def player(self) -> Player:
        if self.member is not None:
            return self.member.pk
        assert self.guest is not None
        return GuestAt(self.guest.pk)


def player_from_key(raw: str) -> Player | None:
    """Present.key read back from a form; None when it is no such key."""
    raw = raw.strip()
    guest = raw.removeprefix("g")
    number = whole_number(guest, low=1)
    if number is None:
        return None
    return GuestAt(number) if guest != raw else number


def _person(member_id: int | None, guest_id: int | None) -> int:
    """One integer per person of an evening, for the engine's immunity (which maps seats to
    people): a member's id, a guest's id negated (ids are positive, so the two never meet)."""
    if member_id is not None:
        return member_id
    assert guest_id is not None
    return -guest_id


def _busy_elsewhere(evening: Evening, table: int) -> set[int]:
    """The people (_person) seated in a running game of the evening at another table."""
    return {
        _person(member_id, guest_id)
        for member_id, guest_id in Seat.objects.filter(
            game__evening=evening, game__status=GameStatus.RUNNING
        )
        .exclude(game__table=table)
        .values_list("member_id", "guest_id")
    }


def _on_the_list(evening: Evening) -> list[Present]:
    """The evening's confirmed (or marked attended) members and guests, in the order they
    signed up, but for those who left: whoever may be seated at one of its tables."""
    registrations = (
        Registration.objects.filter(
            evening=evening,
            status__in=[RegistrationStatus.CONFIRMED, RegistrationStatus.ATTENDED],
            left_at__isnull=True,
        )
        .select_related("member", "guest")
        .order_by("arrival")
    )
    return [
        Present(
            member=registration.member,
            guest=registration.guest,
            attendance_confirmed=registration.attendance_confirmed_at is not None,
            came=registration.checked_in_at is not None,
        )
        for registration in registrations
    ]


def present_players(evening: Evening, table: int = 1) -> list[Present]:
    """Who may be seated at `table`: the evening's confirmed (or marked attended) members
    and guests, in the order they signed up, but for those playing at the other table now."""
    busy = _busy_elsewhere(evening, table)
    return [p for p in _on_the_list(evening) if _person(*_ids(p.player)) not in busy]


@dataclass(frozen=True)
class Preselection:
    """Whom «Новая игра» ticks for a table before the host does, and the split it follows."""

    chosen: list[Present]
    people: int  # whom the free tables may seat: those checked in (once the door is kept)
    tables: int  # the evening's tables without a running game, this one among them
    shares: list[int] | None  # the people per free table, each at its minimum; None: too few


def preselected(evening: Evening, present: Sequence[Present], table: int) -> Preselection:
    """Whom the seating screen ticks for `table`: once the door is kept at the evening
    (someone of it was checked in), those checked in, in the list's order, and nobody who
    was not; a club that keeps no door, the list. With two free tables (open, no game
    running at the other) the people are split so that every table reaches its minimum
    (club.models.table_shares: 24 → 12 + 12, not 15 + 9), and this table gets its share,
    the list's first for table 1, the next for table 2; when they are too few for that, or
    one table is free, this table gets the list's first up to a table's maximum."""
    club = Club.current()
    door_kept = Registration.objects.filter(evening=evening, checked_in_at__isnull=False).exists()
    people = [p for p in present if p.came or not door_kept]
    playing = set(
        Game.objects.filter(evening=evening, status=GameStatus.RUNNING)
        .exclude(table=table)
        .values_list("table", flat=True)
    )
    free = [t for t in range(1, evening.tables + 1) if t == table or t not in playing]
    shares = table_shares(len(people), len(free), club.min_players)
    if shares is None or table not in free:
        chosen = people[: max(club.min_players, TABLE_MAX_SEATS)]
    else:
        index = free.index(table)
        first = sum(shares[:index])
        chosen = people[first : first + shares[index]]
    return Preselection(chosen, len(people), len(free), shares)


def refuse_unless_open_table(evening: Evening, table: int) -> None:
    """A game is played at one of the evening's open tables (1, and 2 once the organiser
    opened the second: club/lineup.py)."""
    if not 1 <= table <= evening.tables:
        raise Refused(
            _("This evening has no table %(table)d.") % {"table": table},
            RefusalCode.INVALID,
            tables=evening.tables,
        )


def _evening(evening_id: int) -> Evening:
    evening = Evening.objects.filter(pk=evening_id).first()
    if evening is None:
        raise Refused(_("There is no such evening."), RefusalCode.NOT_FOUND)
    return evening


def seatable(*, host: User, evening_id: int, table: int) -> list[Present]:
    """Whom a new game at the evening's `table` may seat (present_players), for a host."""
    access.refuse_unless_may_host(host)
    evening = _evening(evening_id)
    refuse_unless_open_table(evening, table)
    return present_players(evening, table)


def club_options(club: Club | None = None, table_size: int | None = None) -> ClubOptions:
    """The rules a new game is played by: the engine's readings with the club's table size
    (or a tournament's, exactly `table_size`) and the role catalogue as admins keep it."""
    club = club or Club.current()
    return ClubOptions(
        min_players=table_size or club.min_players,
        max_players=table_size or max(club.min_players, 15),
        best_move_victims=club.best_move_victims,
        roles=Role.objects.engine_roles(),
    )


def suggested_lineup(players: int) -> dict[str, int]:
    """A usual line-up for the table size: a quarter black, the boss among them; the
    commissar and the doctor; civilians for the rest."""
    black = max(2, players // 4)
    lineup = {"boss": 1, "mafia": black - 1, "commissar": 1, "doctor": 1}
    lineup["civilian"] = max(0, players - sum(lineup.values()))
    return lineup


def deal(lineup: Mapping[str, int], seats: Sequence[int], rng: random.Random) -> dict[int, str]:
    """Shuffle the line-up's cards over the seats."""
    cards = [code for code, count in lineup.items() for _ in range(count)]
    if len(cards) != len(seats):
        raise Refused(
            _("The line-up has %(cards)d cards for %(players)d players.")
            % {"cards": len(cards), "players": len(seats)},
            RefusalCode.INVALID,
        )
    rng.shuffle(cards)
    return dict(zip(seats, cards, strict=True))


def _first_out_of_previous_game(evening: Evening, table: int) -> list[int]:
    """The people (_person) who left first in the previous game at this table of the evening
    (games/rules/club/state.py's carried_immunity says what that gives them)."""
    previous = Game.objects.filter(evening=evening, table=table).order_by("-number").first()
    if previous is None or not previous.first_eliminated:
        return []
    return [
        _person(member_id, guest_id)
        for member_id, guest_id in Seat.objects.filter(
            game=previous, number__in=previous.first_eliminated
        ).values_list("member_id", "guest_id")
    ]


# A game belongs to its evening: it may be started from half a day before the evening (a
# host setting up early), never days ahead.
EARLIEST_GAME_START = timedelta(hours=12)


def game_may_start(evening: Evening, now: datetime | None = None) -> bool:
    return (now or timezone.now()) >= evening.starts_at - EARLIEST_GAME_START


def game_create(
    *,
    host: User,
    evening_id: int,
    seats: Mapping[int, tuple[Player, str]],
    table: int = 1,
    table_size: int | None = None,
    now: datetime | None = None,
) -> Game:
    """Start a game of the evening at one of its tables: `seats` maps seat number → (a
    member's id or one of the evening's guests, role code). A tournament's game seats
    exactly its `table_size` (tournaments.services)."""
    now = now or timezone.now()
    access.refuse_unless_may_host(host)
    evening = _evening(evening_id)
    if evening.status == EveningStatus.CANCELLED:
        # As the sign-up and the line-up say it (club.models, club.lineup): `closed`.
        raise Refused(_("This evening is cancelled."), RefusalCode.CLOSED)
    club = Club.current()
    _refuse_unless_startable(evening, seats, table, club, now, table_size)
    players = [player for player, _role in seats.values()]
    member_ids = [player for player in players if isinstance(player, int)]
    access.refuse_host_at_table(host, member_ids)
    # Whoever is on the list, at either table: one playing at the other table now is
    # refused below, under the lock, as busy rather than as unknown.
    present = {p.player: p for p in _on_the_list(evening)}
    evening_date = timezone.localtime(evening.starts_at, club.zone).date()
    for seat, (player, _role) in sorted(seats.items(), key=lambda item: item[0]):
        person = present.get(player)
        if person is None:
            raise Refused(
                _(
                    "Seat %(seat)d: only the evening's confirmed players and its guests "
                    "can be seated."
                )
                % {"seat": seat},
                RefusalCode.INVALID,
                seat=seat,
            )
        if person.member is not None:
            refuse_unless_may_play(person.member, on=evening_date, club=club)
    people = {seat: _person(*_ids(player)) for seat, (player, _r) in seats.items()}
    options = club_options(club, table_size)
    with transaction.atomic():
        # One game at a time per evening takes the next number and seats its players.
        Evening.objects.select_for_update().filter(pk=evening.pk).first()
        busy = _busy_elsewhere(evening, table)
        if busy & set(people.values()):
            raise Refused(
                _("Some of these players are at the other table's game now."),
                RefusalCode.CONFLICT,
                seats=sorted(seat for seat, person in people.items() if person in busy),
            )
        immune = carried_immunity(people, _first_out_of_previous_game(evening, table))
        try:
            ClubGame(
                {seat: role for seat, (_p, role) in seats.items()}, options=options, immune=immune
            )
        except ProtocolError as error:
            raise rule_refused(error) from error
        game = Game.objects.create(
            evening=evening,
            number=Game.objects.filter(evening=evening).count() + 1,
            table=table,
            host=host,
            options=options.to_dict(),
            lineup=lineup_of(role for _player, role in seats.values()),
            immune=immune,
        )
        Seat.objects.bulk_create(
            Seat(
                game=game,
                number=seat,
                member_id=_ids(player)[0],
                guest_id=_ids(player)[1],
                role=role,
            )
            for seat, (player, role) in sorted(seats.items(), key=lambda item: item[0])
        )
        # The venue's screen says who plays next (games/live_evening.py).
        live.evening_touch_on_commit(evening.pk)
    return game


def _ids(player: Player) -> tuple[int | None, int | None]:
    """(member id, guest id) of a seat's player: one of them is None."""
    return (None, player.guest_id) if isinstance(player, GuestAt) else (player, None)


def _refuse_unless_startable(
    evening: Evening,
    seats: Mapping[int, tuple[Player, str]],
    table: int,
    club: Club,
    now: datetime,
    table_size: int | None = None,
) -> None:
    """The checks of a new game that need no lock: the day, the table, the seats' count."""
    if not game_may_start(evening, now):
        earliest = timezone.localtime(evening.starts_at - EARLIEST_GAME_START, club.zone)
        raise Refused(
            _("Games of this evening start on its day: from %(when)s.")
            % {"when": date_format(earliest, "DATETIME_FORMAT")},
            RefusalCode.INVALID,
        )
    refuse_unless_open_table(evening, table)
    least = table_size or club.min_players
    if len(seats) < least or (table_size and len(seats) != table_size):
        raise Refused(
            _("A game needs at least %(min)d players; %(count)d are seated.")
            % {"min": least, "count": len(seats)},
            RefusalCode.INVALID,
        )
    if sorted(seats) != list(range(1, len(seats) + 1)):
        raise Refused(_("Seats are numbered from 1 without gaps."), RefusalCode.INVALID)
    players = [player for player, _role in seats.values()]
    if len(set(players)) != len(players):
        raise Refused(
            _("A member can take one seat only."),
            RefusalCode.INVALID,
            seats=sorted(seat for seat, (player, _r) in seats.items() if players.count(player) > 1),
        )


def lineup_of(roles: Any) -> dict[str, int]:
    """How many of each card: a game's `lineup`."""
    lineup: dict[str, int] = {}
    for role in roles:
        lineup[role] = lineup.get(role, 0) + 1
    return dict(sorted(lineup.items()))
