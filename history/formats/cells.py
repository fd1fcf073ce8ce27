"""What a spreadsheet's cell may hold besides its value, for the readers of rows: a formula
(refused, never evaluated) or the inside of a merged range (filled down only where a game's
own column is merged)."""

from __future__ import annotations

from dataclasses import dataclass

from club.kernel.spreadsheets import FORMULA_STARTS


@dataclass(frozen=True)
class Formula:
    """A cell whose content is a formula."""

    text: str


@dataclass(frozen=True)
class Merged:
    """A cell inside a merged range (not its top-left), holding the range's value."""

    value: object


def is_formula(value: object) -> bool:
    return isinstance(value, Formula)


def csv_cell(text: str) -> object:
    """A CSV cell as the reader takes it: one starting with `=` is a formula (refused, never
    run); one the platform's own export neutralised (club/kernel/spreadsheets.py puts a
    single quote before a text that starts like a formula) is that text again, so a
    nickname such as «-Lion-» reads back as it was written."""
    if text.startswith(("=", "＝")):
        return Formula(text)
    if text.startswith("'") and text[1:2] and text[1] in FORMULA_STARTS:
        return text[1:]
    return text
