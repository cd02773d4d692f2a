"""`kmrag bench ingest`: ingestion throughput, time per stage, peak memory, and the ratio of total
ingest time to what the embedder alone needs for the same texts, measured in the same process."""

from __future__ import annotations

import os
import resource
import time
import uuid
from pathlib import Path
from typing import Any

from kmrag.errors import ConfigError
from kmrag.stores import Stores

DATASETS = {
    "musique": "musique/musique_dev_100.json",
    "hotpotqa": "hotpotqa/hotpotqa_dev_200.json",
    "2wiki": "2wiki/2wiki_100.json",
    "novel": "graphrag-bench/novel.parquet",
    "medical": "graphrag-bench/medical.json",
}


# `kmrag eval`: the question files of the sets whose name above is their corpus (GraphRAG-Bench)
QUESTION_SETS = {
    "novel": "graphrag-bench/novel_questions.json",
    "medical": "graphrag-bench/medical_questions.json",
}


def shared_data_root(explicit: str | None = None) -> Path:
    """Where ../shared/data is: --data-root, KMRAG_SHARED_DATA, or ../shared/data / shared/data."""
    for cand in [explicit, os.environ.get("KMRAG_SHARED_DATA"), "../shared/data", "shared/data"]:
        if cand and Path(cand).is_dir():
            return Path(cand)
    raise ConfigError("cannot find the shared data folder: pass --data-root or set KMRAG_SHARED_DATA")


def dataset_path(name: str, data_root: str | None = None) -> Path:
    if Path(name).exists():
        return Path(name)
    if name not in DATASETS:
        raise ConfigError(f"unknown dataset {name!r}: one of {sorted(DATASETS)} or a file path")
    return shared_data_root(data_root) / DATASETS[name]


def eval_set_path(name: str, data_root: str | None = None) -> Path:
    """The question file `kmrag eval` reads for a set name (or a file path)."""
    if name in QUESTION_SETS and not Path(name).exists():
        return shared_data_root(data_root) / QUESTION_SETS[name]
    return dataset_path(name, data_root)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def peak_child_rss_mb() -> float:
    """The largest finished child process (the embedding worker) of this process."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0


def bench_ingest(stores: Stores, dataset: str, data_root: str | None = None, keep: bool = False) -> dict[str, Any]:
    from kmrag.ingestion.pipeline import IngestionJob, embedding_text
    from kmrag.nlp.embed import get_embedder
    from kmrag.nlp.extract import SpacyExtractor

    path = dataset_path(dataset, data_root)
    tenant = f"bench_{uuid.uuid4().hex[:8]}"
    embedder = get_embedder(stores.settings)
    extractor = SpacyExtractor()
    embedder.embed(["warm-up"])  # model load is not ingestion work
    rss_before = peak_rss_mb()
    try:
        t0 = time.perf_counter()
        job = IngestionJob(stores, embedder, extractor, tenant, progress=False).run([path])
        total = time.perf_counter() - t0
        rss_ingest = peak_rss_mb()
        ids = sorted(stores.units.unit_ids(tenant))
        texts = []
        for i in range(0, len(ids), 2000):
            texts += [embedding_text(u) for u in stores.units.get_units(tenant, ids[i:i + 2000])]  # type: ignore[arg-type]
        t1 = time.perf_counter()
        embedder.embed(texts)
        embed_alone = time.perf_counter() - t1
        counts, timings = job.job.counts, job.job.timings
        docs = sum(counts.get(f"documents_{k}", 0) for k in ("new", "updated", "resumed", "rebuilt"))
        units = counts.get("units_written", 0)
        chars = sum(len(t) for t in texts)
        return {
            "dataset": dataset, "path": str(path), "graph_backend": stores.graph.backend,
            "embedder": getattr(embedder, "name", "?"), "documents": docs, "units": units, "chars": chars,
            "entities": stores.graph.counts(tenant).entities, "relations": stores.graph.counts(tenant).relations,
            "total_s": round(total, 2), "docs_per_s": round(docs / total, 2), "units_per_s": round(units / total, 2),
            "stages_s": {k: timings.get(k, 0.0) for k in ("read", "parse", "nlp", "embed", "embed_wait", "resolve",
                                                         "write_graph", "write_pg", "write_retire", "consolidate",
                                                         "analyze", "verify")},
            "embed_alone_s": round(embed_alone, 2), "ratio_total_to_embed_alone": round(total / embed_alone, 3),
            "peak_rss_mb": round(rss_ingest, 1), "rss_before_mb": round(rss_before, 1),
            "peak_worker_rss_mb": round(peak_child_rss_mb(), 1),
            "status": job.job.status, "stores_agree": job.agreement.get("agree"),
        }
    finally:
        if not keep:
            stores.graph.clear_tenant(tenant)
            stores.units.clear_tenant(tenant)


def render_ingest(r: dict[str, Any]) -> str:
    st = r["stages_s"]
    rows = [
        ("dataset", f"{r['dataset']} ({r['documents']} documents, {r['units']} units, {r['chars']:,} chars)"),
        ("backends", f"graph={r['graph_backend']}, embedder={r['embedder']}"),
        ("total ingest", f"{r['total_s']} s"),
        ("documents/s", r["docs_per_s"]), ("units/s", r["units_per_s"]),
        ("parse", f"{st['parse']:.2f} s"), ("NLP (spaCy)", f"{st['nlp']:.2f} s"),
        ("embed (in job)", f"{st['embed']:.2f} s (waited {st['embed_wait']:.2f} s)"),
        ("resolve", f"{st['resolve']:.2f} s"),
        ("write graph / PG / retire", f"{st['write_graph']:.2f} / {st['write_pg']:.2f} / {st['write_retire']:.2f} s"),
        ("consolidate entities", f"{st.get('consolidate', 0):.2f} s"),
        ("analyze / verify stores agree", f"{st.get('analyze', 0):.2f} / {st.get('verify', 0):.2f} s"),
        ("embedder alone, same texts", f"{r['embed_alone_s']} s"),
        ("ratio total / embedder alone", r["ratio_total_to_embed_alone"]),
        ("peak RSS (main / embedding worker)", f"{r['peak_rss_mb']} / {r.get('peak_worker_rss_mb', 0)} MB"),
        ("entities / relations", f"{r['entities']} / {r['relations']}"),
        ("stores agree", r["stores_agree"]),
    ]
    return "| measure | value |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in rows)
