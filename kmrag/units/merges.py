"""Entity-merge records: every surface form resolution folded into an entity, auditable and undoable."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kmrag.units.base import PgBase


class MergeRecords(PgBase):
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
