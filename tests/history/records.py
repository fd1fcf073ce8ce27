"""GameRecords as the readers give them (history/formats/records.py), made by hand."""

from __future__ import annotations

from datetime import date

from history.formats.records import GameRecord, Left, SeatRecord, Source

NICKNAMES = tuple(f"Старый {n}" for n in range(1, 11))
ROLES = ("boss", "mafia", "mafia") + ("commissar",) + ("civilian",) * 6


def game_record(
    key: str,
    *,
    played_on: date = date(2024, 3, 2),
    table: int = 1,
    number: int = 1,
    nicknames: tuple[str, ...] = NICKNAMES,
    winner: str = "red",
    line: int = 2,
    killed_first: int | None = 5,
    fouled_out: int | None = None,
    extra: dict[int, tuple[float, str]] | None = None,
    best_move: tuple[int, ...] = (),
) -> GameRecord:
    extra = extra or {}
    seats = []
    for seat, (nickname, role) in enumerate(zip(nicknames, ROLES, strict=True), start=1):
        left, when = None, ""
        if seat == killed_first:
            left, when = Left.KILLED, "N1"
        elif seat == fouled_out:
            left, when = Left.FOULS, "D2"
        points, reason = extra.get(seat, (0.0, ""))
        seats.append(
            SeatRecord(
                seat=seat,
                nickname=nickname,
                role=role,
                fouls=4 if seat == fouled_out else 0,
                left=left,
                left_when=when,
                extra=points,
                extra_reason=reason,
            )
        )
    return GameRecord(
        line=line,
        key=key,
        source=Source.SPREADSHEET,
        played_on=played_on,
        table=table,
        number=number,
        seats=tuple(seats),
        winner=winner,
        best_move=best_move,
        best_move_by=killed_first if best_move else None,
    )
