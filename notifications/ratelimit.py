"""One pace for all senders: at most RATE messages a second to the Bot API, however many
worker processes send (Telegram's limit is per bot, not per process), and one pause for all
when Telegram answers 429.

Time is cut into slots of 1/RATE s and each send takes a free slot, claimed with
`SET NX` in Redis (the broker), so processes never burst together; off Redis (the embedded
site's SQLite broker, one machine) a process-local clock does the same for its own sends.

A 429 names the seconds (retry_after) the whole bot must stay quiet: the pause is kept in
Redis beside the slots, and every sender looks at it before it takes a slot and again just
before it calls, so while it lasts no process calls Telegram at all, and when it ends one
call goes first to see whether Telegram agrees. Off Redis the pause is the process's own
(another worker process learns it from its own first 429).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from functools import cache

import redis
from django.conf import settings

logger = logging.getLogger(__name__)

# Telegram allows about 30 messages a second. The pace keeps a little under it: a send that
# leaves late in its slot must not make a 31st within a second, since a 429 pauses the whole
# bot. One slot of 1/RATE s per message, never two in a slot.
RATE = 29.5
PAUSE_KEY = "telegram:paused-until"  # the time (epoch seconds) before which nobody sends
PROBE_SECONDS = 1.0  # after a pause, the first call goes alone for this long at most

# Keep the later of the pause already recorded and this one: two 429s answered at once
# never shorten each other's wait.
_EXTEND_PAUSE = """
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > current then
    redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
    return ARGV[1]
end
return tostring(current)
"""


@cache
def _redis(url: str, pid: int) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=2)


def _shared() -> redis.Redis | None:
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        return None
    return _redis(url, os.getpid())


_local_lock = threading.Lock()
_local_next = [0.0]
_local_paused_until = [0.0]  # epoch seconds, off Redis


def pause_sending(seconds: float) -> float:
    """Telegram answered 429 with retry_after `seconds`: nobody sends until then. Returns
    the seconds left of the bot's pause (longer if one already recorded ends later)."""
    now = time.time()
    until = now + seconds
    client = _shared()
    if client is None:
        with _local_lock:
            _local_paused_until[0] = max(_local_paused_until[0], until)
            return _local_paused_until[0] - now
    try:
        # The key outlives the pause a little, so a late reader still finds it ended.
        kept = client.eval(_EXTEND_PAUSE, 1, PAUSE_KEY, repr(until), int(seconds * 1000) + 5000)
    except redis.RedisError:
        # The message's outcome is known (not delivered): it waits on its own rather than
        # stay "sending" and be reported in doubt. (No sender gets a slot without Redis.)
        logger.warning("Could not share a Telegram pause through Redis", exc_info=True)
        return seconds
    return max(0.0, float(kept) - now)


def resume_sending() -> None:
    """Forget the pause (a test starting afresh against a new fake Bot API)."""
    _local_paused_until[0] = 0.0
    client = _shared()
    if client is not None:
        client.delete(PAUSE_KEY)


def _paused_for(*, may_probe: bool) -> float:
    """The seconds this sender must still wait for the bot's pause; 0.0 when it may call.

    When a pause ends Telegram may still refuse, and every sender calling at once would
    each draw a 429: the first to find it ended calls alone (it probes), and the others
    wait PROBE_SECONDS for its answer. A 429 records a new pause; any other answer lets
    them go when that time is up.
    """
    now = time.time()
    client = _shared()
    if client is None:  # one sender at a time in a process: nothing to probe together
        return max(0.0, _local_paused_until[0] - now)
    stored = client.get(PAUSE_KEY)
    if stored is None:
        return 0.0
    until = float(stored)
    if until > now:
        return until - now
    probe = f"telegram:probe:{until!r}"  # one probe per pause
    if may_probe and client.set(probe, repr(now), nx=True, ex=60):
        return 0.0
    probed_at = client.get(probe)
    if probed_at is None:  # nobody probes yet: this sender will, once it has its slot
        return 0.0
    return max(0.0, float(probed_at) + PROBE_SECONDS - now)


def wait_for_send_slot(rate: float = RATE) -> float:
    """Wait for this sender's turn to call the Bot API. Returns 0.0 when it may call now,
    or the seconds left of a pause (a 429): then it must not call, and puts its message
    back until the pause ends rather than hold a worker for that long."""
    paused = _paused_for(may_probe=False)
    if paused:
        return paused
    client = _shared()
    if client is None:
        with _local_lock:
            now = time.monotonic()
            start = max(now, _local_next[0])
            _local_next[0] = start + 1 / rate
        time.sleep(max(0.0, start - now))
    else:
        while True:
            now = time.time()
            slot = int(now * rate)
            if client.set(f"telegram:send-slot:{slot}", 1, nx=True, ex=5):
                break
            time.sleep(max(0.0, (slot + 1) / rate - now))
    # Another sender's 429 may have come back while this one waited for its slot.
    return _paused_for(may_probe=True)
