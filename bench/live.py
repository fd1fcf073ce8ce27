"""The live table's poll (docs/live.md) while a host records a whole club game.

In the server process (Django's full request path, middleware included, no network), like
bench/pages.py: a public game; before each of the host's events (tests/games/recording.py's
TOWN_WINS) and in the quiet seconds between them (BENCH_QUIET per event), every one of
BENCH_VIEWERS simulated viewers polls /games/<id>/live.json once with the ETag it holds, as
the page does every second. Then the host records the event through games.recording, whose
commit writes the snapshot. Figures: the poll's median and p99 server time, the share
answered 304, PostgreSQL queries per poll (all, and on a 304), CPU seconds per 1,000 polls,
the same for today's game page (/games/<id>/?public=1, which refreshes nothing) and their
ratio, the tap's extra time (the snapshot's write after the commit), the polls one core
answers a second, and the cores 150 live tables with 20 viewers each would need.
The cache is CLUB_CACHE_URL's (Redis) when set, else the embedded default's.
Prints one JSON line. Run: uv run python bench/live.py
"""

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project, for bench.*

from bench.common import ROOT, django_env, log, scratch_database, setup_django

VIEWERS = int(os.environ.get("BENCH_VIEWERS", "1000"))
QUIET = int(os.environ.get("BENCH_QUIET", "4"))  # seconds without a tap after each event
PAGE_REQUESTS = 200
TABLES, VIEWERS_EACH = 150, 20  # a hundred clubs' evening


def main() -> None:
    database_url = scratch_database("mafia_bench_live")
    env = django_env(database_url)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"], cwd=ROOT, env=env, check=True
    )
    setup_django(database_url, DJANGO_DEBUG="0")
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from games import live
    from games.models import Spectators
    from games.recording import GameView, game_record_event
    from tests.games.recording import (
        TOWN_WINS,
        evening_with_players,
        make_host,
        start_game,
    )

    cache.clear()
    evening, players = evening_with_players()
    host = make_host()
    game = start_game(host, evening, players)
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    url = f"/games/{game.pk}/live.json"
    client = Client(SERVER_NAME="127.0.0.1")
    etags = [""] * VIEWERS
    times: list[float] = []
    not_modified = queries = queries_304 = 0
    cpu = 0.0
    tap_ms: list[float] = []
    original_write = live.snapshot_write

    def timed_write(
        game_id: int, scores: live.Scores | None = None, view: GameView | None = None
    ) -> live.Kept | None:
        began = time.perf_counter()
        try:
            return original_write(game_id, scores, view)
        finally:
            tap_ms.append((time.perf_counter() - began) * 1000)

    live.snapshot_write = timed_write  # the commit's write, timed (games.live's own global)

    def second() -> None:
        """Every viewer polls once, with the ETag it holds."""
        nonlocal not_modified, queries, queries_304, cpu
        for viewer in range(VIEWERS):
            headers = {"If-None-Match": etags[viewer]} if etags[viewer] else {}
            with CaptureQueriesContext(connection) as captured:
                began, cpu_began = time.perf_counter(), time.process_time()
                answer = client.get(url, headers=headers)
                cpu += time.process_time() - cpu_began
                times.append((time.perf_counter() - began) * 1000)
            queries += len(captured)
            if answer.status_code == 304:
                not_modified += 1
                queries_304 += len(captured)
            else:
                assert answer.status_code == 200, answer.content
                etags[viewer] = answer["ETag"]

    started = time.perf_counter()
    for event in TOWN_WINS:
        for _ in range(1 + QUIET):
            second()
        game.refresh_from_db()
        game_record_event(
            game_id=game.pk, author=host, event=event, seq=game.last_seq + 1, client_id=None
        )
    second()  # the end
    log(f"{len(times)} polls in {time.perf_counter() - started:.0f} s")
    live.snapshot_write = original_write

    page = f"/games/{game.pk}/?public=1"
    for _ in range(5):
        client.get(page)
    page_cpu = 0.0
    page_times = []
    with CaptureQueriesContext(connection) as captured:
        for _ in range(PAGE_REQUESTS):
            began, cpu_began = time.perf_counter(), time.process_time()
            assert client.get(page).status_code == 200
            page_cpu += time.process_time() - cpu_began
            page_times.append((time.perf_counter() - began) * 1000)
    polls = len(times)
    per_poll_cpu = cpu / polls
    per_page_cpu = page_cpu / PAGE_REQUESTS
    quantiles = statistics.quantiles(times, n=100)
    figures = {
        "viewers": VIEWERS,
        "events": len(TOWN_WINS),
        "polls": polls,
        "poll_median_ms": round(statistics.median(times), 3),
        "poll_p99_ms": round(quantiles[98], 3),
        "share_304": round(not_modified / polls, 4),
        "queries_per_poll": round(queries / polls, 4),
        "queries_per_304": round(queries_304 / max(not_modified, 1), 4),
        "cpu_s_per_1000_polls": round(per_poll_cpu * 1000, 3),
        "game_page_median_ms": round(statistics.median(page_times), 2),
        "game_page_queries": len(captured) / PAGE_REQUESTS,
        "cpu_s_per_1000_game_pages": round(per_page_cpu * 1000, 3),
        "cost_ratio": round(per_page_cpu / per_poll_cpu, 1),
        "tap_snapshot_write_median_ms": round(statistics.median(tap_ms), 2),
        # One core's polls a second at this CPU per poll (the process's own, no network):
        # an upper bound for one gunicorn sync worker.
        "polls_per_core_s": round(1 / per_poll_cpu),
        "cores_for_150_tables_x_20_viewers": round(TABLES * VIEWERS_EACH * per_poll_cpu, 2),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
