"""The per-key request limit (KMRAG_SERVER_RATE_LIMIT_PER_MIN): a token bucket per key, refilled evenly over
the minute, so a key may burst up to its limit and then make one request per 60/limit seconds. A request over
the limit answers 429 with ``Retry-After`` (whole seconds until a token is back)."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable


class RateLimiter:
    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity, self.rate = float(per_minute), per_minute / 60.0  # tokens, tokens per second
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when counted)
        self._lock = threading.Lock()

    def take(self, key: str) -> float | None:
        """None when the key may go on (a token taken); else the seconds until it may."""
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.get(key, (self.capacity, now))
            tokens = min(self.capacity, tokens + (now - then) * self.rate)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                return None
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate

    @staticmethod
    def retry_after(wait_s: float) -> str:
        return str(max(1, math.ceil(wait_s)))
