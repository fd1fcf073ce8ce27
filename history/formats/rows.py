"""One spreadsheet row's cells read into a seat, and a game's rows into the game's own
values (date, table, number, winner), each refused with its line and reason. A formula is
refused wherever it stands: the import never evaluates one."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from history.formats.cells import is_formula
from history.formats.lineup import MAX_FOULS, MAX_NICKNAME, MAX_SEAT
from history.formats.records import SeatRecord
from history.formats.words import SHORT, RoleBook, read_date, read_left, read_when, read_winner

_INT = re.compile(r"\d{1,3}")
_NUMBER = re.compile(r"[+-]?\d{1,3}(?:[.,]\d{1,4})?")
_SEATS = re.compile(r"\d{1,2}(?:[\s,;]+\d{1,2}){0,5}")


# Each column in the reader's words (the header as the export writes it in their language).
_COLUMN_LABELS = {
    "game": pgettext_lazy("history column", "game"),
    "date": pgettext_lazy("history column", "date"),
    "table": pgettext_lazy("history column", "table"),
    "number": pgettext_lazy("history column", "number"),
    "seat": pgettext_lazy("history column", "seat"),
    "nickname": pgettext_lazy("history column", "nickname"),
    "role": pgettext_lazy("history column", "role"),
    "fouls": pgettext_lazy("history column", "fouls"),
    "left": pgettext_lazy("history column", "left"),
    "when": pgettext_lazy("history column", "when"),
    "best_move": pgettext_lazy("history column", "best move"),
    "winner": pgettext_lazy("history column", "winner"),
    "extra": pgettext_lazy("history column", "extra"),
    "reason": pgettext_lazy("history column", "reason"),
}


def column_label(key: str) -> str:
    return str(_COLUMN_LABELS.get(key, key))


class RowError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def _formula(line: int, key: str) -> RowError:
    message = _("The column «%(column)s» holds a formula: formulas are not read.")
    return RowError(line, message % {"column": column_label(key)})


@dataclass(frozen=True)
class GameFields:
    played_on: date
    table: int
    number: int
    winner: str


def _cell(line: int, fields: dict[str, object], key: str) -> object:
    value = fields.get(key)
    if is_formula(value):
        raise _formula(line, key)
    if isinstance(value, str):
        return value.strip()
    return value


def _text(line: int, fields: dict[str, object], key: str) -> str:
    value = _cell(line, fields, key)
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _whole(line: int, fields: dict[str, object], key: str, default: int | None) -> int:
    value = _cell(line, fields, key)
    if isinstance(value, bool):
        value = str(value)
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return int(value)
    text = "" if value is None else str(value)
    if not text and default is not None:
        return default
    if _INT.fullmatch(text):
        return int(text)
    raise RowError(
        line,
        _("«%(value)s» in the column «%(column)s» is not a whole number.")
        % {"value": text[:SHORT], "column": column_label(key)},
    )


def _extra(line: int, fields: dict[str, object]) -> float:
    value = _cell(line, fields, "extra")
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if number and isinstance(value, int | float) and math.isfinite(value):
        return float(value)
    text = "" if value is None else str(value)
    if not text:
        return 0.0
    if _NUMBER.fullmatch(text):
        return float(text.replace(",", "."))
    raise RowError(line, _("«%(value)s» is no number of extra points.") % {"value": text[:SHORT]})


def _best_move(line: int, fields: dict[str, object]) -> tuple[int, ...]:
    text = _text(line, fields, "best_move")
    if not text:
        return ()
    if not _SEATS.fullmatch(text):
        raise RowError(
            line, _("«%(value)s» is no best move: seats such as «3 5 8».") % {"value": text[:SHORT]}
        )
    return tuple(int(seat) for seat in re.findall(r"\d+", text))


def read_seat(
    line: int, fields: dict[str, object], book: RoleBook
) -> tuple[SeatRecord, tuple[int, ...]]:
    """The row's seat, and the best move it names (empty when it names none)."""
    for key, value in fields.items():
        if is_formula(value):
            raise _formula(line, key)
    seat = _whole(line, fields, "seat", None)
    if not 1 <= seat <= MAX_SEAT:
        raise RowError(
            line,
            _("Seat %(seat)s: seats are numbered 1 to %(high)s.")
            % {"seat": seat, "high": MAX_SEAT},
        )
    nickname = _text(line, fields, "nickname")
    if not nickname or len(nickname) > MAX_NICKNAME:
        raise RowError(
            line, _("No nickname, or one longer than %(most)s letters.") % {"most": MAX_NICKNAME}
        )
    role_text = _text(line, fields, "role")
    role = book.code(role_text)
    if role is None:
        raise RowError(
            line, _("The club has no role «%(role)s».") % {"role": role_text[:SHORT] or "—"}
        )
    fouls = _whole(line, fields, "fouls", 0)
    if not 0 <= fouls <= MAX_FOULS:
        raise RowError(
            line,
            _("%(fouls)s fouls: a player has 0 to %(most)s.") % {"fouls": fouls, "most": MAX_FOULS},
        )
    left_text, when_text = _text(line, fields, "left"), _text(line, fields, "when")
    left = read_left(left_text) if left_text else None
    if left_text and left is None:
        raise RowError(
            line,
            _("«%(value)s» is not how a player leaves (killed, voted, fouls, disqualified).")
            % {"value": left_text[:SHORT]},
        )
    when = read_when(when_text) if when_text else ""
    if when is None or (when and left is None):
        raise RowError(
            line,
            _(
                "«%(value)s» is not when a player left "
                "(N1 for the first night, D2 for the second day)."
            )
            % {"value": when_text[:SHORT]},
        )
    record = SeatRecord(
        seat=seat,
        nickname=nickname,
        role=role,
        fouls=fouls,
        left=left,
        left_when=when,
        extra=_extra(line, fields),
        extra_reason=_text(line, fields, "reason")[:500],
    )
    return record, _best_move(line, fields)


def _date(line: int, fields: dict[str, object]) -> date | None:
    value = _cell(line, fields, "date")
    if value is None or value == "":
        return None
    read = read_date(value)
    if read is None:
        shown = value.isoformat() if isinstance(value, datetime | date) else str(value)[:SHORT]
        raise RowError(
            line,
            _("«%(value)s» is not a date (07.12.2026, 2026-12-07, 7 декабря 2026).")
            % {"value": shown},
        )
    return read


def _agreed(values: Sequence[tuple[int, object]], what: str) -> object:
    """The one value the game's rows give (empty cells aside), or the row that differs."""
    first: object = None
    for line, value in values:
        if value is None or value == "":
            continue
        if first is None:
            first = value
        elif value != first:
            raise RowError(
                line, _("The rows of this game disagree in the column «%(what)s».") % {"what": what}
            )
    return first


def read_game_fields(rows: Sequence[tuple[int, dict[str, object]]], book: RoleBook) -> GameFields:
    start = rows[0][0]
    played_on = _agreed([(line, _date(line, f)) for line, f in rows], column_label("date"))
    if not isinstance(played_on, date):
        raise RowError(start, _("The game has no date."))
    tables = [(line, _whole(line, f, "table", 1)) for line, f in rows]
    table = _agreed(tables, column_label("table"))
    numbers = [(line, _whole(line, f, "number", 1)) for line, f in rows]
    number = _agreed(numbers, column_label("number"))
    winners: list[tuple[int, object]] = []
    for line, fields in rows:
        text = _text(line, fields, "winner")
        winner = read_winner(text, book) if text else None
        if text and winner is None:
            raise RowError(
                line,
                _("«%(value)s» is no winner: red, black or a loner's role.")
                % {"value": text[:SHORT]},
            )
        winners.append((line, winner))
    agreed = _agreed(winners, column_label("winner"))
    if not isinstance(agreed, str):
        raise RowError(start, _("The game names no winner."))
    assert isinstance(table, int) and isinstance(number, int)
    if table < 1 or number < 1:
        raise RowError(start, _("Tables and games are numbered from 1."))
    return GameFields(played_on, table, number, agreed)
