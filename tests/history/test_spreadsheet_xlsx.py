"""The spreadsheet reader on XLSX, written here with openpyxl: date cells, formulas refused
with their line, a merged date or key filled down its block only, and the zip's guards."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from datetime import date, datetime

from django.utils import translation
from openpyxl import Workbook

from history.formats.records import Read
from history.formats.spreadsheet import read_spreadsheet
from history.formats.xlsx import MAX_UNZIPPED
from tests.history.sheets import HEADER_RU, ROLES, game_rows


def xlsx(rows: Sequence[Sequence[object]], merges: Sequence[str] = ()) -> bytes:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:
        sheet.append(list(row))
    for merged in merges:
        sheet.merge_cells(merged)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def read(data: bytes) -> Read:
    with translation.override("ru"):
        return read_spreadsheet(data, filename="games.xlsx", roles=ROLES)


def typed(rows: list[list[str]]) -> list[list[object]]:
    """A sheet as a person types it: the date a date cell, seats and fouls numbers."""
    out: list[list[object]] = []
    for row in rows:
        cells: list[object] = list(row)
        cells[0] = datetime(2026, 12, 7)
        cells[3], cells[6] = int(row[3]), int(row[6])
        out.append(cells)
    return out


def test_a_sheet_with_date_cells_and_numbers_is_read() -> None:
    result = read(xlsx([HEADER_RU, *typed(game_rows())]))
    assert result.problems == []
    (game,) = result.games
    assert game.played_on == date(2026, 12, 7) and len(game.seats) == 10


def test_a_formula_cell_is_refused_with_its_line() -> None:
    rows = typed(game_rows()) + typed(game_rows(number="2"))
    rows[3][6] = "=1+1"  # openpyxl writes a string starting with = as a formula
    result = read(xlsx([HEADER_RU, *rows]))
    assert [g.number for g in result.games] == [2]
    (problem,) = result.problems
    assert problem.line == 5 and "формула" in problem.message


def test_a_merged_date_is_filled_down_its_block_only() -> None:
    rows = typed(game_rows()) + typed(game_rows(number="2", prefix="Б"))
    for index, row in enumerate(rows):
        if index not in (0, 10):
            row[0] = None  # as a merged block leaves the cells below its top
    merges = ["A2:A11", "A12:A21"]
    result = read(xlsx([HEADER_RU, *rows], merges))
    assert result.problems == []
    assert [(g.number, g.played_on) for g in result.games] == [
        (1, date(2026, 12, 7)),
        (2, date(2026, 12, 7)),
    ]


def test_an_empty_date_without_a_merge_is_refused() -> None:
    rows = typed(game_rows())
    rows[4][0] = None
    result = read(xlsx([HEADER_RU, *rows]))
    assert result.games == []
    assert 6 in [p.line for p in result.problems]


def test_a_merged_nickname_is_no_value() -> None:
    rows = typed(game_rows())
    rows[5][4] = None
    result = read(xlsx([HEADER_RU, *rows], ["E6:E7"]))  # the nickname of seat 4 over seat 5's
    assert result.games == [] and result.problems[0].line == 7


def test_a_zip_bomb_is_refused_before_parsing() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (MAX_UNZIPPED + 1))
    data = out.getvalue()
    assert len(data) < MAX_UNZIPPED // 100
    (problem,) = read(data).problems
    assert "распаковывается" in problem.message


def test_a_broken_zip_and_an_old_xls_are_refused_clearly() -> None:
    assert "повреждённый" in read(b"PK\x03\x04broken").problems[0].message
    (problem,) = read(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100).problems
    assert ".xls" in problem.message


def test_a_merge_past_the_games_rows_leaves_an_empty_row_empty() -> None:
    rows = typed(game_rows())
    for row in rows[1:]:
        row[0] = None
    result = read(xlsx([HEADER_RU, *rows], ["A2:A14"]))  # three rows past seat 10
    assert result.problems == [] and len(result.games) == 1
