"""One pace for all senders: at most RATE messages a second to the Bot API, however many
worker processes send (Telegram's limit is per bot, not per process).

Time is cut into slots of 1/RATE s and each send takes a free slot, claimed with
`SET NX` in Redis (the broker), so processes never burst together; off Redis (the embedded
filesystem broker, one machine) a process-local clock does the same for its own sends.
"""

from __future__ import annotations

import os
import threading
import time
from functools import cache

import redis
from django.conf import settings

RATE = 30  # Telegram's limit: one slot of 1/30 s per message, never two in a slot


@cache
def _redis(url: str, pid: int) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=2)


_local_lock = threading.Lock()
_local_next = [0.0]


def wait_for_send_slot(rate: int = RATE) -> None:
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        with _local_lock:
            now = time.monotonic()
            start = max(now, _local_next[0])
            _local_next[0] = start + 1 / rate
        time.sleep(max(0.0, start - now))
        return
    client = _redis(url, os.getpid())
    while True:
        now = time.time()
        slot = int(now * rate)
        if client.set(f"telegram:send-slot:{slot}", 1, nx=True, ex=5):
            return
        time.sleep(max(0.0, (slot + 1) / rate - now))
