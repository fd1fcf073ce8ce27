"""A spreadsheet of results, one row per seat (columns.py): CSV or XLSX, as a club keeps it.

CSV: UTF-8 with or without its BOM, UTF-16 with its BOM (Excel's «Unicode text»), else
cp1251 (a UTF-8 decode that fails is a Windows sheet: every byte is a cp1251 letter, so
nothing is lost, a wrong guess shows as header problems). The separator is the one of
`,`, `;` or tab that the header line holds most of (outside quotes too: a header holds no
quotes worth counting); csv.Sniffer is not used, its regular expressions are slow on long
lines. A row that the csv module cannot read stops the file: the rows after it are not
known to belong where they seem, and no game is read half."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping, Sequence

from django.utils.translation import gettext as _

from history.formats.cells import csv_cell
from history.formats.problems import empty_file, file_problem
from history.formats.records import Problem, Read, Source
from history.formats.table import rows_into_games
from history.formats.xlsx import OLD_XLS_MAGIC, ZIP_MAGIC, XlsxUnreadable, read_xlsx_rows

MAX_BYTES = 50 * 1024 * 1024
_SEPARATORS = (";", "\t", ",")


def decode(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1251", errors="replace")  # 0x98 is the one byte it lacks


def separator(text: str) -> str:
    first = next((line for line in text.splitlines() if line.strip()), "")
    counts = {sep: first.count(sep) for sep in _SEPARATORS}
    best = max(_SEPARATORS, key=lambda sep: counts[sep])
    return best if counts[best] else ","


class _Unreadable(Exception):
    def __init__(self, line: int, error: csv.Error) -> None:
        super().__init__(str(error))
        self.line = line


def _csv_rows(text: str) -> Iterator[tuple[int, Sequence[object]]]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator(text), strict=True)
    start = 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:  # a cell past the field size limit, a stray quote
            raise _Unreadable(start, error) from error
        yield start, [csv_cell(cell) for cell in cells]
        start = reader.line_num + 1


def read_csv(data: bytes, *, roles: Mapping[str, str]) -> Read:
    text = decode(data)
    if "\x00" in text:
        return Read(problems=file_problem(_("This is not a text file: it holds NUL bytes.")))
    try:
        # The rows are read whole before any game is made: an unreadable row refuses them all.
        rows = list(_csv_rows(text))
    except _Unreadable as error:
        return Read(
            problems=[
                Problem(
                    error.line,
                    _("The row cannot be read as CSV (%(error)s); no game of the file is read.")
                    % {"error": str(error)[:200]},
                )
            ]
        )
    return rows_into_games(rows, roles=roles)


def _read_spreadsheet(data: bytes, *, filename: str, roles: Mapping[str, str]) -> Read:
    """The games of a CSV or XLSX sheet (XLSX by its zip signature, whatever its name)."""
    if not data.strip():
        return Read(problems=empty_file())
    if len(data) > MAX_BYTES:
        return Read(problems=too_big())
    if data.startswith(OLD_XLS_MAGIC) or filename.lower().endswith(".xls"):
        return Read(
            problems=file_problem(
                _("The old Excel format (.xls) is not read: save the sheet as XLSX or CSV.")
            )
        )
    if data.startswith(ZIP_MAGIC):
        try:
            return rows_into_games(read_xlsx_rows(data), roles=roles)
        except XlsxUnreadable as error:
            return Read(problems=file_problem(str(error)))
    return read_csv(data, roles=roles)


def too_big() -> list[Problem]:
    return file_problem(
        _("The file is larger than %(most)s MB: split it into smaller ones.")
        % {"most": MAX_BYTES // (1024 * 1024)}
    )


def read_spreadsheet(data: bytes, *, filename: str, roles: Mapping[str, str]) -> Read:
    read = _read_spreadsheet(data, filename=filename, roles=roles)
    read.source = Source.SPREADSHEET
    return read
