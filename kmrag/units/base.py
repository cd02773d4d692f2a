"""What every part of the unit store shares: the pool, the embedding dimension, and one way to
borrow a connection that turns driver errors into kmrag's (unreachable, schema missing, failed)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kmrag.errors import SchemaError, ServiceUnavailable, StoreError
from kmrag.schema.redact import redact


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
        except psycopg.OperationalError as e:
            raise ServiceUnavailable(redact(f"PostgreSQL became unreachable: {e}")) from e
        except psycopg.errors.UndefinedTable as e:
            raise SchemaError(f"kmrag tables are missing: run `kmrag init` ({e})") from e
        except psycopg.Error as e:
            raise StoreError(redact(f"PostgreSQL statement failed: {e}")) from e

    # -- schema -------------------------------------------------------------------------------
