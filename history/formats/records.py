"""What every reader gives the import, whatever the file it read: the games as their source
holds them, and every part it could not read with its line and reason. A game from a
results-only source (a spreadsheet, the exchange JSON's results) has no events; one from a
protocol has them in PROTOCOL.md's form and keeps them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import Any


class Source(StrEnum):
    EXCHANGE = "exchange"  # the field's game exchange JSON (mafiaratings' game_sample.js)
    SPREADSHEET = "spreadsheet"  # CSV or XLSX of results, one row per seat (columns.py)
    PROTOCOL = "protocol"  # this platform's protocol export (PROTOCOL.md), from another install


class Left(StrEnum):
    """How a player left the table before the end ("" when they stayed)."""

    KILLED = "killed"
    VOTED = "voted"
    FOULS = "fouls"
    DISQUALIFIED = "disqualified"


@dataclass(frozen=True)
class SeatRecord:
    seat: int  # 1 …
    nickname: str  # as written in the file, stripped
    role: str  # a role code of the club's catalogue (games.models.Role.code)
    fouls: int = 0
    left: Left | None = None
    left_when: str = ""  # "N1" (the first night), "D2" (the second day); "" if unknown
    extra: float = 0.0  # the host's extra points (negative for a penalty)
    extra_reason: str = ""


@dataclass(frozen=True)
class GameRecord:
    line: int  # where the game starts in its file: a row's number, or a JSON game's index
    # The game's identity inside its source, so that a second import of an overlapping file
    # finds the game it already holds (with `source` and the club).
    key: str
    source: Source
    played_on: date
    table: int
    number: int  # the game of the evening at its table, 1 …
    seats: tuple[SeatRecord, ...]
    winner: str  # "red", "black", or a loner's role code
    best_move: tuple[int, ...] = ()  # the seats the first killed named
    best_move_by: int | None = None  # the seat that named them
    # PROTOCOL.md's document (options, seats, events) when the source holds the game's log.
    protocol: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Problem:
    """A part of the file left out, in the uploader's language."""

    line: int
    message: str


@dataclass
class Read:
    games: list[GameRecord] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # The format the reader found (read_history picks it by the content); None when the
    # file was refused before any format was known (empty, too large, not JSON).
    source: Source | None = None
