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

`bench/live.py http` measures the same poll on a real server: ONE gunicorn process with
one sync worker (as docs/deploy.md runs them) on PostgreSQL and a Redis of its own (so that
its commands can be counted), and the viewers in another process (bench/poll_load.py: each
polls as static/games/live.js does, a second after each answer, with its ETag), while the
host records a game tap by tap over HTTP (the host screen's door, /games/<id>/tap/, on the
same worker). The viewers ramp (BENCH_RAMP) until the worker saturates. Per step: polls
a second, the latency's p50/p99 as the viewers saw it, the share of 304, the bytes of a
200 and of a 304, the worker's CPU per poll and its busy share, the load process's CPU,
Redis commands and SQL statements per poll (bench/urls.py counts the worker's), the host's
tap time, and from each tap to each viewer's seeing it the p95. Then what a hundred clubs'
evening needs. Prints one JSON line.
"""

import http.client
import json
import os
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project, for bench.*

from bench.common import (
    ROOT,
    django_env,
    free_port,
    gunicorn,
    host_site,
    log,
    port_open,
    scratch_database,
    setup_django,
    wait_until,
)

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
        game_id: int,
        scores: live.Scores | None = None,
        view: GameView | None = None,
        *,
        also: bool = True,
    ) -> live.Kept | None:
        began = time.perf_counter()
        try:
            return original_write(game_id, scores, view, also=also)
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


# --- the http mode -------------------------------------------------------------------------

RAMP = [int(n) for n in os.environ.get("BENCH_RAMP", "100,200,400,700,1000,1500,2000").split(",")]
STEP_SECONDS = float(os.environ.get("BENCH_STEP_SECONDS", "20"))
TAP_SECONDS = float(os.environ.get("BENCH_TAP_SECONDS", "4"))  # the host taps every 4 s
# A step is saturated once the viewers wait: a poll's p99 over half a second (a poll a
# second then slips), or errors.
SATURATED_P99_MS = 500
# A hundred clubs' evening: a tap every 5 s at each table (a busy host: a real game has one
# every 20–30 s on average), each viewer polling every second.
CLUBS_TAP_SECONDS = 5
DEPLOY_WORKERS = 6  # docs/deploy.md's command, on this machine's two cores
DEPLOY_VIEWERS = int(os.environ.get("BENCH_DEPLOY_VIEWERS", "1000"))


def _redis(port: int) -> subprocess.Popen[bytes]:
    """A Redis of the bench's own (the shared one's counters are everyone's)."""
    server = subprocess.Popen(
        [
            "redis-server",
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
    )
    wait_until(lambda: port_open(port), seconds=10, what="redis-server")
    return server


def _children(pid: int) -> list[int]:
    children: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        children += [int(n) for n in (task / "children").read_text().split()]
    return children


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _worker_pids() -> list[int]:
    """The gunicorn workers: the children of the gunicorn master, this process's child."""
    for pid in _children(os.getpid()):
        if b"gunicorn" in Path(f"/proc/{pid}/cmdline").read_bytes():
            return _children(pid)
    raise RuntimeError("no gunicorn worker")


class Site:
    """The server as the bench reads it: the worker's CPU and SQL statements, Redis's
    commands, and the host's taps over HTTP."""

    def __init__(self, port: int, redis_port: int, workers: list[int], session: str) -> None:
        import redis
        from django.conf import settings

        self.port, self.workers = port, workers
        self.redis = redis.Redis(port=redis_port)
        csrf = secrets.token_hex(16)  # 32 characters: a CSRF cookie's secret
        cookies = f"{settings.SESSION_COOKIE_NAME}={session}; {settings.CSRF_COOKIE_NAME}={csrf}"
        self.tap_headers = {
            "Content-Type": "application/json",
            "Cookie": cookies,
            "X-CSRFToken": csrf,
        }

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        # A worker's first request loads Django: on a busy machine, tens of seconds.
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=180)
        conn.request("GET", path, headers=headers or {})
        answer = conn.getresponse()
        body = answer.read()
        conn.close()
        return answer.status, body

    def tap(self, game_id: int, seq: int, event: dict[str, Any]) -> float:
        """Record one event as the host's screen does; the seconds it took."""
        body = json.dumps(
            {"seq": seq, "client_id": f"tap-{seq}", "event": event, "confirmed": True}
        )
        began = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.request("POST", f"/games/{game_id}/tap/", body=body, headers=self.tap_headers)
        answer = conn.getresponse()
        text = answer.read()
        conn.close()
        assert answer.status == 201, text[:300]
        return time.monotonic() - began

    def counters(self) -> tuple[float, int, int]:
        """The workers' CPU seconds, the SQL statements (one worker's: the probe reaches
        whichever answers; 0 with several), Redis's commands so far."""
        statements = 0
        if len(self.workers) == 1:
            statements = json.loads(self.get("/bench/statements")[1])["statements"]
        commands = int(self.redis.info("stats")["total_commands_processed"])
        return sum(_cpu_seconds(pid) for pid in self.workers), statements, commands


def _new_game(host: Any) -> Any:
    from games import live
    from games.models import Spectators
    from tests.games.recording import evening_with_players, start_game

    evening, players = evening_with_players()
    game = start_game(host, evening, players)
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    live.snapshot_write(game.pk)  # as the game's start writes it; no poll builds it
    return game


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def _calibrate(site: Site, host: Any) -> dict[str, float]:
    """A whole game tapped with nobody watching: what a tap costs the worker, PostgreSQL
    and Redis, and the snapshot's bytes along the game."""
    from games import live
    from tests.games.recording import TOWN_WINS

    game = _new_game(host)
    before = site.counters()
    seconds = []
    bodies = []
    for seq, event in enumerate(TOWN_WINS, start=1):
        seconds.append(site.tap(game.pk, seq, event))
        bodies.append(len(live.snapshot_read(game.pk)["body"].encode()))
    after = site.counters()
    taps = len(TOWN_WINS)
    return {
        "tap_ms_idle_p50": round(statistics.median(seconds) * 1000, 1),
        "tap_cpu_ms": round((after[0] - before[0]) / taps * 1000, 1),
        "tap_statements": round((after[1] - before[1] - 1) / taps, 1),  # less the probe's read
        "tap_redis_commands": round((after[2] - before[2]) / taps, 1),
        "body_bytes_max": max(bodies),
        "body_bytes_median": statistics.median(bodies),
    }


def _step(site: Site, host: Any, viewers: int, calibration: dict[str, float]) -> dict[str, Any]:
    """`viewers` poll one public game for STEP_SECONDS while its host taps every
    TAP_SECONDS; the figures of the step."""
    from games import live
    from tests.games.recording import TOWN_WINS

    game = _new_game(host)
    task = {
        "host": "127.0.0.1",
        "port": site.port,
        "path": f"/games/{game.pk}/live.json",
        "viewers": viewers,
        "seconds": STEP_SECONDS,
    }
    load_before = os.getloadavg()[0]
    before = site.counters()
    began = time.monotonic()
    load = subprocess.Popen(
        [sys.executable, str(ROOT / "bench" / "poll_load.py"), json.dumps(task)],
        stdout=subprocess.PIPE,
    )
    taps: list[tuple[float, str]] = []  # when the host tapped, the ETag after it
    tap_seconds: list[float] = []
    etag = live.snapshot_read(game.pk)["etag"]
    seq = 0
    while True:
        at = began + 2 + seq * TAP_SECONDS
        if at > began + STEP_SECONDS - 4 or seq >= len(TOWN_WINS):
            break
        time.sleep(max(0.0, at - time.monotonic()))
        tapped = time.monotonic()
        tap_seconds.append(site.tap(game.pk, seq + 1, TOWN_WINS[seq]))
        seq += 1
        after = live.snapshot_read(game.pk)["etag"]
        if after != etag:  # a night's tap changes nothing a spectator sees
            taps.append((tapped, after))
            etag = after
    out, _ = load.communicate()
    seconds = time.monotonic() - began
    after_counters = site.counters()
    result = json.loads(out)
    polls = result["polls"]
    # The polls of the steady seconds: the first second is the viewers' staggered start.
    steady = [poll for poll in polls if poll[0] >= began + 1.5]
    window = max(poll[0] for poll in steady) - (began + 1.5) if steady else 1.0
    latencies = [poll[1] for poll in steady]
    ok = [poll for poll in polls if poll[2] in (200, 304)]
    not_modified = [poll for poll in ok if poll[2] == 304]
    full = [poll for poll in ok if poll[2] == 200]
    # From a tap to each viewer's first answer with that table (or a later one).
    seen_after: list[float] = []
    missed = 0
    for index, (tapped, _etag) in enumerate(taps):
        later = {tag for _, tag in taps[index:]}
        for changes in result["seen"]:
            first = next((t for t, tag in changes if t >= tapped and tag in later), None)
            if first is None:
                missed += 1
            else:
                seen_after.append(first - tapped)
    cpu = after_counters[0] - before[0]
    statements = after_counters[1] - before[1] - 1  # less the probe's second read
    commands = after_counters[2] - before[2]
    tapped_count = len(tap_seconds)
    poll_statements = statements - tapped_count * calibration["tap_statements"]
    poll_commands = commands - tapped_count * calibration["tap_redis_commands"]
    poll_cpu = cpu - tapped_count * calibration["tap_cpu_ms"] / 1000
    return {
        "path": task["path"],
        "viewers": viewers,
        "polls_per_s": round(len(steady) / window, 1),
        "p50_ms": round(_percentile(latencies, 0.5), 2),
        "p99_ms": round(_percentile(latencies, 0.99), 2),
        "errors": result["errors"] + len(polls) - len(ok),
        "share_304": round(len(not_modified) / max(len(ok), 1), 3),
        "bytes_200": round(statistics.mean(poll[3] for poll in full)) if full else None,
        "bytes_304": round(statistics.mean(poll[3] for poll in not_modified))
        if not_modified
        else None,
        "server_closed_share": round(result["closed"] / max(len(ok), 1), 3),
        "worker_busy": round(cpu / seconds, 3),
        "worker_cpu_ms_per_poll": round(poll_cpu / max(len(ok), 1) * 1000, 3),
        "load_cpu_share": round(result["cpu_seconds"] / result["seconds"], 3),
        "load_cpu_ms_per_poll": round(result["cpu_seconds"] / max(len(ok), 1) * 1000, 3),
        "statements_per_poll": round(poll_statements / max(len(ok), 1), 4),
        "redis_commands_per_poll": round(poll_commands / max(len(ok), 1), 3),
        "taps": tapped_count,
        "tap_ms_max": round(max(tap_seconds) * 1000, 1),
        "tap_to_seen_p95_s": round(_percentile(seen_after, 0.95), 3),
        "tap_to_seen_max_s": round(max(seen_after), 3) if seen_after else None,
        "tap_not_seen": missed,
        "loadavg": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }


def http_main() -> None:
    redis_port = free_port()
    redis_server = _redis(redis_port)
    try:
        os.environ["CLUB_CACHE_URL"] = f"redis://127.0.0.1:{redis_port}/0"
        env, host, session = host_site("mafia_bench_live_http")
        env = {**env, "DJANGO_ROOT_URLCONF": "bench.urls"}
        with gunicorn(env, workers=1, threads=1) as (url, times):
            port = int(url.rsplit(":", 1)[1])
            workers = _worker_pids()
            assert len(workers) == 1, workers
            site = Site(port, redis_port, workers, session)
            assert site.get("/bench/statements")[0] == 200
            calibration = _calibrate(site, host)
            log(f"calibrated: {calibration}")
            steps = []
            for viewers in RAMP:
                step = _step(site, host, viewers, calibration)
                log(json.dumps(step))
                steps.append(step)
                # Saturated: the viewers wait, and more of them no longer bring more polls.
                grew = len(steps) < 2 or step["polls_per_s"] > 1.1 * steps[-2]["polls_per_s"]
                if step["p99_ms"] > SATURATED_P99_MS and not grew:
                    break
        for step in steps:  # the time inside the worker, from its access log
            _server_times(step, times)
        # The deployment's way (docs/deploy.md: sync workers, about three per core) with the
        # issue's thousand viewers of one table: the tap's way to them.
        with gunicorn(env, workers=DEPLOY_WORKERS) as (url, times):
            port = int(url.rsplit(":", 1)[1])
            # The master forks them one by one.
            wait_until(
                lambda: len(_worker_pids()) >= DEPLOY_WORKERS, seconds=60, what="the workers"
            )
            site = Site(port, redis_port, _worker_pids(), session)
            for _warm in range(3 * DEPLOY_WORKERS):  # each worker's first request loads Django
                site.get("/bench/statements")
            deployed = _step(site, host, DEPLOY_VIEWERS, calibration)
            deployed["workers"] = DEPLOY_WORKERS
            del deployed["statements_per_poll"]  # one worker's count only
            log(json.dumps(deployed))
        _server_times(deployed, times)
    finally:
        redis_server.terminate()
        redis_server.wait(timeout=10)
    print(json.dumps(_http_figures(calibration, steps, deployed)))


def _server_times(step: dict[str, Any], times: Any) -> None:
    inside = times.milliseconds(step.pop("path"))
    step["server_p50_ms"] = round(_percentile(inside, 0.5), 2)
    step["server_p99_ms"] = round(_percentile(inside, 0.99), 2)


def _http_figures(
    calibration: dict[str, float], steps: list[dict[str, Any]], deployed: dict[str, Any]
) -> dict[str, Any]:
    peak = max(steps, key=lambda step: step["polls_per_s"])
    kept_up = [step for step in steps if step["p99_ms"] <= SATURATED_P99_MS]
    # The cost of a poll read where the worker is not yet saturated (a saturated worker's
    # figures include its queueing), else at the peak.
    steady = kept_up[-1] if kept_up else peak
    polls_s = TABLES * VIEWERS_EACH / (1 + steady["p50_ms"] / 1000)
    taps_s = TABLES / CLUBS_TAP_SECONDS
    worker_ms = steady["worker_cpu_ms_per_poll"]
    return {
        "machine": {"cores": os.cpu_count(), "loadavg_1m": [s["loadavg"] for s in steps]},
        "calibration": calibration,
        "steps": steps,
        "deployed": deployed,
        "saturation": {
            "polls_per_s": peak["polls_per_s"],
            "viewers": peak["viewers"],
            "p50_ms": peak["p50_ms"],
            "p99_ms": peak["p99_ms"],
            "worker_busy": peak["worker_busy"],
            "load_cpu_share": peak["load_cpu_share"],
        },
        "hundred_clubs": {
            "tables": TABLES,
            "viewers_each": VIEWERS_EACH,
            "polls_per_s": round(polls_s),
            "taps_per_s": taps_s,
            "worker_cores": round(
                (polls_s * worker_ms + taps_s * calibration["tap_cpu_ms"]) / 1000, 2
            ),
            "sync_workers_at_saturation_rate": round(polls_s / peak["polls_per_s"], 1),
            "redis_commands_per_s": round(
                polls_s * steady["redis_commands_per_poll"]
                + taps_s * calibration["tap_redis_commands"]
            ),
            "sql_statements_per_s": round(
                polls_s * max(steady["statements_per_poll"], 0)
                + taps_s * calibration["tap_statements"]
            ),
        },
    }


if __name__ == "__main__":
    if sys.argv[1:] == ["http"]:
        http_main()
    else:
        main()
