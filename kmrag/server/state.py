"""What one server process holds: its settings, its one set of stores (opened at start-up, reopened on the
next request when the databases were down then), the ingestion job runner and the threads that answer."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from kmrag.config import Settings
from kmrag.errors import KmragError, ServiceUnavailable
from kmrag.schema.redact import redact
from kmrag.server import uploads
from kmrag.server.config import ServerSettings
from kmrag.server.ingest_jobs import JobRunner
from kmrag.server.ratelimit import RateLimiter
from kmrag.stores import Stores, open_stores


class ServerState:
    def __init__(self, settings: Settings, server: ServerSettings) -> None:
        self.settings, self.server = settings, server
        self._stores: Stores | None = None
        self._lock = threading.Lock()
        self.open_error: str | None = None
        self.jobs = JobRunner(self.stores, workers=server.ingest_workers, on_done=self.sweep_uploads)
        self.ask_pool = ThreadPoolExecutor(max_workers=server.ask_workers, thread_name_prefix="kmrag-ask")
        self.limiter = RateLimiter(server.rate_limit_per_min) if server.rate_limit_per_min else None
        self.key_touches: dict[str, float] = {}  # key id -> when its last use was written (monotonic)
        self.asks_running = 0  # questions being answered now (for /v1/status)
        self._count_lock = threading.Lock()

    def stores(self) -> Stores:
        """The process's stores, opened (and their schemas made) on first use; ServiceUnavailable while the
        databases cannot be reached."""
        if self._stores is not None:
            return self._stores
        with self._lock:
            if self._stores is None:
                try:
                    stores = open_stores(self.settings, pool_size=self.server.pool_size)
                    try:
                        stores.init_schema()
                    except BaseException:
                        stores.close()
                        raise
                except KmragError as e:
                    self.open_error = redact(str(e))
                    raise ServiceUnavailable(self.open_error) from e
                self._stores, self.open_error = stores, None
        return self._stores

    def running(self, delta: int) -> None:
        """Count a question starting (+1) or ending (-1)."""
        with self._count_lock:
            self.asks_running += delta

    def sweep_uploads(self) -> list[Path]:
        """Delete the upload folders of finished jobs older than KMRAG_SERVER_UPLOAD_RETENTION_DAYS (none
        without it): at start-up and after each ingestion job."""
        days = self.server.upload_retention_days
        if days is None:
            return []
        return uploads.sweep(self.settings.data_dir, days, self.jobs.busy())

    def opened(self) -> Stores | None:
        return self._stores

    def embedder(self) -> Any:
        from kmrag.nlp.embed import get_embedder

        return get_embedder(self.settings)

    def close(self) -> None:
        self.jobs.shutdown()
        self.ask_pool.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            if self._stores is not None:
                self._stores.close()
                self._stores = None
