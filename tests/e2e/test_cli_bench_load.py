"""`kmrag bench query --seconds` as a user runs it, on the servers: a short load run at two pool sizes
and a short run with one ingest job changing a source the questions hit. Asserted: no errors, the
connection counts equal before and after, no result mixing two versions of a source; never speed."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from kmrag.eval.connections import LEAK_KEYS
from tests.fixtures.cli import data_of, kmrag, server_env

pytestmark = pytest.mark.e2e
MINI = Path(__file__).resolve().parents[1] / "fixtures" / "mini_musique.json"


def clear(env: dict[str, str], tenant: str) -> None:
    from kmrag.config import load_settings
    from kmrag.stores import open_stores

    with open_stores(load_settings(tenant=tenant, environ=env)) as s:
        s.graph.clear_tenant(tenant)
        s.units.clear_tenant(tenant)


def check_clean(row: dict) -> None:  # type: ignore[type-arg]
    b, a = row["connections_before"], row["connections_after"]
    assert row["errors"] == 0 and row["error_kinds"] == {} and row["warmup_errors"] == 0, row["error_kinds"]
    assert row["leaks"] == [] and {k: b[k] for k in LEAK_KEYS} == {k: a[k] for k in LEAK_KEYS}, (b, a)
    assert b["pool_size"] == a["pool_available"] == row["pool_max"] and a["requests_waiting"] == 0
    # this process's PostgreSQL backends are its pools' connections: the run's pool (closed after it) and the
    # Stores' own; the server and this process's sockets agree
    assert b["pg_backends_this_process"] == b["pg_sockets"] >= row["pool_max"] + 1
    assert row["pg_backends_this_process_after_close"] == b["pg_backends_this_process"] - row["pool_max"]
    assert b["bolt_sockets"] >= 1 and a["bolt_in_use"] == 0 and a["bolt_sockets"] == a["bolt_pool_open"]
    assert row["mixed_results"] == 0 and row["mixed_example"] is None
    assert row["queries"] > 0 and row["p95_ms"] >= row["p50_ms"] > 0


def test_load_run_at_two_pool_sizes_has_no_errors_and_leaks_nothing() -> None:
    env = server_env("e2e_ld_")
    tenant = env["KMRAG_TENANT"]
    try:
        res = kmrag("bench", "query", "--dataset", str(MINI), "--tenant", tenant, "--seconds", "3",
                    "--concurrency", "8", "--pool-max", "2,8", "--strategy", "bm25,hybrid,graph,multihop",
                    "--json", env=env)
        assert res.returncode == 0, res.stderr
        r = data_of(res)
        assert r["tenant"] == tenant and r["units"] == 5
        assert [(x["pool_max"], x["concurrency"]) for x in r["load"]] == [(2, 8), (8, 8)]
        for row in r["load"]:
            check_clean(row)
            assert set(row["per_strategy"]) == {"bm25", "hybrid", "graph", "multihop"}
        assert r["load"][0]["p95_vs_first_pool"] == 1.0 and r["load"][1]["p95_vs_first_pool"] > 0

        human = kmrag("bench", "query", "--dataset", str(MINI), "--tenant", tenant, "--seconds", "1",
                      "--concurrency", "2", "--strategy", "bm25", env=env)
        assert human.returncode == 0, human.stderr
        assert "| pool max | clients |" in human.stdout and "LEAK" not in human.stdout

        for bad in (["--seconds", "0"], ["--seconds", "1", "--pool-max", "0"],
                    ["--seconds", "1", "--strategy", "bm25-exhaustive"], ["--pool-max", "4"]):
            refused = kmrag("bench", "query", "--tenant", tenant, *bad, env=env)
            assert refused.returncode == 2, (bad, refused.stderr)
    finally:
        clear(env, tenant)


def doc(path: Path, verb: str) -> None:
    path.write_text("# Rivers\n\n" + "\n\n".join(f"Paragraph {i}: the river Alder{i} {verb} the town of Brem{i} "
                                                 f"and feeds the lake Corin{i}." for i in range(12)) + "\n")


def test_queries_during_an_ingest_never_mix_two_versions_of_a_source(tmp_path: Path) -> None:
    env = server_env("e2e_ldm_")
    tenant = "e2e_ldm_" + uuid.uuid4().hex[:8]
    path = tmp_path / "rivers.md"
    doc(path, "flows past")
    try:
        assert kmrag("ingest", str(path), "--tenant", tenant, env=env).returncode == 0
        doc(path, "runs beside")
        res = kmrag("bench", "query", "--tenant", tenant, "--seconds", "5", "--concurrency", "8", "--pool-max", "8",
                    "--with-ingest", str(path), "--json", env=env)
        assert res.returncode == 0, res.stderr
        (row,) = data_of(res)["load"]
        check_clean(row)
        ing = row["ingest"]
        assert ing["status"] == "completed" and ing["sources_changed"] == 1, ing
        assert ing["counts"]["documents_updated"] == 1
        assert ing["units_seen_old_version"] + ing["units_seen_new_version"] > 0  # the questions hit it

        two = kmrag("bench", "query", "--tenant", tenant, "--seconds", "1", "--pool-max", "2,4",
                    "--with-ingest", str(path), env=env)
        assert two.returncode == 2 and "one ingest job" in two.stderr
    finally:
        clear(env, tenant)
