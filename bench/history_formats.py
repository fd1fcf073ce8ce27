"""Read 10,000 games of a club's past in each format (issue #42): the time and the peak memory
of history.formats.read_history on one core, the files made first (not timed).

- csv: 10,000 games of 10 to 15 seats, one row per seat (cp1251, `;`), as a club keeps it;
- xlsx: the same sheet as XLSX, each game's date merged down its block;
- exchange: the same games as the field's exchange JSON (a list of games);
- protocol: 5,000 generated games (games/rules/simulate.py) as this platform's export,
  each replayed through the rules engine as the reader does: 10,000 such games, every
  speech timed, make a file of 93 MB, over the import's 50 MB.

Prints one JSON line: per format the file's MB, the games read, seconds and the peak of
Python's memory (tracemalloc, in a second read: tracing slows the first). Run:
uv run python bench/history_formats.py [FORMAT …]
"""

from __future__ import annotations

import io
import json
import os
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")

import django

django.setup()

from django.utils import translation  # noqa: E402
from openpyxl import Workbook  # noqa: E402

from games.rules.protocol import Seat, export  # noqa: E402
from games.rules.simulate import random_game  # noqa: E402
from history.formats.reading import read_history  # noqa: E402

GAMES = 10_000
PROTOCOL_GAMES = 5_000
ROLES = {
    "civilian": "Мирный",
    "commissar": "Комиссар",
    "doctor": "Доктор",
    "kamikaze": "Камикадзе",
    "boss": "Босс",
    "mafia": "Мафия",
    "swindler": "Жулик",
    "maniac": "Маньяк",
    "instigator": "Нагнетатель",
}
HEADER = ["Дата", "Стол", "Номер", "Место", "Ник", "Роль", "Фолы", "Выбыл", "Когда", "ЛХ", "Победа"]


def _games(rng: random.Random) -> list[dict[str, Any]]:
    games = []
    for index in range(GAMES):
        size = rng.randint(10, 15)
        roles = ["мирный"] * (size - 4) + ["шериф", "дон", "мафия", "мафия"]
        rng.shuffle(roles)
        day = date(2020, 1, 5) + timedelta(days=7 * (index // 6))
        games.append(
            {
                "day": day,
                "table": index % 2 + 1,
                "number": index % 6 // 2 + 1,
                "roles": roles,
                "winner": rng.choice(["красные", "чёрные"]),
                "first": rng.randint(1, size),
            }
        )
    return games


def _rows(games: list[dict[str, Any]]) -> list[list[object]]:
    rows: list[list[object]] = []
    for game in games:
        for seat, role in enumerate(game["roles"], start=1):
            killed = seat == game["first"]
            rows.append(
                [
                    game["day"].strftime("%d.%m.%Y"),
                    game["table"],
                    game["number"],
                    seat,
                    f"Игрок {seat % 40 + 1}",
                    role,
                    seat % 3,
                    "убит" if killed else "",
                    "Н1" if killed else "",
                    "",
                    game["winner"],
                ]
            )
    return rows


def make_csv(games: list[dict[str, Any]]) -> bytes:
    lines = [";".join(HEADER)] + [";".join(str(c) for c in row) for row in _rows(games)]
    return ("\r\n".join(lines) + "\r\n").encode("cp1251")


def make_xlsx(games: list[dict[str, Any]]) -> bytes:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(HEADER)
    at = 2
    for game in games:
        size = len(game["roles"])
        for offset, row in enumerate(_rows([game])):
            if offset:
                row[0] = None  # the date is merged down the game's block
            sheet.append(row)
        sheet.merge_cells(f"A{at}:A{at + size - 1}")
        at += size
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


EXCHANGE_ROLES = {"мирный": "civ", "шериф": "sheriff", "дон": "don", "мафия": "maf"}


def make_exchange(games: list[dict[str, Any]]) -> bytes:
    documents = []
    for index, game in enumerate(games):
        players = []
        for seat, role in enumerate(game["roles"], start=1):
            player: dict[str, Any] = {"name": f"Игрок {seat}", "role": EXCHANGE_ROLES[role]}
            if seat == game["first"]:
                player["death"] = {"type": "night", "round": 1}
            players.append(player)
        documents.append(
            {
                "id": str(index),
                "startTime": f"{game['day'].isoformat()}T18:00:00+03:00",
                "winner": "civ" if game["winner"] == "красные" else "maf",
                "players": players,
            }
        )
    return json.dumps(documents, ensure_ascii=False).encode()


def make_protocol(_games: list[dict[str, Any]]) -> bytes:
    rng = random.Random(20261207)
    entries = []
    for index in range(PROTOCOL_GAMES):
        generated = random_game(rng)
        seats = [Seat(n, f"Игрок {n}", role) for n, role in sorted(generated.seats.items())]
        document = export(seats=seats, events=generated.events, immune=generated.immune)
        day = date(2020, 1, 5) + timedelta(days=index // 3)
        entries.append(
            {"date": day.isoformat(), "table": 1, "number": index % 3 + 1, "protocol": document}
        )
    return json.dumps({"format": "mafia-club-history/1", "games": entries}).encode()


MAKERS: dict[str, Callable[[list[dict[str, Any]]], bytes]] = {
    "csv": make_csv,
    "xlsx": make_xlsx,
    "exchange": make_exchange,
    "protocol": make_protocol,
}


def measure(name: str, data: bytes) -> dict[str, Any]:
    with translation.override("ru"):
        started = time.perf_counter()
        read = read_history(data, filename=f"history.{name}", roles=ROLES)
        seconds = time.perf_counter() - started
        tracemalloc.start()
        read_history(data, filename=f"history.{name}", roles=ROLES)
        _now, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return {
        "mb": round(len(data) / 2**20, 2),
        "games": len(read.games),
        "problems": len(read.problems),
        "seconds": round(seconds, 2),
        "peak_mb": round(peak / 2**20, 1),
    }


def main() -> None:
    wanted = sys.argv[1:] or list(MAKERS)
    games = _games(random.Random(20261207))
    figures: dict[str, Any] = {"games": GAMES}
    for name in wanted:
        print(f"making {name} …", file=sys.stderr, flush=True)
        data = MAKERS[name](games)
        print(f"reading {name} …", file=sys.stderr, flush=True)
        figures[name] = measure(name, data)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
