"""The two hot paths' work on the database: a host's tap and a promotion from the reserve.

In this process, on a scratch PostgreSQL database (no HTTP server: the figures are the
server's own work, without the network or a load generator). The tap: the sample game
(games/rules/simulate.py's SAMPLE_TOWN_WINS, 12 seats, to the town's win) recorded tap by
tap through the host screen's door (`POST /games/<id>/tap/`, Django's test client), five
times; each tap's queries counted and its time inside Django measured (median, p90). A
promotion: an evening of 12 seats and 10 in the reserve, where a seated member gives up
their seat (the first of the reserve is promoted, those behind move up) and where the
organiser adds two seats (two promoted); each counted in queries, and in reads of the
evening's line-up (the queries that number its rows: club.models.place_in_line).
Prints one JSON line. Run: uv run python bench/hot_paths.py
"""

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project, for bench.*

from bench.common import ROOT, django_env, scratch_database, setup_django

SEATS = 12
GAMES = 5  # the sample game recorded five times: the time's median over 95 taps
RESERVE = 10


def main() -> None:
    database_url = scratch_database("mafia_bench_hot_paths")
    env = django_env(database_url, DJANGO_DEBUG="0")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"], cwd=ROOT, env=env, check=True
    )
    setup_django(database_url, DJANGO_DEBUG="0")
    figures = {**taps(), **promotions()}
    print(json.dumps(figures))


def taps() -> dict[str, object]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from tests.games.recording import LINEUP, TOWN_WINS, evening_with_players, make_host
    from tests.games.recording import start_game as started

    host = make_host(nickname="Ведущая")
    client = Client(SERVER_NAME="localhost")
    client.force_login(host)
    queries: list[int] = []
    seconds: list[float] = []
    for _game in range(GAMES):
        evening, players = evening_with_players(SEATS)
        game = started(host, evening, players, LINEUP)
        for seq, event in enumerate(TOWN_WINS, start=1):
            body = {"seq": seq, "client_id": f"tap-{seq}", "event": event, "confirmed": True}
            url = f"/games/{game.pk}/tap/"
            with CaptureQueriesContext(connection) as captured:
                begun = time.perf_counter()
                answer = client.post(url, body, content_type="application/json")
                seconds.append(time.perf_counter() - begun)
            assert answer.status_code == 201, answer.content
            queries.append(len(captured))
        game.refresh_from_db()
        assert game.finished and game.winner == "red", "the sample game did not end as scripted"
    ordered = sorted(seconds)
    return {
        "taps": len(queries),
        "tap_queries_mean": round(statistics.mean(queries), 2),
        "tap_queries_max": max(queries),
        "tap_ms_p50": round(statistics.median(seconds) * 1000, 2),
        "tap_ms_p90": round(ordered[int(len(ordered) * 0.9)] * 1000, 2),
    }


def promotions() -> dict[str, object]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from club import services
    from tests.factories import make_evening, sign_up_many

    def full_evening() -> tuple[int, list[Any]]:
        evening = make_evening(capacity=SEATS)
        signed = sign_up_many(evening, SEATS + RESERVE)
        return evening.pk, [s.member for s in signed]

    def counted(action: object) -> tuple[int, int]:
        with CaptureQueriesContext(connection) as captured:
            action()  # type: ignore[operator]
        lineup_reads = sum(1 for q in captured.captured_queries if "ROW_NUMBER" in q["sql"])
        return len(captured), lineup_reads

    evening_id, members = full_evening()
    cancel = counted(lambda: services.registration_cancel(member=members[0], evening_id=evening_id))
    evening_id, _members = full_evening()
    capacity = counted(
        lambda: services.evening_set_capacity(evening_id=evening_id, capacity=SEATS + 2)
    )
    return {
        "cancel_promotes_queries": cancel[0],
        "cancel_promotes_lineup_reads": cancel[1],
        "capacity_promotes_two_queries": capacity[0],
        "capacity_promotes_two_lineup_reads": capacity[1],
    }


if __name__ == "__main__":
    main()
