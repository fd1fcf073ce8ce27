"""A spreadsheet's rows, whatever file they came from (CSV or XLSX), read into games: the
header names the columns (columns.py), each row is one seat, rows are grouped into games
by the `game` column or, without it, by date + table + number. Every game is checked whole
(lineup.py); a game with any problem is left out whole, the others are read.

A row that names no game (an empty key) cannot be placed: it is refused, and so are the
games of the rows just above and below it, since a paper sheet lists a game's seats
together and one of them may be that row's game — a game short of a seat is never read."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime

from django.utils.translation import gettext as _

from history.formats.cells import Merged
from history.formats.columns import BY_NAME, COLUMNS
from history.formats.lineup import MAX_PLAYERS, MIN_PLAYERS, game_problem
from history.formats.problems import Problems, file_problem
from history.formats.records import GameRecord, Problem, Read, SeatRecord, Source
from history.formats.rows import GameFields, RowError, column_label, read_game_fields, read_seat
from history.formats.words import RoleBook, fold

# The columns that describe the game rather than the seat: a merged cell fills them down.
GAME_LEVEL = frozenset({"game", "date", "table", "number", "winner"})
# A header wider than this is no header of ours (its first cells are read, the rest not).
MAX_COLUMNS = 64
# The header is looked for among the first rows that are not empty (titles may stand above).
HEADER_WITHIN = 5
# Rows of one game past this are not kept: the game is refused for its size anyway.
KEEP_ROWS = 16


@dataclass
class _Group:
    line: int
    rows: list[tuple[int, dict[str, object]]] = field(default_factory=list)
    count: int = 0
    refused: str | None = None
    refused_line: int = 0


def _header(cells: Sequence[object]) -> dict[int, str] | str:
    """Each read column's index → its key, or why the header is refused."""
    found: dict[int, str] = {}
    for index, cell in enumerate(cells[:MAX_COLUMNS]):
        if not isinstance(cell, str):
            continue
        column = BY_NAME.get(fold(cell)[:40])
        if column is None:
            continue
        if column.key in found.values():
            return _("The column «%(name)s» is named twice.") % {"name": cell.strip()[:40]}
        found[index] = column.key
    missing = [c.names[-1] for c in COLUMNS if c.required and c.key not in found.values()]
    if missing:
        return _("The header lacks the columns %(missing)s (columns: %(all)s).") % {
            "missing": ", ".join(f"«{name}»" for name in missing),
            "all": ", ".join(f"«{c.names[-1]}»" for c in COLUMNS),
        }
    return found


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _fields(cells: Sequence[object], header: dict[int, str]) -> dict[str, object]:
    fields: dict[str, object] = {}
    for index, key in header.items():
        value = cells[index] if index < len(cells) else None
        if isinstance(value, Merged):
            # Only a game's own columns are merged down a block; elsewhere it is no value.
            value = value.value if key in GAME_LEVEL else None
        fields[key] = value
    return fields


def _text(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime | date):
        return value.isoformat()
    return "" if value is None else str(value).strip()


def _group_key(fields: dict[str, object], by_game: bool) -> str | None:
    if by_game:
        game = _text(fields.get("game"))
        return game or None
    if _blank(fields.get("date")):
        return None
    return "\x1f".join(_text(fields.get(key)) for key in ("date", "table", "number"))


class _Grouping:
    """The rows in groups by game, in the order the games first appear."""

    def __init__(self, header: dict[int, str], problems: Problems) -> None:
        self.header = header
        self.by_game = "game" in header.values()
        self.groups: dict[str, _Group] = {}
        self.problems = problems
        self._last_key: str | None = None
        self._orphan_line: int | None = None  # a row not placed, waiting for the next game

    def add(self, line: int, cells: Sequence[object]) -> None:
        fields = _fields(cells, self.header)
        key = _group_key(fields, self.by_game)
        if key is None:
            self._orphan(line)
            return
        group = self.groups.get(key)
        if group is None:
            group = self.groups[key] = _Group(line)
        group.count += 1
        if group.count <= KEEP_ROWS:
            group.rows.append((line, fields))
        if self._orphan_line is not None:
            self._refuse(group, self._orphan_line)
            self._orphan_line = None
        self._last_key = key

    def _orphan(self, line: int) -> None:
        if self.problems.full:
            self.problems.count()
        else:
            which = column_label("game" if self.by_game else "date")
            message = _("The row's column «%(which)s» is empty: the row is not read.")
            self.problems.add(line, message % {"which": which})
        if self._last_key is not None:
            self._refuse(self.groups[self._last_key], line)
        self._orphan_line = line

    @staticmethod
    def _refuse(group: _Group, line: int) -> None:
        if group.refused is None:
            group.refused = _("Line %(line)s next to this game names no game.") % {"line": line}
            group.refused_line = line


def _game(key: str, group: _Group, book: RoleBook, by_game: bool) -> GameRecord | RowError:
    if group.count > MAX_PLAYERS:
        return RowError(
            group.line,
            _("%(count)s players at the table: a game has %(low)s to %(high)s.")
            % {"count": group.count, "low": MIN_PLAYERS, "high": MAX_PLAYERS},
        )
    game: GameFields = read_game_fields(group.rows, book)
    seats: list[SeatRecord] = []
    best_move: tuple[int, ...] = ()
    best_move_by: int | None = None
    taken: set[int] = set()
    for line, fields in group.rows:
        seat, named = read_seat(line, fields, book)
        if seat.seat in taken:
            return RowError(line, _("Seat %(seat)s is taken twice.") % {"seat": seat.seat})
        taken.add(seat.seat)
        seats.append(seat)
        if named:
            if best_move_by is not None:
                return RowError(line, _("Two rows name a best move."))
            best_move, best_move_by = named, seat.seat
    seats.sort(key=lambda s: s.seat)
    problem = game_problem(
        seats, winner=game.winner, best_move=best_move, best_move_by=best_move_by
    )
    if problem:
        return RowError(group.line, problem)
    return GameRecord(
        line=group.line,
        key=key if by_game else f"{game.played_on.isoformat()}/{game.table}/{game.number}",
        source=Source.SPREADSHEET,
        played_on=game.played_on,
        table=game.table,
        number=game.number,
        seats=tuple(seats),
        winner=game.winner,
        best_move=best_move,
        best_move_by=best_move_by,
    )


def _numbered(games: list[GameRecord], numbered: bool) -> list[GameRecord]:
    """Without a number column, the games of one date and table are numbered in the order
    the file lists them."""
    if numbered:
        return games
    seen: dict[tuple[date, int], int] = {}
    result = []
    for game in games:
        place = (game.played_on, game.table)
        seen[place] = seen.get(place, 0) + 1
        result.append(replace(game, number=seen[place]))
    return result


def rows_into_games(
    rows: Iterable[tuple[int, Sequence[object]]], *, roles: Mapping[str, str]
) -> Read:
    """The games of a table of rows (each with its line number in the file)."""
    book = RoleBook(roles)
    problems = Problems()
    iterator: Iterator[tuple[int, Sequence[object]]] = iter(rows)
    header: dict[int, str] | None = None
    grouping: _Grouping | None = None
    refused: Problem | None = None  # the first row taken for a header and why it is not one
    looked = 0
    for line, cells in iterator:
        # A row of nothing but the inside of merged cells is as empty as a blank one.
        if all(_blank(cell) or isinstance(cell, Merged) for cell in cells):
            continue
        if grouping is None:
            found = _header(cells)
            if isinstance(found, str):
                refused = refused or Problem(line, found)
                looked += 1
                if looked < HEADER_WITHIN:
                    continue  # a title above the header, as a printed sheet has
                return Read(problems=[refused])
            header = found
            grouping = _Grouping(header, problems)
            continue
        grouping.add(line, cells)
    if grouping is None and refused is not None:
        return Read(problems=[refused])
    if grouping is None:
        return Read(problems=file_problem(_("The file holds no header and no rows.")))
    if not grouping.groups and not problems:
        return Read(problems=file_problem(_("The file holds a header and no rows of games.")))
    games: list[GameRecord] = []
    for key, group in grouping.groups.items():
        if group.refused is not None:
            problems.add(group.line, group.refused)
            continue
        try:
            made = _game(key, group, book, grouping.by_game)
        except RowError as error:
            made = error
        if isinstance(made, RowError):
            problems.add(made.line, made.message)
        else:
            games.append(made)
    numbered = header is not None and "number" in header.values()
    return Read(games=_numbered(games, numbered), problems=problems.done())
