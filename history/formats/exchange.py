"""The field's game exchange JSON, as mafiaratings documents it (its game_sample.js and the
API help of its games, include/game.php `api_help`): read for the facts, written here anew.

What is read, per game: `id` (the key; without it, a digest of the game's JSON), the start
time (`startTime`/`start_time`: a UNIX time or ISO 8601, in the game's `timezone` when it
names one) for the date, `winner` (civ → red, maf → black; a tie is refused: this platform
keeps no draw), and `players`, whose index is the seat (1 …): the name (`name`, `nickname`
or `user.name`), `role` (civ, maf, don, sheriff or srf → the club's civilian, mafia, boss,
commissar; absent is civ, as the format says), `warnings` (a number, or a list of when each
was given) as fouls, `death` (its type: day → voted, night → killed, warnings or techFouls →
fouls, kickOut, teamKickOut or giveUp → disqualified; its round → «D(round+1)» for a day,
«N(round)» for a night: the format's day 0 is the platform's day 1, its night 1 the night
after it), `legacy` (the best move, with its author), `bonus` numbers (extra points) and
`comment` or the bonus titles (the reason).

What is left out: nominations, votes, shots and checks. The exchange keeps them per player
and per round, without their order within a day, the defence, or the hands of a runoff
that this platform's protocol (PROTOCOL.md) replays, so a faithful event log cannot be made
of them without inventing: every exchange game is results-only (`protocol` is None).
The format has no table, no game number and no evening's date: each game is at table 1,
numbered by its start time among the file's games of the same date, on its start's date;
this platform's export adds `table`, `number` and `date` (the evening's), which are read
when present."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.utils.translation import gettext as _

from history.formats.jsondoc import load_json
from history.formats.lineup import MAX_FOULS, MAX_NICKNAME, MAX_PLAYERS, MIN_PLAYERS, game_problem
from history.formats.problems import Problems, file_problem
from history.formats.records import GameRecord, Left, Read, SeatRecord, Source
from history.formats.words import SHORT

ROLES = {
    "civ": "civilian",
    "maf": "mafia",
    "don": "boss",
    "sheriff": "commissar",
    "srf": "commissar",
}
WINNERS = {"civ": "red", "maf": "black"}
DEATHS = {
    "day": Left.VOTED,
    "night": Left.KILLED,
    "warnings": Left.FOULS,
    "techFouls": Left.FOULS,
    "kickOut": Left.DISQUALIFIED,
    "teamKickOut": Left.DISQUALIFIED,
    "giveUp": Left.DISQUALIFIED,
}
# The format's moments of a night (the rest are of a day): include/game.php's game times.
NIGHT_TIMES = frozenset(
    {
        "start",
        "arrangement",
        "relaxed sitting",
        "night start",
        "shooting",
        "don",
        "sheriff",
        "night end",
    }
)
MAX_ROUND = 50


class Refused(Exception):
    """The game is left out; the message says why."""


def _need(condition: bool, message: Callable[[], str]) -> None:
    """Refuse the game unless the condition holds; the message is made (translated) only
    then, so that reading a good game costs no translation."""
    if not condition:
        raise Refused(message())


def _int(value: object) -> int | None:
    return value if type(value) is int else None


def _zone(game: Mapping[str, Any]) -> tzinfo | None:
    name = game.get("timezone")
    if isinstance(name, str) and 0 < len(name) <= SHORT:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return None


def _start(game: Mapping[str, Any]) -> datetime:
    value = game.get("startTime", game.get("start_time"))
    zone = _zone(game)
    moment: datetime | None = None
    if type(value) is int and 0 < value < 10**11:
        moment = datetime.fromtimestamp(value, UTC)
    elif isinstance(value, str) and len(value) <= SHORT:
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            moment = None
        if moment is not None and moment.tzinfo is None:
            moment = moment.replace(tzinfo=zone or UTC)
    _need(moment is not None, lambda: _("The game has no readable start time."))
    assert moment is not None
    # Without the game's zone an ISO time's own offset says the evening's date.
    return moment.astimezone(zone) if zone is not None else moment


def _evening(game: Mapping[str, Any]) -> date | None:
    """The evening's date, which this platform's export adds: a game begun after midnight
    is the evening's before (None when absent or unreadable: the start's date then)."""
    value = game.get("date")
    if not isinstance(value, str) or len(value) != len("2026-12-06"):
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def _place(value: object) -> int:
    """The table or the game's number, which this platform's export adds (1 without)."""
    return value if type(value) is int and 1 <= value <= 1000 else 1


def _when(round_: int | None, night: bool) -> str:
    if round_ is None or not 0 <= round_ <= MAX_ROUND:
        return ""
    if night:
        return f"N{round_}" if round_ >= 1 else ""
    return f"D{round_ + 1}"


def _death(raw: object, seat: int) -> tuple[Left | None, str]:
    """How and when the player left: `death` is a flag, a round, a type or an object."""
    if raw is None or raw is False:
        return None, ""
    if raw is True or type(raw) is int:
        return None, ""  # died, but how is not said: nothing the record can hold
    kind: object = raw
    round_: int | None = None
    time: object = None
    if isinstance(raw, Mapping):
        kind, round_, time = raw.get("type"), _int(raw.get("round")), raw.get("time")
    if kind is None:
        return None, ""
    left = DEATHS.get(kind) if isinstance(kind, str) else None
    _need(
        left is not None,
        lambda: (
            _("Seat %(seat)s: «%(value)s» is no way to leave the game.")
            % {"seat": seat, "value": str(kind)[:SHORT]}
        ),
    )
    if kind in ("day", "night"):
        return left, _when(round_, kind == "night")
    if isinstance(time, Mapping):
        moment = time.get("time")
        return left, _when(_int(time.get("round")), moment in NIGHT_TIMES)
    return left, ""


def _fouls(raw: object, seat: int) -> int:
    count = len(raw) if isinstance(raw, list) else raw if raw is not None else 0
    _need(
        type(count) is int and 0 <= count <= MAX_FOULS,
        lambda: (
            _("Seat %(seat)s: %(fouls)s fouls: a player has 0 to %(most)s.")
            % {"seat": seat, "fouls": str(count)[:SHORT], "most": MAX_FOULS}
        ),
    )
    assert isinstance(count, int)
    return count


def _bonus(player: Mapping[str, Any]) -> tuple[float, str]:
    raw = player.get("bonus")
    items = raw if isinstance(raw, list) else [raw] if raw is not None else []
    points = sum(float(b) for b in items if type(b) in (int, float) and abs(b) < 1000)
    titles = [b for b in items if isinstance(b, str) and len(b) <= SHORT]
    comment = player.get("comment")
    reason = comment if isinstance(comment, str) else ", ".join(titles)
    return points, reason[:500]


def _name(player: Mapping[str, Any]) -> str:
    user = player.get("user")
    for value in (
        player.get("name"),
        player.get("nickname"),
        user.get("name") if isinstance(user, Mapping) else None,
    ):
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def _seat(index: int, player: object, codes: frozenset[str]) -> SeatRecord:
    seat = index + 1
    _need(
        isinstance(player, Mapping), lambda: _("Seat %(seat)s is not an object.") % {"seat": seat}
    )
    assert isinstance(player, Mapping)
    name = _name(player)
    _need(
        0 < len(name) <= MAX_NICKNAME,
        lambda: (
            _("Seat %(seat)s: no name, or one longer than %(most)s letters.")
            % {"seat": seat, "most": MAX_NICKNAME}
        ),
    )
    written = player.get("role", "civ")
    role = None
    if isinstance(written, str):
        # The format's four roles, or (this platform's export writes the others so, a
        # loner above all) a role code of the club's catalogue.
        role = ROLES.get(written) or (written if written in codes else None)
    _need(
        role is not None and role in codes,
        lambda: (
            _("Seat %(seat)s: the club has no role «%(role)s».")
            % {"seat": seat, "role": str(written)[:SHORT]}
        ),
    )
    assert role is not None
    left, when = _death(player.get("death"), seat)
    extra, reason = _bonus(player)
    return SeatRecord(
        seat=seat,
        nickname=name,
        role=role,
        fouls=_fouls(player.get("warnings"), seat),
        left=left,
        left_when=when,
        extra=extra,
        extra_reason=reason,
    )


def _best_move(players: Sequence[object]) -> tuple[tuple[int, ...], int | None]:
    named = [
        (index + 1, player["legacy"])
        for index, player in enumerate(players)
        if isinstance(player, Mapping) and player.get("legacy")
    ]
    if not named:
        return (), None
    _need(len(named) == 1, lambda: _("Two players leave a best move: the record keeps one."))
    by, seats = named[0]
    _need(
        isinstance(seats, list) and all(type(s) is int for s in seats),
        lambda: _("The best move is not a list of seats."),
    )
    return tuple(seats), by


def key_of(game: Mapping[str, Any]) -> str:
    """The game's id, or a digest of its contents (the same game gives the same key)."""
    given = game.get("id")
    if isinstance(given, int | str) and not isinstance(given, bool) and str(given).strip():
        return str(given).strip()[:64]
    text = json.dumps(game, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def read_game(index: int, game: object, codes: frozenset[str]) -> tuple[datetime, GameRecord, bool]:
    _need(isinstance(game, Mapping), lambda: _("A game is a JSON object."))
    assert isinstance(game, Mapping)
    players = game.get("players")
    _need(isinstance(players, list), lambda: _("The game has no list of players."))
    assert isinstance(players, list)
    _need(
        len(players) <= MAX_PLAYERS,
        lambda: (
            _("%(count)s players at the table: a game has %(low)s to %(high)s.")
            % {"count": len(players), "low": MIN_PLAYERS, "high": MAX_PLAYERS}
        ),
    )
    written = game.get("winner")
    winner = None
    if isinstance(written, str):
        winner = WINNERS.get(written) or (written if written in codes else None)
    _need(
        winner is not None,
        lambda: (
            _("«%(value)s» is no winner: civ or maf (a tie is not kept).")
            % {"value": str(game.get("winner"))[:SHORT]}
        ),
    )
    assert winner is not None
    seats = tuple(_seat(i, player, codes) for i, player in enumerate(players))
    best_move, best_move_by = _best_move(players)
    problem = game_problem(seats, winner=winner, best_move=best_move, best_move_by=best_move_by)
    _need(problem is None, lambda: problem or "")
    start = _start(game)
    record = GameRecord(
        line=index,
        key=key_of(game),
        source=Source.EXCHANGE,
        played_on=_evening(game) or start.date(),
        table=_place(game.get("table")),
        number=_place(game.get("number")),
        seats=seats,
        winner=winner,
        best_move=best_move,
        best_move_by=best_move_by,
    )
    return start, record, _place(game.get("number")) == game.get("number")


def games_of(raw: object) -> list[object] | None:
    """The games of a document: one game, a list of them, or {"games": [...]}."""
    if isinstance(raw, list):
        return raw
    if isinstance(raw, Mapping):
        if isinstance(raw.get("games"), list):
            return list(raw["games"])
        if "players" in raw:
            return [raw]
    return None


def _numbered(games: list[tuple[datetime, GameRecord, bool]]) -> list[GameRecord]:
    """Games of one date and table numbered by their start time (the file's order on a
    tie), unless the game says its number."""
    order = sorted(range(len(games)), key=lambda i: (games[i][0], i))
    counts: dict[tuple[date, int], int] = {}
    numbers: dict[int, int] = {}
    for i in order:
        place = (games[i][1].played_on, games[i][1].table)
        counts[place] = counts.get(place, 0) + 1
        numbers[i] = counts[place]
    return [
        game if numbered else replace(game, number=numbers[i])
        for i, (_start, game, numbered) in enumerate(games)
    ]


def _read_exchange_document(raw: object, *, roles: Mapping[str, str]) -> Read:
    games = games_of(raw)
    if not games:
        return Read(problems=file_problem(_("This JSON holds no game of the exchange format.")))
    codes = frozenset(roles)
    problems = Problems()
    read: list[tuple[datetime, GameRecord, bool]] = []
    for index, game in enumerate(games, start=1):
        try:
            read.append(read_game(index, game, codes))
        except Refused as error:
            if problems.full:
                problems.count()
                continue
            problems.add(index, _("Game %(index)s: %(reason)s") % {"index": index, "reason": error})
    return Read(games=_numbered(read), problems=problems.done())


def read_exchange(data: bytes, *, roles: Mapping[str, str]) -> Read:
    raw = load_json(data)
    if isinstance(raw, str):
        return Read(problems=file_problem(raw), source=Source.EXCHANGE)
    return read_exchange_document(raw, roles=roles)


def read_exchange_document(raw: object, *, roles: Mapping[str, str]) -> Read:
    read = _read_exchange_document(raw, roles=roles)
    read.source = Source.EXCHANGE
    return read
