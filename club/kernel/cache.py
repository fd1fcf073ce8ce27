"""The cache (Redis in production) helps; it is never a door. A cache that does not answer
is logged and worked around: a throttle lets the request through (fail open), an icon is
drawn again. /healthz reports the cache's failure to the proxy and the admin."""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache
from redis.exceptions import RedisError

from club.kernel.breaker import Breaker

logger = logging.getLogger(__name__)

# What Django's Redis cache raises when Redis is down, refuses or times out (redis-py's
# errors), or when a socket fails underneath it.
CACHE_FAILURES: tuple[type[Exception], ...] = (RedisError, OSError)
CACHE = Breaker("The cache")


def cache_get(key: str) -> Any:
    """The cached value, or None when there is none or the cache does not answer."""
    if not CACHE.closed:
        return None
    try:
        return cache.get(key)
    except CACHE_FAILURES:
        logger.warning("The cache does not answer: %s is not read", key, exc_info=True)
        CACHE.failed()
        return None


def cache_set(key: str, value: Any, timeout: int) -> None:
    """Keep a value if the cache answers; without it, the value is simply made again."""
    if not CACHE.closed:
        return
    try:
        cache.set(key, value, timeout)
    except CACHE_FAILURES:
        logger.warning("The cache does not answer: %s is not kept", key, exc_info=True)
        CACHE.failed()


def cache_delete(key: str) -> bool:
    """Drop a kept value; False when the cache does not answer (the value then lives out
    its timeout)."""
    if not CACHE.closed:
        return False
    try:
        cache.delete(key)
    except CACHE_FAILURES:
        logger.warning("The cache does not answer: %s is not dropped", key, exc_info=True)
        CACHE.failed()
        return False
    return True


def cache_get_many(keys: list[str]) -> dict[str, Any]:
    """The cached values found among `keys` (one round trip), or none when the cache does
    not answer."""
    if not CACHE.closed or not keys:
        return {}
    try:
        return cache.get_many(keys)
    except CACHE_FAILURES:
        logger.warning("The cache does not answer: %d keys are not read", len(keys), exc_info=True)
        CACHE.failed()
        return {}
