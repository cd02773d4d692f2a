"""The one PostgreSQL connection pool a process uses, and how a connection is prepared."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kmrag.errors import PostgresUnavailable
from kmrag.schema.redact import url_secrets

WHAT_TO_DO = ("Start it (services/postgres.sh start, or docker compose up postgres) and run the command again; "
              "an interrupted ingest resumes where it stopped")


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


def open_pool(url: str, min_size: int = 1, max_size: int = DEFAULT_POOL_MAX, connect_timeout_s: float = 5.0,
              statement_timeout_ms: int = 60000) -> Any:
    """The one connection pool a process uses. Fails fast, with what to do, if the server is down.

    Connections are checked when borrowed (one that a server restart killed is replaced, not used),
    connecting and waiting for a pooled connection are bounded by ``connect_timeout_s``, and every
    statement by ``statement_timeout_ms`` (0: none). They carry application_name 'kmrag' unless the URL
    names another, so the server can count them."""
    import psycopg
    from psycopg.conninfo import conninfo_to_dict
    from psycopg_pool import ConnectionPool

    kwargs: dict[str, Any] = {"autocommit": False, "connect_timeout": connect_timeout(connect_timeout_s)}
    if statement_timeout_ms:
        kwargs["options"] = f"-c statement_timeout={int(statement_timeout_ms)}"
    try:
        with psycopg.connect(url, **kwargs) as probe:
            probe.execute("SELECT 1")
    except psycopg.OperationalError as e:
        raise PostgresUnavailable(redact(
            f"PostgreSQL is not reachable at {url}: {str(e).strip()}. Start it (services/postgres.sh start, "
            "or docker compose up postgres) or unset KMRAG_DATABASE_URL to use the embedded PostgreSQL",
            extra=url_secrets(url))) from e
    if not conninfo_to_dict(url).get("application_name"):
        kwargs["application_name"] = APPLICATION_NAME
    return ConnectionPool(url, min_size=min(min_size, max_size), max_size=max_size, configure=_configure,
                          open=True, kwargs=kwargs, check=ConnectionPool.check_connection,
                          timeout=max(1.0, connect_timeout_s), reconnect_timeout=max(60.0, 4 * connect_timeout_s))


def connect_timeout(seconds: float) -> int:
    """libpq takes whole seconds and treats less than 2 as 2."""
    return max(2, int(round(seconds)))


def unreachable(pool: Any, e: BaseException) -> PostgresUnavailable:
    """The error a lost or refused PostgreSQL connection becomes: the server, the cause, what to do."""
    where = redact(str(getattr(pool, "conninfo", "") or "")) or "the configured URL"
    return PostgresUnavailable(f"PostgreSQL is unreachable at {where}: {str(e).strip() or type(e).__name__}. "
                               + WHAT_TO_DO)


def redact(url: str, extra: Sequence[str] = ()) -> str:
    """A database URL (or a message holding one) with its password hidden: :func:`kmrag.schema.redact.redact`."""
    from kmrag.schema import redact as r

    return r.redact(url, extra=[*extra, *r.url_secrets(url)])
