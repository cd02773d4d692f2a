"""The unit store on PostgreSQL + pgvector: unit text, embeddings, full text, sources.

Every statement is parameterised and scoped by tenant. Retired units stay readable by ID (so
old answers can still be audited) but never come back from a search.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

from kmrag.errors import SchemaError, ServiceUnavailable, StoreError
from kmrag.schema import KnowledgeUnit, Source
from kmrag.schema.ddl import SCHEMA_VERSION, postgres_statements

UNIT_COLUMNS = "id, source_id, source_version, type, title, section_path, ordinal, content, metadata, retired_at"


class StoredUnit(BaseModel):
    id: str
    tenant: str
    source_id: str
    source_version: str
    type: str
    title: str
    section_path: list[str] = Field(default_factory=list)
    ordinal: int
    content: str
    metadata: dict[str, Any] = Field(default_factory=dict)
    retired: bool = False


class ScoredUnit(BaseModel):
    id: str
    score: float


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


def open_pool(url: str, min_size: int = 1, max_size: int = 4) -> Any:
    """The one connection pool a process uses. Fails fast, with what to do, if the server is down."""
    import psycopg
    from psycopg_pool import ConnectionPool

    try:
        with psycopg.connect(url, connect_timeout=10) as probe:
            probe.execute("SELECT 1")
    except psycopg.OperationalError as e:
        raise ServiceUnavailable(
            f"PostgreSQL is not reachable at {redact(url)}: {str(e).strip()}. Start it (services/postgres.sh start, "
            "or docker compose up postgres) or unset KMRAG_DATABASE_URL to use the embedded PostgreSQL"
        ) from e
    return ConnectionPool(url, min_size=min_size, max_size=max_size, configure=_configure, open=True,
                          kwargs={"autocommit": False})


def redact(url: str) -> str:
    """A database URL with its password hidden, for messages."""
    import re

    return re.sub(r"(://[^:/@]+:)[^@]*@", r"\1***@", url)


class PgUnitStore:
    backend = "postgres"

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
            raise ServiceUnavailable(f"PostgreSQL became unreachable: {e}") from e
        except psycopg.errors.UndefinedTable as e:
            raise SchemaError(f"kmrag tables are missing: run `kmrag init` ({e})") from e
        except psycopg.Error as e:
            raise StoreError(f"PostgreSQL statement failed: {e}") from e

    # -- schema -------------------------------------------------------------------------------

    def init_schema(self) -> None:
        with self._conn() as conn:
            # one initialiser at a time: concurrent CREATE ... IF NOT EXISTS can still collide
            conn.execute("SELECT pg_advisory_xact_lock(hashtext('kmrag.init_schema'))")
            for stmt in postgres_statements(self.dim):
                conn.execute(stmt)
            row = conn.execute("SELECT value FROM kmrag_meta WHERE key = 'embedding_dim'").fetchone()
            if row and int(row[0]) != self.dim:
                raise SchemaError(
                    f"the database holds {row[0]}-dimensional embeddings but kmrag is configured for {self.dim}; "
                    "use the matching KMRAG_EMBEDDING_DIM or a fresh database"
                )
            conn.execute(
                "INSERT INTO kmrag_meta (key, value) VALUES ('embedding_dim', %s), ('schema_version', %s) "
                "ON CONFLICT (key) DO NOTHING",
                (str(self.dim), SCHEMA_VERSION),
            )

    def schema_status(self) -> dict[str, Any]:
        with self._conn() as conn:
            ext = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
            tables = {
                r[0]
                for r in conn.execute(
                    "SELECT tablename FROM pg_tables WHERE tablename = ANY(%s)",
                    (["kmrag_units", "kmrag_sources", "kmrag_jobs", "kmrag_answers", "kmrag_meta",
                      "kmrag_entity_merges"],),
                )
            }
            dim = None
            if "kmrag_meta" in tables:
                r = conn.execute("SELECT value FROM kmrag_meta WHERE key = 'embedding_dim'").fetchone()
                dim = int(r[0]) if r else None
            return {"pgvector": ext[0] if ext else None, "tables": sorted(tables), "embedding_dim": dim,
                    "schema_ok": len(tables) == 6 and ext is not None}

    def server_info(self) -> dict[str, str]:
        with self._conn() as conn:
            version = conn.execute("SHOW server_version").fetchone()[0]
            ext = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
            avail = conn.execute("SELECT default_version FROM pg_available_extensions WHERE name = 'vector'").fetchone()
        return {"backend": "postgres", "version": str(version), "pgvector": ext[0] if ext else "not installed",
                "pgvector_available": avail[0] if avail else "missing"}

    # -- writes -------------------------------------------------------------------------------

    def write_source(self, source: Source) -> None:
        self.write_sources([source])

    def write_sources(self, sources: Sequence[Source]) -> None:
        from psycopg.types.json import Jsonb

        if not sources:
            return
        with self._conn() as conn, conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO kmrag_sources (tenant, id, uri, version, content_hash, ingested_at, metadata) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (tenant, id) DO UPDATE SET uri = EXCLUDED.uri, "
                "version = EXCLUDED.version, content_hash = EXCLUDED.content_hash, "
                "ingested_at = EXCLUDED.ingested_at, metadata = EXCLUDED.metadata",
                [(s.tenant, s.id, s.uri, s.version, s.content_hash, s.ingested_at, Jsonb(s.metadata))
                 for s in sources],
            )

    def write_units(self, units: Sequence[KnowledgeUnit], embeddings: Sequence[Any] | None = None,
                    mentions: dict[str, int] | None = None) -> int:
        """Upsert units (text, embeddings, how many entities each mentions); a unit that was retired
        comes back to life. Without embeddings / mention counts the stored ones are kept."""
        from psycopg.types.json import Jsonb

        if embeddings is not None and len(embeddings) != len(units):
            raise ValueError("one embedding per unit is required")
        mentions = mentions or {}
        rows = []
        for i, u in enumerate(units):
            vec = None
            if embeddings is not None and embeddings[i] is not None:
                vec = np.asarray(embeddings[i], dtype=np.float32)
                if vec.shape != (self.dim,):
                    raise ValueError(f"unit {u.id}: embedding has shape {vec.shape}, expected ({self.dim},)")
            rows.append((u.tenant, u.id, u.source_id, u.source_version, u.type.value, u.title, list(u.section_path),
                         u.ordinal, u.content, Jsonb(u.metadata), vec, mentions.get(u.id)))
        if not rows:
            return 0
        with self._conn() as conn, conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO kmrag_units (tenant, id, source_id, source_version, type, title, section_path, ordinal, "
                "content, metadata, embedding, mentions) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (tenant, id) DO UPDATE SET source_id = EXCLUDED.source_id, "
                "source_version = EXCLUDED.source_version, type = EXCLUDED.type, title = EXCLUDED.title, "
                "section_path = EXCLUDED.section_path, ordinal = EXCLUDED.ordinal, content = EXCLUDED.content, "
                "metadata = EXCLUDED.metadata, embedding = COALESCE(EXCLUDED.embedding, kmrag_units.embedding), "
                "mentions = COALESCE(EXCLUDED.mentions, kmrag_units.mentions), retired_at = NULL",
                rows,
            )
        return len(rows)

    def source_stats(self, tenant: str) -> dict[str, dict[str, Any]]:
        """Per source id: the completed version (None while a source was never finished), active units,
        and active units that mention at least one entity. One grouped query each."""
        with self._conn() as conn:
            units = conn.execute(
                "SELECT source_id, count(*), count(*) FILTER (WHERE mentions > 0) FROM kmrag_units "
                "WHERE tenant = %s AND retired_at IS NULL GROUP BY source_id",
                (tenant,),
            ).fetchall()
            versions = dict(conn.execute("SELECT id, version FROM kmrag_sources WHERE tenant = %s",
                                         (tenant,)).fetchall())
        out: dict[str, dict[str, Any]] = {sid: {"version": v, "units": 0, "mentioned_units": 0}
                                          for sid, v in versions.items()}
        for sid, n, m in units:
            out.setdefault(sid, {"version": None, "units": 0, "mentioned_units": 0})
            out[sid].update(units=int(n), mentioned_units=int(m))
        return out

    def unit_sources(self, tenant: str) -> dict[str, str]:
        """Active unit id -> its source id."""
        with self._conn() as conn:
            return dict(conn.execute("SELECT id, source_id FROM kmrag_units WHERE tenant = %s AND retired_at IS NULL",
                                     (tenant,)).fetchall())

    def source_units(self, tenant: str, source_id: str) -> list[KnowledgeUnit]:
        """A source's active units in reading order, as written (to rebuild the graph from them)."""
        with self._conn() as conn:
            rows = conn.execute(
                f"SELECT {UNIT_COLUMNS} FROM kmrag_units WHERE tenant = %s AND source_id = %s "  # noqa: S608
                "AND retired_at IS NULL ORDER BY ordinal, id",
                (tenant, source_id),
            ).fetchall()
        return [KnowledgeUnit(id=r[0], tenant=tenant, source_id=r[1], source_version=r[2], type=r[3], title=r[4],
                              section_path=list(r[5] or []), ordinal=r[6], content=r[7], metadata=r[8] or {})
                for r in rows]

    def analyze(self) -> None:
        """Refresh planner statistics after a bulk load (otherwise the first searches can plan badly)."""
        with self._conn() as conn:
            conn.execute("ANALYZE kmrag_units")

    def retire(self, tenant: str, unit_ids: Sequence[str]) -> int:
        with self._conn() as conn:
            cur = conn.execute(
                "UPDATE kmrag_units SET retired_at = now() WHERE tenant = %s AND id = ANY(%s) AND retired_at IS NULL",
                (tenant, list(unit_ids)),
            )
            return cur.rowcount

    def retire_source(self, tenant: str, source_id: str) -> int:
        """Retire all of a source's units (kept for audit) and forget the source."""
        with self._conn() as conn:
            n = conn.execute(
                "UPDATE kmrag_units SET retired_at = now() WHERE tenant = %s AND source_id = %s AND retired_at IS NULL",
                (tenant, source_id),
            ).rowcount
            conn.execute("DELETE FROM kmrag_sources WHERE tenant = %s AND id = %s", (tenant, source_id))
            return n

    def delete_source(self, tenant: str, source_id: str) -> int:
        with self._conn() as conn:
            n = conn.execute("DELETE FROM kmrag_units WHERE tenant = %s AND source_id = %s", (tenant, source_id)).rowcount
            conn.execute("DELETE FROM kmrag_sources WHERE tenant = %s AND id = %s", (tenant, source_id))
            return n

    def clear_tenant(self, tenant: str) -> None:
        with self._conn() as conn:
            for table in ("kmrag_units", "kmrag_sources", "kmrag_jobs", "kmrag_answers", "kmrag_entity_merges"):
                # table names are constants of this module, never input
                conn.execute(f"DELETE FROM {table} WHERE tenant = %s", (tenant,))  # noqa: S608

    # -- reads --------------------------------------------------------------------------------

    def get_source(self, tenant: str, source_id: str) -> Source | None:
        with self._conn() as conn:
            r = conn.execute(
                "SELECT id, uri, version, content_hash, ingested_at, metadata FROM kmrag_sources "
                "WHERE tenant = %s AND id = %s",
                (tenant, source_id),
            ).fetchone()
        if r is None:
            return None
        return Source(id=r[0], tenant=tenant, uri=r[1], version=r[2], content_hash=r[3], ingested_at=r[4],
                      metadata=r[5] or {})

    def source_versions(self, tenant: str) -> dict[str, str]:
        """source id -> version of every completely ingested source (the row is written last)."""
        with self._conn() as conn:
            return dict(conn.execute("SELECT id, version FROM kmrag_sources WHERE tenant = %s", (tenant,)).fetchall())

    def write_merges(self, merges: Sequence[Any], job_id: str | None = None) -> int:
        rows = [(m.tenant, m.entity_id, m.alias, m.method, m.score, job_id) for m in merges]
        if not rows:
            return 0
        with self._conn() as conn, conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO kmrag_entity_merges (tenant, entity_id, alias, method, score, job_id) "
                "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (tenant, entity_id, alias) DO NOTHING",
                rows,
            )
        return len(rows)

    def merges(self, tenant: str, entity_id: str | None = None) -> list[dict[str, Any]]:
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT entity_id, alias, method, score, job_id, created_at, undone_at FROM kmrag_entity_merges "
                "WHERE tenant = %s AND (%s::text IS NULL OR entity_id = %s) ORDER BY entity_id, alias",
                (tenant, entity_id, entity_id),
            ).fetchall()
        keys = ("entity_id", "alias", "method", "score", "job_id", "created_at", "undone_at")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    def undo_merge(self, tenant: str, entity_id: str, alias: str) -> bool:
        with self._conn() as conn:
            return conn.execute(
                "UPDATE kmrag_entity_merges SET undone_at = now() WHERE tenant = %s AND entity_id = %s "
                "AND alias = %s AND undone_at IS NULL",
                (tenant, entity_id, alias),
            ).rowcount > 0

    def undone_merges(self, tenant: str) -> set[tuple[str, str]]:
        """(entity id, alias) pairs a person split apart: resolution must not merge them again."""
        with self._conn() as conn:
            rows = conn.execute("SELECT entity_id, alias FROM kmrag_entity_merges WHERE tenant = %s "
                                "AND undone_at IS NOT NULL", (tenant,)).fetchall()
        return {(r[0], r[1]) for r in rows}

    def source_ids(self, tenant: str) -> set[str]:
        with self._conn() as conn:
            return {r[0] for r in conn.execute("SELECT id FROM kmrag_sources WHERE tenant = %s", (tenant,))}

    def unit_ids(self, tenant: str, source_id: str | None = None, include_retired: bool = False) -> set[str]:
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT id FROM kmrag_units WHERE tenant = %s AND (%s::text IS NULL OR source_id = %s) "
                "AND (%s OR retired_at IS NULL)",
                (tenant, source_id, source_id, include_retired),
            )
            return {r[0] for r in rows}

    def get_units(self, tenant: str, unit_ids: Sequence[str], include_retired: bool = True) -> list[StoredUnit]:
        """Units by ID, in the order asked; unknown IDs are left out."""
        if not unit_ids:
            return []
        with self._conn() as conn:
            rows = conn.execute(
                f"SELECT {UNIT_COLUMNS} FROM kmrag_units WHERE tenant = %s AND id = ANY(%s) "  # noqa: S608
                "AND (%s OR retired_at IS NULL)",
                (tenant, list(unit_ids), include_retired),
            ).fetchall()
        by_id = {r[0]: self._unit(tenant, r) for r in rows}
        return [by_id[i] for i in dict.fromkeys(unit_ids) if i in by_id]

    @staticmethod
    def _unit(tenant: str, r: Sequence[Any]) -> StoredUnit:
        return StoredUnit(id=r[0], tenant=tenant, source_id=r[1], source_version=r[2], type=r[3], title=r[4],
                          section_path=list(r[5] or []), ordinal=r[6], content=r[7], metadata=r[8] or {},
                          retired=r[9] is not None)

    def dense_search(self, tenant: str, vector: Any, k: int = 10, exact: bool = False) -> list[ScoredUnit]:
        """Top-k active units by cosine similarity (HNSW with iterative scan under the tenant filter;
        ``exact`` scans every row instead, for reproducible evaluation)."""
        vec = np.asarray(vector, dtype=np.float32)
        if vec.shape != (self.dim,):
            raise ValueError(f"query embedding has shape {vec.shape}, expected ({self.dim},)")
        with self._conn() as conn:
            conn.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
                         "set_config('hnsw.ef_search', %s, true), set_config('enable_indexscan', %s, true)",
                         (str(max(40, 2 * int(k))), "off" if exact else "on"))
            rows = conn.execute(
                "SELECT id, 1 - (embedding <=> %s) AS score FROM kmrag_units "
                "WHERE tenant = %s AND retired_at IS NULL AND embedding IS NOT NULL "
                "ORDER BY embedding <=> %s LIMIT %s",
                (vec, tenant, vec, int(k)),
            ).fetchall()
        rows.sort(key=lambda r: (-r[1], r[0]))
        return [ScoredUnit(id=r[0], score=float(r[1])) for r in rows]

    def fulltext_search(self, tenant: str, query: str, k: int = 10) -> list[ScoredUnit]:
        """Top-k active units by Okapi BM25 (k1 = 1.2, b = 0.75) over the English tsvectors.

        Query terms are the stemmed lexemes of the question (stop words dropped); any term may
        match. Document frequencies and the average length (in distinct lexemes) come from the
        tenant's active units, so scores are per tenant.
        """
        with self._conn() as conn:
            rows = conn.execute(
                """
                WITH terms AS (
                    SELECT DISTINCT lex FROM unnest(tsvector_to_array(to_tsvector('english', %(q)s))) AS lex
                ), stats AS (
                    SELECT count(*)::float8 AS n, coalesce(avg(length(tsv)), 1)::float8 AS avgdl
                    FROM kmrag_units WHERE tenant = %(t)s AND retired_at IS NULL
                ), idf AS (
                    SELECT terms.lex, ln(1 + (stats.n - df.c + 0.5) / (df.c + 0.5)) AS w
                    FROM terms, stats, LATERAL (
                        SELECT count(*)::float8 AS c FROM kmrag_units u
                        WHERE u.tenant = %(t)s AND u.retired_at IS NULL
                          AND u.tsv @@ to_tsquery('simple', quote_literal(terms.lex))) AS df
                ), cand AS (
                    SELECT u.id, u.tsv FROM kmrag_units u
                    WHERE u.tenant = %(t)s AND u.retired_at IS NULL
                      AND u.tsv @@ (SELECT to_tsquery('simple', string_agg(quote_literal(lex), ' | ')) FROM terms)
                )
                SELECT cand.id,
                       sum(idf.w * (cardinality(e.positions) * 2.2)
                           / (cardinality(e.positions) + 1.2 * (0.25 + 0.75 * length(cand.tsv) / stats.avgdl)))
                         AS score
                FROM cand CROSS JOIN stats, LATERAL unnest(cand.tsv) AS e
                JOIN idf ON idf.lex = e.lexeme
                GROUP BY cand.id
                ORDER BY score DESC, cand.id
                LIMIT %(k)s
                """,
                {"q": query, "t": tenant, "k": int(k)},
            ).fetchall()
        return [ScoredUnit(id=r[0], score=float(r[1])) for r in rows]

    def counts(self, tenant: str) -> dict[str, Any]:
        with self._conn() as conn:
            by_type = dict(
                conn.execute(
                    "SELECT type, count(*) FROM kmrag_units WHERE tenant = %s AND retired_at IS NULL GROUP BY type",
                    (tenant,),
                ).fetchall()
            )
            retired = conn.execute(
                "SELECT count(*) FROM kmrag_units WHERE tenant = %s AND retired_at IS NOT NULL", (tenant,)
            ).fetchone()[0]
            sources = conn.execute("SELECT count(*) FROM kmrag_sources WHERE tenant = %s", (tenant,)).fetchone()[0]
        return {"units": sum(by_type.values()), "units_by_type": by_type, "retired_units": retired,
                "sources": sources}
