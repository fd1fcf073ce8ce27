"""The reader's games as the preview keeps them (HistoryImport.records, JSON) between the
upload and the confirm, and back: the file is read once, by the worker after the upload
(history/imports/reading.py)."""

from __future__ import annotations

from datetime import date
from typing import Any

from history.formats.records import GameRecord, Left, Problem, SeatRecord, Source


def record_to_json(game: GameRecord) -> dict[str, Any]:
    return {
        "line": game.line,
        "key": game.key,
        "source": game.source.value,
        "played_on": game.played_on.isoformat(),
        "table": game.table,
        "number": game.number,
        "seats": [
            [
                s.seat,
                s.nickname,
                s.role,
                s.fouls,
                s.left.value if s.left else "",
                s.left_when,
                s.extra,
                s.extra_reason,
            ]
            for s in game.seats
        ],
        "winner": game.winner,
        "best_move": list(game.best_move),
        "best_move_by": game.best_move_by,
        "protocol": dict(game.protocol) if game.protocol is not None else None,
    }


def record_from_json(raw: dict[str, Any]) -> GameRecord:
    return GameRecord(
        line=raw["line"],
        key=raw["key"],
        source=Source(raw["source"]),
        played_on=date.fromisoformat(raw["played_on"]),
        table=raw["table"],
        number=raw["number"],
        seats=tuple(
            SeatRecord(
                seat=seat,
                nickname=nickname,
                role=role,
                fouls=fouls,
                left=Left(left) if left else None,
                left_when=when,
                extra=extra,
                extra_reason=reason,
            )
            for seat, nickname, role, fouls, left, when, extra, reason in raw["seats"]
        ),
        winner=raw["winner"],
        best_move=tuple(raw["best_move"]),
        best_move_by=raw["best_move_by"],
        protocol=raw["protocol"],
    )


def problem_to_json(problem: Problem) -> dict[str, Any]:
    return {"line": problem.line, "message": problem.message}
