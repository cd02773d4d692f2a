"""`kmrag bench query`: query latency (p50 / p95) and throughput per strategy at several concurrencies,
side by side on one corpus; with ``units``, the same on replicated corpora of the sizes given (with the
other sizes' tenants beside them) to show how latency grows with the tenant.

Queries run as a server runs them: threads sharing one unit store (a pool sized to the concurrency),
one graph driver and one embedder. Every strategy runs untimed warm-up queries first (a server's steady state:
statements prepared on every pooled connection). Figures are
reported with their ratio to the first strategy named, measured in the same process.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from kmrag.errors import BadInput, ConfigError
from kmrag.eval import metrics as M
from kmrag.stores import Stores

DEFAULT_STRATEGIES = ("bm25", "dense", "hybrid", "graph", "multihop")
REFERENCE = "bm25-exhaustive"  # BM25 computed per query from the whole tenant: the cost before statistics were kept
PG_ONLY = ("bm25", "fulltext", REFERENCE, "dense", "hybrid")  # strategies a replicated tenant (no graph) can run
REPLICA_SOURCES = ("2wiki", "musique", "hotpotqa")  # replicated by --units when no dataset or tenant is named
WARMUP = 12  # at least this many untimed queries per strategy


class _Exhaustive:
    name = REFERENCE

    def __init__(self, units: Any) -> None:
        self.units = units

    def retrieve(self, tenant: str, question: str, k: int = 10) -> Any:
        from kmrag.retrieval.strategies import Retrieved, check_question

        hits = self.units.fulltext_search_exhaustive(tenant, check_question(question), k)
        return Retrieved(unit_ids=[h.id for h in hits], scores=[h.score for h in hits])


def _retriever(name: str, units: Any, embedder: Any, graph: Any, exact: bool) -> Any:
    from kmrag.retrieval.strategies import build_strategy

    if name == REFERENCE:
        return _Exhaustive(units)
    return build_strategy(name, units, embedder, exact=exact, graph=graph)


def run_queries(retriever: Any, tenant: str, questions: Sequence[str], concurrency: int, k: int = 10) -> dict[str, Any]:
    """Every question once, by ``concurrency`` threads; latency per query and queries per second overall."""
    def one(q: str) -> tuple[float, bool]:
        t = time.perf_counter()
        try:
            retriever.retrieve(tenant, q, k)
            ok = True
        except BadInput:
            ok = False
        return (time.perf_counter() - t) * 1000, ok

    t0 = time.perf_counter()
    if concurrency <= 1:
        got = [one(q) for q in questions]
    else:
        with ThreadPoolExecutor(max_workers=concurrency) as pool:
            got = list(pool.map(one, questions))
    wall = time.perf_counter() - t0
    lat = [ms for ms, _ in got]
    return {"concurrency": concurrency, "queries": len(questions), "p50_ms": round(M.percentile(lat, 50), 2),
            "p95_ms": round(M.percentile(lat, 95), 2), "mean_ms": round(sum(lat) / max(1, len(lat)), 2),
            "qps": round(len(questions) / wall, 1) if wall > 0 else 0.0, "errors": sum(1 for _, ok in got if not ok)}


def measure(units: Any, embedder: Any, graph: Any, tenant: str, questions: Sequence[str],
            strategies: Sequence[str], concurrency: Sequence[int], exact: bool = False,
            note: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    rows = []
    for name in strategies:
        r = _retriever(name, units, embedder, graph, exact)
        # every pooled connection runs each statement often enough to have it prepared (psycopg prepares a
        # statement on its 5th execution on a connection), as on a server that has been up a while
        top = max(concurrency)
        run_queries(r, tenant, [questions[i % len(questions)] for i in range(max(WARMUP, 6 * (top + 1)))], top)
        for c in concurrency:
            if note:
                note(f"{tenant}: {name} at concurrency {c}")
            rows.append({"strategy": name, **run_queries(r, tenant, questions, c)})
    base = {row["concurrency"]: row for row in rows if row["strategy"] == strategies[0]}
    for row in rows:
        b = base.get(row["concurrency"])
        row["p50_vs_first"] = round(row["p50_ms"] / b["p50_ms"], 3) if b and b["p50_ms"] else None
    return rows


def _questions_from_units(units: Any, tenant: str, n: int) -> list[str]:
    """Queries from the tenant's own units when no question set is given: the first words of units spread
    evenly over the tenant (by id, so the same units every time)."""
    ids = sorted(units.unit_ids(tenant))
    if not ids:
        raise ConfigError(f"tenant {tenant!r} has no units to query")
    step = max(1, len(ids) // n)
    picked = units.get_units(tenant, ids[::step][:n])
    return [" ".join((u.title + " " + u.content).split()[:12]) for u in picked]


def bench_query(stores: Stores, dataset: str | None = None, tenant: str | None = None,
                strategies: Sequence[str] = DEFAULT_STRATEGIES, queries: int | None = None,
                concurrency: Sequence[int] = (1, 8), units: Sequence[int] = (), exact: bool = False,
                data_root: str | None = None, note: Callable[[str], None] | None = None,
                seconds: float | None = None, pool_max: Sequence[int] = (), with_ingest: str | None = None,
                ) -> dict[str, Any]:
    from kmrag.nlp.embed import get_embedder
    from kmrag.retrieval.strategies import STRATEGIES, known_strategy
    from kmrag.units.store import PgUnitStore, open_pool

    strategies = list(dict.fromkeys(strategies))
    unknown = [s for s in strategies if not known_strategy(s) and s != REFERENCE]
    if unknown or not strategies:
        raise ConfigError(f"unknown strategy {unknown[0]!r}: choose from {', '.join([*STRATEGIES, REFERENCE])}"
                          if unknown else "name at least one strategy")
    if any(c < 1 for c in concurrency) or not concurrency:
        raise ConfigError("concurrency must be one or more positive integers")
    if units:
        no_graph = [s for s in strategies if s not in PG_ONLY]
        if no_graph:
            raise ConfigError(f"--units builds replicated tenants without a graph: {', '.join(no_graph)} cannot run "
                              f"there (choose from {', '.join(PG_ONLY)})")
        if any(n < 1 for n in units):
            raise ConfigError("--units takes positive sizes")
    if seconds is not None:
        return _load(stores, dataset, tenant, strategies, queries, concurrency, seconds, pool_max, with_ingest,
                     data_root, note)
    if with_ingest or pool_max:
        raise ConfigError("--with-ingest and --pool-max go with --seconds (a sustained load run)")
    replicate_all = not dataset and not tenant
    if replicate_all:
        dataset = "hotpotqa"
    embedder = get_embedder(stores.settings)
    embedder.embed(["warm-up"])  # model load is not query work
    # a pool sized to the concurrency, as a server's would be
    pool = open_pool(stores.database_url, min_size=max(concurrency) + 1, max_size=max(concurrency) + 1)
    try:
        store = PgUnitStore(pool, stores.settings.embedding_dim)
        questions, target = _corpus(stores, dataset, tenant, data_root, note)
        if not questions:
            questions = _questions_from_units(store, target, queries or 100)
        questions = questions[:queries] if queries else questions
        out: dict[str, Any] = {"dataset": dataset, "tenant": target, "strategies": strategies,
                               "concurrency": list(concurrency), "queries": len(questions), "exact_dense": exact,
                               "graph_backend": stores.graph.backend, "embedder": getattr(embedder, "name", "?")}
        if not units:
            out["units"] = store.counts(target)["units"]
            out["results"] = measure(store, embedder, stores.graph, target, questions, strategies, concurrency,
                                     exact, note)
            return out
        # the three QA corpora together by default; else the corpus asked for
        sources = [_ensure_ingested(stores, ds, data_root, note) for ds in REPLICA_SOURCES] if replicate_all \
            else [target]
        tag = "qa" if replicate_all else target
        curve = []
        for n in units:
            t = f"bench-{tag}-{n}"
            have = store.counts(t)["units"]
            if have != n:
                if note:
                    note(f"building {t}: {n:,} units replicated from {', '.join(sources)}")
                store.replicate_units(sources, t, n, on_progress=(lambda w, t=t: note(f"{t}: {w:,} units"))
                                      if note else None)
                store.analyze()
            curve.append({"units": n, "tenant": t,
                          "results": measure(store, embedder, None, t, questions, strategies, concurrency, exact,
                                             note)})
        out["curve"] = curve
        return out
    finally:
        pool.close()


def _load(stores: Stores, dataset: str | None, tenant: str | None, strategies: Sequence[str], queries: int | None,
          concurrency: Sequence[int], seconds: float, pool_max: Sequence[int], with_ingest: str | None,
          data_root: str | None, note: Callable[[str], None] | None) -> dict[str, Any]:
    """`--seconds`: sustained load on the shared Stores (kmrag.eval.load), at each pool size asked."""
    from pathlib import Path

    from kmrag.eval.load import load_bench, questions_from_files
    from kmrag.nlp.embed import get_embedder

    if seconds <= 0:
        raise ConfigError("--seconds must be positive")
    if REFERENCE in strategies:
        raise ConfigError(f"{REFERENCE} is a retrieval reference, not a query path: leave it out of a load run")
    if not dataset and not tenant:
        raise ConfigError("a load run (--seconds) needs --dataset or --tenant: the corpus to query")
    pools = list(pool_max) or [stores.settings.pg_pool_max]
    if any(p < 1 for p in pools):
        raise ConfigError("--pool-max takes positive sizes")
    if with_ingest and (len(pools) > 1 or len(concurrency) > 1):
        raise ConfigError("--with-ingest runs one ingest job: give one --pool-max and one --concurrency")
    if with_ingest and not Path(with_ingest).exists():
        raise ConfigError(f"--with-ingest: {with_ingest} does not exist")
    embedder = get_embedder(stores.settings)
    embedder.embed(["warm-up"])
    # a load run queries what the tenant holds: the dataset is ingested only into an empty tenant (so that
    # --with-ingest of a changed dataset file changes it during the run, not before)
    if dataset and tenant and stores.units.counts(tenant)["units"]:
        from kmrag.eval.runner import load_set

        questions, target = [it.question for it in load_set(dataset, data_root)[2]], tenant
    else:
        questions, target = _corpus(stores, dataset, tenant, data_root, note)
    if not questions:
        questions = _questions_from_units(stores.units, target, queries or 100)
    questions = questions[:queries] if queries else questions
    if with_ingest:  # questions that hit the source being changed, between the others
        hit = questions_from_files(with_ingest)
        questions = [q for pair in itertools.zip_longest(hit, questions) for q in pair if q] if hit else questions
    out: dict[str, Any] = {"dataset": dataset, "tenant": target, "strategies": list(strategies),
                           "queries": len(questions), "units": stores.units.counts(target)["units"],
                           "graph_backend": stores.graph.backend, "embedder": getattr(embedder, "name", "?")}
    out["load"] = load_bench(stores, embedder, target, questions, strategies, concurrency, seconds, pools,
                             with_ingest, note)
    return out


def _corpus(stores: Stores, dataset: str | None, tenant: str | None, data_root: str | None,
            note: Callable[[str], None] | None) -> tuple[list[str], str]:
    """The questions (none when only a tenant is given) and the tenant to query."""
    if not dataset:
        assert tenant is not None
        return [], tenant
    from kmrag.eval.runner import load_set

    _path, _fmt, items, _problems, _passages = load_set(dataset, data_root)
    target = _ensure_ingested(stores, dataset, data_root, note, tenant)
    return [it.question for it in items], target


def _ensure_ingested(stores: Stores, dataset: str, data_root: str | None, note: Callable[[str], None] | None,
                     tenant: str | None = None) -> str:
    """The dataset's corpus in ``tenant`` (default its eval tenant), ingested as `kmrag eval` does (a no-op
    when it is already there)."""
    from pathlib import Path

    from kmrag.eval.bench import dataset_path
    from kmrag.eval.runner import tenant_for
    from kmrag.ingestion.pipeline import ingest

    path = dataset_path(dataset, data_root)
    from kmrag.nlp.embed import get_embedder

    tenant = tenant or tenant_for(dataset if not Path(dataset).exists() else path.stem,
                                  get_embedder(stores.settings).name)
    if note:
        note(f"corpus {dataset} -> tenant {tenant}")
    ingest(stores, [path], tenant, progress=False)
    return tenant


def render_query(r: dict[str, Any]) -> str:
    if "load" in r:
        from kmrag.eval.load import render_load

        return render_load(r)

    def table(rows: list[dict[str, Any]]) -> list[str]:
        cs = sorted({row["concurrency"] for row in rows})
        first = rows[0]["strategy"] if rows else ""
        head = "| strategy | " + " | ".join(f"c={c} p50 ms | c={c} p95 ms | c={c} qps" for c in cs) + \
               f" | p50 vs {first} (c={cs[0] if cs else 1}) |"
        lines = [head, "|---" * (2 + 3 * len(cs)) + "|"]
        for name in dict.fromkeys(row["strategy"] for row in rows):
            by_c = {row["concurrency"]: row for row in rows if row["strategy"] == name}
            cells = " | ".join(f"{by_c[c]['p50_ms']} | {by_c[c]['p95_ms']} | {by_c[c]['qps']}" for c in cs)
            ratio = by_c[cs[0]].get("p50_vs_first") if cs else None
            errs = sum(row["errors"] for row in by_c.values())
            lines.append(f"| {name}{f' ({errs} refused)' if errs else ''} | {cells} | {ratio} |")
        return lines

    lines = [f"queries: {r['queries']} from {r['dataset'] or r['tenant']}; graph={r['graph_backend']}, "
             f"embedder={r['embedder']}, dense={'exact' if r['exact_dense'] else 'HNSW'}"]
    if "results" in r:
        lines += [f"tenant {r['tenant']} ({r['units']:,} units)", "", *table(r["results"])]
    for point in r.get("curve", []):
        lines += ["", f"tenant {point['tenant']} ({point['units']:,} units)", "", *table(point["results"])]
    if r.get("curve"):
        lines += ["", "p50 ms by tenant size (concurrency " + str(r["concurrency"][0]) + ")", ""]
        sizes = [p["units"] for p in r["curve"]]
        lines.append("| strategy | " + " | ".join(f"{n:,}" for n in sizes) + " |")
        lines.append("|---" * (1 + len(sizes)) + "|")
        for name in r["strategies"]:
            cells = [next((row["p50_ms"] for row in p["results"] if row["strategy"] == name
                           and row["concurrency"] == r["concurrency"][0]), "") for p in r["curve"]]
            lines.append(f"| {name} | " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines)
