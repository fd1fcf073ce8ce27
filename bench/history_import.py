"""Import 10,000 games of a club's past (issue #42): the time of each step and the peak
memory, on a scratch PostgreSQL database.

The file: a spreadsheet (CSV, cp1251, `;`) of 10,000 results-only games made here in
memory, 10 to 15 seats each, two tables of three games a day from 1 January 2020, 60
nicknames of which the club has 30 as members (the rest become unclaimed players). Steps:

- read: history.formats.reading.read_history over the bytes;
- preview: the upload kept as a preview (history.imports.services.import_upload) and the
  preview page's data (import_preview: what the club holds already, every name matched);
- confirm: import_confirm (the worker's history_confirm runs it), the one transaction that
  makes the evenings, games, seats and unclaimed players;
- rebuild: what the worker does after it (history.imports.rebuild.history_rebuild: every
  game's analysis and scores, then the ratings' full replay).

Prints one JSON line: the file's MB, the games created, each step's seconds, and the
process's peak resident memory after each step (ru_maxrss, MB). Run (minutes; at the
autogroup priority bench/README.md describes):
setsid sh -c 'echo -10 > /proc/self/autogroup; exec uv run python bench/history_import.py'
(a number of games as its argument runs a smaller file).
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import ROOT, django_env, log, scratch_database, setup_django

GAMES = 10_000
NICKNAMES = [f"Игрок {n}" for n in range(1, 61)]
MEMBERS = NICKNAMES[:30]
HEADER = ["Дата", "Стол", "Номер", "Место", "Ник", "Роль", "Фолы", "Выбыл", "Когда", "ЛХ", "Победа"]
ROLES_RU = {
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


def make_sheet(rng: random.Random, games: int) -> bytes:
    lines = [";".join(HEADER)]
    for index in range(games):
        size = rng.randint(10, 15)
        roles = ["мирный"] * (size - 4) + ["шериф", "дон", "мафия", "мафия"]
        rng.shuffle(roles)
        players = rng.sample(NICKNAMES, size)
        day = date(2020, 1, 1) + timedelta(days=index // 6)
        first = rng.randint(1, size)
        winner = rng.choice(["красные", "чёрные"])
        for seat, (role, nick) in enumerate(zip(roles, players, strict=True), start=1):
            killed = seat == first
            row = [
                day.strftime("%d.%m.%Y"),
                str(index % 2 + 1),
                str(index % 6 // 2 + 1),
                str(seat),
                nick,
                role,
                str(seat % 3),
                "убит" if killed else "",
                "Н1" if killed else "",
                "",
                winner,
            ]
            lines.append(";".join(row))
    return ("\r\n".join(lines) + "\r\n").encode("cp1251")


def peak_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES
    database_url = scratch_database("mafia_bench_history_import")

    env = django_env(database_url, DJANGO_DEBUG="0")
    log("migrating …")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"], cwd=ROOT, env=env, check=True
    )
    setup_django(database_url, DJANGO_DEBUG="0")

    from django.utils import translation

    from accounts.models import Role
    from history.formats.reading import read_history
    from history.imports import rebuild, services
    from tests.factories import make_member

    organiser = make_member(nickname="Организатор", role=Role.ORGANISER)
    for nick in MEMBERS:
        make_member(nickname=nick)
    log("making the sheet …")
    data = make_sheet(random.Random(20261207), games)
    figures: dict[str, object] = {"games": games, "mb": round(len(data) / 2**20, 2)}
    with translation.override("ru"):
        log("reading …")
        started = time.perf_counter()
        read = read_history(data, filename="history.csv", roles=ROLES_RU)
        figures["read_seconds"] = round(time.perf_counter() - started, 2)
        figures["read_peak_mb"] = peak_mb()
        figures["problems"] = len(read.problems)
        log("preview …")
        started = time.perf_counter()
        found = services.import_upload(
            author=organiser,
            filename="history.csv",
            data=data,
            read=read,
            source=read.games[0].source,
        )
        preview = services.import_preview(found, limit=300)
        figures["preview_seconds"] = round(time.perf_counter() - started, 2)
        figures["preview_peak_mb"] = peak_mb()
        figures["names"] = len(preview.matches)
        del read, preview
        log("confirm …")
        started = time.perf_counter()
        done = services.import_confirm(history_import_id=found.pk, actor=organiser, choices={})
        figures["confirm_seconds"] = round(time.perf_counter() - started, 2)
        figures["confirm_peak_mb"] = peak_mb()
        figures["created"] = done.counts["games"]
        log("rebuild …")
        started = time.perf_counter()
        rebuild.history_rebuild(history_import_id=found.pk)
        figures["rebuild_seconds"] = round(time.perf_counter() - started, 2)
        figures["rebuild_peak_mb"] = peak_mb()
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
