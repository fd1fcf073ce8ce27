"""Readiness checks for /healthz: do the database, the Celery broker and the cache answer?

The public answer names the failing parts only; what failed, with hosts, ports and driver
messages, goes to the log, where only the operators read it.
"""

import logging
from collections.abc import Callable

from django.core.cache import cache
from django.db import connection

from club.celery import app as celery_app

logger = logging.getLogger(__name__)


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _broker() -> None:
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)


def _cache() -> None:
    cache.set("healthz", "ok", 5)
    if cache.get("healthz") != "ok":
        raise RuntimeError("the cache did not keep a value")


CHECKS: dict[str, Callable[[], None]] = {"database": _database, "broker": _broker, "cache": _cache}


def failing_parts() -> list[str]:
    """The names of the parts that do not answer, each failure logged in full."""
    failing = []
    for name, check in CHECKS.items():
        try:
            check()
        except Exception:  # any failure means "not ready", whatever its kind
            logger.exception("Health check: the %s does not answer", name)
            failing.append(name)
    return failing
