"""Writes on games: start a game from the evening's players, record the host's taps, import.

Every write on a game runs in a transaction that locks the game's row, checks the sequence
number and folds the log through the rules engine before appending to it; the engine is the
only judge of what is allowed.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.services import refuse_unless_may_play
from accounts.validation import login_key
from club.kernel.club_settings import ClubSettings
from club.kernel.errors import RefusalCode, Refused
from club.kernel.numbers import signed
from club.kernel.parsing import whole_number
from club.kernel.queueing import queue_on_commit
from club.models import (
    TABLE_MAX_SEATS,
    Evening,
    EveningStatus,
    Guest,
    Registration,
    RegistrationStatus,
    table_shares,
)
from games import access, reasons
from games.models import Game, GameEvent, GameStatus, Role, Ruleset, Seat
from games.rules import events as event_shapes
from games.rules import protocol
from games.rules.club import ClubGame, Prompt, carried_immunity
from games.rules.errors import ProtocolError, RuleCode, RuleViolation
from games.rules.event_types import ClubEntry, OnlineEvent
from games.rules.log import UNDO, effective_events
from games.rules.online import OnlineGame, OnlineOptions
from games.rules.options import ClubOptions
from games.rules.scoring import Scheme
from games.rules.table import Consequence, judged
from games.rules_text import rule_refused, rules_message
from games.timeline import REASONS

Engine = ClubGame | OnlineGame

logger = logging.getLogger(__name__)


# --- starting a game ------------------------------------------------------------------


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
    club = ClubSettings.load()
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


def club_options(club: ClubSettings | None = None, table_size: int | None = None) -> ClubOptions:
    """The rules a new game is played by: the engine's readings with the club's table size
    (or a tournament's, exactly `table_size`) and the role catalogue as admins keep it."""
    club = club or ClubSettings.load()
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
    club = ClubSettings.load()
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
            lineup=_lineup_of(role for _player, role in seats.values()),
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
    return game


def _ids(player: Player) -> tuple[int | None, int | None]:
    """(member id, guest id) of a seat's player: one of them is None."""
    return (None, player.guest_id) if isinstance(player, GuestAt) else (player, None)


def _refuse_unless_startable(
    evening: Evening,
    seats: Mapping[int, tuple[Player, str]],
    table: int,
    club: ClubSettings,
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


# --- the engine over the log ----------------------------------------------------------


def engine_for(game: Game, seats: Sequence[Seat]) -> Engine:
    """A fresh engine state for the game's table, before any event."""
    if game.ruleset == Ruleset.ONLINE:
        table = {seat.number: seat.role for seat in seats}
        return OnlineGame(table, options=OnlineOptions.from_dict(game.options))
    return ClubGame(
        {seat.number: seat.role for seat in seats},
        options=ClubOptions.from_dict(game.options),
        immune=game.immune,
    )


class Unreplayable(Refused):
    """The game's stored record no longer replays through the engine: its seats or its
    log were changed after it was played (a seat deleted in the database, say). Every door
    says so with code `unreplayable` rather than failing; `reason` is the engine's own
    word, for whoever runs the game only (it may name a seat's card)."""

    def __init__(self, game: Game, error: RuleViolation | ProtocolError) -> None:
        super().__init__(
            _(
                "The stored record of this game no longer replays: it was changed after it "
                "was played. Its table and analysis cannot be shown until an admin corrects it."
            ),
            RefusalCode.UNREPLAYABLE,
            game_id=game.pk,
        )
        self.game = game
        self.reason = rules_message(error)


def fold(game: Game, seats: Sequence[Seat], events: Sequence[Mapping[str, object]]) -> Engine:
    """The game's state after its stored `events`: every one was judged when it was
    recorded, so a refusal here means the record changed since (`Unreplayable`)."""
    try:
        state = engine_for(game, seats)
        state.apply_all(events)
    except (ProtocolError, RuleViolation) as error:
        logger.warning("Game %s no longer replays: %s", game.pk, error.english)
        raise Unreplayable(game, error) from error
    return state


@dataclass(frozen=True)
class GameView:
    """A game with its seats, its log and the engine's state after it: what a page, the
    API or a tap's answer renders (games.queries.game_view reads one; recording a tap
    returns the one it judged)."""

    game: Game
    seats: list[Seat]
    log: list[dict[str, Any]]  # every entry, undos included
    events: list[dict[str, Any]]  # the effective protocol events
    state: Engine  # an online game's live table is games/online/table.py's

    @property
    def club_state(self) -> ClubGame:
        """The live table's state (the host's screen shows only club games)."""
        assert isinstance(self.state, ClubGame)
        return self.state

    @property
    def prompt(self) -> Prompt:
        return self.club_state.prompt()

    @property
    def by_number(self) -> dict[int, Seat]:
        return {seat.number: seat for seat in self.seats}


@dataclass(frozen=True)
class Recorded:
    entry: GameEvent
    created: bool  # False: this client event id was recorded before (a retried tap)
    view: GameView  # the game after it, as judged under the lock: the door renders this


@dataclass(frozen=True)
class Recording:
    """A club game locked for a tap (recording_locked), with its seats as read."""

    game: Game
    seats: list[Seat]


def _recordable(game: Game | None, author: User, seats: Sequence[Seat] | None = None) -> Game:
    """The club game `author` may record taps in, or the refusal saying why not."""
    if game is None:
        raise Refused(_("There is no such game."), RefusalCode.NOT_FOUND)
    if game.ruleset == Ruleset.ONLINE:
        # Its players act for their own seats only (games/online/services.py).
        raise Refused(_("An online game is played through its own table."), RefusalCode.INVALID)
    if not access.runs(author, game, seats):
        raise Refused(_("Only the game's host records it."), RefusalCode.FORBIDDEN)
    return game


def refuse_unless_recorder(*, game_id: int, author: User) -> Game:
    """The same check as recording a tap, for a door that records none (the log's head);
    the game as it read it."""
    return _recordable(Game.objects.filter(pk=game_id).first(), author)


def recording_locked(*, game_id: int, author: User) -> Recording:
    """The club game `author` may record taps in, locked until the caller's transaction
    ends, with its seats; or the refusal saying why not. A door makes this check before it
    reads a tap's body, in the transaction it then records the tap in (game_record_tap):
    the game's row is read once per tap."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    seats = list(Seat.objects.filter(game_id=game_id).select_related("member", "guest__member"))
    return Recording(_recordable(game, author, seats), seats)


# Recorded after the end within the club's `bonus_window_days` only: what the host judges
# of a finished game (a foul heard later on the recording is the recording's to suggest).
AFTER_THE_GAME = ("bonus", "best_move")


def refuse_after_the_window(game: Game, kind: str, now: datetime) -> None:
    """Extra points and the best move of a finished game are taken within the club's
    window from its first end (an undo and a new end do not move it)."""
    if kind not in AFTER_THE_GAME:
        return
    club = ClubSettings.load()
    closes = bonus_window_closes(game, club)
    if closes is not None and now > closes:
        raise Refused(
            _(
                "Extra points and the best move are recorded up to %(days)d days after the "
                "game ended: the window closed on %(when)s."
            )
            % {
                "days": club.bonus_window_days,
                "when": date_format(timezone.localtime(closes, club.zone), "DATETIME_FORMAT"),
            },
            RefusalCode.FORBIDDEN,
            closed=closes.isoformat(),
        )


def _refuse_undo(
    game: Game, standing: list[dict[str, Any]], *, confirmed: bool, now: datetime
) -> None:
    """An undo of a finished game's last entry: what the host gave after the end within
    its window only, without reopening the game; anything else reopens it. Each is asked
    first (`confirmed` False), saying which it is."""
    if not standing:
        # The phone's engine says the same offline (games/rules/table.py).
        raise Refused(_("There is nothing to undo."), RuleCode.NOTHING_TO_UNDO)
    if not game.finished:
        return
    last = standing[-1]
    refuse_after_the_window(game, str(last.get("type")), now)
    if confirmed:
        return
    if last.get("type") in AFTER_THE_GAME:
        raise Refused(
            _("This takes back %(what)s. Undo?") % {"what": _taken_back(last)},
            RefusalCode.CONFIRM,
            removes=[],
            winner=None,
            reopens=False,
        )
    # One tap would reopen the game and withdraw its analysis.
    raise Refused(
        _(
            "This reopens the finished game: its result and analysis are "
            "withdrawn until it ends again. Undo?"
        ),
        RefusalCode.CONFIRM,
        removes=[],
        winner=None,
        reopens=True,
    )


def _taken_back(event: Mapping[str, Any]) -> str:
    """What an undo of a host's after-the-end entry takes back, as the question names it."""
    if event.get("type") == "best_move":
        return _("the best move named by seat %(seat)s") % {"seat": event.get("by")}
    points = float(event.get("points", 0))
    return _("%(points)s to seat %(seat)s") % {"points": signed(points), "seat": event.get("seat")}


def bonus_window_closes(game: Game, club: ClubSettings | None = None) -> datetime | None:
    """Until when a finished game takes extra points (None while it runs)."""
    ended = game.first_ended_at or game.ended_at
    if not game.finished or ended is None:
        return None
    return ended + timedelta(days=(club or ClubSettings.load()).bonus_window_days)


def refuse_out_of_bounds(event: ClubEntry, scheme: Scheme) -> None:
    """A bonus within the scoring scheme's bounds (`bonus_min`, `bonus_max`); the engine
    judges the rest (a number, not zero, in hundredths, a reason)."""
    if event["type"] != "bonus":
        return
    points = event.get("points")
    number = isinstance(points, int | float) and not isinstance(points, bool)
    if number and not scheme.bonus_allowed(points):
        raise Refused(
            _("Extra points are from %(min)s to %(max)s.")
            % {"min": f"{scheme.bonus_min:+g}", "max": f"{scheme.bonus_max:+g}"},
            RefusalCode.INVALID,
            bonus_min=scheme.bonus_min,
            bonus_max=scheme.bonus_max,
        )


def game_record_event(
    *,
    game_id: int,
    author: User,
    event: object,
    seq: int | None,
    client_id: str | None,
    now: datetime | None = None,
    confirmed: bool = True,
    scheme: Scheme | None = None,
) -> Recorded:
    """Append one tap to the game's log: a protocol event the engine accepts, or an undo.

    `seq` is the number the entry will get (the last seen plus one): a phone that has not
    seen the latest entry is refused rather than writing over it. The same `client_id`
    twice returns the first entry. With `confirmed` False, an event that would remove a
    player or end the game is refused with code "confirm" (the host's screen asks first).
    Extra points keep to `scheme`'s bounds (the scheme that scores the game, which the
    ratings room keeps: games.ratings.services.bonus_scheme; None: the defaults), and on
    a finished game they and the best move keep to the club's window.
    """
    with transaction.atomic():
        recording = recording_locked(game_id=game_id, author=author)
        return game_record_tap(
            recording,
            author=author,
            event=event,
            seq=seq,
            client_id=client_id,
            now=now,
            confirmed=confirmed,
            scheme=scheme,
        )


def game_record_tap(
    recording: Recording,
    *,
    author: User,
    event: object,
    seq: int | None,
    client_id: str | None,
    now: datetime | None = None,
    confirmed: bool = True,
    scheme: Scheme | None = None,
) -> Recorded:
    """game_record_event on a game the caller's transaction locked and checked
    (recording_locked). Returns the entry and the game after it as judged: its log
    read once and folded once."""
    now = now or timezone.now()
    if client_id is not None and (not isinstance(client_id, str) or not 1 <= len(client_id) <= 64):
        raise Refused(_("The client event id is 1 to 64 characters."), RefusalCode.INVALID)
    game, seats = recording.game, recording.seats
    try:
        shaped = event_shapes.normalize(event)
    except ProtocolError as error:
        raise rule_refused(error) from error
    if client_id is not None:
        earlier = GameEvent.objects.filter(game=game, client_id=client_id).first()
        if earlier is not None:
            log = game.events.payloads()
            standing = effective_events(log)
            view = GameView(game, seats, log, standing, fold(game, seats, standing))
            return Recorded(earlier, created=False, view=view)
    refuse_out_of_bounds(shaped, scheme or Scheme())
    refuse_after_the_window(game, shaped["type"], now)
    if seq is not None and seq != game.last_seq + 1:
        raise Refused(
            _(
                "The game has changed on another device (event %(last)d is the latest). "
                "Reload to see it."
            )
            % {"last": game.last_seq},
            RefusalCode.STALE,
            seq=game.last_seq,
        )
    # A reason names players by seat ({seat:N}), never by nickname (games/reasons.py).
    reasons.refuse_named_event(shaped, reasons.seat_names(seats))
    log = game.events.payloads()
    standing = effective_events(log)
    if shaped["type"] == UNDO:
        _refuse_undo(game, standing, confirmed=confirmed, now=now)
        state = fold(game, seats, standing[:-1])
    else:
        shaped.setdefault("at", now.isoformat())
        state = fold(game, seats, standing)
        assert isinstance(state, ClubGame)  # an online game was refused above
        try:
            outcome = judged(state, shaped)
        except (RuleViolation, ProtocolError) as error:
            raise rule_refused(error) from error
        if not confirmed and outcome is not None:
            raise Refused(_confirm_message(outcome), RefusalCode.CONFIRM, **outcome)
    stored = _as_stored(shaped)
    after = standing[:-1] if shaped["type"] == UNDO else [*standing, stored]
    # The game after the entry, as judged: _append takes its outcome into `game`.
    view = GameView(game, seats, [*log, stored], after, state)
    entry = _append(game, shaped, author=author, client_id=client_id, view=view, now=now)
    return Recorded(entry, created=True, view=view)


def _append(
    game: Game,
    shaped: ClubEntry,
    *,
    author: User,
    client_id: str | None,
    view: GameView,
    now: datetime,
) -> GameEvent:
    """The judged entry written under the game's row lock, and the game's outcome taken
    from the state after it (an end, or an undo after one, is analysed after the commit);
    the live table's snapshot is made from `view`, the game as judged, after the commit."""
    try:
        with transaction.atomic():
            entry = GameEvent.objects.create(
                game=game,
                seq=game.last_seq + 1,
                type=str(shaped["type"]),
                payload=shaped,
                author=author,
                client_id=client_id,
            )
    except IntegrityError as error:  # the row lock makes this a backstop only
        raise Refused(_("The game has changed: reload."), RefusalCode.STALE) from error
    game.last_seq = entry.seq
    was_finished = game.finished
    game.take_outcome(view.state, now)
    game.save(update_fields=["last_seq", *Game.OUTCOME_FIELDS])
    live_on_commit(game.pk, view)  # first: the analysis writes it again with the scores
    if game.finished or was_finished:  # the end, or an undo after it
        game_analyse_on_commit(game.pk)
    return entry


def _as_stored(payload: Mapping[str, Any]) -> dict[str, Any]:
    """An entry's payload as the log reads it back (the JSON column's round trip)."""
    stored: dict[str, Any] = json.loads(json.dumps(payload))
    return stored


def _confirm_message(outcome: Consequence) -> str:
    parts = []
    if outcome.get("waiting"):
        codes = [item["role"] for item in outcome.get("waiting", [])]
        names = {role.code: role.name for role in Role.objects.filter(code__in=codes)}
        roles = ", ".join(names.get(code, code) for code in codes)
        parts.append(_("Not acted tonight: %(roles)s.") % {"roles": roles})
    for seat in outcome["removes"]:
        why = REASONS.get(outcome["reasons"].get(str(seat), ""), "")
        parts.append(_("Seat %(seat)s leaves the table: %(why)s.") % {"seat": seat, "why": why})
    if outcome["winner"]:
        parts.append(_("This ends the game."))
    return " ".join([*parts, _("Record it?")])


def live_on_commit(game_id: int, view: GameView | None = None) -> None:
    """The live table's public snapshot is written again once this commits (games/live.py;
    imported here, not at the top: it reads the game through games.queries, which folds it
    through this module): from `view` when the caller has the game as it judged it, else
    read."""
    from games import live

    live.snapshot_on_commit(game_id, view)


def game_analyse_on_commit(game_id: int) -> None:
    """Build the game's analysis in the worker once this transaction commits."""
    queue_on_commit("games.ratings.tasks.game_analyse", game_id)


# --- the protocol document ------------------------------------------------------------


def game_protocol(
    game: Game, seats: Sequence[Seat], log: Sequence[Mapping[str, object]]
) -> dict[str, Any]:
    """PROTOCOL.md's document: the options the game was played with and the effective
    events (the undone ones are not exported)."""
    return protocol.export(
        seats=[protocol.Seat(s.number, access.seat_nickname(s), s.role) for s in seats],
        events=effective_events(log),
        options=(
            OnlineOptions.from_dict(game.options)
            if game.ruleset == Ruleset.ONLINE
            else ClubOptions.from_dict(game.options)
        ),
        immune=game.immune,
    )


@dataclass(frozen=True)
class Imported:
    """A protocol document read for import: parsed, replayed without a failure, its nicks
    matched to members, its events as the log stores them."""

    parsed: protocol.Protocol
    state: Engine
    members: dict[str, User]
    events: list[ClubEntry | OnlineEvent]


def protocol_read(document: Any, *, host: User) -> Imported:
    """Every check of an import but the ruleset's own: the document's shape, every event's
    shape and the rules (as a live event's), the members, the host not at the table."""
    try:
        parsed = protocol.parse(document)
    except ProtocolError as error:
        raise rule_refused(error) from error
    state, failure = protocol.replay(parsed)
    if failure is not None:
        raise rule_refused(
            failure.error,
            _("Event %(index)d: %(error)s")
            % {"index": failure.index, "error": rules_message(failure.error)},
        ) from failure.error
    members = _members_by_nick([seat.nick for seat in parsed.seats])
    access.refuse_host_at_table(host, [member.pk for member in members.values()])
    return Imported(parsed, state, members, protocol.normalized_events(parsed))


def protocol_store(
    imported: Imported, *, evening: Evening | None, number: int, host: User, author: User
) -> Game:
    """The game, its seats and its log as the document has them (in the caller's
    transaction); its analysis is queued if it ended."""
    parsed = imported.parsed
    game = Game.objects.create(
        evening=evening,
        number=number,
        host=host,
        ruleset=parsed.ruleset,
        options=parsed.options.to_dict(),
        lineup=_lineup_of(seat.role for seat in parsed.seats),
        immune=list(parsed.immune),
        last_seq=len(imported.events),
    )
    Seat.objects.bulk_create(
        Seat(game=game, number=s.seat, member=imported.members[login_key(s.nick)], role=s.role)
        for s in parsed.seats
    )
    GameEvent.objects.bulk_create(
        GameEvent(game=game, seq=n, type=e["type"], payload=e, author=author)
        for n, e in enumerate(imported.events, start=1)
    )
    game.take_outcome(imported.state, timezone.now())
    game.save(update_fields=list(Game.OUTCOME_FIELDS))
    if game.finished:
        game_analyse_on_commit(game.pk)
    return game


def game_import(*, document: Any, evening_id: int, host: User, author: User) -> Game:
    """A club game from a protocol document (admin), numbered after its evening's others.
    (An online protocol is the online room's: games/online/services.online_game_import.)"""
    imported = protocol_read(document, host=host)
    if imported.parsed.ruleset != Ruleset.CLUB:
        raise Refused(
            _("An online game belongs to no evening: leave the evening empty."), RefusalCode.INVALID
        )
    with transaction.atomic():
        evening = Evening.objects.select_for_update().filter(pk=evening_id).first()
        if evening is None:
            raise Refused(_("There is no such evening."), RefusalCode.NOT_FOUND)
        number = Game.objects.filter(evening=evening).count() + 1
        return protocol_store(imported, evening=evening, number=number, host=host, author=author)


def _members_by_nick(nicks: Sequence[str]) -> dict[str, User]:
    """The members a protocol's nicks name (matched as logins are), or Refused naming
    those that name nobody."""
    keys = {login_key(nick) for nick in nicks}
    members = {m.nickname_key: m for m in User.objects.filter(nickname_key__in=keys)}
    missing = [nick for nick in nicks if login_key(nick) not in members]
    if missing:
        raise Refused(
            _("No member has the nickname: %(nicks)s.") % {"nicks": ", ".join(missing)},
            RefusalCode.INVALID,
        )
    return members


def next_online_number() -> int:
    online = Game.objects.filter(ruleset=Ruleset.ONLINE)
    return (online.aggregate(n=Max("number"))["n"] or 0) + 1


def _lineup_of(roles: Any) -> dict[str, int]:
    lineup: dict[str, int] = {}
    for role in roles:
        lineup[role] = lineup.get(role, 0) + 1
    return dict(sorted(lineup.items()))
