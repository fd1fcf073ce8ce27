"""A circuit breaker per process: after a dependency fails, the next calls skip it for a
while instead of each waiting out its timeout. A Redis that accepts connections and never
answers cost every request its socket timeout (30 s for a publish without one, 2 s a
throttle): with the breaker, one request pays it, and the others go on at once, the way
they do when Redis is down (fail open, the sweeps catch up)."""

from __future__ import annotations

import logging
import threading
from time import monotonic

logger = logging.getLogger(__name__)


class Breaker:
    def __init__(self, name: str, *, pause_seconds: float = 30.0) -> None:
        self.name = name
        self.pause_seconds = pause_seconds
        self._open_until = 0.0
        self._lock = threading.Lock()

    @property
    def closed(self) -> bool:
        """Whether calls may be tried now."""
        return monotonic() >= self._open_until

    def failed(self) -> None:
        """A call failed: skip the next ones for the pause."""
        with self._lock:
            self._open_until = monotonic() + self.pause_seconds
        logger.warning("%s does not answer: not tried for %d s", self.name, self.pause_seconds)

    def reset(self) -> None:
        self._open_until = 0.0
