"""This platform's own protocol export, from another install (docs/history.md «This
platform's protocol»): an object `{"format": "mafia-club-history/1", "games": [...]}` whose
games hold their date, table, number and PROTOCOL.md's document beside their results; also
one bare PROTOCOL.md document, or a JSON list of them.

A game with a document is replayed through the rules engine (games/rules/protocol.py): a
document the engine refuses is a problem with the game's index and the engine's reason, in
the uploader's language. Its results come from the replayed state, never from the file's
`results` (which a hand could have changed): the seats and roles of the document, the
winner, who left how and when, fouls, the best move and the extra points; `protocol` keeps
the document. A game whose `protocol` is null is results-only and read from its `results`,
checked as a spreadsheet's game is. A bare document has no date, table or number: its date
is that of its first event's `at` time (a document without one is refused), table and
number are 1 and its order in the list. An online game (ruleset `online`) is not a club's
live game and is refused."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

from django.utils.translation import gettext as _

from games.rules.club import ClubGame
from games.rules.club.state import Reason
from games.rules.errors import ProtocolError
from games.rules.protocol import FORMAT as PROTOCOL_FORMAT
from games.rules.protocol import parse, replay
from games.rules_text import rules_message
from history.formats.jsondoc import load_json
from history.formats.lineup import (
    MAX_FOULS,
    MAX_NICKNAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    game_problem,
)
from history.formats.problems import Problems, file_problem
from history.formats.records import GameRecord, Left, Read, SeatRecord, Source
from history.formats.words import SHORT, read_when

FORMAT = "mafia-club-history/1"
LEFT = {
    Reason.VOTED: Left.VOTED,
    Reason.CAR_CRASH: Left.VOTED,
    Reason.FOULS: Left.FOULS,
    Reason.KILLED: Left.KILLED,
    Reason.KAMIKAZE: Left.KILLED,
    Reason.SWINDLER: Left.KILLED,
    Reason.DISQUALIFIED: Left.DISQUALIFIED,
}


class Unreadable(Exception):
    """A game of the file left out, with the reason (the reader's problem, not a door's
    refusal: the engine's own code stays in the message's words)."""


def _need(condition: bool, message: Callable[[], str]) -> None:
    """Refuse the game unless the condition holds; the message is made (translated) only
    then, so that reading a good game costs no translation."""
    if not condition:
        raise Unreadable(message())


def is_protocol(raw: object) -> bool:
    """Whether a decoded JSON is this platform's: the export, a document, or a list of them."""
    if isinstance(raw, Mapping):
        return raw.get("format") in (FORMAT, PROTOCOL_FORMAT)
    if isinstance(raw, list) and raw:
        first = raw[0]
        return isinstance(first, Mapping) and first.get("format") == PROTOCOL_FORMAT
    return False


def _digest(value: object) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def _replayed(document: object) -> tuple[ClubGame, Mapping[str, Any]]:
    """The finished game the document replays to, or Unreadable with the engine's reason."""
    try:
        protocol = parse(document)
    except ProtocolError as error:
        raise Unreadable(rules_message(error, UTC)) from error
    except (TypeError, ValueError, KeyError, AttributeError) as error:  # as for replay below
        raise Unreadable(_("The protocol cannot be replayed.")) from error
    _need(protocol.ruleset == "club", lambda: _("An online game is not a club's live game."))
    try:
        game, failure = replay(protocol)
    # The engine refuses a bad event with its own errors (caught in replay); a value of a
    # shape it never expects is the same answer for the uploader, not a server error.
    except (TypeError, ValueError, KeyError, AttributeError) as error:
        raise Unreadable(_("The protocol cannot be replayed.")) from error
    if failure is not None:
        raise Unreadable(
            _("Event %(index)s: %(reason)s")
            % {"index": failure.index, "reason": rules_message(failure.error, UTC)}
        )
    assert isinstance(game, ClubGame) and isinstance(document, Mapping)
    _need(game.winner is not None, lambda: _("The protocol stops before the game ends."))
    return game, document


def _seats_of(game: ClubGame, document: Mapping[str, Any]) -> tuple[SeatRecord, ...]:
    left = {
        e.seat: (LEFT[e.reason], f"{'N' if e.phase == 'night' else 'D'}{e.n}")
        for e in game.eliminated
    }
    extra: dict[int, float] = {}
    reasons: dict[int, list[str]] = {}
    for bonus in game.bonuses:
        extra[bonus.seat] = extra.get(bonus.seat, 0.0) + bonus.points
        reasons.setdefault(bonus.seat, []).append(bonus.reason)
    seats = []
    for seat in document["seats"]:
        number = seat["seat"]
        how, when = left.get(number, (None, ""))
        seats.append(
            SeatRecord(
                seat=number,
                nickname=str(seat.get("nick", "")).strip(),
                role=seat["role"],
                fouls=game.fouls.get(number, 0),
                left=how,
                left_when=when,
                extra=extra.get(number, 0.0),
                extra_reason="; ".join(reasons.get(number, []))[:500],
            )
        )
    return tuple(sorted(seats, key=lambda s: s.seat))


# A game's results as a reader makes them: seats, winner, best move and its author.
Results = tuple[tuple[SeatRecord, ...], str, tuple[int, ...], int | None]


def _from_protocol(document: object, codes: frozenset[str]) -> Results:
    game, doc = _replayed(document)
    seats = _seats_of(game, doc)
    for seat in seats:
        if seat.role not in codes:
            raise Unreadable(
                _("Seat %(seat)s: the club has no role «%(role)s».")
                % {"seat": seat.seat, "role": seat.role[:SHORT]}
            )
        if not seat.nickname:
            raise Unreadable(_("Seat %(seat)s has no nickname.") % {"seat": seat.seat})
    best = game.best_move
    assert game.winner is not None
    return seats, game.winner, (best.targets if best else ()), (best.by if best else None)


def _unreadable(seat: int, field: str) -> str:
    return _("Seat %(seat)s: the field «%(field)s» cannot be read.") % {
        "seat": seat,
        "field": field,
    }


def _result_seat(raw: object, codes: frozenset[str]) -> SeatRecord:
    _need(isinstance(raw, Mapping), lambda: _("A seat is not an object."))
    assert isinstance(raw, Mapping)
    number, nick, role = raw.get("seat"), raw.get("nick"), raw.get("role")
    _need(type(number) is int, lambda: _("A seat has no number."))
    assert isinstance(number, int)
    _need(
        isinstance(nick, str) and 0 < len(nick.strip()) <= MAX_NICKNAME,
        lambda: _("Seat %(seat)s has no nickname.") % {"seat": number},
    )
    _need(
        isinstance(role, str) and role in codes,
        lambda: (
            _("Seat %(seat)s: the club has no role «%(role)s».")
            % {"seat": number, "role": str(role)[:SHORT]}
        ),
    )
    fouls, left, when = raw.get("fouls", 0), raw.get("left"), raw.get("when", "")
    _need(
        type(fouls) is int and 0 <= fouls <= MAX_FOULS,
        lambda: _unreadable(number, "fouls"),
    )
    _need(
        left is None or left in {item.value for item in Left},
        lambda: _unreadable(number, "left"),
    )
    read = read_when(when) if isinstance(when, str) and when else ""
    _need(
        read is not None and (left is not None or not read),
        lambda: _unreadable(number, "when"),
    )
    extra = raw.get("extra", 0)
    _need(
        type(extra) in (int, float) and abs(extra) < 1000,
        lambda: _unreadable(number, "extra"),
    )
    reason = raw.get("reason", "")
    assert isinstance(nick, str) and isinstance(role, str) and isinstance(fouls, int)
    return SeatRecord(
        seat=number,
        nickname=nick.strip(),
        role=role,
        fouls=fouls,
        left=Left(left) if left else None,
        left_when=read or "",
        extra=float(extra),
        extra_reason=reason[:500] if isinstance(reason, str) else "",
    )


def _from_results(entry: Mapping[str, Any], codes: frozenset[str]) -> Results:
    results = entry.get("results")
    _need(
        isinstance(results, Mapping) and isinstance(results.get("seats"), list),
        lambda: _("The game has neither a protocol nor results."),
    )
    assert isinstance(results, Mapping)
    raw_seats = results["seats"]
    _need(
        len(raw_seats) <= MAX_PLAYERS,
        lambda: (
            _("%(count)s players at the table: a game has %(low)s to %(high)s.")
            % {"count": len(raw_seats), "low": MIN_PLAYERS, "high": MAX_PLAYERS}
        ),
    )
    seats = tuple(sorted((_result_seat(s, codes) for s in raw_seats), key=lambda s: s.seat))
    winner = entry.get("winner")
    _need(
        isinstance(winner, str) and 0 < len(winner) <= SHORT, lambda: _("The game names no winner.")
    )
    assert isinstance(winner, str)
    best = results.get("best_move") or []
    by = results.get("best_move_by")
    _need(
        isinstance(best, list) and all(type(s) is int for s in best),
        lambda: _("The best move is not a list of seats."),
    )
    _need(by is None or type(by) is int, lambda: _("The best move's author is not a seat."))
    return seats, winner, tuple(best), by


def _date(value: object) -> date:
    _need(isinstance(value, str) and len(value) <= SHORT, lambda: _("The game has no date."))
    assert isinstance(value, str)
    try:
        return date.fromisoformat(value)
    except ValueError as error:
        raise Unreadable(_("«%(value)s» is not a date (2026-12-07).") % {"value": value}) from error


def _place(value: object, default: int) -> int:
    if value is None:
        return default
    _need(
        type(value) is int and 1 <= value <= 1000,
        lambda: _("Tables and games are numbered from 1."),
    )
    assert isinstance(value, int)
    return value


def _first_moment(document: object) -> date:
    events = document.get("events") if isinstance(document, Mapping) else None
    for event in events if isinstance(events, list) else []:
        at = event.get("at") if isinstance(event, Mapping) else None
        if isinstance(at, str) and len(at) <= SHORT:
            try:
                return datetime.fromisoformat(at).date()
            except ValueError:
                break
    raise Unreadable(_("The protocol has no date: none of its events says when."))


def read_entry(index: int, entry: object, codes: frozenset[str], *, bare: bool) -> GameRecord:
    _need(isinstance(entry, Mapping), lambda: _("A game is a JSON object."))
    assert isinstance(entry, Mapping)
    if bare:
        document: object = entry
        played_on, table, number = _first_moment(entry), 1, index
    else:
        document = entry.get("protocol")
        played_on = _date(entry.get("date"))
        table, number = _place(entry.get("table"), 1), _place(entry.get("number"), 1)
    if document is None:
        seats, winner, best, by = _from_results(entry, codes)
    else:
        seats, winner, best, by = _from_protocol(document, codes)
    problem = game_problem(seats, winner=winner, best_move=best, best_move_by=by)
    _need(problem is None, lambda: problem or "")
    key_parts = {"date": played_on.isoformat(), "table": table, "number": number}
    key_source = document if document is not None else [s.__dict__ for s in seats]
    return GameRecord(
        line=index,
        key=_digest({**key_parts, "game": key_source}),
        source=Source.PROTOCOL,
        played_on=played_on,
        table=table,
        number=number,
        seats=seats,
        winner=winner,
        best_move=best,
        best_move_by=by,
        protocol=document if isinstance(document, Mapping) else None,
    )


def _read_protocol_document(raw: object, *, roles: Mapping[str, str]) -> Read:
    entries: Sequence[object]
    bare = True
    if isinstance(raw, Mapping) and raw.get("format") == FORMAT:
        listed = raw.get("games")
        if not isinstance(listed, list):
            return Read(problems=file_problem(_("The export holds no list of games.")))
        entries, bare = listed, False
    elif isinstance(raw, Mapping) and raw.get("format") == PROTOCOL_FORMAT:
        entries = [raw]
    elif isinstance(raw, list):
        entries = raw
    else:
        return Read(problems=file_problem(_("This JSON is not this platform's protocol export.")))
    if not entries:
        return Read(problems=file_problem(_("This JSON holds no game.")))
    codes = frozenset(roles)
    problems = Problems()
    games: list[GameRecord] = []
    for index, entry in enumerate(entries, start=1):
        try:
            games.append(read_entry(index, entry, codes, bare=bare))
        except Unreadable as error:
            if problems.full:
                problems.count()
                continue
            problems.add(index, _("Game %(index)s: %(reason)s") % {"index": index, "reason": error})
    return Read(games=games, problems=problems.done())


def read_protocol(data: bytes, *, roles: Mapping[str, str]) -> Read:
    raw = load_json(data)
    if isinstance(raw, str):
        return Read(problems=file_problem(raw), source=Source.PROTOCOL)
    return read_protocol_document(raw, roles=roles)


def read_protocol_document(raw: object, *, roles: Mapping[str, str]) -> Read:
    read = _read_protocol_document(raw, roles=roles)
    read.source = Source.PROTOCOL
    return read
