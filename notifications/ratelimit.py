"""One pace per bot: at most RATE messages a second to the Bot API through each club's bot,
however many worker processes send (Telegram's limit is per bot, not per process), and one
pause for all of a bot's senders when Telegram answers it 429. Bots do not wait for each
other: a hundred clubs' announcements at the same hour go out side by side, each within
its own bot's limit.

Time is cut into slots of 1/RATE s and each send takes a free slot of its bot, claimed with
`SET NX` in Redis (the broker), so processes never burst together; off Redis (the embedded
site's SQLite broker, one machine) a process-local clock does the same for its own sends.
A sender takes the first free slot within MAX_WAIT_SECONDS; when its bot has none that
soon, it does not hold its worker: the message goes back to the queue for when the bot has
room, and the worker takes the next message, another club's.

A 429 names the seconds (retry_after) the whole bot must stay quiet: the pause is kept in
Redis beside the slots, and every sender of that bot looks at it before it takes a slot and
again just before it calls, so while it lasts no process calls Telegram through that bot at
all, and when it ends one call goes first to see whether Telegram agrees. Off Redis the
pause is the process's own (another worker process learns it from its own first 429).

Keys name the bot by its numeric id (the token's first part, club/kernel/bots.py), never
by the token itself.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass
from functools import cache

import redis
from django.conf import settings

from club.kernel.bots import club_bot

logger = logging.getLogger(__name__)

# Telegram allows about 30 messages a second. The pace keeps a little under it: a send that
# leaves late in its slot must not make a 31st within a second, since a 429 pauses the whole
# bot. One slot of 1/RATE s per message, never two in a slot.
RATE = 29.5
# The longest a sender sleeps for its bot's slot; a bot busier than that sends the message
# later, and the worker goes on to another message (another club's bot may be free).
MAX_WAIT_SECONDS = 1.0
PROBE_SECONDS = 1.0  # after a pause, the first call goes alone for this long at most


def _key(bot: str, name: str) -> str:
    return f"telegram:{bot}:{name}"


def _pause_key(bot: str) -> str:
    return _key(bot, "paused-until")  # the time (epoch seconds) before which nobody sends


def _current_bot() -> str:
    return club_bot().bot_id


@dataclass(frozen=True)
class Turn:
    """A sender's turn at its bot: `wait` 0.0 to call now; otherwise the seconds to put
    the message back for, `paused` when a 429's pause is the reason (not a busy bot)."""

    wait: float = 0.0
    paused: bool = False


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


# Claim the first free slot of a bot among the next ARGV[2] from ARGV[1] (keys
# KEYS[1]..slot, kept ARGV[3] s), in one round trip. When none is free, the bot is busier
# than a sender should wait for: the message is given a time to come back, one 1/rate
# (ARGV[4]) after the last message put back (KEYS[2], epoch seconds), so the messages put
# back return spread at the bot's pace rather than all together (each about once, not once
# a second while a long queue drains). Returns {slot, "0"} or {-1, the time to come back}.
_CLAIM_SLOT = """
local first = tonumber(ARGV[1])
local count = tonumber(ARGV[2])
for i = 0, count - 1 do
    if redis.call('SET', KEYS[1] .. (first + i), 1, 'NX', 'EX', ARGV[3]) then
        return {first + i, '0'}
    end
end
local rate = tonumber(ARGV[4])
local queued = tonumber(redis.call('GET', KEYS[2]) or '0')
local later = math.max((first + count) / rate, queued)
redis.call('SET', KEYS[2], tostring(later + 1 / rate), 'EX', 3600)
return {-1, tostring(later)}
"""

_local_lock = threading.Lock()
_local_next: dict[str, float] = {}  # per bot, time.monotonic()
_local_paused_until: dict[str, float] = {}  # per bot, epoch seconds, off Redis


def pause_sending(seconds: float, *, bot: str | None = None) -> float:
    """Telegram answered 429 with retry_after `seconds`: nobody sends through this bot
    (default: the club in scope's) until then. Returns the seconds left of the bot's pause
    (longer if one already recorded ends later)."""
    bot = bot if bot is not None else _current_bot()
    now = time.time()
    until = now + seconds
    client = _shared()
    if client is None:
        with _local_lock:
            _local_paused_until[bot] = max(_local_paused_until.get(bot, 0.0), until)
            return _local_paused_until[bot] - now
    try:
        # The key outlives the pause a little, so a late reader still finds it ended.
        kept = client.eval(
            _EXTEND_PAUSE, 1, _pause_key(bot), repr(until), int(seconds * 1000) + 5000
        )
    except redis.RedisError:
        # The message's outcome is known (not delivered): it waits on its own rather than
        # stay "sending" and be reported in doubt. (No sender gets a slot without Redis.)
        logger.warning("Could not share a Telegram pause through Redis", exc_info=True)
        return seconds
    return max(0.0, float(kept) - now)


def resume_sending() -> None:
    """Forget every bot's pause and pace (a test starting afresh against a new fake Bot API)."""
    with _local_lock:
        _local_paused_until.clear()
        _local_next.clear()
    client = _shared()
    if client is not None:
        for pattern in (
            "telegram:*:paused-until",
            "telegram:*:send-slot:*",
            "telegram:*:put-back-*",
        ):
            keys = list(client.scan_iter(match=pattern, count=1000))
            if keys:
                client.delete(*keys)


def _paused_for(bot: str, *, may_probe: bool) -> float:
    """The seconds this sender must still wait for its bot's pause; 0.0 when it may call.

    When a pause ends Telegram may still refuse, and every sender calling at once would
    each draw a 429: the first to find it ended calls alone (it probes), and the others
    wait PROBE_SECONDS for its answer. A 429 records a new pause; any other answer lets
    them go when that time is up.
    """
    now = time.time()
    client = _shared()
    if client is None:  # one sender at a time in a process: nothing to probe together
        return max(0.0, _local_paused_until.get(bot, 0.0) - now)
    stored = client.get(_pause_key(bot))
    if stored is None:
        return 0.0
    until = float(stored)
    if until > now:
        return until - now
    probe = _key(bot, f"probe:{until!r}")  # one probe per pause
    if may_probe and client.set(probe, repr(now), nx=True, ex=60):
        return 0.0
    probed_at = client.get(probe)
    if probed_at is None:  # nobody probes yet: this sender will, once it has its slot
        return 0.0
    return max(0.0, float(probed_at) + PROBE_SECONDS - now)


def wait_for_send_slot(bot: str | None = None, rate: float | None = None) -> Turn:
    """Wait for this sender's turn to call the Bot API through `bot` (default: the club in
    scope's), at most MAX_WAIT_SECONDS. A Turn with wait 0.0 when it may call now; else it
    must not call, and puts its message back for the seconds named (its bot is busy, or
    paused by a 429) rather than hold a worker that another club's message could use."""
    bot = bot if bot is not None else _current_bot()
    rate = rate if rate is not None else RATE
    paused = _paused_for(bot, may_probe=False)
    if paused:
        return Turn(paused, paused=True)
    client = _shared()
    if client is None:
        with _local_lock:
            now = time.monotonic()
            # One machine's few senders (the embedded site): each simply waits its turn.
            start = max(now, _local_next.get(bot, 0.0))
            _local_next[bot] = start + 1 / rate
        time.sleep(max(0.0, start - now))
    else:
        now = time.time()
        first = int(now * rate)
        horizon = max(1, int(MAX_WAIT_SECONDS * rate))
        slot, later = client.eval(
            _CLAIM_SLOT,
            2,
            _key(bot, "send-slot:"),
            _key(bot, "put-back-until"),
            first,
            horizon,
            int(MAX_WAIT_SECONDS) + 5,
            repr(rate),
        )
        if int(slot) < 0:
            return Turn(max(0.05, float(later) - now))
        time.sleep(max(0.0, int(slot) / rate - now))
    # Another sender's 429 may have come back while this one waited for its slot.
    paused = _paused_for(bot, may_probe=True)
    return Turn(paused, paused=True) if paused else Turn()
