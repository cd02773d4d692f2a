"""Ingestion job records in PostgreSQL: inputs, status, counts per stage, per-document errors, timings."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field, field_validator

from kmrag.errors import NotFound
from kmrag.schema.redact import redact, redact_data
from kmrag.schema.sanitize import tenant_checked

JOB_COLUMNS = "id, inputs, status, counts, errors, timings, created_at, updated_at, finished_at"


class JobError(BaseModel):
    path: str
    reason: str

    @field_validator("path", "reason")
    @classmethod
    def _no_secrets(cls, v: str) -> str:
        return redact(v)  # a URL's password, a key an endpoint echoed: never shown, never stored


class JobRecord(BaseModel):
    id: str
    tenant: str
    inputs: list[str]
    status: str  # running | completed | completed_with_errors | failed | interrupted
    counts: dict[str, int] = Field(default_factory=dict)
    errors: list[JobError] = Field(default_factory=list)
    skipped: list[JobError] = Field(default_factory=list)  # paths passed over on purpose (hidden, unsupported, ...)
    timings: dict[str, float] = Field(default_factory=dict)
    created_at: datetime | None = None
    updated_at: datetime | None = None
    finished_at: datetime | None = None

    @field_validator("inputs")
    @classmethod
    def _no_secrets(cls, v: list[str]) -> list[str]:
        return [redact(i) for i in v]


class JobNotFound(NotFound):
    pass


def new_job_id() -> str:
    return "j_" + uuid.uuid4().hex[:12]


def _owner() -> dict[str, Any]:
    return {"host": socket.gethostname(), "pid": os.getpid()}


@tenant_checked
class JobStore:
    def __init__(self, pool: Any) -> None:
        self._pool = pool

    def create(self, tenant: str, inputs: Sequence[str], job_id: str | None = None) -> JobRecord:
        from psycopg.types.json import Jsonb

        job = JobRecord(id=job_id or new_job_id(), tenant=tenant, inputs=list(inputs), status="running")
        with self._pool.connection() as conn:
            row = conn.execute(
                "INSERT INTO kmrag_jobs (tenant, id, inputs, status, counts, errors, timings) "
                "VALUES (%s, %s, %s, 'running', '{}', '[]', %s) RETURNING created_at, updated_at",
                (tenant, job.id, Jsonb(job.inputs), Jsonb({"_owner": _owner()})),
            ).fetchone()
        job.created_at, job.updated_at = row
        return job

    def save(self, job: JobRecord, finished: bool = False) -> None:
        from psycopg.types.json import Jsonb

        with self._pool.connection() as conn:
            row = conn.execute(
                "UPDATE kmrag_jobs SET status = %s, counts = %s, errors = %s, timings = %s, updated_at = now(), "
                "finished_at = CASE WHEN %s THEN now() ELSE NULL END WHERE tenant = %s AND id = %s "
                "RETURNING created_at, updated_at, finished_at",
                (job.status, Jsonb(job.counts), Jsonb([redact_data(e.model_dump(), patterns=True) for e in job.errors]
                                                      + [{**redact_data(e.model_dump(), patterns=True), "skipped": True}
                                                         for e in job.skipped]),
                 Jsonb({**job.timings, "_owner": _owner()}), finished, job.tenant, job.id),
            ).fetchone()
        if row is not None:  # the record as stored: what `ingest --json` shows is what `jobs show` will
            job.created_at, job.updated_at, job.finished_at = row

    def get(self, tenant: str, job_id: str) -> JobRecord:
        row = None
        if "\x00" not in job_id:  # PostgreSQL text holds no NUL: no such job
            with self._pool.connection() as conn:
                row = conn.execute(
                    f"SELECT {JOB_COLUMNS} FROM kmrag_jobs WHERE tenant = %s AND id = %s",  # noqa: S608 - constant
                    (tenant, job_id),
                ).fetchone()
        if row is None:
            raise JobNotFound(f"no job {job_id!r} in tenant {tenant!r}: `kmrag jobs` lists them")
        return self._record(tenant, row)

    def list(self, tenant: str, limit: int = 50) -> list[JobRecord]:
        with self._pool.connection() as conn:
            rows = conn.execute(
                f"SELECT {JOB_COLUMNS} FROM kmrag_jobs WHERE tenant = %s "  # noqa: S608 - constant
                "ORDER BY created_at DESC, id LIMIT %s",
                (tenant, limit),
            ).fetchall()
        return [self._record(tenant, r) for r in rows]

    @staticmethod
    def _record(tenant: str, r: Sequence[Any]) -> JobRecord:
        timings = dict(r[5] or {})
        owner = timings.pop("_owner", None)
        status = r[2]
        if status == "running" and isinstance(owner, dict) and owner.get("host") == socket.gethostname():
            try:
                os.kill(int(owner["pid"]), 0)
            except (ProcessLookupError, ValueError, TypeError):
                status = "interrupted"  # its process is gone: re-run the same inputs to finish it
            except PermissionError:
                pass
        return JobRecord(id=r[0], tenant=tenant, inputs=r[1] or [], status=status, counts=r[3] or {},
                         errors=[JobError(**e) for e in (r[4] or []) if not e.get("skipped")],
                         skipped=[JobError(path=e["path"], reason=e["reason"]) for e in (r[4] or []) if e.get("skipped")],
                         timings=timings, created_at=r[6],
                         updated_at=r[7], finished_at=r[8])
