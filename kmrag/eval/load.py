"""`kmrag bench query --seconds N`: sustained load. ``concurrency`` threads share one Stores (one graph
driver, one PostgreSQL pool of the size asked) and ask questions back to back for N seconds, as a
server's request threads would. Reported: throughput, p50/p95 latency, every error by kind with an
example, and the connection counts before and after (pool statistics, PostgreSQL's backends, this
process's sockets), which must be equal: nothing leaked.

With ``ingest``, one ingestion job of that path (a changed version of a source the questions hit) runs
into the tenant while the clients ask, and every result is checked for a *mix*: units of one source
from two versions in a single result. A source's version switch is atomic for readers, so there must be
none.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from kmrag.eval import metrics as M
from kmrag.eval.connections import connection_counts, leaks
from kmrag.stores import Stores

WARMUP_ROUNDS = 6  # untimed queries per thread before the counts are taken (every connection opened)
RECORD_SUFFIXES = (".json", ".jsonl", ".csv", ".parquet")
INGEST_AT = 0.2  # the ingest job starts this far into the run, so the steady state is seen first


class VersionedUnit(Protocol):
    source_id: str
    source_version: str


def mixed_versions(units: Iterable[VersionedUnit]) -> dict[str, list[str]]:
    """The sources whose units in one result carry more than one version (a mix), with those versions."""
    seen: dict[str, set[str]] = {}
    for u in units:
        seen.setdefault(u.source_id, set()).add(u.source_version)
    return {sid: sorted(v) for sid, v in seen.items() if len(v) > 1}


def questions_from_files(path: str | Path, n: int = 50) -> list[str]:
    """Questions that hit a file (or a folder's files): the first words of its paragraphs. None from record
    files (JSON, JSONL, CSV, Parquet): the dataset's own questions hit those."""
    p = Path(path)
    files = sorted(f for f in p.rglob("*") if f.is_file()) if p.is_dir() else [p]
    files = [f for f in files if f.suffix.lower() not in RECORD_SUFFIXES]
    out: list[str] = []
    for f in files:
        try:
            text = f.read_text(encoding="utf-8", errors="ignore")
        except OSError:
            continue
        for para in text.split("\n\n"):
            words = para.replace("#", " ").split()
            if len(words) >= 3:
                out.append(" ".join(words[:12]))
    return out[:n]


class _Tally:
    """What the client threads saw, gathered under one lock."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latency: list[tuple[str, float]] = []
        self.errors: Counter[str] = Counter()
        self.examples: dict[str, str] = {}
        self.mixed = 0
        self.mixed_example: dict[str, Any] | None = None
        self.seen: list[list[tuple[str, str]]] = []  # (source id, version) of each result's units

    def error(self, kind: str, message: str) -> None:
        with self.lock:
            self.errors[kind] += 1
            self.examples.setdefault(kind, message[:300])


def _ask_fn(stores: Stores, embedder: Any, tenant: str, k: int) -> Callable[[str, str], Any]:
    from kmrag.retrieval.ask import ask

    return lambda q, strategy: ask(stores.units, stores.graph, embedder, tenant, q, strategy=strategy, k=k)


def run_clients(ask_fn: Callable[[str, str], Any], questions: Sequence[str], strategies: Sequence[str],
                concurrency: int, seconds: float, tally: _Tally, record: bool = False) -> float:
    """``concurrency`` threads asking back to back until ``seconds`` pass; returns the wall time."""
    from kmrag.errors import BadInput

    counter = itertools.count()
    deadline = time.perf_counter() + seconds

    def client() -> None:
        while time.perf_counter() < deadline:
            i = next(counter)
            # every question meets every strategy in turn (a shift per pass over the questions)
            q, strategy = questions[i % len(questions)], strategies[(i + i // len(questions)) % len(strategies)]
            t = time.perf_counter()
            try:
                res = ask_fn(q, strategy)
            except BadInput:  # a question a strategy refuses is the question's fault, not load's
                continue
            except Exception as e:  # noqa: BLE001 - every failure under load is counted by kind
                tally.error(type(e).__name__, str(e))
                continue
            ms = (time.perf_counter() - t) * 1000
            mix = mixed_versions(res.units)
            with tally.lock:
                tally.latency.append((strategy, ms))
                if mix:
                    tally.mixed += 1
                    tally.mixed_example = tally.mixed_example or {"question": q, "strategy": strategy,
                                                                  "sources": mix}
                if record:
                    tally.seen.append([(u.source_id, u.source_version) for u in res.units])

    t0 = time.perf_counter()
    threads = [threading.Thread(target=client, name=f"load-{n}") for n in range(concurrency)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return time.perf_counter() - t0


def _figures(lat: list[float], wall: float) -> dict[str, Any]:
    return {"queries": len(lat), "qps": round(len(lat) / wall, 1) if wall > 0 else 0.0,
            "p50_ms": round(M.percentile(lat, 50), 2) if lat else None,
            "p95_ms": round(M.percentile(lat, 95), 2) if lat else None}


def _ingest_thread(stores: Stores, embedder: Any, tenant: str, path: str, delay: float,
                   out: dict[str, Any]) -> threading.Thread:
    from kmrag.ingestion.pipeline import ingest

    def job() -> None:
        time.sleep(delay)
        t = time.perf_counter()
        try:
            res = ingest(stores, [path], tenant, embedder=embedder, progress=False)
            out.update(status=res.job.status, counts={k: v for k, v in res.job.counts.items()
                                                      if k.startswith(("documents_", "units_"))})
        except Exception as e:  # noqa: BLE001 - the ingest's failure is reported with the load's figures
            out.update(status="failed", error=f"{type(e).__name__}: {e}"[:300])
        out["seconds"] = round(time.perf_counter() - t, 2)

    th = threading.Thread(target=job, name="load-ingest")
    th.start()
    return th


def load_run(stores: Stores, embedder: Any, tenant: str, questions: Sequence[str], strategies: Sequence[str],
             concurrency: int, seconds: float, pool_max: int, k: int = 5, ingest: str | None = None,
             note: Callable[[str], None] | None = None) -> dict[str, Any]:
    """One timed run on a pool of ``pool_max`` connections (opened for it, closed after)."""
    from kmrag.units.store import PgUnitStore, open_pool

    # a fixed-size pool (every connection opened up front), so any connection not given back shows
    pool = open_pool(stores.database_url, min_size=pool_max, max_size=pool_max)
    driver = getattr(stores.graph, "_driver", None)  # Neo4j's; None on the embedded graph store
    try:
        run_stores = replace(stores, units=PgUnitStore(pool, stores.settings.embedding_dim), pool=pool)
        ask_fn = _ask_fn(run_stores, embedder, tenant, k)
        if note:
            note(f"pool max {pool_max}, concurrency {concurrency}: warm-up")
        warm = _Tally()
        # as many threads as will use the graph driver at once (the ingest job is one more), so its pool
        # holds every connection the run needs before the counts are taken
        _parallel_warmup(ask_fn, questions, strategies, concurrency + (1 if ingest else 0), warm)
        before = connection_counts(pool, stores.database_url, stores.settings.neo4j_uri, driver)
        versions_before = run_stores.units.source_versions(tenant) if ingest else {}
        tally = _Tally()
        ingest_out: dict[str, Any] = {}
        th = _ingest_thread(run_stores, embedder, tenant, ingest, seconds * INGEST_AT, ingest_out) if ingest \
            else None
        if note:
            note(f"pool max {pool_max}, concurrency {concurrency}: {seconds:g} s"
                 + (f" while ingesting {ingest}" if ingest else ""))
        wall = run_clients(ask_fn, questions, strategies, concurrency, seconds, tally, record=bool(ingest))
        if th is not None:
            th.join()
        after = connection_counts(pool, stores.database_url, stores.settings.neo4j_uri, driver)
        versions_after = run_stores.units.source_versions(tenant) if ingest else {}
    finally:
        pool.close()
    closed = connection_counts(stores.pool, stores.database_url, stores.settings.neo4j_uri, driver)
    lat = [ms for _, ms in tally.latency]
    row: dict[str, Any] = {
        "pool_max": pool_max, "concurrency": concurrency, "seconds": seconds, **_figures(lat, wall),
        "per_strategy": {s: _figures([ms for st, ms in tally.latency if st == s], wall) for s in strategies},
        "errors": sum(tally.errors.values()),
        "error_kinds": {kind: {"count": n, "example": tally.examples[kind]} for kind, n in tally.errors.items()},
        "warmup_errors": sum(warm.errors.values()),
        "connections_before": before, "connections_after": after, "leaks": leaks(before, after),
        "pg_backends_this_process_after_close": closed["pg_backends_this_process"],
        "mixed_results": tally.mixed, "mixed_example": tally.mixed_example,
    }
    if ingest:
        row["ingest"] = {"path": ingest, **ingest_out, **_switches(versions_before, versions_after, tally.seen)}
    return row


def _warm_one(ask_fn: Callable[[str, str], Any], q: str, strategy: str, tally: _Tally) -> None:
    try:
        ask_fn(q, strategy)
    except Exception as e:  # noqa: BLE001 - counted, as under load
        tally.error(type(e).__name__, str(e))


def _parallel_warmup(ask_fn: Callable[[str, str], Any], questions: Sequence[str], strategies: Sequence[str],
                     concurrency: int, tally: _Tally) -> None:
    """Every thread at once, so the pool and the driver open all the connections the run will use."""
    from concurrent.futures import ThreadPoolExecutor

    n = WARMUP_ROUNDS * concurrency
    with ThreadPoolExecutor(max_workers=concurrency) as ex:
        list(ex.map(lambda i: _warm_one(ask_fn, questions[i % len(questions)], strategies[i % len(strategies)],
                                        tally), range(n)))


def _switches(before: dict[str, str], after: dict[str, str], seen: list[list[tuple[str, str]]]) -> dict[str, Any]:
    """Which sources the ingest changed, and how many results saw each of their versions."""
    changed = {sid: (before.get(sid), v) for sid, v in after.items() if before.get(sid) != v}
    old = new = 0
    for result in seen:
        for sid, v in result:
            if sid in changed:
                old += v == changed[sid][0]
                new += v == changed[sid][1]
    return {"sources_changed": len(changed), "units_seen_old_version": old, "units_seen_new_version": new}


def load_bench(stores: Stores, embedder: Any, tenant: str, questions: Sequence[str], strategies: Sequence[str],
               concurrency: Sequence[int], seconds: float, pool_max: Sequence[int], ingest: str | None = None,
               note: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    """A run per (pool size, concurrency); p50/p95 ratios to the first pool size at the same concurrency."""
    rows = [load_run(stores, embedder, tenant, questions, strategies, c, seconds, p, ingest=ingest, note=note)
            for p in pool_max for c in concurrency]
    for row in rows:
        base = next(r for r in rows if r["concurrency"] == row["concurrency"])
        for key in ("p50_ms", "p95_ms"):
            row[f"{key[:3]}_vs_first_pool"] = round(row[key] / base[key], 3) if row[key] and base[key] else None
    return rows


def render_load(r: dict[str, Any]) -> str:
    lines = [f"load on tenant {r['tenant']} ({r['units']:,} units): {r['queries']} questions, strategies "
             f"{', '.join(r['strategies'])} in turn; graph={r['graph_backend']}, embedder={r['embedder']}", "",
             "| pool max | clients | s | queries | q/s | p50 ms | p95 ms | p95 vs first pool | errors | mixed | "
             "pool size before/after | PG backends before/after | Bolt sockets before/after |",
             "|---" * 13 + "|"]
    for x in r["load"]:
        b, a = x["connections_before"], x["connections_after"]
        lines.append(f"| {x['pool_max']} | {x['concurrency']} | {x['seconds']:g} | {x['queries']} | {x['qps']} | "
                     f"{x['p50_ms']} | {x['p95_ms']} | {x['p95_vs_first_pool']} | {x['errors']} | "
                     f"{x['mixed_results']} | {b['pool_size']}/{a['pool_size']} | "
                     f"{b['pg_backends_this_process']}/{a['pg_backends_this_process']} | "
                     f"{b['bolt_sockets']}/{a['bolt_sockets']} |")
    for x in r["load"]:
        for kind, e in x["error_kinds"].items():
            lines.append(f"error {kind} x{e['count']} (pool max {x['pool_max']}): {e['example']}")
        if x["leaks"]:
            lines.append(f"LEAK (pool max {x['pool_max']}): " + "; ".join(x["leaks"]))
        b, a = x["connections_before"], x["connections_after"]
        if (a["bolt_sockets"] or 0) > (b["bolt_sockets"] or 0):
            lines.append(f"Bolt pool grew {b['bolt_sockets']} -> {a['bolt_sockets']} (pool max {x['pool_max']}): the "
                         "driver keeps a connection per thread that used it at once; none in use after")
        if x["mixed_example"]:
            lines.append(f"MIXED VERSIONS (pool max {x['pool_max']}): {x['mixed_example']}")
        if "ingest" in x:
            i = x["ingest"]
            lines.append(f"ingest {i['path']}: {i.get('status')} in {i.get('seconds')} s, "
                         f"{i['sources_changed']} source(s) changed; result units seen at the old version "
                         f"{i['units_seen_old_version']}, at the new {i['units_seen_new_version']}"
                         + (f"; {i['error']}" if i.get("error") else ""))
    return "\n".join(lines)
