"""Ingestion jobs the server runs in background threads: one at a time per tenant (the tenant's writer
lock), ``ingest_workers`` at once. The job's id is chosen before it runs, so POST /v1/ingest answers at
once; while it waits for the tenant's lock it is ``queued``, and while it runs its per-stage progress
(the ingestion's own Progress counts and totals) is read live."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from kmrag.errors import NotFound
from kmrag.ingestion.sources import SourceOptions
from kmrag.schema.redact import redact
from kmrag.units.jobs import JobStore, new_job_id

KEEP = 1000  # finished jobs whose live progress is kept in memory
LOCK_WAIT_S = 6 * 3600.0


@dataclass
class LiveJob:
    id: str
    tenant: str
    inputs: list[str]
    status: str = "queued"  # queued -> running -> (the job record's status) | failed
    error: str | None = None
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    ingestion: Any = None  # the IngestionJob once it runs

    def progress(self) -> dict[str, dict[str, int | None]] | None:
        p = getattr(self.ingestion, "progress", None)
        if p is None:
            return None
        return {name: {"done": int(p.counts.get(name, 0)), "total": p.totals.get(name)} for name in p.counts}


class JobRunner:
    def __init__(self, stores_of: Any, workers: int = 2, on_done: Callable[[], Any] | None = None) -> None:
        self._stores_of = stores_of  # () -> Stores
        self._on_done = on_done  # called after each job ends, in its thread (the upload retention sweep)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="kmrag-ingest")
        self._jobs: OrderedDict[str, LiveJob] = OrderedDict()
        self._lock = threading.Lock()

    def submit(self, tenant: str, paths: list[str], options: SourceOptions, job_id: str | None = None,
               force: bool = False) -> LiveJob:
        live = LiveJob(id=job_id or new_job_id(), tenant=tenant, inputs=[redact(p) for p in paths])
        with self._lock:
            self._jobs[live.id] = live
            while len(self._jobs) > KEEP:
                oldest = next(iter(self._jobs))
                if self._jobs[oldest].status in ("queued", "running"):
                    break
                self._jobs.popitem(last=False)
        self._pool.submit(self._run, live, paths, options, force)
        return live

    def _run(self, live: LiveJob, paths: list[str], options: SourceOptions, force: bool) -> None:
        from kmrag.ingestion.pipeline import IngestionJob, get_extractor
        from kmrag.nlp.embed import get_embedder

        try:
            stores = self._stores_of()
            job = IngestionJob(stores, get_embedder(stores.settings), get_extractor(stores.settings), live.tenant,
                               options, progress=False, force=force, lock_wait_s=LOCK_WAIT_S,
                               job_id=live.id)
            live.ingestion = job
            live.status = "running"
            result = job.run(paths)
            live.status = result.job.status
        except BaseException as e:  # noqa: BLE001 - the job's outcome, shown by GET /v1/jobs/{id}
            live.status = "failed"
            live.error = redact(f"{type(e).__name__}: {e}")
        if self._on_done is not None:
            try:
                self._on_done()
            except Exception:  # noqa: BLE001, S110 - housekeeping after the job: never the job's outcome
                pass

    def busy(self) -> set[str]:
        """The ids of the jobs queued or running."""
        with self._lock:
            return {j.id for j in self._jobs.values() if j.status in ("queued", "running")}

    def live(self, tenant: str, job_id: str) -> LiveJob | None:
        with self._lock:
            j = self._jobs.get(job_id)
        return j if j is not None and j.tenant == tenant else None

    def waiting(self, tenant: str) -> list[LiveJob]:
        """The tenant's jobs that have no record yet (waiting for a worker or the tenant's lock), newest first."""
        with self._lock:
            return [j for j in reversed(self._jobs.values()) if j.tenant == tenant and j.status == "queued"]

    def view(self, tenant: str, job_id: str) -> dict[str, Any]:
        """The job as the API shows it: its record (status, counts, errors, skips, timings) with the live
        per-stage progress; a job still waiting for the tenant's lock is ``queued``."""
        live = self.live(tenant, job_id)
        stores = self._stores_of()
        try:
            record = JobStore(stores.pool).get(tenant, job_id).model_dump(mode="json")
        except NotFound:
            if live is None:
                raise
            record = {"id": live.id, "tenant": tenant, "inputs": live.inputs, "status": live.status, "counts": {},
                      "errors": [], "skipped": [], "timings": {}, "created_at": live.created_at.isoformat(),
                      "updated_at": None, "finished_at": None}
        if live is not None:
            if live.error and not any(e.get("reason") == live.error for e in record["errors"]):
                record["errors"].append({"path": "(job)", "reason": live.error})
            if live.status == "failed":
                record["status"] = "failed"
            record["progress"] = live.progress()
        else:
            record["progress"] = None
        return record

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
