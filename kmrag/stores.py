"""Opens the stores a process uses, once, from settings: the Neo4j driver or the embedded graph,
and the PostgreSQL pool (a server's, or the embedded one under the data directory)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kmrag.config import Settings
from kmrag.graph.base import GraphStore
from kmrag.units.store import PgUnitStore, open_pool


@dataclass
class Stores:
    settings: Settings
    graph: GraphStore
    units: PgUnitStore
    pool: Any
    database_url: str

    def init_schema(self) -> None:
        self.units.init_schema()
        self.graph.init_schema()

    def close(self) -> None:
        try:
            self.graph.close()
        finally:
            self.pool.close()

    def __enter__(self) -> Stores:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_graph(settings: Settings) -> GraphStore:
    if settings.neo4j_uri:
        from kmrag.graph.neo4j_store import Neo4jGraphStore, connect

        driver = connect(settings.neo4j_uri, settings.neo4j_user, settings.neo4j_password,
                         settings.neo4j_connection_timeout_s, settings.neo4j_write_retry_s)
        return Neo4jGraphStore(driver, settings.neo4j_database, owns_driver=True,
                               tx_timeout_s=settings.neo4j_tx_timeout_s, read_retry_s=settings.neo4j_read_retry_s,
                               write_retry_s=settings.neo4j_write_retry_s)
    from kmrag.graph.local_store import LocalGraphStore

    return LocalGraphStore(settings.data_dir.expanduser() / "graph")


def database_url(settings: Settings) -> str:
    if settings.database_url:
        return settings.database_url
    from kmrag.units.embedded_pg import embedded_database_url

    return embedded_database_url(settings.data_dir)


def open_stores(settings: Settings, pool_size: int | None = None) -> Stores:
    """``pool_size``: a pool of exactly that many PostgreSQL connections (a server, serving many requests at
    once); default: 1 to KMRAG_PG_POOL_MAX (8)."""
    url = database_url(settings)
    size = pool_size or settings.pg_pool_max
    pool = open_pool(url, min_size=pool_size or 1, max_size=size, connect_timeout_s=settings.pg_connect_timeout_s,
                     statement_timeout_ms=settings.pg_statement_timeout_ms)
    try:
        graph = open_graph(settings)
    except Exception:
        pool.close()
        raise
    return Stores(settings=settings, graph=graph, units=PgUnitStore(pool, settings.embedding_dim), pool=pool,
                  database_url=url)
