"""`kmrag bench query` as a user runs it, on the servers: the shape of its figures, never their values."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from tests.fixtures.cli import data_of, kmrag, server_env

pytestmark = pytest.mark.e2e
MINI = Path(__file__).resolve().parents[1] / "fixtures" / "mini_musique.json"
ROW_KEYS = {"strategy", "concurrency", "queries", "p50_ms", "p95_ms", "mean_ms", "qps", "errors", "p50_vs_first"}


def test_bench_query_json_shape_per_strategy_concurrency_and_size() -> None:
    env = server_env("e2e_bq_")
    tenant = "e2e_bq_" + uuid.uuid4().hex[:8]
    replicas = [f"bench-{tenant}-{n}" for n in (3, 7)]
    try:
        res = kmrag("bench", "query", "--dataset", str(MINI), "--tenant", tenant, "--strategy",
                    "bm25-exhaustive,bm25,dense,hybrid,graph,multihop", "--concurrency", "1,2", "--json", env=env)
        assert res.returncode == 0, res.stderr
        r = data_of(res)
        assert r["tenant"] == tenant and r["queries"] == 2 and r["units"] == 5 and r["exact_dense"] is False
        rows = r["results"]
        assert [(x["strategy"], x["concurrency"]) for x in rows] == \
            [(s, c) for s in ("bm25-exhaustive", "bm25", "dense", "hybrid", "graph", "multihop") for c in (1, 2)]
        assert all(set(x) == ROW_KEYS and x["queries"] == 2 and x["errors"] == 0 for x in rows)
        assert all(x["p95_ms"] >= x["p50_ms"] > 0 and x["qps"] > 0 for x in rows)
        assert [x["p50_vs_first"] for x in rows[:2]] == [1.0, 1.0]

        curve = kmrag("bench", "query", "--dataset", str(MINI), "--tenant", tenant, "--strategy", "bm25,dense",
                      "--queries", "1", "--concurrency", "1", "--units", "3,7", "--json", env=env)
        assert curve.returncode == 0, curve.stderr
        c = data_of(curve)
        assert c["queries"] == 1 and "results" not in c
        assert [(p["units"], p["tenant"]) for p in c["curve"]] == list(zip((3, 7), replicas, strict=True))
        assert all([x["strategy"] for x in p["results"]] == ["bm25", "dense"] for p in c["curve"])

        human = kmrag("bench", "query", "--dataset", str(MINI), "--tenant", tenant, "--strategy", "bm25",
                      "--units", "3,7", "--concurrency", "1", env=env)
        assert human.returncode == 0, human.stderr
        assert "| bm25 |" in human.stdout and "p50 ms by tenant size" in human.stdout

        refused = kmrag("bench", "query", "--dataset", str(MINI), "--tenant", tenant, "--strategy", "graph",
                        "--units", "3", env=env)
        assert refused.returncode == 2 and "without a graph" in refused.stderr
        bad = kmrag("bench", "query", "--dataset", str(MINI), "--tenant", tenant, "--concurrency", "one", env=env)
        assert bad.returncode == 2 and "--concurrency" in bad.stderr
    finally:
        from kmrag.config import load_settings
        from kmrag.stores import open_stores

        with open_stores(load_settings(tenant=tenant, environ=env)) as s:
            for t in (tenant, *replicas):
                s.graph.clear_tenant(t)
                s.units.clear_tenant(t)
