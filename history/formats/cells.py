"""What a spreadsheet's cell may hold besides its value, for the readers of rows: a formula
(refused, never evaluated) or the inside of a merged range (filled down only where a game's
own column is merged)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Formula:
    """A cell whose content is a formula."""

    text: str


@dataclass(frozen=True)
class Merged:
    """A cell inside a merged range (not its top-left), holding the range's value."""

    value: object


def is_formula(value: object) -> bool:
    """An XLSX formula cell, or a CSV cell that a spreadsheet program would run as one."""
    return isinstance(value, Formula) or (isinstance(value, str) and value.startswith("="))
