"""Celery beat that sends only while it holds a lease: a second beat (a spare on another
machine, a supervisor that started one too many) ticks, sends nothing, and takes over
within about half a minute when the holder dies.

Which lock. The broker's Redis, `SET NX PX` with a token and a time to live renewed every
few seconds (a compare-and-renew script, so a beat never renews or frees another's lease),
rather than PostgreSQL's session advisory lock:
- a lease ends on time however its holder died. An advisory lock lives as long as the
  holder's PostgreSQL session, and the server notices a machine that lost its power or its
  network only by TCP keepalive: two hours and more with the defaults, no beat all along;
  behind a pooler in transaction mode (PgBouncer) a session lock is not even held;
- beat's one job is publishing to that same Redis, so the lock adds no dependency: when
  Redis does not answer, nothing could be sent anyway.
A holder that stalls past its lease (a frozen VM) may find on waking that another took
over: it renews first and sends nothing once its lease is gone. Within its lease it
trusts it without asking Redis, and the lease is taken as ending a sixth of its length
before Redis ends it.

On the embedded broker (a SQLite file, one machine, `make run`) the lock is the local one:
`flock` on a file beside the broker's, which the kernel frees when the process dies.

Every periodic task is a sweep that asks the database what is due (docs/deploy.md, «Why a
static beat schedule»), so a beat that takes over simply sends every entry it has not sent
itself: at worst a sweep runs twice close together, and nothing is missed.
"""

from __future__ import annotations

import fcntl
import logging
import os
import socket
import uuid
from pathlib import Path
from time import monotonic
from typing import IO, Any, Protocol
from urllib.parse import unquote

import redis
from celery import Celery
from celery.beat import PersistentScheduler
from django.conf import settings

logger = logging.getLogger(__name__)

LOCK_KEY = "club:beat-lock"
DEFAULT_LOCK_SECONDS = 30.0

# Hold the lease when it is free or already ours (renewing it), in one step. Returns who
# holds it afterwards, so the log can name the other beat.
_TAKE_OR_RENEW = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return ARGV[1]
end
if not holder then
    redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
    return ARGV[1]
end
return holder
"""

# Free the lease only if it is still ours: a lease that expired may be another's by now.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""


class Lease(Protocol):
    def claim(self) -> str | None:
        """Take or renew the lease: None when this beat holds it now, else who holds it
        (a host, process id and token, or why nobody can tell)."""

    def __str__(self) -> str:
        """What the lock is, for beat's banner."""

    def release(self) -> None:
        """Give the lease up, so a standby takes over at its next try."""


class RedisLease:
    """A lease in Redis that ends `seconds` after its last renewal."""

    def __init__(self, url: str, seconds: float, *, key: str = LOCK_KEY) -> None:
        self.key = key
        self.milliseconds = max(1, round(seconds * 1000))
        self.token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        # Bounded waits: a Redis that accepts and never answers must not freeze the tick.
        self.client = redis.Redis.from_url(url, socket_timeout=3, socket_connect_timeout=3)

    def claim(self) -> str | None:
        try:
            holder = self.client.eval(
                _TAKE_OR_RENEW, 1, self.key, self.token, str(self.milliseconds)
            )
        except redis.RedisError as error:
            return f"nobody can tell, Redis does not answer ({error})"
        holder_text = holder.decode() if isinstance(holder, bytes) else str(holder)
        return None if holder_text == self.token else holder_text

    def __str__(self) -> str:
        return f"a lease of {self.milliseconds / 1000:g} s in the broker's Redis ({self.key})"

    def release(self) -> None:
        try:
            self.client.eval(_RELEASE, 1, self.key, self.token)
        except redis.RedisError:
            logger.warning("Beat could not free its lock in Redis; it ends on its own")
        finally:
            self.client.close()


class FileLease:
    """The local lock: `flock` on a file, freed by the kernel with its holder's process.
    Each lease opens the file itself, so two leases in one process exclude each other too."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[bytes] | None = None

    def __str__(self) -> str:
        return f"flock on {self.path}"

    def claim(self) -> str | None:
        if self._file is not None:
            return None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        opened = self.path.open("a+b")
        try:
            fcntl.flock(opened, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            opened.close()
            return f"another process on this machine ({self.path})"
        self._file = opened
        return None

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing frees the flock
            self._file = None


def lease_for(broker_url: str, seconds: float) -> Lease:
    """The lease the beats of one deployment share: in the broker's Redis, or beside the
    embedded broker's SQLite file (the beats of one machine share that file)."""
    if broker_url.startswith(("redis://", "rediss://")):
        return RedisLease(broker_url, seconds)
    if broker_url.startswith("sqla+sqlite:///"):
        # SQLAlchemy's form: three slashes, then the file's path (a fourth if absolute).
        database = unquote(broker_url.removeprefix("sqla+sqlite:///").split("?")[0])
        return FileLease(Path(database + ".beat-lock"))
    raise ValueError(
        f"Beat's lock needs the broker's Redis or the embedded SQLite broker, not {broker_url!r}"
    )


class LeasedScheduler(PersistentScheduler):
    """The persistent scheduler whose `tick` sends only while this beat holds the lease.

    Celery's beat loop calls `tick()` and sleeps what it returns; the base tick sends at
    most one due entry per call. This one claims the lease first (at most every sixth of its
    length; within it the lease is trusted), and standing by returns that same interval, so
    a standby tries again every few seconds and a holder renews in time."""

    def __init__(self, app: Celery, *args: Any, lock_seconds: float | None = None, **kwargs: Any):
        self.lock_seconds = float(
            lock_seconds
            if lock_seconds is not None
            else getattr(settings, "CLUB_BEAT_LOCK_SECONDS", DEFAULT_LOCK_SECONDS)
        )
        if self.lock_seconds < 1:
            raise ValueError(f"Beat's lock must last a second or more, not {self.lock_seconds}")
        self.renew_every = self.lock_seconds / 6
        self.lease = lease_for(app.conf.broker_url, self.lock_seconds)
        self._valid_until = 0.0  # monotonic: the end of the lease, with a sixth to spare
        self._renewed_at: float | None = None
        self._standing_by_for: str | None = None  # the holder last logged, to log once
        super().__init__(app, *args, **kwargs)
        # Beat's own cap on a sleep (its pidbox reads it too); `tick` caps the sleep anyway.
        self.max_interval = max(1, int(self.renew_every))

    @property
    def holds_lease(self) -> bool:
        return monotonic() < self._valid_until

    @property
    def renewed_at(self) -> float | None:
        """When (monotonic) this beat last took or renewed the lease; None standing by. The
        lease ends in Redis no sooner than `lock_seconds` after it."""
        return self._renewed_at

    def tick(self, *args: Any, **kwargs: Any) -> float:
        if not self._claim():
            return self.renew_every
        interval: float = super().tick(*args, **kwargs)
        return min(interval, self.renew_every)

    def _claim(self) -> bool:
        now = monotonic()
        if (
            self._renewed_at is not None
            and now - self._renewed_at < self.renew_every
            and now < self._valid_until
        ):
            return True
        holder = self.lease.claim()
        if holder is None:
            if self._renewed_at is None or now >= self._valid_until:
                logger.info("Beat holds the lock: sending the schedule")
            self._renewed_at = now
            # Counted from before the call: Redis's own clock starts a little later.
            self._valid_until = now + self.lock_seconds * 5 / 6
            self._standing_by_for = None
            return True
        if self._standing_by_for is None:
            logger.warning("Beat is standing by, sending nothing: the lock is held by %s", holder)
        self._standing_by_for = holder
        self._renewed_at = None
        self._valid_until = 0.0
        return False

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.lease.release()
            self._valid_until = 0.0
            self._renewed_at = None

    @property
    def info(self) -> str:
        return f"{super().info}\n    . lock -> {self.lease}"
