"""Tasks queued after the commit of the change that asks for them, by name.

A task is named, not imported, so a room low in the house (accounts, the outbox) can ask
for work a higher room does (games' analysis) without importing it: the name is the
documented hook. And publishing never turns a committed change into an error page: if the
broker does not answer, the failure is logged and a sweep does the work later (the outbox
sends what is pending, games_catch_up builds missing analyses and restarts stalled
recordings).
"""

from __future__ import annotations

import logging

from django.db import transaction

from club.celery import app
from club.kernel.breaker import Breaker

logger = logging.getLogger(__name__)


# The broker, as this process last found it (club/kernel/breaker.py).
BROKER = Breaker("The broker")


def publish(task_name: str, *args: object, countdown: float | None = None) -> bool:
    """Queue the task now; False (logged) when the broker cannot take it, or failed a
    moment ago (the breaker: a hung broker holds one request, not each)."""
    if not BROKER.closed:
        logger.warning("Not queued %s%r: the broker failed just now; a sweep will", task_name, args)
        return False
    try:
        app.send_task(task_name, args=args, countdown=countdown)
    except Exception:  # a broker that is down, full or unreachable: the sweeps catch up
        logger.exception("Could not queue %s%r; a sweep will catch up", task_name, args)
        BROKER.failed()
        return False
    return True


def queue_on_commit(task_name: str, *args: object, countdown: float | None = None) -> None:
    """Queue the task once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: publish(task_name, *args, countdown=countdown))
