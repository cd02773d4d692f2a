"""The unit store on PostgreSQL + pgvector: unit text, embeddings, full text, sources.

Every statement is parameterised and scoped by tenant. Retired units stay readable by ID (so
old answers can still be audited) but never come back from a search. Searching lives in
kmrag.units.search, entity-merge records in kmrag.units.merges, the pool in kmrag.units.pool.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

from kmrag.errors import SchemaError
from kmrag.schema import KnowledgeUnit, Source
from kmrag.schema.ddl import SCHEMA_VERSION, TSV_EXPR, postgres_statements
from kmrag.schema.sanitize import tenant_checked
from kmrag.schema.search_keys import search_key
from kmrag.units import bm25
from kmrag.units.answers import AnswerRecords
from kmrag.units.embedders import LEGACY_DIM, LEGACY_EMBEDDER
from kmrag.units.entity_names import EntityNames
from kmrag.units.merges import MergeRecords
from kmrag.units.pool import open_pool, redact
from kmrag.units.search import ScoredUnit, UnitSearch

__all__ = ["PgUnitStore", "ScoredUnit", "StoredUnit", "open_pool", "redact"]

UNIT_COLUMNS = "id, source_id, source_version, type, title, section_path, ordinal, content, metadata, retired_at"


# every table holding a tenant's rows (a tenant removed as a whole leaves none behind)
TENANT_TABLES = ("kmrag_units", "kmrag_sources", "kmrag_jobs", "kmrag_answers", "kmrag_entity_merges",
                 "kmrag_entity_names", "kmrag_api_keys", "kmrag_tenant_embedders", "kmrag_reembed_units",
                 "kmrag_reembed_names")


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


def hash_seed(text: str) -> int:
    """A stable small integer from text (Python's hash() changes between processes)."""
    import hashlib

    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)


@tenant_checked
class PgUnitStore(UnitSearch, MergeRecords, EntityNames, AnswerRecords):
    backend = "postgres"

    def init_schema(self) -> None:
        with self._conn() as conn:
            # one initialiser at a time: concurrent CREATE ... IF NOT EXISTS can still collide
            conn.execute("SET LOCAL statement_timeout = 0")  # index builds over existing rows may take long
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
            expr = conn.execute(
                "SELECT pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d JOIN pg_attribute a "
                "ON a.attrelid = d.adrelid AND a.attnum = d.adnum "
                "WHERE d.adrelid = 'kmrag_units'::regclass AND a.attname = 'tsv'").fetchone()
            if expr and "search_text" not in expr[0]:
                # made before the search keys: the same tsvectors for every existing row (its keys are NULL),
                # so the kept BM25 statistics stay right
                conn.execute("ALTER TABLE kmrag_units DROP COLUMN tsv")
                conn.execute(f"ALTER TABLE kmrag_units ADD COLUMN tsv tsvector GENERATED ALWAYS AS ({TSV_EXPR}) STORED")
                conn.execute("CREATE INDEX IF NOT EXISTS kmrag_units_tsv_gin ON kmrag_units USING gin (tsv)")
            if bm25.unkept_tenants(conn):
                # tenants written before BM25 statistics were kept: count their active units once, with unit
                # writes held off meanwhile (every write keeps them from then on)
                conn.execute("LOCK TABLE kmrag_units IN SHARE MODE")
                for tenant in bm25.unkept_tenants(conn):
                    bm25.rebuild(conn, tenant)

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
        keys = {u.id: (search_key(u.title), search_key(u.content)) for u in units}  # segmented once per write
        rows = []
        for i, u in enumerate(units):
            vec = None
            if embeddings is not None and embeddings[i] is not None:
                vec = np.asarray(embeddings[i], dtype=np.float32)
                if vec.shape != (self.dim,):
                    raise ValueError(f"unit {u.id}: embedding has shape {vec.shape}, expected ({self.dim},)")
            rows.append((u.tenant, u.id, u.source_id, u.source_version, u.type.value, u.title, list(u.section_path),
                         u.ordinal, u.content, Jsonb(u.metadata), vec, mentions.get(u.id), *keys[u.id]))
        if not rows:
            return 0
        by_tenant: dict[str, list[KnowledgeUnit]] = {}
        for u in units:
            by_tenant.setdefault(u.tenant, []).append(u)
        with self._conn() as conn, conn.cursor() as cur:
            # BM25 statistics move with the units, in this transaction: units whose text changes leave them
            # before the write, units that become active (new, changed, retired before) enter them after it
            enter: dict[str, list[str]] = {}
            for tenant, group in by_tenant.items():
                old = {r[0]: (r[1], r[2], r[3], r[4]) for r in conn.execute(
                    "SELECT id, title, content, search_title, search_text FROM kmrag_units WHERE tenant = %s "
                    "AND id = ANY(%s) AND retired_at IS NULL ORDER BY id FOR UPDATE",
                    (tenant, [u.id for u in group])).fetchall()}
                changed = sorted({u.id for u in group if u.id in old and old[u.id] != (
                    u.title, u.content, *keys[u.id])})
                if changed:
                    bm25.remove(conn, tenant, "ids", ids=changed)
                enter[tenant] = sorted({u.id for u in group if u.id not in old} | set(changed))
            cur.executemany(
                "INSERT INTO kmrag_units (tenant, id, source_id, source_version, type, title, section_path, ordinal, "
                "content, metadata, embedding, mentions, search_title, search_text) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (tenant, id) DO UPDATE SET source_id = EXCLUDED.source_id, "
                "search_title = EXCLUDED.search_title, search_text = EXCLUDED.search_text, "
                "source_version = EXCLUDED.source_version, type = EXCLUDED.type, title = EXCLUDED.title, "
                "section_path = EXCLUDED.section_path, ordinal = EXCLUDED.ordinal, content = EXCLUDED.content, "
                "metadata = EXCLUDED.metadata, embedding = COALESCE(EXCLUDED.embedding, kmrag_units.embedding), "
                "mentions = COALESCE(EXCLUDED.mentions, kmrag_units.mentions), retired_at = NULL",
                rows,
            )
            for tenant, ids in enter.items():
                if ids:
                    bm25.add(conn, tenant, "ids", ids=ids)
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

    def tenants(self) -> list[str]:
        """Every tenant with sources or units (an administrator's view: repair across tenants)."""
        with self._conn() as conn:
            return [r[0] for r in conn.execute("SELECT tenant FROM kmrag_sources UNION "
                                               "SELECT DISTINCT tenant FROM kmrag_units ORDER BY 1")]

    def source_ids_with_units(self, tenant: str) -> set[str]:
        """Every source id that has unit rows, retired ones included (a deleted but not purged source)."""
        with self._conn() as conn:
            return {r[0] for r in conn.execute("SELECT DISTINCT source_id FROM kmrag_units WHERE tenant = %s",
                                               (tenant,))}

    def source_uris(self, tenant: str) -> dict[str, str]:
        """Completed source id -> the URI it was read from."""
        with self._conn() as conn:
            return dict(conn.execute("SELECT id, uri FROM kmrag_sources WHERE tenant = %s", (tenant,)).fetchall())

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
            conn.execute("SET LOCAL statement_timeout = 0")  # maintenance, not a query
            conn.execute("ANALYZE kmrag_units")
            conn.execute("ANALYZE kmrag_bm25_terms")
            conn.execute("ANALYZE kmrag_bm25_postings")

    def bm25_stats(self, tenant: str, recount: bool = False, postings: bool = True) -> dict[str, Any]:
        """The tenant's BM25 statistics as kept, or (``recount``) as a fresh count from its active units
        gives them: the two are equal after any sequence of writes."""
        with self._conn() as conn:
            return bm25.recount(conn, tenant, postings) if recount else bm25.stored(conn, tenant, postings)

    def rebuild_bm25_stats(self, tenant: str) -> None:
        """Recount the tenant's BM25 statistics from its active units."""
        with self._conn() as conn:
            conn.execute("SET LOCAL statement_timeout = 0")  # maintenance, not a query
            conn.execute("SELECT id FROM kmrag_units WHERE tenant = %s FOR SHARE", (tenant,))
            bm25.rebuild(conn, tenant)

    def replicate_units(self, sources: Sequence[str], tenant: str, n: int, jitter: float = 0.02,
                        on_progress: Any = None) -> int:
        """Fill ``tenant`` (emptied first) with ``n`` active units copied from the ``sources`` tenants, round
        after round under distinct source ids (``r<round>/<source id>``), embeddings included: a corpus of
        any size for benchmarks, without embedding or extracting again. Each copied embedding gets uniform
        noise of width ``jitter`` per dimension (0.02: cosine about 0.99 to the original), so the vector index
        holds distinct vectors as a real corpus's would rather than one node per repeated vector; the noise
        is seeded, the same on every build. BM25 statistics are kept as for any write. Returns the number of
        units written."""
        self.clear_tenant(tenant)
        with self._conn() as conn:
            base = conn.execute("SELECT count(*) FROM kmrag_units WHERE tenant = ANY(%s) AND retired_at IS NULL",
                                (list(sources),)).fetchone()[0]
        if not base:
            return 0
        with self._conn() as conn:  # the copies are the first source tenant's embedder's vectors
            conn.execute("INSERT INTO kmrag_tenant_embedders (tenant, embedder, dim) VALUES (%s, %s, %s)",
                         (tenant, *self._embedder_of(sources[0])))
        written, rnd = 0, 0
        while written < n:
            with self._conn() as conn:
                conn.execute("SELECT setseed(%s)", (((hash_seed(tenant) + rnd) % 1000) / 1000.0,))
                ids = [r[0] for r in conn.execute(
                    "INSERT INTO kmrag_units (tenant, id, source_id, source_version, type, title, section_path, "
                    "ordinal, content, metadata, embedding, mentions) "
                    "SELECT %(t)s, 'u_' || left(md5(%(t)s || '|' || %(r)s || '|' || u.tenant || '|' || u.id), 16), "
                    "%(r)s || '/' || u.source_id, u.source_version, u.type, u.title, u.section_path, u.ordinal, "
                    "u.content, u.metadata, u.embedding + (SELECT array_agg((random() - 0.5) * %(j)s)::vector "
                    "FROM generate_series(1, %(dim)s + 0 * length(u.id))), u.mentions "
                    "FROM (SELECT * FROM kmrag_units WHERE tenant = ANY(%(src)s) AND retired_at IS NULL "
                    "ORDER BY tenant, id LIMIT %(lim)s) AS u RETURNING id",
                    {"t": tenant, "r": f"r{rnd}", "src": list(sources), "lim": n - written, "j": float(jitter),
                     "dim": self.dim}).fetchall()]
                conn.execute(
                    "INSERT INTO kmrag_sources (tenant, id, uri, version, content_hash, ingested_at, metadata) "
                    "SELECT %(t)s, %(r)s || '/' || id, uri, version, content_hash, ingested_at, metadata "
                    "FROM kmrag_sources WHERE tenant = ANY(%(src)s) ON CONFLICT (tenant, id) DO NOTHING",
                    {"t": tenant, "r": f"r{rnd}", "src": list(sources)})
                bm25.add(conn, tenant, "ids", ids=ids)
            written += len(ids)
            rnd += 1
            if on_progress is not None:
                on_progress(written)
        return written

    def _embedder_of(self, tenant: str) -> tuple[str, int]:
        rec = self.tenant_embedder(tenant)
        return (rec.embedder, rec.dim) if rec is not None else (LEGACY_EMBEDDER, LEGACY_DIM)

    def retire(self, tenant: str, unit_ids: Sequence[str]) -> int:
        with self._conn() as conn:
            bm25.remove(conn, tenant, "ids", ids=list(unit_ids))
            cur = conn.execute(
                "UPDATE kmrag_units SET retired_at = now() WHERE tenant = %s AND id = ANY(%s) AND retired_at IS NULL",
                (tenant, list(unit_ids)),
            )
            return cur.rowcount

    def retire_source(self, tenant: str, source_id: str) -> int:
        """Retire all of a source's units (kept for audit) and forget the source."""
        with self._conn() as conn:
            bm25.remove(conn, tenant, "source", sid=source_id)
            n = conn.execute(
                "UPDATE kmrag_units SET retired_at = now() WHERE tenant = %s AND source_id = %s AND retired_at IS NULL",
                (tenant, source_id),
            ).rowcount
            conn.execute("DELETE FROM kmrag_sources WHERE tenant = %s AND id = %s", (tenant, source_id))
            return n

    def delete_source(self, tenant: str, source_id: str) -> int:
        with self._conn() as conn:
            bm25.remove(conn, tenant, "source", sid=source_id)
            n = conn.execute("DELETE FROM kmrag_units WHERE tenant = %s AND source_id = %s", (tenant, source_id)).rowcount
            conn.execute("DELETE FROM kmrag_sources WHERE tenant = %s AND id = %s", (tenant, source_id))
            return n

    def clear_tenant(self, tenant: str) -> None:
        with self._conn() as conn:
            bm25.clear(conn, tenant)
            for table in TENANT_TABLES:
                # table names are constants of this module, never input
                conn.execute(f"DELETE FROM {table} WHERE tenant = %s", (tenant,))  # noqa: S608

    def tenant_rows(self, tenant: str) -> dict[str, int]:
        """How many rows of each table the tenant holds (what ``clear_tenant`` removes)."""
        with self._conn() as conn:
            return {table: conn.execute(f"SELECT count(*) FROM {table} WHERE tenant = %s",  # noqa: S608 - constants
                                        (tenant,)).fetchone()[0] for table in TENANT_TABLES}

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
        """Units by ID, in the order asked; unknown IDs are left out. Without ``include_retired``, only current
        units: not retired, and of their source's current version. A source's new version is written unit by
        unit but switched to in one transaction (its kmrag_sources row), so one call never returns units of
        one source from two versions, even while that source is being re-ingested."""
        unit_ids = [u for u in unit_ids if "\x00" not in u]  # PostgreSQL text holds no NUL: no such unit
        if not unit_ids:
            return []
        with self._conn() as conn:
            rows = conn.execute(
                f"SELECT {UNIT_COLUMNS} FROM kmrag_units u WHERE tenant = %s AND id = ANY(%s) "  # noqa: S608
                "AND (%s OR (retired_at IS NULL AND NOT EXISTS (SELECT 1 FROM kmrag_sources s WHERE "
                "s.tenant = u.tenant AND s.id = u.source_id AND s.version <> u.source_version)))",
                (tenant, list(unit_ids), include_retired),
            ).fetchall()
        by_id = {r[0]: self._unit(tenant, r) for r in rows}
        return [by_id[i] for i in dict.fromkeys(unit_ids) if i in by_id]

    @staticmethod
    def _unit(tenant: str, r: Sequence[Any]) -> StoredUnit:
        return StoredUnit(id=r[0], tenant=tenant, source_id=r[1], source_version=r[2], type=r[3], title=r[4],
                          section_path=list(r[5] or []), ordinal=r[6], content=r[7], metadata=r[8] or {},
                          retired=r[9] is not None)

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
            by_language = dict(
                conn.execute(
                    "SELECT coalesce(metadata->>'language', 'unknown'), count(*) FROM kmrag_units "
                    "WHERE tenant = %s AND retired_at IS NULL GROUP BY 1", (tenant,)
                ).fetchall()
            )
        return {"units": sum(by_type.values()), "units_by_type": by_type, "retired_units": retired,
                "sources": sources, "units_by_language": by_language}
