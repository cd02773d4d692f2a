"""The vocabulary of entity names, embedded, for linking a question's mentions to graph entities by
meaning and spelling ("Pierre Curei", "the Curie physicist") as well as by exact name.

The graph stays the authority: a name found here is looked up in the graph again, so a name whose
entity was deleted or merged since links to nothing (or to the entity that now carries it). The
vocabulary is brought up to date with the graph at the end of every job that changes entities
(kmrag.ingestion.entity_names.sync_entity_names); there is no per-process cache to go stale.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from kmrag.units.embedders import TenantEmbedders


class EntityNames(TenantEmbedders):
    def entity_name_keys(self, tenant: str) -> set[str]:
        return set(self.entity_names(tenant))

    def entity_names(self, tenant: str) -> dict[str, str]:
        """key -> the spelling stored for it."""
        with self._conn() as conn:
            return dict(conn.execute("SELECT key, name FROM kmrag_entity_names WHERE tenant = %s",
                                     (tenant,)).fetchall())

    def write_entity_names(self, tenant: str, rows: Sequence[tuple[str, str]], embeddings: Any) -> int:
        """(key, name) rows with their embeddings; a key already present takes the new spelling."""
        if not rows:
            return 0
        vecs = np.asarray(embeddings, dtype=np.float32)
        with self._conn() as conn, conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO kmrag_entity_names (tenant, key, name, embedding) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (tenant, key) DO UPDATE SET name = EXCLUDED.name, embedding = EXCLUDED.embedding",
                [(tenant, k, n, v) for (k, n), v in zip(rows, vecs, strict=True)],
            )
        return len(rows)

    def delete_entity_names(self, tenant: str, keys: Sequence[str]) -> int:
        if not keys:
            return 0
        with self._conn() as conn:
            cur = conn.execute("DELETE FROM kmrag_entity_names WHERE tenant = %s AND key = ANY(%s)",
                               (tenant, list(keys)))
            return cur.rowcount or 0

    def nearest_entity_names(self, tenant: str, vectors: Any, k: int = 5,
                             min_score: float = 0.0) -> list[list[tuple[str, float]]]:
        """For each query vector, up to ``k`` (name, cosine similarity) at or above ``min_score``, best first."""
        vecs = np.asarray(vectors, dtype=np.float32)
        out: list[list[tuple[str, float]]] = []
        if vecs.size == 0:
            return out
        with self._conn() as conn:
            conn.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
                         "set_config('hnsw.ef_search', '40', true)")
            for v in vecs:
                rows = conn.execute(
                    "SELECT name, 1 - (embedding <=> %s) AS score FROM kmrag_entity_names WHERE tenant = %s "
                    "ORDER BY embedding <=> %s LIMIT %s", (v, tenant, v, int(k))).fetchall()
                rows.sort(key=lambda r: (-r[1], r[0]))
                out.append([(r[0], float(r[1])) for r in rows if r[1] >= min_score])
        return out
