"""The game protocol document (docs/protocol.md): parse, replay, export.

A document replays the same anywhere: nothing here reads the club's database.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.rules import events
from games.rules.club import ClubGame
from games.rules.errors import ProtocolError, RuleViolation, gettext_noop
from games.rules.event_types import ClubEntry, OnlineEvent
from games.rules.online import OnlineGame, OnlineOptions
from games.rules.options import ClubOptions

Game = ClubGame | OnlineGame

FORMAT = "mafia-protocol/1"
NICK_MAX = 64


@dataclass(frozen=True)
class Seat:
    seat: int
    nick: str
    role: str


@dataclass(frozen=True)
class Protocol:
    ruleset: str  # "club" or "online"
    options: ClubOptions | OnlineOptions
    seats: tuple[Seat, ...]
    immune: tuple[int, ...]
    events: tuple[Mapping[str, object], ...]

    def new_game(self) -> Game:
        table = {seat.seat: seat.role for seat in self.seats}
        if isinstance(self.options, OnlineOptions):
            return OnlineGame(table, options=self.options)
        return ClubGame(
            {seat.seat: seat.role for seat in self.seats},
            options=self.options,
            immune=self.immune,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "ruleset": self.ruleset,
            "options": self.options.to_dict(),
            "seats": [{"seat": s.seat, "nick": s.nick, "role": s.role} for s in self.seats],
            "immune": list(self.immune),
            "events": [dict(event) for event in self.events],
        }


@dataclass(frozen=True)
class ReplayFailure:
    """An event the rules forbid (or a malformed one): where, and why."""

    index: int
    error: RuleViolation | ProtocolError

    def as_dict(self, message: str) -> dict[str, Any]:
        """The replay's failure output, with the error's message in the reader's words."""
        return {"error": message, "event": self.index}


def parse(raw: object) -> Protocol:
    """A Protocol from a decoded JSON document, or ProtocolError saying what is wrong."""
    if not isinstance(raw, Mapping):
        raise ProtocolError(gettext_noop("A protocol is a JSON object."))
    if raw.get("format") != FORMAT:
        raise ProtocolError(
            gettext_noop("Unknown format %(raw_get_format)s: expected %(FORMAT)s."),
            raw_get_format=repr(raw.get("format")),
            FORMAT=FORMAT,
        )
    ruleset = raw.get("ruleset")
    if ruleset not in ("club", "online"):
        raise ProtocolError(
            gettext_noop("Unknown ruleset %(ruleset)s: expected `club` or `online`."),
            ruleset=repr(ruleset),
        )
    options_type = OnlineOptions if ruleset == "online" else ClubOptions
    options = options_type.from_dict(raw.get("options", {}))
    seats = _parse_seats(raw.get("seats"))
    numbers = {seat.seat for seat in seats}
    immune_raw = raw.get("immune", [])
    if not isinstance(immune_raw, list) or any(type(s) is not int for s in immune_raw):
        raise ProtocolError(gettext_noop("`immune` is a list of seat numbers."))
    if ruleset == "online" and immune_raw:
        raise ProtocolError(gettext_noop("The online game has no immunity."))
    if not set(immune_raw) <= numbers or len(set(immune_raw)) != len(immune_raw):
        raise ProtocolError(gettext_noop("`immune` names a seat not at the table."))
    events = raw.get("events", [])
    if not isinstance(events, list):
        raise ProtocolError(gettext_noop("`events` is a list of events."))
    parsed = Protocol(ruleset, options, seats, tuple(immune_raw), tuple(events))
    parsed.new_game()  # the line-up itself must be playable: the table size, known roles
    return parsed


def _parse_seats(raw: object) -> tuple[Seat, ...]:
    if not isinstance(raw, list) or not raw:
        raise ProtocolError(gettext_noop("`seats` is a non-empty list."))
    seats: list[Seat] = []
    seen: set[int] = set()
    for item in raw:
        if not isinstance(item, Mapping):
            raise ProtocolError(gettext_noop("A seat is an object."))
        number, nick, role = item.get("seat"), item.get("nick", ""), item.get("role")
        if type(number) is not int or number < 1 or number in seen:
            raise ProtocolError(
                gettext_noop("A bad or repeated seat number: %(number)s."), number=repr(number)
            )
        if not isinstance(nick, str) or len(nick) > NICK_MAX:
            raise ProtocolError(gettext_noop("Seat %(number)s: a bad nick."), number=number)
        if not isinstance(role, str):
            raise ProtocolError(gettext_noop("Seat %(number)s: no role."), number=number)
        seen.add(number)
        seats.append(Seat(number, nick, role))
    return tuple(sorted(seats, key=lambda s: s.seat))


def loads(text: str | bytes) -> Protocol:
    try:
        raw = json.loads(text)
    except RecursionError as error:  # json's own guard against deep nesting
        raise ProtocolError(gettext_noop("This is not JSON: it is nested too deep.")) from error
    except (ValueError, UnicodeDecodeError) as error:
        raise ProtocolError(gettext_noop("This is not JSON: %(error)s."), error=error) from error
    return parse(raw)


def replay(protocol: Protocol) -> tuple[Game, ReplayFailure | None]:
    """The game after every event, or the state before the first forbidden (or malformed)
    one. Each event is checked for its shape as a live one is (games/rules/events.py)."""
    game = protocol.new_game()
    for index, event in enumerate(protocol.events):
        try:
            game.apply(events.normalize(event, protocol.ruleset))
        except (RuleViolation, ProtocolError) as error:
            return game, ReplayFailure(index, error)
    return game, None


def normalized_events(protocol: Protocol) -> list[ClubEntry | OnlineEvent]:
    """The document's events as the log stores them (after a replay without failure)."""
    return [events.normalize(event, protocol.ruleset) for event in protocol.events]


def export(
    *,
    seats: Sequence[Seat],
    events: Sequence[Mapping[str, object]],
    options: ClubOptions | OnlineOptions | None = None,
    immune: Sequence[int] = (),
) -> dict[str, Any]:
    """The document for a game: its options and role definitions, and the effective events."""
    ruleset = "online" if isinstance(options, OnlineOptions) else "club"
    return Protocol(
        ruleset, options or ClubOptions(), tuple(seats), tuple(immune), tuple(events)
    ).to_dict()
