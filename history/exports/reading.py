"""The games an export holds, read in chunks by id: each chunk costs a fixed number of
queries (its games, their seats with members and guests, those members' memberships, the
events, the scores), whatever its size, and nothing of a chunk is kept once it is written,
so the whole club streams in bounded memory.

Each game comes out as `ExportedGame`: the seats named as the requester may see them
(games/access.py, the same rule as every published page), the protocol document when the
game has an event log, and its results (who left how and when, fouls, best move, extra
points, scores) read from the engine's state after the effective events."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import roles
from club.kernel.clubs import Club
from games import access
from games.access import Viewer
from games.models import Game, GameEvent, Ruleset, Seat
from games.protocols import game_protocol
from games.ratings.models import PlayerScore
from games.ratings.publication import hidden_names, unnamed, unnamed_reason
from games.recording import engine_for
from games.rules.errors import ProtocolError, RuleViolation
from games.rules.log import effective_events
from games.rules.results import Results

CHUNK = 200

# How a seat left, as the engine's reasons say it → the spreadsheet's and records' words
# (history.formats.records.Left).
LEFT: Mapping[str, str] = {
    "voted": "voted",
    "car_crash": "voted",
    "killed": "killed",
    "kamikaze": "killed",
    "swindler": "killed",
    "fouls": "fouls",
    "warnings": "fouls",
    "disqualified": "disqualified",
    "modkill": "disqualified",
}


@dataclass
class SeatResult:
    seat: int
    nick: str  # as the requester may see it
    named: bool  # False: «Игрок N» / a guest's placeholder
    member_id: int | None  # the member (a guest linked to one too), for the player's scope
    role: str
    fouls: int = 0
    left: str | None = None  # history.formats.records.Left's value
    when: str = ""  # "N1", "D2"
    extra: float = 0.0
    reason: str = ""
    score: float | None = None


@dataclass
class ExportedGame:
    game_id: int
    played_on: date
    started_at: datetime
    ended_at: datetime
    table: int
    number: int
    ruleset: str
    winner: str
    seats: list[SeatResult]
    protocol: dict[str, Any] | None  # None: a results-only game (no event log)
    events: list[dict[str, Any]] = field(default_factory=list)  # effective, names screened
    best_move: tuple[int, ...] = ()
    best_move_by: int | None = None
    checks: list[dict[str, Any]] = field(default_factory=list)  # {by, target, result}
    eliminated: list[dict[str, Any]] = field(default_factory=list)  # the engine's


def game_ids(games: Any) -> Iterator[list[int]]:
    """The ids of `games` (a queryset) in chunks, by id: one query per chunk."""
    last = 0
    while True:
        chunk = list(games.filter(pk__gt=last).order_by("pk").values_list("pk", flat=True)[:CHUNK])
        if not chunk:
            return
        yield chunk
        last = chunk[-1]


def exported_games(games: Any, viewer: Viewer) -> Iterator[ExportedGame]:
    """Every game of `games` (a queryset of the club in scope), chunk by chunk."""
    zone = Club.current().zone
    for ids in game_ids(games):
        yield from _chunk(ids, viewer, zone)


def _chunk(ids: Sequence[int], viewer: Viewer, zone: Any) -> Iterator[ExportedGame]:
    rows = list(Game.objects.filter(pk__in=ids).select_related("evening").order_by("pk"))
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(game_id__in=ids)
        .select_related("member", "guest__member")
        .order_by("game_id", "number")
    ):
        seats[seat.game_id].append(seat)
    members = [s.member or (s.guest.member if s.guest else None) for g in seats.values() for s in g]
    roles.read_memberships(members)
    logs: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for game_id, payload in (
        GameEvent.objects.filter(game_id__in=ids)
        .order_by("game_id", "seq")
        .values_list("game_id", "payload")
    ):
        logs[game_id].append(payload)
    scores: dict[tuple[int, int], float] = {
        (game_id, seat): points
        for game_id, seat, points in PlayerScore.objects.filter(game_id__in=ids).values_list(
            "game_id", "seat", "points"
        )
    }
    for game in rows:
        yield _game(game, seats[game.pk], logs[game.pk], scores, viewer, zone)


def _named(seats: list[Seat], game: Game, viewer: Viewer) -> dict[int, str]:
    """Each seat's name as `viewer` may see it (games/access.py): «Игрок N» otherwise."""
    running = access.runs(viewer, game, seats)
    return {
        seat.number: access.seat_nickname(seat)
        if access.seat_name_visible(seat, viewer, runs_game=running)
        else _("Player %(seat)d") % {"seat": seat.number}
        for seat in seats
    }


def _game(
    game: Game,
    seats: list[Seat],
    log: list[dict[str, Any]],
    scores: Mapping[tuple[int, int], float],
    viewer: Viewer,
    zone: Any,
) -> ExportedGame:
    nick = _named(seats, game, viewer)
    hidden = hidden_names(seats, nick)
    played = game.evening.starts_at if game.evening else game.started_at
    results = [
        SeatResult(
            seat=seat.number,
            nick=nick[seat.number],
            named=nick[seat.number] == access.seat_nickname(seat),
            member_id=seat.member_id or (seat.guest.member_id if seat.guest else None),
            role=seat.role,
            score=scores.get((game.pk, seat.number)),
        )
        for seat in seats
    ]
    exported = ExportedGame(
        game_id=game.pk,
        played_on=timezone.localtime(played, zone).date(),
        started_at=game.started_at,
        ended_at=game.ended_at or game.started_at,
        table=game.table,
        number=game.number,
        ruleset=game.ruleset,
        winner=game.winner,
        seats=results,
        protocol=None,
    )
    if game.results_only:
        _take_results(exported, game, hidden)
        return exported
    events = effective_events(log)
    if not events:
        return exported  # a game ended before its first event: seats, roles, winner
    document = game_protocol(game, seats, log)
    document["seats"] = [{**s, "nick": nick.get(s["seat"], s["nick"])} for s in document["seats"]]
    document["events"] = [dict(unnamed_reason(e, hidden)) for e in document["events"]]
    exported.protocol = document
    exported.events = document["events"]
    _take_state(exported, game, seats, events, hidden)
    return exported


def _take_results(exported: ExportedGame, game: Game, hidden: Any) -> None:
    """A results-only game (imported from records that hold no log): what its results
    keep (games/rules/results.py), the deaths as «how» and «when» without a log."""
    try:
        results = Results.from_dict(game.results)
    except ProtocolError:
        return  # results that no longer read: the seats, roles, winner and scores
    for seat in exported.seats:
        held = results.seats.get(seat.seat)
        if held is None:
            continue
        seat.fouls, seat.left, seat.when = held.fouls, held.left or None, held.when
        seat.extra, seat.reason = held.extra, unnamed(held.reason, hidden)
        moment = _moment(held.when)
        if held.left and moment is not None:
            exported.eliminated.append(
                {"seat": seat.seat, "phase": moment[0], "n": moment[1], "reason": held.left}
            )
    exported.best_move, exported.best_move_by = tuple(results.best_move), results.best_move_by


def _moment(when: str) -> tuple[str, int] | None:
    """«N1» → ("night", 1), «D2» → ("day", 2); None when unknown."""
    if len(when) > 1 and when[0] in "ND" and when[1:].isdigit():
        return ("night" if when[0] == "N" else "day"), int(when[1:])
    return None


def _take_state(
    exported: ExportedGame,
    game: Game,
    seats: list[Seat],
    events: list[dict[str, Any]],
    hidden: Any,
) -> None:
    """The results the engine's state holds after the effective events. A record that no
    longer replays (changed in the database after it was played) keeps its seats, roles,
    winner and scores only."""
    try:
        state = engine_for(game, seats)
        state.apply_all(events)
    except (ProtocolError, RuleViolation):
        return
    summary = state.summary()
    by_seat = {result.seat: result for result in exported.seats}
    for seat, count in summary.get("fouls", {}).items():
        if int(seat) in by_seat:
            by_seat[int(seat)].fouls = count
    for gone in summary.get("eliminated", []):
        result = by_seat.get(gone["seat"])
        if result is not None:
            result.left = LEFT.get(str(gone["reason"]), str(gone["reason"]))
            result.when = ("N" if gone["phase"] == "night" else "D") + str(gone["n"])
    for bonus in summary.get("bonuses", []):
        result = by_seat.get(bonus["seat"])
        if result is not None:
            result.extra = round(result.extra + float(bonus["points"]), 2)
            text = unnamed(str(bonus.get("reason", "")), hidden)
            result.reason = "; ".join(part for part in (result.reason, text) if part)
    best = summary.get("best_move")
    if best:
        exported.best_move, exported.best_move_by = tuple(best["targets"]), best["by"]
    exported.checks = list(summary.get("checks", []))
    exported.eliminated = list(summary.get("eliminated", []))
    if game.ruleset == Ruleset.ONLINE and not exported.winner:
        exported.winner = str(summary.get("winner") or "")
