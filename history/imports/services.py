"""An import of a club's past, in three steps: the upload keeps what the reader read as a
preview (HistoryImport, status «preview»); the organiser's confirm is kept and the worker
creates the evenings, games, seats and unclaimed players in one transaction; the worker
then rebuilds the analyses and ratings (history.tasks). An import can be undone as a whole.

The same file twice creates nothing twice: its SHA-256 is refused while its import stands
(HistoryImport's constraint is the race's last word), and a game whose key in its source
the club already holds (ImportedGame) is skipped and listed, so an overlapping file adds
only its new games.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, Max, Q, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.validation import login_key
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from club.kernel.queueing import queue_on_commit
from club.models import Evening, EveningStatus, Guest, Registration
from games.models import Game, GameEvent, GameSource, GameStatus, Role, Seat
from games.rules import protocol
from games.rules.errors import ProtocolError
from games.rules.results import Results, SeatResult
from games.rules.rounding import rounded
from games.starting import club_options, lineup_of
from history.formats.records import GameRecord, Read, Source
from history.imports.matching import How, Match, names_match
from history.imports.stored import problem_to_json, record_from_json, record_to_json
from history.models import (
    HOLDING,
    PREVIEW_KEPT,
    HistoryImport,
    ImportedGame,
    ImportSource,
    ImportStatus,
)

REBUILD_TASK = "history.tasks.history_rebuild"
CONFIRM_TASK = "history.tasks.history_confirm"
# An import still rebuilding this long after its confirm or undo lost its task.
STALLED_AFTER = timedelta(minutes=30)
# How long an imported game is taken to last: its end orders it among the evening's games.
GAME_LENGTH = timedelta(hours=1)
NAME_LENGTH = 32  # club.Guest.name
# The game was made up at Moscow State University in 1986: an earlier date is a mistake.
EARLIEST_GAME = date(1986, 1, 1)


def file_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def refuse_if_imported(sha256: str) -> None:
    """The same file is brought in once: «this file was already imported on 7 December»."""
    held = HistoryImport.objects.filter(sha256=sha256, status__in=HOLDING).first()
    if held is not None:
        when = held.imported_at or held.created_at
        raise Refused(
            _("This file was already imported on %(day)s.")
            % {"day": date_format(timezone.localtime(when, Club.current().zone), "j E Y")},
            RefusalCode.CONFLICT,
            import_id=held.pk,
        )


def import_upload(
    *, author: User, filename: str, data: bytes, read: Read, source: Source
) -> HistoryImport:
    """The preview of an uploaded file: what the reader read, kept for the confirm. A
    protocol's game that does not replay through the engine is a problem, not a game."""
    previews_drop()
    sha256 = file_digest(data)
    refuse_if_imported(sha256)
    games, problems = preview_parts(read)
    # One preview of a file at a time: the newer upload replaces the older.
    HistoryImport.objects.filter(sha256=sha256, status=ImportStatus.PREVIEW).delete()
    return HistoryImport.objects.create(
        author=author,
        filename=filename[:255],
        sha256=sha256,
        source=ImportSource(source.value),
        records=games,
        problems=problems,
        counts={"read": len(games), "problems": len(problems)},
    )


def preview_parts(read: Read) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The games and problems a preview keeps, as JSON; a protocol's game that does not
    replay through the engine is a problem, not a game."""
    games, problems = [], [problem_to_json(p) for p in read.problems]
    today = timezone.localtime(timezone.now(), Club.current().zone).date()
    for game in read.games:
        failure = _date_failure(game.played_on, today) or _protocol_failure(game)
        if failure:
            problems.append({"line": game.line, "message": failure})
        else:
            games.append(record_to_json(game))
    problems.sort(key=lambda p: p["line"])
    return games, problems


def _date_failure(day: date, today: date) -> str:
    """A date no club played on is the line's problem in the preview (left out), not a
    surprise at the confirm: a spreadsheet's blank date cell reads as 1899 or 1900, and a
    mistyped year can land in the future."""
    if day > today:
        return _("The date %(day)s is in the future: only played games are imported.") % {
            "day": date_format(day, "j E Y")
        }
    if day < EARLIEST_GAME:
        return _(
            "The date %(day)s is before the game existed (1986): check the date; a blank "
            "date cell of a spreadsheet reads as 1899 or 1900."
        ) % {"day": date_format(day, "j E Y")}
    return ""


def _protocol_failure(game: GameRecord) -> str:
    if game.protocol is None:
        return ""
    try:
        parsed = protocol.parse(game.protocol)
    except ProtocolError as error:
        return error.english
    _state, failure = protocol.replay(parsed)
    if failure is not None:
        return _("Event %(index)d: %(error)s") % {
            "index": failure.index,
            "error": failure.error.english,
        }
    return ""


def previews_drop() -> int:
    """Previews older than a day, never confirmed, are dropped (their records are large)."""
    dropped, _kinds = old_previews().delete()
    return dropped


def stalled_imports(*, every_club: bool = False) -> QuerySet[HistoryImport]:
    """The imports whose rebuild should have ended long ago, of the club in scope (or of
    every club: the sweep's one query that finds the clubs with work)."""
    before = timezone.now() - STALLED_AFTER
    rows = HistoryImport.all_clubs if every_club else HistoryImport.objects
    return rows.filter(
        Q(status__in=(ImportStatus.CONFIRMING, ImportStatus.IMPORTING), imported_at__lt=before)
        | Q(status=ImportStatus.UNDOING, undone_at__lt=before)
        | Q(status=ImportStatus.READING, created_at__lt=before)
    )


def old_previews(*, every_club: bool = False) -> QuerySet[HistoryImport]:
    rows = HistoryImport.all_clubs if every_club else HistoryImport.objects
    # An upload never read (nor re-queued for a day) and an unreadable one go the same way.
    left = (ImportStatus.PREVIEW, ImportStatus.READING, ImportStatus.UNREADABLE)
    return rows.filter(status__in=left, created_at__lt=timezone.now() - PREVIEW_KEPT)


def preview_of(history_import_id: int) -> HistoryImport:
    """The import, or Refused: not this club's, or a preview that expired (dropped now)."""
    found = HistoryImport.objects.filter(pk=history_import_id).first()
    if found is None:
        raise Refused(_("There is no such import."), RefusalCode.NOT_FOUND)
    if found.expired:
        found.delete()
        raise Refused(
            _("This preview is more than a day old and was dropped: upload the file again."),
            RefusalCode.NOT_FOUND,
        )
    return found


@dataclass(frozen=True)
class PreviewGame:
    record: GameRecord
    skipped: bool  # the club holds it already (an earlier import of an overlapping file)


@dataclass
class Preview:
    """What a confirm would create, as the preview page shows it."""

    games: list[PreviewGame] = field(default_factory=list)
    matches: list[tuple[Match, int]] = field(default_factory=list)  # with its seats' count
    problems: list[dict[str, Any]] = field(default_factory=list)

    @property
    def new_games(self) -> int:
        return sum(1 for game in self.games if not game.skipped)

    @property
    def skipped(self) -> int:
        return len(self.games) - self.new_games

    @property
    def by_date(self) -> list[tuple[date, int, list[PreviewGame]]]:
        """The games by date and table."""
        groups: dict[tuple[date, int], list[PreviewGame]] = {}
        for game in self.games:
            groups.setdefault((game.record.played_on, game.record.table), []).append(game)
        return [(day, table, games) for (day, table), games in sorted(groups.items())]


def import_preview(history_import: HistoryImport, *, limit: int | None = None) -> Preview:
    """The file's games (each marked when the club holds it already), the names matched
    and how, the problems. `limit` bounds the games listed (a page need not print 10,000)."""
    records = [record_from_json(raw) for raw in history_import.records]
    held = _held_keys(records)
    games = [PreviewGame(r, (r.source.value, r.key) in held) for r in _ordered(records)]
    matches = names_match(
        (s.nickname for r in records for s in r.seats), choices=history_import.choices
    )
    seats: dict[str, int] = {}
    for record in records:
        for seat in record.seats:
            key = login_key(seat.nickname)
            seats[key] = seats.get(key, 0) + 1
    # The doubtful first: a look-alike, then the new unclaimed players, the exact last.
    ordered = sorted(matches.values(), key=lambda m: (SHOWN_FIRST.index(m.how), _natural(m)))
    return Preview(
        games=games[:limit] if limit is not None else games,
        matches=[(match, seats[match.key]) for match in ordered],
        problems=list(history_import.problems),
    )


SHOWN_FIRST = (How.LOOKALIKE, How.CHOSEN, How.NEW, How.UNCLAIMED, How.CLAIMED, How.EXACT)


def _natural(match: Match) -> tuple[str | int, ...]:
    """«Игрок 2» before «Игрок 10»."""
    return tuple(
        int(part) if part.isdigit() else part
        for part in re.split(r"(\d+)", match.nickname.casefold())
    )


def _held_keys(records: Sequence[GameRecord]) -> set[tuple[str, str]]:
    keys = {r.key for r in records}
    found = ImportedGame.objects.filter(key__in=keys).values_list("source", "key")
    return {(source, key) for source, key in found} | _held_here(records)


Seating = tuple[date, int, int, frozenset[tuple[int, str]]]


def _held_here(records: Sequence[GameRecord]) -> set[tuple[str, str]]:
    """The games the club holds though no import of this source brought them: the same
    day, table and number, the same names at the same seats (not the roles: the exchange
    format keeps only the classic four). A club that imports its own export (or another
    format of a file it imported) would otherwise count each game, and its scores, twice."""
    if not records:
        return set()
    club = Club.current()
    zone = club.zone
    first, last = min(r.played_on for r in records), max(r.played_on for r in records)
    window = (
        datetime.combine(first, datetime.min.time(), zone),
        datetime.combine(last + timedelta(days=1), datetime.min.time(), zone),
    )
    # Seats are not scoped by themselves: the club is named (another club's games are not
    # this club's, tests/history/test_exports.py brings one club's export to another).
    rows = Seat.objects.filter(game__club=club, game__evening__starts_at__range=window).values_list(
        "game_id",
        "game__evening__starts_at",
        "game__table",
        "game__number",
        "number",
        "member__nickname",
        "guest__name",
    )
    games: dict[int, tuple[date, int, int, set[tuple[int, str]]]] = {}
    for game_id, starts_at, table, game_number, number, nickname, name in rows.iterator(
        chunk_size=5000
    ):
        day = timezone.localtime(starts_at, zone).date()
        seats = games.setdefault(game_id, (day, table, game_number, set()))[3]
        seats.add((number, login_key(nickname or name)))
    held: set[Seating] = {(d, t, n, frozenset(seats)) for d, t, n, seats in games.values()}
    return {(r.source.value, r.key) for r in records if _seating(r) in held}


def _seating(record: GameRecord) -> Seating:
    seats = frozenset((s.seat, login_key(s.nickname)) for s in record.seats)
    return (record.played_on, record.table, record.number, seats)


def _ordered(records: Iterable[GameRecord]) -> list[GameRecord]:
    return sorted(records, key=lambda r: (r.played_on, r.table, r.number, r.line))


def _confirmable(history_import_id: int, expected: ImportStatus) -> HistoryImport:
    """The import locked for its confirm, or Refused with why it cannot be confirmed."""
    found = HistoryImport.objects.select_for_update().filter(pk=history_import_id).first()
    if found is None or found.expired:
        raise Refused(_("There is no such import."), RefusalCode.NOT_FOUND)
    if found.status == ImportStatus.READING:
        raise Refused(
            _("The file is still being read: confirm its preview when it opens."),
            RefusalCode.CONFLICT,
        )
    if found.status == ImportStatus.UNREADABLE:
        raise Refused(
            _("The file could not be read: there is nothing to confirm."),
            RefusalCode.CONFLICT,
        )
    if found.status != expected:
        raise Refused(_("This import was confirmed already."), RefusalCode.CONFLICT)
    return found


def confirm_asked(
    *, history_import_id: int, actor: User, choices: Mapping[str, str], language: str
) -> HistoryImport:
    """The organiser's confirm: checked and kept, and the games created by the worker
    (history.tasks.history_confirm), since 10,000 games outlive a web request
    (docs/benchmarks.md). The refusals the request can tell are told at once."""
    with transaction.atomic():
        found = _confirmable(history_import_id, ImportStatus.PREVIEW)
        refuse_if_imported(found.sha256)
        found.choices = {key: str(value) for key, value in choices.items()}
        found.status = ImportStatus.CONFIRMING
        found.confirmed_by = actor
        # The worker words a refusal in the language of the organiser who confirmed.
        found.language = language[:8]
        found.imported_at = timezone.now()  # the catch-up's clock for a lost task
        found.counts = {k: v for k, v in found.counts.items() if k != "refusal"}
        found.save()
        queue_on_commit(CONFIRM_TASK, found.pk)
    return found


def import_confirm(
    *,
    history_import_id: int,
    actor: User,
    choices: Mapping[str, str],
    expected: ImportStatus = ImportStatus.PREVIEW,
) -> HistoryImport:
    """Create the preview's games, in one transaction: a failure leaves nothing. The
    analyses and ratings are rebuilt in the worker after the commit (history.tasks).
    The worker's confirm expects its import «confirming»; a second run finds it past
    that and is refused, having changed nothing."""
    with transaction.atomic():
        found = _confirmable(history_import_id, expected)
        refuse_if_imported(found.sha256)
        found.choices = {key: str(value) for key, value in choices.items()}
        records = [record_from_json(raw) for raw in found.records]
        held = _held_keys(records)
        fresh = [r for r in _ordered(records) if (r.source.value, r.key) not in held]
        fresh = _once_per_key(fresh)
        matches = names_match((s.nickname for r in fresh for s in r.seats), choices=found.choices)
        _refuse_member_twice(fresh, matches)
        created = _create(found, fresh, matches, actor)
        found.status = ImportStatus.IMPORTING
        found.progress = 0
        found.imported_at = timezone.now()
        found.records = []  # the games are in the club now; the preview's copy is done
        found.counts = {
            **found.counts,
            "games": len(fresh),
            "skipped": len(records) - len(fresh),
            **created,
        }
        try:
            with transaction.atomic():
                found.save()
        except IntegrityError as error:  # the same file confirmed by a racing import
            raise Refused(_("This import was confirmed already."), RefusalCode.CONFLICT) from error
        queue_on_commit(REBUILD_TASK, found.pk)
    return found


def _once_per_key(records: list[GameRecord]) -> list[GameRecord]:
    seen: set[tuple[str, str]] = set()
    kept = []
    for record in records:
        if (record.source.value, record.key) not in seen:
            seen.add((record.source.value, record.key))
            kept.append(record)
    return kept


def _refuse_member_twice(records: Sequence[GameRecord], matches: Mapping[str, Match]) -> None:
    for record in records:
        members = [matches[login_key(s.nickname)].member for s in record.seats]
        ids = [m.pk for m in members if m is not None]
        if len(ids) != len(set(ids)):
            twice = next(m for m in members if m is not None and ids.count(m.pk) > 1)
            raise Refused(
                _("Line %(line)d: %(member)s would sit at two seats of one game.")
                % {"line": record.line, "member": twice.nickname},
                RefusalCode.INVALID,
            )


def _create(
    history_import: HistoryImport,
    records: Sequence[GameRecord],
    matches: Mapping[str, Match],
    actor: User,
) -> dict[str, int]:
    club = Club.current()
    evenings, new_evenings = _evenings_for({r.played_on for r in records}, club)
    guests = _guests_for(matches, actor)
    # The rules' table size is the game's own: an old game of 10 at a club that now plays 12.
    options = {size: club_options(club, size).to_dict() for size in _sizes(records)}
    known_roles = set(Role.objects.values_list("code", flat=True))
    numbers = dict(
        Game.objects.filter(evening__in=evenings.values())
        .values("evening_id")
        .annotate(n=Max("number"))
        .values_list("evening_id", "n")
    )
    games: list[Game] = []
    for record in records:
        evening = evenings[record.played_on]
        number = numbers.get(evening.pk, 0) + 1
        numbers[evening.pk] = number
        size = len(record.seats)
        games.append(_game(record, evening, number, options[size], known_roles, actor))
    Game.objects.bulk_create(games, batch_size=1000)
    # auto_now_add set `started_at` to now: an imported game started an hour before its end.
    Game.objects.filter(pk__in=[g.pk for g in games]).update(started_at=F("ended_at") - GAME_LENGTH)
    seats = []
    for record, game in zip(records, games, strict=True):
        for seat in record.seats:
            match = matches[login_key(seat.nickname)]
            member = match.member
            guest = None if member is not None else guests[match.key]
            seats.append(
                Seat(game=game, number=seat.seat, member=member, guest=guest, role=seat.role)
            )
    Seat.objects.bulk_create(seats, batch_size=2000)
    GameEvent.objects.bulk_create(
        (
            GameEvent(game=game, seq=n, type=event["type"], payload=event, author=actor)
            for record, game in zip(records, games, strict=True)
            if record.protocol is not None
            for n, event in enumerate(_log(record), start=1)
        ),
        batch_size=2000,
    )
    ImportedGame.objects.bulk_create(
        (
            ImportedGame(
                history_import=history_import, game=game, source=record.source.value, key=record.key
            )
            for record, game in zip(records, games, strict=True)
        ),
        batch_size=2000,
    )
    new_guests = [g.pk for g in guests.values() if g.pk in _created_guest_ids(matches, guests)]
    history_import.created_evenings = [e.pk for e in new_evenings]
    history_import.created_guests = new_guests
    return {"evenings": len(new_evenings), "guests": len(new_guests)}


def _sizes(records: Sequence[GameRecord]) -> set[int]:
    return {len(record.seats) for record in records}


def _created_guest_ids(matches: Mapping[str, Match], guests: Mapping[str, Guest]) -> set[int]:
    return {guests[m.key].pk for m in matches.values() if m.how == How.NEW}


def _guests_for(matches: Mapping[str, Match], actor: User) -> dict[str, Guest]:
    """The unclaimed player of each name no member was matched to: an earlier import's,
    or a new one (bulk-made)."""
    guests = {m.key: m.guest for m in matches.values() if m.member is None and m.guest is not None}
    new = {
        m.key: Guest(name=m.nickname[:NAME_LENGTH], from_history=True, added_by=actor)
        for m in matches.values()
        if m.how == How.NEW
    }
    Guest.objects.bulk_create(new.values())
    return {**guests, **new}


def _evenings_for(days: set[date], club: Club) -> tuple[dict[date, Evening], list[Evening]]:
    """An evening for each date: the club's evening of that day, else a new one, finished
    already (at the club's start time; a past evening: no sign-up, no announcement, no
    reminder — club/scheduling.py's sweeps read only scheduled evenings still to come)."""
    if not days:
        return {}, []
    zone = club.zone
    first, last = min(days), max(days)
    window = (
        datetime.combine(first, datetime.min.time(), zone),
        datetime.combine(last + timedelta(days=1), datetime.min.time(), zone),
    )
    found: dict[date, Evening] = {}
    existing = Evening.objects.filter(starts_at__range=window).exclude(
        status=EveningStatus.CANCELLED
    )
    for evening in existing.order_by("starts_at"):
        found.setdefault(timezone.localtime(evening.starts_at, zone).date(), evening)
    now = timezone.now()
    new = []
    for day in sorted(days - set(found)):
        starts_at = datetime.combine(day, club.start_time, zone)
        if starts_at > now:
            raise Refused(
                _("A game dated %(day)s is in the future: only played games are imported.")
                % {"day": date_format(day, "j E Y")},
                RefusalCode.INVALID,
            )
        new.append(
            Evening(
                starts_at=starts_at,
                opens_at=starts_at,
                venue=club.venue,
                capacity=club.seats_per_evening,
                status=EveningStatus.FINISHED,
                signup_announced_at=now,
                reminders_sent_at=now,
            )
        )
    Evening.objects.bulk_create(new)
    found.update({timezone.localtime(e.starts_at, zone).date(): e for e in new})
    return found, new


def _game(
    record: GameRecord,
    evening: Evening,
    number: int,
    options: dict[str, Any],
    known_roles: set[str],
    actor: User,
) -> Game:
    unknown = sorted({s.role for s in record.seats} - known_roles)
    if unknown and record.protocol is None:
        raise Refused(
            _("Line %(line)d: the club has no role «%(role)s».")
            % {"line": record.line, "role": unknown[0]},
            RefusalCode.INVALID,
        )
    ended_at = evening.starts_at + GAME_LENGTH * number
    game = Game(
        evening=evening,
        number=number,
        table=record.table,
        host=actor,
        options=options,
        lineup=lineup_of(s.role for s in record.seats),
        status=GameStatus.FINISHED,
        winner=record.winner,
        ended_at=ended_at,
        first_ended_at=ended_at,
    )
    if record.protocol is None:
        game.source = GameSource.RESULTS
        game.results = results_of(record).as_dict()
        return game
    parsed = protocol.parse(record.protocol)
    state, _failure = protocol.replay(parsed)
    game.source = GameSource.PROTOCOL
    game.options = parsed.options.to_dict()
    game.immune = list(parsed.immune)
    game.winner = state.winner or record.winner
    game.first_eliminated = list(state.first_eliminated)
    game.last_seq = len(parsed.events)
    if not state.finished:
        game.status, game.ended_at, game.first_ended_at = GameStatus.RUNNING, None, None
    return game


def _log(record: GameRecord) -> list[Any]:
    assert record.protocol is not None
    return list(protocol.normalized_events(protocol.parse(record.protocol)))


def results_of(record: GameRecord) -> Results:
    """A results-only game's Game.results from the reader's record."""
    return Results(
        seats={
            s.seat: SeatResult(
                fouls=s.fouls,
                left=s.left.value if s.left else "",
                when=s.left_when.upper(),
                extra=rounded(s.extra),
                reason=s.extra_reason,
            )
            for s in record.seats
        },
        best_move_by=record.best_move_by,
        best_move=tuple(record.best_move),
    )


def import_undo(*, history_import_id: int) -> HistoryImport:
    """Remove everything the import created: its games (their seats, logs, analyses and
    scores with them), the unclaimed players and evenings only it made; the ratings are
    replayed in the worker after the commit."""
    with transaction.atomic():
        found = HistoryImport.objects.select_for_update().filter(pk=history_import_id).first()
        if found is None:
            raise Refused(_("There is no such import."), RefusalCode.NOT_FOUND)
        if found.status != ImportStatus.IMPORTED:
            raise Refused(
                _("Only a finished import can be undone (this one is: %(status)s).")
                % {"status": found.get_status_display()},
                RefusalCode.CONFLICT,
            )
        games = Game.objects.filter(imported__history_import=found)
        removed = games.count()
        games.delete()
        # An unclaimed player is removed only if no other game seats them (another import
        # may have matched the name to them since).
        Guest.objects.filter(pk__in=found.created_guests, game_seats__isnull=True).delete()
        empty = Evening.objects.filter(pk__in=found.created_evenings, games__isnull=True)
        empty.exclude(pk__in=Registration.objects.values("evening_id")).delete()
        found.status = ImportStatus.UNDOING
        found.progress = 0
        found.undone_at = timezone.now()
        found.counts = {**found.counts, "removed": removed}
        found.save()
        queue_on_commit(REBUILD_TASK, found.pk)
    return found
