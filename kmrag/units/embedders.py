"""Which embedder a tenant's vectors were made with, and the vectors of a `kmrag reembed` under way.

A tenant's record is written by its first write (an ingest) or by a reembed's switch. A tenant without one
was made before records were kept: it holds all-MiniLM-L6-v2 vectors if it holds units (the only local
embedder then), and nothing to compare with if it holds none. Searching or writing a tenant with another
embedder raises EmbedderMismatch, naming the tenant, both embedders and the fix.

A reembed writes its new vectors beside the live ones (kmrag_reembed_units / kmrag_reembed_names, with the
hash of the text each was made from), so the tenant keeps answering with its old vectors, and a killed
run resumes from what is there; the switch copies them over the live vectors and changes the record in one
transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel

from kmrag.errors import EmbedderMismatch, StoreError
from kmrag.units.base import PgBase

LEGACY_EMBEDDER, LEGACY_DIM = "all-MiniLM-L6-v2-onnx-int8", 384  # tenants made before records were kept
# what a reembed covers: live table, its key column, the side table of new vectors (constants, never input)
TARGETS = {"units": ("kmrag_units", "id", "kmrag_reembed_units"),
           "names": ("kmrag_entity_names", "key", "kmrag_reembed_names")}


class TenantEmbedder(BaseModel):
    embedder: str
    dim: int
    recorded: bool = True  # False: a tenant made before records were kept (taken as MiniLM)
    reembed_to: str | None = None
    reembed_dim: int | None = None


def mismatch(tenant: str, stored: str, configured: str) -> EmbedderMismatch:
    return EmbedderMismatch(
        f"tenant {tenant!r} holds vectors made with the embedder {stored!r}, but this process embeds with "
        f"{configured!r}: set KMRAG_EMBEDDER to the tenant's embedder, or re-embed the tenant with this one "
        f"(`kmrag reembed --tenant {tenant}`)")


class TenantEmbedders(PgBase):
    def tenant_embedder(self, tenant: str) -> TenantEmbedder | None:
        """The tenant's embedder: its record, or MiniLM for a tenant with units made before records (None for
        a tenant without either)."""
        with self._conn() as conn:
            row = conn.execute(
                "SELECT e.embedder, e.dim, e.reembed_to, e.reembed_dim, "
                "EXISTS (SELECT 1 FROM kmrag_units u WHERE u.tenant = %s) "
                "FROM (SELECT 1) AS one LEFT JOIN kmrag_tenant_embedders e ON e.tenant = %s",
                (tenant, tenant)).fetchone()
        if row[0] is not None:
            return TenantEmbedder(embedder=row[0], dim=row[1], reembed_to=row[2], reembed_dim=row[3])
        return TenantEmbedder(embedder=LEGACY_EMBEDDER, dim=LEGACY_DIM, recorded=False) if row[4] else None

    def check_embedder(self, tenant: str, embedder: Any) -> None:
        """Refuse to search the tenant's vectors with a query vector of another embedder."""
        rec = self.tenant_embedder(tenant)
        if rec is not None and rec.embedder != embedder.name:
            raise mismatch(tenant, rec.embedder, embedder.name)

    def claim_embedder(self, tenant: str, embedder: Any) -> TenantEmbedder:
        """Before a write: record the tenant's embedder if it has no record yet (MiniLM when it already holds
        units, else ``embedder``), then refuse a write of another embedder's vectors."""
        rec = self.tenant_embedder(tenant)
        if rec is None or not rec.recorded:
            name, dim = (embedder.name, embedder.dim) if rec is None else (rec.embedder, rec.dim)
            with self._conn() as conn:
                conn.execute("INSERT INTO kmrag_tenant_embedders (tenant, embedder, dim) VALUES (%s, %s, %s) "
                             "ON CONFLICT (tenant) DO NOTHING", (tenant, name, int(dim)))
            rec = self.tenant_embedder(tenant)
        assert rec is not None
        if rec.embedder != embedder.name:
            raise mismatch(tenant, rec.embedder, embedder.name)
        return rec

    # -- a reembed under way --------------------------------------------------------------------

    def begin_reembed(self, tenant: str, name: str, dim: int) -> TenantEmbedder | None:
        """Mark a reembed to ``name`` under way, keeping the new vectors of a stopped one to the same embedder
        and dropping those of one to another. A tenant that holds nothing becomes ``name``'s at once; one that
        is ``name``'s already needs nothing. Returns the record as it was before (None: nothing stored)."""
        rec = self.tenant_embedder(tenant)
        with self._conn() as conn:
            if rec is None or not rec.recorded:
                first = (name, dim) if rec is None else (rec.embedder, rec.dim)
                conn.execute("INSERT INTO kmrag_tenant_embedders (tenant, embedder, dim) VALUES (%s, %s, %s) "
                             "ON CONFLICT (tenant) DO NOTHING", (tenant, *first))
            if rec is None:
                return None
            to = None if rec.embedder == name else name
            if rec.reembed_to != to:
                for _, _, side in TARGETS.values():
                    conn.execute(f"DELETE FROM {side} WHERE tenant = %s", (tenant,))  # noqa: S608 - constants
                conn.execute("UPDATE kmrag_tenant_embedders SET reembed_to = %s, reembed_dim = %s, updated_at = now() "
                             "WHERE tenant = %s", (to, dim if to else None, tenant))
        return rec

    def reembed_page(self, tenant: str, target: str, after: str, limit: int) -> list[tuple[str, str, str]]:
        """The next ``limit`` units (target 'units': id, title, content; retired ones too, as they may come
        back) or entity names ('names': key, name, '') after ``after``, in key order."""
        table, key, _ = TARGETS[target]
        cols = "id, title, content" if target == "units" else "key, name, ''"
        with self._conn() as conn:
            return [tuple(r) for r in conn.execute(
                f"SELECT {cols} FROM {table} WHERE tenant = %s AND {key} > %s "  # noqa: S608 - constants
                f"ORDER BY {key} LIMIT %s", (tenant, after, int(limit))).fetchall()]

    def reembed_hashes(self, tenant: str, target: str, keys: Sequence[str]) -> dict[str, str]:
        """key -> text hash of the new vectors already written for these keys."""
        _, key, side = TARGETS[target]
        with self._conn() as conn:
            return dict(conn.execute(f"SELECT {key}, text_hash FROM {side} "  # noqa: S608 - constants
                                     f"WHERE tenant = %s AND {key} = ANY(%s)", (tenant, list(keys))).fetchall())

    def write_reembed(self, tenant: str, target: str, rows: Sequence[tuple[str, str]], vectors: Any) -> None:
        """New vectors for (key, text hash) rows, beside the live ones."""
        _, key, side = TARGETS[target]
        vecs = np.asarray(vectors, dtype=np.float32)
        if len(rows) and vecs.shape != (len(rows), self.dim):
            raise ValueError(f"reembed vectors have shape {vecs.shape}, expected ({len(rows)}, {self.dim})")
        with self._conn() as conn, conn.cursor() as cur:
            cur.executemany(
                f"INSERT INTO {side} (tenant, {key}, text_hash, embedding) VALUES (%s, %s, %s, %s) "  # noqa: S608
                f"ON CONFLICT (tenant, {key}) DO UPDATE SET text_hash = EXCLUDED.text_hash, "
                "embedding = EXCLUDED.embedding",
                [(tenant, k, h, v) for (k, h), v in zip(rows, vecs, strict=True)])

    def reembed_counts(self, tenant: str) -> dict[str, dict[str, int]]:
        """Per target: rows live and new vectors written so far."""
        out: dict[str, dict[str, int]] = {}
        with self._conn() as conn:
            for target, (table, _, side) in TARGETS.items():
                live = conn.execute(f"SELECT count(*) FROM {table} WHERE tenant = %s", (tenant,)).fetchone()[0]  # noqa: S608
                done = conn.execute(f"SELECT count(*) FROM {side} WHERE tenant = %s", (tenant,)).fetchone()[0]  # noqa: S608
                out[target] = {"total": int(live), "done": int(done)}
        return out

    def switch_reembed(self, tenant: str, name: str, dim: int) -> dict[str, int]:
        """In one transaction: the new vectors replace the live ones, the record names the new embedder, and
        the side rows go. Refused when a live row has no new vector (the run did not finish)."""
        switched: dict[str, int] = {}
        with self._conn() as conn:
            conn.execute("SET LOCAL statement_timeout = 0")  # maintenance: rewrites the tenant's vectors
            rec = conn.execute("SELECT reembed_to FROM kmrag_tenant_embedders WHERE tenant = %s FOR UPDATE",
                               (tenant,)).fetchone()
            if rec is None or rec[0] != name:
                raise StoreError(f"tenant {tenant!r} has no reembed to {name!r} under way")
            for target, (table, key, side) in TARGETS.items():
                missing = conn.execute(
                    f"SELECT count(*) FROM {table} t WHERE t.tenant = %s AND NOT EXISTS "  # noqa: S608 - constants
                    f"(SELECT 1 FROM {side} s WHERE s.tenant = t.tenant AND s.{key} = t.{key})", (tenant,)).fetchone()[0]
                if missing:
                    raise StoreError(f"tenant {tenant!r}: {missing} {target} have no new vector yet; run "
                                     f"`kmrag reembed --tenant {tenant}` again to finish")
                switched[target] = conn.execute(
                    f"UPDATE {table} t SET embedding = s.embedding FROM {side} s "  # noqa: S608 - constants
                    f"WHERE t.tenant = %s AND s.tenant = t.tenant AND s.{key} = t.{key}", (tenant,)).rowcount
                conn.execute(f"DELETE FROM {side} WHERE tenant = %s", (tenant,))  # noqa: S608 - constants
            conn.execute("UPDATE kmrag_tenant_embedders SET embedder = %s, dim = %s, reembed_to = NULL, "
                         "reembed_dim = NULL, updated_at = now() WHERE tenant = %s", (name, dim, tenant))
        return switched
