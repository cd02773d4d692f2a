"""The one PostgreSQL connection pool a process uses, and how a connection is prepared."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kmrag.errors import ServiceUnavailable
from kmrag.schema.redact import url_secrets


def _configure(conn: Any) -> None:
    """Per pooled connection: make sure pgvector exists, then teach psycopg its type."""
    import psycopg
    from pgvector.psycopg import register_vector

    try:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(hashtext('kmrag.init_schema'))")
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        register_vector(conn)
        conn.commit()
    except psycopg.Error:
        # no privilege to create the extension: `kmrag init` / doctor report it with what to do
        conn.rollback()


APPLICATION_NAME = "kmrag"  # what PostgreSQL shows for kmrag's connections (pg_stat_activity.application_name)
DEFAULT_POOL_MAX = 8  # KMRAG_PG_POOL_MAX: connections one process may hold (threads beyond it queue)


def open_pool(url: str, min_size: int = 1, max_size: int = DEFAULT_POOL_MAX) -> Any:
    """The one connection pool a process uses. Fails fast, with what to do, if the server is down.
    Its connections carry application_name 'kmrag' unless the URL names another, so the server can count them."""
    import psycopg
    from psycopg.conninfo import conninfo_to_dict
    from psycopg_pool import ConnectionPool

    try:
        with psycopg.connect(url, connect_timeout=10) as probe:
            probe.execute("SELECT 1")
    except psycopg.OperationalError as e:
        raise ServiceUnavailable(redact(
            f"PostgreSQL is not reachable at {url}: {str(e).strip()}. Start it (services/postgres.sh start, "
            "or docker compose up postgres) or unset KMRAG_DATABASE_URL to use the embedded PostgreSQL",
            extra=url_secrets(url))) from e
    kwargs: dict[str, Any] = {"autocommit": False}
    if not conninfo_to_dict(url).get("application_name"):
        kwargs["application_name"] = APPLICATION_NAME
    return ConnectionPool(url, min_size=min(min_size, max_size), max_size=max_size, configure=_configure,
                          open=True, kwargs=kwargs)


def redact(url: str, extra: Sequence[str] = ()) -> str:
    """A database URL (or a message holding one) with its password hidden: :func:`kmrag.redact.redact`."""
    from kmrag.schema import redact as r

    return r.redact(url, extra=[*extra, *r.url_secrets(url)])
