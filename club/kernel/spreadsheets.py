"""CSV that a spreadsheet opens as data, never as formulas (OWASP's advice on CSV injection).

A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return (or the full-width
`＝ ＋ － ＠`, which some spreadsheets read as the ASCII ones) is a formula to Excel and
LibreOffice: a nickname `=HYPERLINK(...)` or `-A1-A1` would run on the admin's computer.
Such a cell is prefixed with a single quote, and every cell is quoted (a quote inside is
doubled), so a separator or a quote in a member's text cannot start a cell of its own.
Every CSV the club writes goes through `CsvWriter`.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Protocol

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠")


class _Stream(Protocol):
    def write(self, text: str, /) -> object: ...


def neutral_cell(value: object) -> str:
    """A cell's text as a spreadsheet must show it. Numbers are the club's own and stay
    numbers; any text that could start a formula gets a leading single quote."""
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


class CsvWriter:
    """csv.writer's `writerow`, every cell neutralised (`neutral_cell`) and quoted."""

    def __init__(self, stream: _Stream) -> None:
        self._writer = csv.writer(stream, quoting=csv.QUOTE_ALL)

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([neutral_cell(cell) for cell in row])
