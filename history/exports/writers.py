"""The three files an export writes, each as an iterator of text pieces a streaming
response sends as they come: the spreadsheet (CSV, one row per seat, the columns the
import reads), this platform's protocol export, and the field's game exchange JSON."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

from django.utils import timezone
from django.utils.translation import get_language

from club.kernel.clubs import Club
from club.kernel.spreadsheets import CsvWriter
from history.exports import exchange
from history.exports.reading import ExportedGame
from history.exports.scopes import Scope
from history.formats.columns import COLUMNS

PROTOCOL_FORMAT = "mafia-club-history/1"


def _number(value: float) -> float | int:
    """2.0 as 2, 0.25 as 0.25: what a person writes in a sheet."""
    return int(value) if float(value).is_integer() else round(value, 2)


def csv_header(language: str | None = None) -> list[str]:
    """The columns' headers in the requester's language: each column's first name is
    English, its second Russian (history/formats/columns.py)."""
    russian = (language or get_language() or "ru").startswith("ru")
    return [column.names[1 if russian and len(column.names) > 1 else 0] for column in COLUMNS]


def csv_rows(game: ExportedGame, club_slug: str) -> Iterator[dict[str, object]]:
    key = f"{club_slug}-{game.game_id}"
    for seat in game.seats:
        gave = game.best_move_by == seat.seat
        yield {
            "game": key,
            "date": game.played_on.isoformat(),
            "table": game.table,
            "number": game.number,
            "seat": seat.seat,
            "nickname": seat.nick,
            "role": seat.role,
            "fouls": seat.fouls,
            "left": seat.left or "",
            "when": seat.when,
            "best_move": " ".join(str(s) for s in game.best_move) if gave else "",
            "winner": game.winner,
            "extra": _number(seat.extra) if seat.extra else "",
            "reason": seat.reason,
        }


def csv_stream(games: Iterable[ExportedGame], language: str | None = None) -> Iterator[str]:
    """The spreadsheet: a byte-order mark (so that Excel reads UTF-8), the header, a row
    per seat; every cell neutralised against formulas and quoted (CsvWriter)."""
    buffer = io.StringIO()
    writer = CsvWriter(buffer)
    writer.writerow(csv_header(language))
    yield "\ufeff" + _taken(buffer)
    slug = Club.current().slug
    for game in games:
        for row in csv_rows(game, slug):
            writer.writerow([row[column.key] for column in COLUMNS])
        yield _taken(buffer)


def _taken(buffer: io.StringIO) -> str:
    text = buffer.getvalue()
    buffer.seek(0)
    buffer.truncate()
    return text


def protocol_game(game: ExportedGame) -> dict[str, Any]:
    """One game of the protocol export (docs/history.md «This platform's protocol»)."""
    return {
        "date": game.played_on.isoformat(),
        "table": game.table,
        "number": game.number,
        "winner": game.winner,
        "protocol": game.protocol,
        "results": {
            "best_move": list(game.best_move),
            "best_move_by": game.best_move_by,
            "seats": [
                {
                    "seat": seat.seat,
                    "nick": seat.nick,
                    "role": seat.role,
                    "fouls": seat.fouls,
                    "left": seat.left,
                    "when": seat.when,
                    "extra": seat.extra,
                    "reason": seat.reason,
                    "score": seat.score,
                }
                for seat in game.seats
            ],
        },
    }


def protocol_stream(games: Iterable[ExportedGame], scope: Scope) -> Iterator[str]:
    club = Club.current()
    head = {
        "format": PROTOCOL_FORMAT,
        "club": {"slug": club.slug, "name": str(club)},
        "scope": {"kind": str(scope.kind), "id": scope.key, "name": scope.name},
        "exported_at": timezone.now().isoformat(),
    }
    yield json.dumps(head, ensure_ascii=False)[:-1] + ', "games": ['
    first = True
    for game in games:
        yield ("" if first else ",") + json.dumps(protocol_game(game), ensure_ascii=False)
        first = False
    yield "]}"


def exchange_stream(games: Iterable[ExportedGame]) -> Iterator[str]:
    """The field's exchange JSON: an array, one game per element (history/exports/exchange.py)."""
    club = Club.current()
    yield "["
    first = True
    for game in games:
        document = exchange.game_document(game, club_name=str(club), zone=club.zone)
        yield ("" if first else ",") + json.dumps(document, ensure_ascii=False)
        first = False
    yield "]"
