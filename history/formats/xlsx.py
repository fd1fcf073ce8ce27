"""An XLSX sheet's rows, read safely: the first worksheet, streamed by openpyxl in read-only
mode, with formulas kept as formulas (data_only=False: the importer refuses them, never
evaluates them) and a merged cell's value handed down its column.

Guards before any XML is parsed. An XLSX is a zip: a zip bomb is refused by the sizes its
directory declares (zipfile never inflates a member past its declared size, so the
declaration bounds the work), and by its count of members. openpyxl parses the XML through
defusedxml when it is installed (it is, pyproject.toml), which refuses entity expansion
(«billion laughs») and external entities. The merged ranges are read by a SAX pass over the
sheet's XML (defusedxml again): read-only worksheets do not load them, and a full load of
a large sheet would hold all its cells in memory.

Merged cells: a paper-like sheet merges a game's date (or key) down the block of its seats;
read-only openpyxl gives the value in the top-left cell and nothing below. A range one
column wide hands its value down to its rows as Merged, which the table fills in only for a
game's own columns (table.GAME_LEVEL); a wider range hands down nothing. One range per
column is followed at a time (a valid sheet's ranges never overlap), so a hostile list of
overlapping ranges costs no more than a valid one."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Any
from xml.sax.handler import ContentHandler

from defusedxml.sax import parse as sax_parse
from django.utils.translation import gettext as _
from openpyxl import load_workbook
from openpyxl.utils.cell import range_boundaries
from openpyxl.worksheet._reader import WorkSheetParser

from history.formats.cells import Formula, Merged

ZIP_MAGIC = b"PK\x03\x04"
OLD_XLS_MAGIC = b"\xd0\xcf\x11\xe0"
MAX_UNZIPPED = 200 * 1024 * 1024  # the members' declared sizes, added up
MAX_MEMBERS = 10_000
# Excel's own limit: a sheet claiming a row past it is broken or hostile.
MAX_ROWS = 1_048_576
# Columns read of each row: the spreadsheet's columns and then some (table.MAX_COLUMNS).
READ_COLUMNS = 64


class XlsxUnreadable(Exception):
    """The file is no XLSX this reader can read safely; the message says why."""


def guard(data: bytes) -> zipfile.ZipFile:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as error:
        raise XlsxUnreadable(_("This is not a readable XLSX file (a broken zip).")) from error
    if len(members) > MAX_MEMBERS:
        raise XlsxUnreadable(_("This XLSX file holds too many parts to be a spreadsheet."))
    if sum(member.file_size for member in members) > MAX_UNZIPPED:
        raise XlsxUnreadable(
            _("This XLSX file unpacks to more than %(most)s MB: it is refused unread.")
            % {"most": MAX_UNZIPPED // (1024 * 1024)}
        )
    return archive


@dataclass
class _Range:
    column: int  # 0-based
    first: int
    last: int
    value: object = None


class _MergeCells(ContentHandler):
    def __init__(self) -> None:
        super().__init__()
        self.ranges: list[_Range] = []

    def startElement(self, name: str, attrs: Any) -> None:  # SAX names it
        if name.rsplit(":", 1)[-1] != "mergeCell":
            return
        try:
            min_col, min_row, max_col, max_row = range_boundaries(attrs.get("ref", ""))
        except (ValueError, TypeError):
            return  # a range we cannot read merges nothing
        if min_col is None or min_row is None or max_col is None or max_row is None:
            return
        if min_col == max_col and max_row > min_row:
            self.ranges.append(_Range(min_col - 1, min_row, max_row))


def merged_ranges(source: IO[bytes]) -> list[_Range]:
    handler = _MergeCells()
    sax_parse(source, handler)
    return sorted(handler.ranges, key=lambda merged: merged.first)


class _FillDown:
    """Walks the rows in order and hands each single-column range's value down its rows."""

    def __init__(self, ranges: list[_Range]) -> None:
        self.waiting = ranges  # by first row
        self.next = 0
        self.active: dict[int, _Range] = {}

    def apply(self, row: int, cells: list[object]) -> None:
        for column, merged in list(self.active.items()):
            if merged.last < row:
                del self.active[column]
        while self.next < len(self.waiting) and self.waiting[self.next].first <= row:
            merged = self.waiting[self.next]
            self.next += 1
            # Overlapping ranges (never in a valid sheet): the first one wins.
            fresh = merged.column not in self.active
            if merged.first == row and merged.column < len(cells) and fresh:
                merged.value = cells[merged.column]
                self.active[merged.column] = merged
        for column, merged in self.active.items():
            if merged.first < row:
                if column >= len(cells):  # a row the XML ends before the merged column
                    cells.extend([None] * (column + 1 - len(cells)))
                cells[column] = Merged(merged.value)


def _cells(row: list[dict[str, Any]]) -> list[object]:
    """A row's cells by column (the first READ_COLUMNS), a formula kept as a Formula."""
    width = min(READ_COLUMNS, max((cell["column"] for cell in row), default=0))
    cells: list[object] = [None] * width
    for cell in row:
        column = cell["column"]
        if 1 <= column <= width:
            value = cell["value"]
            cells[column - 1] = Formula(str(value)) if cell["data_type"] == "f" else value
    return cells


def _rows(archive: zipfile.ZipFile, data: bytes) -> Iterator[tuple[int, Sequence[object]]]:
    """The rows the sheet's XML holds, and only those. Read-only openpyxl's iter_rows
    makes a row for every number the XML skips and pads each to its width: a 5 KB sheet
    with one cell in row 1,048,576 took 23 s. Its own parser (the one iter_rows stands
    on, openpyxl 3.1's WorkSheetParser) gives the rows that are there, cells as written."""
    book: Any = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    try:
        if not book.worksheets:
            raise XlsxUnreadable(_("This XLSX file holds no worksheet."))
        sheet: Any = book.worksheets[0]
        path = sheet._worksheet_path
        fill = _FillDown(merged_ranges(archive.open(path)))
        with archive.open(path) as source:
            parser = WorkSheetParser(
                source,
                sheet._shared_strings,
                data_only=False,
                epoch=book.epoch,
                date_formats=book._date_formats,
                timedelta_formats=book._timedelta_formats,
            )
            for number, row in parser.parse():
                if not 1 <= number <= MAX_ROWS:
                    raise XlsxUnreadable(
                        _("This XLSX sheet has more rows than a spreadsheet holds.")
                    )
                cells = _cells(row)
                fill.apply(number, cells)
                yield number, cells
    finally:
        book.close()


def read_xlsx_rows(data: bytes) -> Iterator[tuple[int, Sequence[object]]]:
    """The first sheet's rows with their numbers; raises XlsxUnreadable, also midway (the
    caller makes no game before the last row is read)."""
    archive = guard(data)
    try:
        yield from _rows(archive, data)
    except XlsxUnreadable:
        raise
    # openpyxl and the XML parsers raise many kinds of error on a broken or hostile file
    # (KeyError for a missing part, ValueError, defusedxml's refusals, SAX errors …): each
    # is the same answer to the uploader, this file cannot be read.
    except Exception as error:
        raise XlsxUnreadable(
            _("This XLSX file cannot be read (%(error)s).") % {"error": type(error).__name__}
        ) from error
