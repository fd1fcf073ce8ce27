"""Tasks queued after the commit of the change that asks for them, by name.

A task is named, not imported, so a room low in the house (accounts, the outbox) can ask
for work a higher room does (games' analysis) without importing it: the name is the
documented hook. And publishing never turns a committed change into an error page: if the
broker does not answer, the failure is logged and a sweep does the work later (the outbox
sends what is pending, games_catch_up builds missing analyses and restarts stalled
recordings).

A publish waits for the broker at most PUBLISH_DEADLINE, as a cache call does (the cache's
socket timeout): a Redis that accepts connections and never answers held a sign-up, a
password reset or a bot update for the driver's timeouts, 15–20 s, although the change was
already committed. The driver's own timeouts cannot bound it (a publish is several round
trips and a retry, each with its socket timeout), so the publish runs in a thread of its
own and the request waits for it that long at most; a publish that finishes later still
tells the breaker what it found.
"""

from __future__ import annotations

import contextvars
import logging
import threading

from django.db import transaction

from club.celery import app
from club.kernel import tenancy
from club.kernel.breaker import Breaker

logger = logging.getLogger(__name__)


# The broker, as this process last found it (club/kernel/breaker.py).
BROKER = Breaker("The broker")
# How long a request waits for the broker to take a task: the cache's 1 s, since a task
# that is not queued now is queued by a sweep within minutes, and the change is committed.
PUBLISH_DEADLINE = 1.0


class _Publish:
    """One publish, run in a thread of its own: the caller waits for `done` at most the
    deadline; the thread, however late, records what the broker did in the breaker."""

    def __init__(self, task_name: str, args: tuple[object, ...], countdown: float | None) -> None:
        self.task_name, self.args, self.countdown = task_name, args, countdown
        self.done = threading.Event()
        self.error: Exception | None = None
        self._lock = threading.Lock()  # the caller's giving up and the end, one at a time
        self._waited_out = False

    def run(self) -> None:
        try:
            app.send_task(self.task_name, args=self.args, countdown=self.countdown)
        except Exception as error:  # a broker that is down, full or unreachable
            self.error = error
            BROKER.failed()
        with self._lock:
            self.done.set()
            if self._waited_out and self.error is None:
                # It answered after all: the next publishes may try it.
                logger.info("Queued %s%r late; the broker answers", self.task_name, self.args)
                BROKER.reset()

    def wait(self) -> bool:
        """Whether it finished within the deadline; if not, the caller has given up on it."""
        if self.done.wait(PUBLISH_DEADLINE):
            return True
        with self._lock:
            self._waited_out = not self.done.is_set()
            return not self._waited_out


def publish(task_name: str, *args: object, countdown: float | None = None) -> bool:
    """Queue the task now, waiting for the broker at most PUBLISH_DEADLINE; False (logged)
    when the broker cannot take it, did not answer in time, or failed a moment ago (the
    breaker: a hung broker holds one request a second, not each one its timeouts)."""
    if not BROKER.closed:
        logger.warning("Not queued %s%r: the broker failed just now; a sweep will", task_name, args)
        return False
    attempt = _Publish(task_name, args, countdown)
    # In the caller's context: the club in scope goes with the task (club/kernel/tenancy.py).
    context = contextvars.copy_context()
    threading.Thread(
        target=context.run, args=(attempt.run,), name=f"publish {task_name}", daemon=True
    ).start()
    if not attempt.wait():
        BROKER.failed()
        logger.error(
            "Could not queue %s%r: the broker did not answer in %s s; a sweep will catch up",
            task_name,
            args,
            PUBLISH_DEADLINE,
        )
        return False
    if attempt.error is not None:
        logger.error(
            "Could not queue %s%r; a sweep will catch up",
            task_name,
            args,
            exc_info=attempt.error,
        )
        return False
    return True


def warm_up() -> None:
    """Load now, at the server's start, what a process's first publish (and the health
    check's broker) would otherwise load under the first request: the broker's transport
    (for the embedded broker, SQLAlchemy: over a second of imports on a busy machine, more
    than the publish's deadline) and the app's producer pool, at once; the pool's connection
    and channel (the embedded broker's tables and mappings, another 0.2 s or more) in a
    thread, so that no broker needs to answer for the server to start. Nothing is sent."""
    app.connection_for_write().get_transport_cls()  # imports the transport's module
    app.amqp.producer_pool  # noqa: B018 (a property that builds the pools on first use)
    threading.Thread(target=_open_a_channel, name="broker warm-up", daemon=True).start()


def _open_a_channel() -> None:
    try:
        with app.producer_or_acquire() as producer:
            producer.connection.default_channel  # noqa: B018 (opened on first use)
    except Exception:  # not up yet: the first publish finds out, within its deadline
        logger.info("The broker did not answer at start", exc_info=True)


def queue_on_commit(task_name: str, *args: object, countdown: float | None = None) -> None:
    """Queue the task once the current transaction commits (at once outside one), for the
    club in scope now: a commit that comes after the scope closed (a sweep's loop over
    clubs inside one transaction, a club's save from another club's pages) still sends it
    to the club that asked."""
    club_id = tenancy.scoped_club_id()

    def send() -> None:
        if club_id is None:
            publish(task_name, *args, countdown=countdown)
            return
        with tenancy.club_scope(club_id):
            publish(task_name, *args, countdown=countdown)

    transaction.on_commit(send)
