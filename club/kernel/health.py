"""Readiness checks for /healthz: do the database, the Celery broker and the cache answer?

The public answer names the failing parts only; what failed, with hosts, ports and driver
messages, goes to the log, where only the operators read it. The checks run side by side
and the answer waits for them at most DEADLINE_SECONDS: a part that has not answered by
then is failing. (A Redis that accepts connections and never answers held the broker's
check for minutes; the proxy's health check must stay useful.)
"""

import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from contextlib import closing

from django.core.cache import cache
from django.db import connection, connections

from club.celery import app as celery_app

logger = logging.getLogger(__name__)


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


DEADLINE_SECONDS = 2.0


# The embedded site's broker: kombu's SQLAlchemy transport on a SQLite file (club/settings.py).
EMBEDDED_BROKER = "sqla+sqlite:///"


def _broker() -> None:
    url = str(celery_app.conf.broker_url or "")
    if url.startswith(EMBEDDED_BROKER):
        _embedded_broker(url.removeprefix(EMBEDDED_BROKER))
        return
    # The driver's own timeouts too, so a check past the deadline does not linger.
    options = {**celery_app.conf.broker_transport_options, "socket_timeout": 1,
               "socket_connect_timeout": 1}  # fmt: skip
    with celery_app.connection_for_write(connect_timeout=1, transport_options=options) as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=1)


def _embedded_broker(path: str) -> None:
    """The SQLite file the embedded broker keeps its queue in, read with the standard
    library: through kombu, the first check of a process imported SQLAlchemy and built the
    transport's engine (1.6 s at load 4 on two cores, past the deadline at load 8, and an
    ERROR line on every `make run`); this costs a millisecond every time and reads the very
    file the web, the worker and beat write the queue to (a lock held by a writer is waited
    for a second)."""
    with closing(sqlite3.connect(path, timeout=1)) as database:
        database.execute("SELECT count(*) FROM sqlite_master").fetchone()


def _cache() -> None:
    cache.set("healthz", "ok", 5)
    if cache.get("healthz") != "ok":
        raise RuntimeError("the cache did not keep a value")


CHECKS: dict[str, Callable[[], None]] = {"database": _database, "broker": _broker, "cache": _cache}


def _run(name: str, check: Callable[[], None], answered: dict[str, bool]) -> None:
    try:
        check()
        answered[name] = True
    except Exception:  # any failure means "not ready", whatever its kind
        logger.exception("Health check: the %s does not answer", name)
        answered[name] = False
    finally:
        connections.close_all()  # this thread's own connections


def failing_parts() -> list[str]:
    """The names of the parts that do not answer within the deadline, each failure logged
    in full."""
    answered: dict[str, bool] = {}
    threads = [
        threading.Thread(target=_run, args=(name, check, answered), daemon=True, name=name)
        for name, check in CHECKS.items()
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + DEADLINE_SECONDS
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    failing = []
    for name in CHECKS:
        if name not in answered:
            logger.error("Health check: the %s did not answer in %s s", name, DEADLINE_SECONDS)
        if not answered.get(name):
            failing.append(name)
    return failing
