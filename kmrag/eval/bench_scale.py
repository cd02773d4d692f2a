"""Scale-out measurements (docs/scale-out.md):

- `kmrag bench ingest --engine ray --workers 1,2,4`: the same corpus ingested into fresh tenants, once
  in this process and once per worker count on Ray, in one run: units/s, the ratio to the
  single-process path, and whether the stored result is the same (the tenant digests are equal);
- `kmrag bench writes --sizes 100,500,1000,5000`: what the stores accept, per batch size — synthetic
  units (with 384-d vectors), entities, mentions and relations written with the store code the job
  uses — the bound of a scale-out ingest once the workers are many.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

import numpy as np

from kmrag.stores import Stores


def _ingest_once(stores: Stores, path: str, tenant: str, engine: Any) -> dict[str, Any]:
    from kmrag.ingestion.pipeline import IngestionJob, get_extractor
    from kmrag.nlp.embed import get_embedder

    t0 = time.perf_counter()
    res = IngestionJob(stores, get_embedder(stores.settings), get_extractor(stores.settings), tenant,
                       progress=False, engine=engine).run([path])
    total = time.perf_counter() - t0
    units = res.job.counts.get("units_written", 0)
    return {"total_s": round(total, 2), "units": units, "units_per_s": round(units / total, 2) if total else 0.0,
            "status": res.job.status, "timings": res.job.timings}


def bench_ingest_scale(stores: Stores, path: str, workers: list[int], address: str | None = None,
                       keep: bool = False) -> dict[str, Any]:
    from kmrag.ingestion.digest import tenant_digest
    from kmrag.ingestion.pipeline import get_extractor
    from kmrag.ingestion.ray_engine import RayEngine
    from kmrag.nlp.embed import get_embedder

    get_embedder(stores.settings).embed(["warm-up"])  # model loads are not ingestion work
    get_extractor(stores.settings).extract([])
    tenants: list[str] = []
    try:
        base = f"bench_{uuid.uuid4().hex[:8]}"
        tenants.append(base)
        from kmrag.ingestion.compute import BatchWork, LocalEngine

        own = LocalEngine(get_embedder(stores.settings), get_extractor(stores.settings))
        try:  # its embedding worker process loads the model before the clock starts, as the actors do
            own.result(own.submit(BatchWork(extract=[], embed_texts=["warm-up"])))
            local = _ingest_once(stores, path, base, own)
        finally:
            own.close()
        ref = tenant_digest(stores, base).sha256
        rows: list[dict[str, Any]] = [{"engine": "local", "workers": 1, **local, "ratio": 1.0, "same_digest": True}]
        for n in workers:
            t = f"{base}_ray{n}"
            tenants.append(t)
            with RayEngine(stores.settings, workers=n, address=address) as engine:  # fresh runtime per count
                r = _ingest_once(stores, path, t, engine)
                startup = engine.startup_s
            rows.append({"engine": "ray", "workers": n, **r, "startup_s": round(startup, 2),
                         "ratio": round(r["units_per_s"] / local["units_per_s"], 3) if local["units_per_s"] else 0.0,
                         "same_digest": tenant_digest(stores, t).sha256 == ref})
        return {"path": path, "graph_backend": stores.graph.backend, "rows": rows}
    finally:
        if not keep:
            for t in tenants:
                stores.graph.clear_tenant(t)
                stores.units.clear_tenant(t)


def render_scale(r: dict[str, Any]) -> str:
    head = (f"{r['path']} (graph: {r['graph_backend']})\n| engine | workers | units | total s | units/s | "
            "ratio to one process | Ray start s | same digest |\n|---|---|---|---|---|---|---|---|\n")
    return head + "\n".join(f"| {x['engine']} | {x['workers']} | {x['units']} | {x['total_s']} | {x['units_per_s']} | "
                            f"{x['ratio']} | {x.get('startup_s', '')} | {x['same_digest']} |" for x in r["rows"])


def _synthetic(tenant: str, n: int, start: int, dim: int) -> tuple[Any, ...]:
    from kmrag.schema import Entity, KnowledgeUnit, Mention, Relation, Source, UnitType
    from kmrag.schema.ids import entity_id, relation_id, unit_id

    sid = f"bench/src{start // 1000}"
    src = Source(id=sid, tenant=tenant, uri=f"file:///{sid}", version="v1", content_hash="v1")
    units = [KnowledgeUnit(id=unit_id(tenant, sid, f"synthetic unit {i}", 0), tenant=tenant, source_id=sid,
                           source_version="v1", type=UnitType.PARAGRAPH, ordinal=i,
                           content=f"synthetic unit {i}: the quick brown fox {i % 97} jumps over the lazy dog "
                                   f"number {i % 89} near the river bank of town {i % 31}.")
             for i in range(start, start + n)]
    ents = [Entity(id=entity_id(tenant, f"Entity {i}", "ORG"), tenant=tenant, name=f"Entity {i}", type="ORG")
            for i in range(start, start + n)]  # one new entity per unit: the heavy case
    mentions = [Mention(tenant=tenant, unit_id=u.id, entity_id=e.id) for u, e in zip(units, ents, strict=True)]
    mentions += [Mention(tenant=tenant, unit_id=u.id, entity_id=ents[(k + 1) % n].id) for k, u in enumerate(units)]
    rels = [Relation(id=relation_id(tenant, ents[k].id, "RELATED_TO", ents[(k + 1) % n].id), tenant=tenant,
                     subject_id=ents[k].id, object_id=ents[(k + 1) % n].id, predicate="related to",
                     type="RELATED_TO", unit_ids=[units[k].id]) for k in range(n)]
    vecs = np.random.default_rng(start).standard_normal((n, dim)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    return src, units, ents, mentions, rels, vecs


def bench_writes(stores: Stores, sizes: list[int], rounds: int = 2) -> dict[str, Any]:
    """Per batch size: ``rounds`` batches of synthetic rows, written as the job writes a batch (graph:
    units, entities, mentions, relations, flush; PostgreSQL: units with vectors and mention counts, in
    one transaction), timed per store."""
    dim = stores.settings.embedding_dim
    tenant = f"bench_w_{uuid.uuid4().hex[:8]}"
    rows = []
    try:
        start = 0
        for size in sizes:
            g_s = pg_s = 0.0
            for _ in range(rounds):
                src, units, ents, mentions, rels, vecs = _synthetic(tenant, size, start, dim)
                start += size
                t = time.perf_counter()
                stores.graph.write_sources([src])
                stores.graph.write_units(units)
                stores.graph.write_entities(ents)
                stores.graph.write_mentions(mentions)
                stores.graph.write_relations(rels)
                stores.graph.flush()
                g_s += time.perf_counter() - t
                t = time.perf_counter()
                per_unit = {u.id: 2 for u in units}
                with stores.units.transaction():
                    stores.units.write_units(units, list(vecs), per_unit)
                    stores.units.write_sources([src])
                pg_s += time.perf_counter() - t
            n = size * rounds
            rows.append({"batch": size, "units": n, "graph_s": round(g_s, 3), "pg_s": round(pg_s, 3),
                         "graph_units_per_s": round(n / g_s, 1), "pg_units_per_s": round(n / pg_s, 1),
                         "both_units_per_s": round(n / (g_s + pg_s), 1)})
        return {"graph_backend": stores.graph.backend, "rows": rows,
                "per_unit": "1 new entity, 2 mentions, 1 relation, a 384-d vector"}
    finally:
        stores.graph.clear_tenant(tenant)
        stores.units.clear_tenant(tenant)


def render_writes(r: dict[str, Any]) -> str:
    head = (f"graph: {r['graph_backend']}; each unit: {r['per_unit']}\n| batch | units | graph units/s | "
            "PostgreSQL units/s | both, in sequence, units/s |\n|---|---|---|---|---|\n")
    return head + "\n".join(f"| {x['batch']} | {x['units']} | {x['graph_units_per_s']} | {x['pg_units_per_s']} | "
                            f"{x['both_units_per_s']} |" for x in r["rows"])
