"""The spreadsheet of results, one row per seat, as a club keeps it on paper: the columns
the import reads and the export writes. A header is matched case-insensitively, in Russian
or English (the first name is what the export writes in English, the second in Russian);
rows with the same `game` key are one game."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Column:
    key: str
    names: tuple[str, ...]  # every header that names it, lower case
    required: bool = False


COLUMNS: tuple[Column, ...] = (
    # A game's key in the file (any text); without it, date + table + number name the game.
    Column("game", ("game", "игра")),
    Column("date", ("date", "дата"), required=True),  # 07.12.2026, 7 декабря 2026, 2026-12-07 …
    Column("table", ("table", "стол")),  # 1 when absent
    Column("number", ("number", "номер", "номер игры")),  # the game of the evening, 1 …
    Column("seat", ("seat", "место"), required=True),  # 1 … 15
    Column("nickname", ("nickname", "ник", "игрок"), required=True),
    Column("role", ("role", "роль"), required=True),  # a role's code or its Russian name
    Column("fouls", ("fouls", "фолы")),  # 0 … 4
    # How the player left: killed, voted, fouls, disqualified (убит, заголосован, фолы,
    # дисквалифицирован); empty when they stayed to the end.
    Column("left", ("left", "выбыл")),
    Column("when", ("when", "когда")),  # N1, D2 (Н1, Д2; «ночь 1», «день 2»)
    Column("best_move", ("best move", "лх", "лучший ход")),  # seats: «3 5 8»
    Column("winner", ("winner", "победа")),  # red, black or a loner's role (город, мафия)
    Column("extra", ("extra", "доп", "доп. баллы")),  # extra points, «0,5» or «-0.3»
    Column("reason", ("reason", "за что")),  # why the extra points
)

BY_NAME: dict[str, Column] = {name: column for column in COLUMNS for name in column.names}
