"""What every part of the unit store shares: the pool, the embedding dimension, and one way to
borrow a connection that turns driver errors into kmrag's (unreachable, schema missing, failed)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kmrag.errors import SchemaError, StoreError


class PgBase:
    def __init__(self, pool: Any, dim: int = 384) -> None:
        self._pool = pool
        self.dim = dim

    @contextmanager
    def _conn(self) -> Iterator[Any]:
        import psycopg

        try:
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
            raise StoreError(f"PostgreSQL statement failed: {e}") from e

    # -- schema -------------------------------------------------------------------------------
