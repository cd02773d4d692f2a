"""One writer per tenant, across processes and machines: a PostgreSQL session advisory lock.

Ingestion jobs, deletes, unmerges and repairs of a tenant take it; a second writer waits (saying
so) or gives up after ``wait_s`` with a message naming the running job. The lock lives on one
connection, so a killed process releases it with its connection: nothing is left to clean up.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from kmrag.errors import KmragError

LOCK_CLASS = "kmrag.tenant-writer"


class TenantBusy(KmragError):
    """Another process is writing the tenant and did not finish in time."""


def _running_jobs(pool: Any, tenant: str) -> str:
    """The jobs that say they are running (a killed process's job shows as interrupted, not here)."""
    from kmrag.units.jobs import JobStore

    running = [j for j in JobStore(pool).list(tenant, limit=10) if j.status == "running"]
    if not running:
        return "a delete, unmerge, repair or reembed"
    return ", ".join(f"job {j.id}" for j in running[:3])


def _try_lock(conn: Any, tenant: str) -> bool:
    locked = bool(conn.execute("SELECT pg_try_advisory_lock(hashtext(%s), hashtext(%s))",
                               (LOCK_CLASS, tenant)).fetchone()[0])
    conn.commit()
    return locked


class HeldLock:
    """The tenant's writer lock while it is held. A PostgreSQL restart ends every session and with it
    the lock: :meth:`ensure` (called once PostgreSQL answers again) takes it again on a new connection,
    or stops the writer if another one took the tenant meanwhile."""

    def __init__(self, pool: Any, tenant: str, conn: Any) -> None:
        self.pool, self.tenant, self.conn = pool, tenant, conn
        self.retaken = 0

    def ensure(self) -> None:
        import psycopg

        try:
            self.conn.execute("SELECT 1")
            self.conn.commit()
            return  # the session, and with it the lock, survived
        except psycopg.Error:
            pass
        old, self.conn = self.conn, self.pool.getconn()
        self.pool.putconn(old)  # broken: the pool discards it
        try:
            locked = _try_lock(self.conn, self.tenant)
        except psycopg.Error as e:
            self.conn.rollback()
            raise KmragError(f"cannot take the writer lock of tenant {self.tenant!r} again: {e}") from e
        if not locked:
            raise TenantBusy(f"tenant {self.tenant!r} lost its writer lock when PostgreSQL restarted, and "
                             f"{_running_jobs(self.pool, self.tenant)} took it; run this command again "
                             "when that one has finished")
        self.retaken += 1


@contextmanager
def tenant_lock(pool: Any, tenant: str, wait_s: float = 3600.0,
                on_wait: Callable[[str], None] | None = None) -> Iterator[HeldLock]:
    """Hold the tenant's writer lock for the block."""
    import psycopg

    from kmrag.schema.sanitize import check_tenant

    check_tenant(tenant)

    held = HeldLock(pool, tenant, pool.getconn())
    locked = False
    try:
        deadline = time.monotonic() + max(0.0, wait_s)
        told = False
        while True:
            try:
                locked = _try_lock(held.conn, tenant)
            except psycopg.Error as e:
                held.conn.rollback()
                if isinstance(e, psycopg.errors.UndefinedTable):
                    raise
                raise KmragError(f"cannot take the writer lock of tenant {tenant!r}: {e}") from e
            if locked:
                break
            try:
                holder = _running_jobs(pool, tenant)
            except (psycopg.Error, KmragError):
                holder = "another kmrag process"
            if time.monotonic() >= deadline:
                raise TenantBusy(f"tenant {tenant!r} is being written by {holder}; waited {wait_s:.0f} s. "
                                 "Wait for it to finish (`kmrag jobs`) or raise --lock-wait")
            if not told and on_wait is not None:
                on_wait(f"tenant {tenant!r} is being written by {holder}; waiting for it to finish "
                        f"(up to {wait_s:.0f} s)")
                told = True
            time.sleep(0.5)
        yield held
    finally:
        try:
            if locked:
                held.conn.execute("SELECT pg_advisory_unlock(hashtext(%s), hashtext(%s))", (LOCK_CLASS, tenant))
                held.conn.commit()
        except psycopg.Error:
            pass
        finally:
            pool.putconn(held.conn)
