"""The first /healthz of a fresh process costs what the later ones cost: it loads nothing.

The hole it closes (#37): the first check after `make run` took 1.6 s on a 2-core machine
at load 4, and past its 2 s deadline at load 8 (a 503), and every start logged an ERROR
health line: the broker's check was the process's first use of the broker, which imported
its transport (SQLAlchemy, for the embedded broker) and built its engine. Now the embedded
broker's SQLite file is read with the standard library (club/kernel/health.py), and the
server loads the broker's transport at start (club/kernel/queueing.warm_up, from
club/wsgi.py), so neither the first check nor the first publish loads it.

What the first check does is measured (the modules it imports), not how long it takes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A fresh process: the first health check's new modules, its answer, and the log.
FIRST_CHECK = """
import json, sys, threading
{setup}
from club.kernel import health
for thread in threading.enumerate():
    if thread.name == "broker warm-up":
        thread.join(30)
before = set(sys.modules)
failing = health.failing_parts()
print(json.dumps({{"failing": failing, "loaded": sorted(set(sys.modules) - before)}}))
"""
SERVER = "import club.wsgi"  # what runserver and gunicorn load before the first request
BARE = "import django; django.setup()"
# What a broker's first use loads: the messaging library, its transports and drivers.
BROKER_MODULES = {"kombu", "sqlalchemy", "redis"}


def first_check(setup: str, *, embedded: bool, var: Path) -> tuple[dict[str, list[str]], str]:
    # The database is the embedded SQLite either way (the check is the broker's); the
    # broker and the cache are the tests' Redis unless `embedded`.
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("DJANGO_")
        and key != "DATABASE_URL"
        and not (embedded and key in {"CELERY_BROKER_URL", "CLUB_CACHE_URL"})
    }
    env.update(DJANGO_SETTINGS_MODULE="club.settings", CLUB_VAR_DIR=str(var), PYTHONPATH=".")
    done = subprocess.run(
        [sys.executable, "-c", FIRST_CHECK.format(setup=setup)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    answer: dict[str, list[str]] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer, done.stderr


def broker_modules(loaded: list[str]) -> list[str]:
    return [name for name in loaded if name.split(".")[0] in BROKER_MODULES]


def test_the_embedded_brokers_check_never_loads_the_broker(tmp_path: Path) -> None:
    answer, log = first_check(BARE, embedded=True, var=tmp_path)
    assert answer["failing"] == []
    assert broker_modules(answer["loaded"]) == []
    assert "ERROR" not in log


def test_a_fresh_servers_first_check_loads_nothing_of_the_broker(tmp_path: Path) -> None:
    for embedded in (True, False):  # make run's SQLite broker; production's Redis
        answer, log = first_check(SERVER, embedded=embedded, var=tmp_path / str(embedded))
        assert answer["failing"] == [], log
        assert broker_modules(answer["loaded"]) == [], embedded
        assert "ERROR" not in log
