"""The first health check of a fresh server process (issue 37): `make run`'s embedded stack
(SQLite database, SQLite broker) and production's Redis broker. Each run is a new process
that loads the server as runserver and gunicorn do (club.wsgi), then times /healthz's checks
(club/kernel/health.failing_parts) twice: the first and a later one. `kombu_first_ms` is
what the embedded broker's first check cost through kombu (the check before #37: it
imported SQLAlchemy and built the transport's engine), in a fresh process as well.

Prints one JSON line: per configuration the median and worst of the first and the later
check in ms, and the load average at the start. Run: uv run python bench/first_healthz.py
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project, for bench.*

from bench.common import BROKER_URL, ROOT, log

RUNS = 7

CHECKS = """
import json, threading, time
import club.wsgi
from club.kernel import health
for thread in threading.enumerate():
    if thread.name == "broker warm-up":
        thread.join(30)
def timed():
    started = time.perf_counter()
    assert health.failing_parts() == []
    return (time.perf_counter() - started) * 1000
print(json.dumps([timed(), timed()]))
"""

# The check as it was: the embedded broker through kombu, in a process that had not used it.
THROUGH_KOMBU = """
import json, time
import django
django.setup()
from club.celery import app
started = time.perf_counter()
with app.connection_for_write(connect_timeout=1) as connection:
    connection.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=1)
print(json.dumps([(time.perf_counter() - started) * 1000]))
"""


def fresh(script: str, *, embedded: bool, var: str) -> list[float]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.pop("DATABASE_URL", None)  # the database is the embedded SQLite either way
    env.update(DJANGO_SETTINGS_MODULE="club.settings", CLUB_VAR_DIR=var, PYTHONPATH=".")
    if embedded:
        env.pop("CELERY_BROKER_URL", None)
        env.pop("CLUB_CACHE_URL", None)
    else:
        env["CELERY_BROKER_URL"] = BROKER_URL
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    figures: list[float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def summary(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values), 1), "worst": round(max(values), 1)}


def main() -> None:
    result: dict[str, object] = {"load": os.getloadavg()[0], "runs": RUNS}
    with tempfile.TemporaryDirectory() as var:
        for name, embedded in (("embedded", True), ("redis", False)):
            firsts, laters = [], []
            for run in range(RUNS):
                log(f"{name} {run + 1}/{RUNS}")
                first, later = fresh(CHECKS, embedded=embedded, var=var)
                firsts.append(first)
                laters.append(later)
            result[name] = {"first_ms": summary(firsts), "later_ms": summary(laters)}
        kombu = [fresh(THROUGH_KOMBU, embedded=True, var=var)[0] for _ in range(RUNS)]
        result["kombu_first_ms"] = summary(kombu)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
