"""A tenant's content digest: what ingestion stored for a tenant, in both stores, as one sha256 that
does not depend on the tenant's name — so the same corpus ingested into two tenants (one process and
Ray workers, one machine and another, today and after a rebuild) can be compared (`kmrag digest`).

Every stored ID hashes the tenant (:mod:`kmrag.schema.ids`: ``u_`` = sha256(tenant, source, content,
occurrence), ``e_`` = sha256(tenant, name, type), ``r_`` = sha256(tenant, subject, type, object)), so
IDs cannot be compared across tenants. The digest therefore replaces each ID by the tenant-free key
it was computed from, and hashes what refers to it through those keys:

- a unit is (source id, ordinal, sha256 of its content); with it go its type, title, section path,
  mention count and whether it is retired (PostgreSQL), and whether the graph holds it;
- a source is (id, version, URI); an entity is (type, name) with its sorted aliases;
- a relation is (subject key, type, object key) with its predicate, confidence, sentences and the
  keys of the units it was extracted from; a mention is (unit key, entity key); a reading-order link
  is (unit key, kind, unit key); an entity merge record is (entity key, alias, method, score, undone).

Two tenants have equal digests exactly when their units (same sources, same texts in the same order,
hence the same IDs up to the tenant), entities, relations, mentions and links are the same. Left
out: embeddings (floating point; an ONNX batch of other lengths pads differently in the last bits),
timestamps and job records (they differ by design).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel

from kmrag.stores import Stores

LINK_KINDS = ("NEXT", "PARENT_SECTION", "REFERENCES")


class TenantDigest(BaseModel):
    tenant: str
    sha256: str
    counts: dict[str, int]
    parts: dict[str, str]  # sha256 of each part, to see which one differs


def _h(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")).hexdigest()


def tenant_content(stores: Stores, tenant: str) -> dict[str, list[Any]]:
    """The tenant's content with every ID replaced by its tenant-free key (see the module's text)."""
    graph = stores.graph
    graph.flush()
    with stores.pool.connection() as conn:
        unit_rows = conn.execute(
            "SELECT id, source_id, ordinal, content, type, title, section_path, mentions, retired_at IS NOT NULL "
            "FROM kmrag_units WHERE tenant = %s", (tenant,)).fetchall()
        source_rows = conn.execute("SELECT id, version, uri FROM kmrag_sources WHERE tenant = %s",
                                   (tenant,)).fetchall()
        merge_rows = conn.execute("SELECT entity_id, alias, method, score, undone_at IS NOT NULL "
                                  "FROM kmrag_entity_merges WHERE tenant = %s", (tenant,)).fetchall()
    ukey: dict[str, str] = {}
    units = []
    for uid, sid, ordinal, content, typ, title, section, mentions, retired in unit_rows:
        key = f"{sid}\x1f{ordinal}\x1f{hashlib.sha256(content.encode('utf-8')).hexdigest()}"
        ukey[uid] = key
        units.append([key, str(typ), title, list(section or []), int(mentions or 0), bool(retired)])
    graph_units = graph.unit_ids(tenant)
    entities = graph.all_entities(tenant)
    ekey = {e.id: f"{e.type}\x1f{e.name}" for e in entities}

    def u(x: str) -> str:
        return ukey.get(x, "graph-only-unit")

    def e(x: str) -> str:
        return ekey.get(x, "unknown-entity")

    relations = [[e(r.subject_id), r.type, e(r.object_id), r.predicate, round(r.confidence, 6),
                  sorted(r.sentences), sorted(u(x) for x in r.unit_ids)] for r in graph.relations(tenant)]
    ids = sorted(graph_units)
    mentions = [[u(x), e(y)] for x, ys in graph.unit_entities(tenant, ids).items() for y in ys]
    links = [[u(n.unit_id), n.kind, u(n.neighbour_id)] for n in graph.neighbours(tenant, ids, kinds=list(LINK_KINDS))]
    return {
        "sources": sorted([list(r) for r in source_rows]),
        "units": sorted(units),
        "graph_units": sorted(u(x) for x in graph_units),
        "entities": sorted([ekey[x.id], sorted(x.aliases)] for x in entities),
        "relations": sorted(relations),
        "mentions": sorted(mentions),
        "links": sorted(links),
        "merges": sorted([e(a), b, c, round(float(d), 6), bool(f)] for a, b, c, d, f in merge_rows),
    }


def tenant_digest(stores: Stores, tenant: str) -> TenantDigest:
    content = tenant_content(stores, tenant)
    return TenantDigest(tenant=tenant, sha256=_h(content), counts={k: len(v) for k, v in content.items()},
                        parts={k: _h(v) for k, v in content.items()})
