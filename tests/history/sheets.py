"""Hand-written sheets for the readers' tests: a club's catalogue and games in rows."""

from __future__ import annotations

from collections.abc import Sequence

# The club's catalogue as the readers get it: code → Russian name (games' seed migration).
ROLES = {
    "civilian": "Мирный",
    "kamikaze": "Камикадзе",
    "commissar": "Комиссар",
    "doctor": "Доктор",
    "boss": "Босс",
    "mafia": "Мафия",
    "swindler": "Жулик",
    "maniac": "Маньяк",
    "instigator": "Нагнетатель",
}

HEADER_RU = [
    "Дата",
    "Стол",
    "Номер",
    "Место",
    "Ник",
    "Роль",
    "Фолы",
    "Выбыл",
    "Когда",
    "ЛХ",
    "Победа",
    "Доп",
    "За что",
]
HEADER_EN = [
    "date",
    "table",
    "number",
    "seat",
    "nickname",
    "role",
    "fouls",
    "left",
    "when",
    "best move",
    "winner",
    "extra",
    "reason",
]
# A table of ten: six civilians, the commissar, the boss and two mafia.
LINEUP = ["мирный"] * 6 + ["шериф", "дон", "мафия", "мафия"]


def game_rows(
    *,
    day: str = "07.12.2026",
    table: str = "1",
    number: str = "1",
    players: int = 10,
    winner: str = "красные",
    roles: Sequence[str] | None = None,
    prefix: str = "Игрок",
) -> list[list[str]]:
    roles = list(roles or LINEUP) + ["мирный"] * max(0, players - len(roles or LINEUP))
    rows = []
    for seat in range(1, players + 1):
        left, when, best = "", "", ""
        if seat == 1:
            left, when, best = "убит", "Н1", "7 8 9"
        rows.append(
            [
                day,
                table,
                number,
                str(seat),
                f"{prefix} {seat}",
                roles[seat - 1],
                "0",
                left,
                when,
                best,
                winner,
                "",
                "",
            ]
        )
    return rows


def csv_bytes(
    rows: Sequence[Sequence[str]],
    *,
    sep: str = ";",
    encoding: str = "utf-8",
    header: Sequence[str] = HEADER_RU,
) -> bytes:
    lines = [sep.join(header)] + [sep.join(row) for row in rows]
    return ("\r\n".join(lines) + "\r\n").encode(encoding)
