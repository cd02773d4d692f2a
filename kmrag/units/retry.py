"""Bounded retries of PostgreSQL calls after a lost connection (a server restart, a short outage).

An ingestion job's unit-store calls are each one transaction of upserts, so running one again after
the connection went away is safe. The pool checks a connection before lending it, so a retry gets a
fresh one once the server is back. After ``retries`` the error names the server and what to do."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any, TypeVar

from kmrag.errors import PostgresUnavailable

R = TypeVar("R")
MAX_PAUSE_S = 8.0


def pg_retry(fn: Callable[[], R], retries: int, backoff_s: float,
             on_retry: Callable[[int, BaseException], None] | None = None, pool: Any = None,
             on_recovered: Callable[[], None] | None = None) -> R:
    """``fn()``, run again up to ``retries`` times (pauses of ``backoff_s``, doubling, at most 8 s each)
    while PostgreSQL is unreachable; ``pool`` names the server in the final error; ``on_recovered`` is
    called after a call succeeded that needed retries (PostgreSQL is back: its sessions were lost)."""
    import psycopg

    from kmrag.units.pool import unreachable

    t0 = time.monotonic()
    pause = backoff_s
    attempt = 0
    while True:
        try:
            out = fn()
            if attempt and on_recovered is not None:
                on_recovered()
            return out
        except (PostgresUnavailable, psycopg.OperationalError) as e:
            if isinstance(e, psycopg.errors.QueryCanceled):
                raise  # a statement timeout: running it again would time out again
            if attempt >= retries:
                msg = str(e) if isinstance(e, PostgresUnavailable) else str(unreachable(pool, e))
                raise PostgresUnavailable(f"{msg} (gave up after {retries} retries over "
                                          f"{time.monotonic() - t0:.1f} s)") from e
            attempt += 1
            if on_retry is not None:
                on_retry(attempt, e)
            time.sleep(pause)
            pause = min(pause * 2, MAX_PAUSE_S)


class RetryingUnits:
    """A unit store whose every method call is retried as :func:`pg_retry` does."""

    def __init__(self, inner: Any, retries: int, backoff_s: float,
                 on_retry: Callable[[int, BaseException], None] | None = None,
                 on_recovered: Callable[[], None] | None = None) -> None:
        self._inner = inner
        self._retries = retries
        self._backoff_s = backoff_s
        self._on_retry = on_retry
        self._on_recovered = on_recovered

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if not callable(attr):
            return attr

        @functools.wraps(attr)
        def call(*args: Any, **kwargs: Any) -> Any:
            return pg_retry(lambda: attr(*args, **kwargs), self._retries, self._backoff_s, self._on_retry,
                            on_recovered=self._on_recovered)

        return call
