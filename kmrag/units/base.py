"""What every part of the unit store shares: the pool, the embedding dimension, and one way to
borrow a connection that turns driver errors into kmrag's (unreachable, schema missing, failed)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kmrag.errors import SchemaError, StoreError
from kmrag.schema.redact import redact


class PgBase:
    def __init__(self, pool: Any, dim: int = 384) -> None:
        self._pool = pool
        self.dim = dim
        self._held = threading.local()  # the connection of this thread's open transaction(), if any

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Every statement this thread makes through the store inside the block runs in one transaction,
        committed at its end (rolled back on an error): readers see all of it or none of it. Nested, the
        inner block joins the outer transaction."""
        if getattr(self._held, "conn", None) is not None:
            yield
            return
        with self._conn() as conn:
            self._held.conn = conn
            try:
                yield
            finally:
                self._held.conn = None

    @contextmanager
    def _conn(self) -> Iterator[Any]:
        import psycopg

        held = getattr(self._held, "conn", None)
        try:
            if held is not None:  # inside transaction(): its connection, committed when the block ends
                yield held
                return
            with self._pool.connection() as conn:
                yield conn
        except psycopg.errors.QueryCanceled as e:
            raise StoreError(f"PostgreSQL statement was cancelled ({str(e).strip()}); a statement that runs past "
                             "KMRAG_PG_STATEMENT_TIMEOUT_MS is cancelled: raise it (0: no limit)") from e
        except psycopg.OperationalError as e:
            from kmrag.units.pool import unreachable

            raise unreachable(self._pool, e) from e
        except psycopg.errors.UndefinedTable as e:
            raise SchemaError(f"kmrag tables are missing: run `kmrag init` ({e})") from e
        except psycopg.Error as e:
            raise StoreError(redact(f"PostgreSQL statement failed: {e}")) from e

    # -- schema -------------------------------------------------------------------------------
