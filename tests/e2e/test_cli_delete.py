"""`kmrag delete` as a user runs it, on the servers: retire, then purge what was retired."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.fixtures.cli import data_of
from tests.fixtures.docs import write_corpus

pytestmark = pytest.mark.e2e


def kmrag(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kmrag.cli", *args], capture_output=True, text=True, env=env,
                          timeout=600)


def test_delete_then_purge_finds_the_retired_rows(tmp_path: Path) -> None:
    if not os.environ.get("KMRAG_NEO4J_URI") or not os.environ.get("KMRAG_DATABASE_URL"):
        pytest.fail("start the services first: eval \"$(services/up.sh)\"", pytrace=False)
    from kmrag.config import load_settings
    from kmrag.stores import open_stores

    tenant = "e2e_del_" + uuid.uuid4().hex[:8]
    env = {**os.environ, "KMRAG_TENANT": tenant}
    corpus = write_corpus(tmp_path / "corpus")
    try:
        res = kmrag("ingest", str(corpus), "--json", env=env)
        assert res.returncode == 0, res.stderr
        assert data_of(res)["job"]["counts"]["documents_new"] == 3
        # the source-id scheme is not pinned here: find the notes file's id among the stored sources
        with open_stores(load_settings(tenant=tenant)) as s:
            sids = s.units.source_ids(tenant)
            (sid,) = [x for x in sids if x.endswith("notes.txt")]
            units = s.units.unit_ids(tenant, sid)
            others = {x: s.units.unit_ids(tenant, x) for x in sids - {sid}}
        assert units and all(others.values())

        retired = kmrag("delete", sid, "--json", env=env)
        assert retired.returncode == 0, retired.stdout + retired.stderr
        (r,) = data_of(retired)
        assert r == {"source": sid, "found": True, "graph_units_removed": len(units), "unit_rows": len(units),
                     "purged": False}
        with open_stores(load_settings(tenant=tenant)) as s:
            assert s.units.get_source(tenant, sid) is None and sid not in s.graph.source_ids(tenant)
            assert s.units.unit_ids(tenant, sid) == set()
            assert s.units.unit_ids(tenant, sid, include_retired=True) == units  # kept for audit

        purged = kmrag("delete", sid, "--purge", "--json", env=env)
        assert purged.returncode == 0, purged.stdout + purged.stderr
        (p,) = data_of(purged)
        assert p == {"source": sid, "found": True, "graph_units_removed": 0, "unit_rows": len(units),
                     "purged": True}
        with open_stores(load_settings(tenant=tenant)) as s:
            assert s.units.unit_ids(tenant, sid, include_retired=True) == set()
            with s.pool.connection() as conn:
                left = conn.execute("SELECT count(*) FROM kmrag_units WHERE tenant = %s AND source_id = %s",
                                    (tenant, sid)).fetchone()
            assert left == (0,)
            assert {x: s.units.unit_ids(tenant, x) for x in others} == others  # the other sources are untouched

        again = kmrag("delete", sid, "--purge", env=env)
        assert again.returncode == 1 and f"{sid}: no such source" in again.stdout
    finally:
        with open_stores(load_settings(tenant=tenant)) as s:
            s.graph.clear_tenant(tenant)
            s.units.clear_tenant(tenant)


def test_delete_by_path_after_the_file_is_gone_and_a_whole_record_file(tmp_path: Path) -> None:
    from tests.fixtures.cli import clear_tenant, server_env

    env = server_env("e2e_del_")
    corpus = write_corpus(tmp_path / "corpus")
    (corpus / "recs.jsonl").write_text('{"id": 1, "text": "Oslo is in Norway."}\n{"id": 2, "text": "Lima is in Peru."}\n')
    try:
        assert kmrag("ingest", str(corpus), env=env).returncode == 0
        listed = data_of(kmrag("sources", "--json", env=env))
        assert len(listed) == 5 and all(r["complete"] for r in listed)
        (corpus / "notes.txt").unlink()
        gone = kmrag("delete", str(corpus / "notes.txt"), "--json", env=env)  # the file is gone, its path names it
        assert gone.returncode == 0 and data_of(gone)[0]["found"]
        recs = data_of(kmrag("delete", str(corpus / "recs.jsonl"), "--json", env=env))
        assert sorted(r["source"].rsplit("#", 1)[1] for r in recs) == ["1", "2"]
        left = kmrag("sources", env=env).stdout
        assert "guide.md" in left and "notes.txt" not in left and "recs.jsonl" not in left
        nope = kmrag("delete", str(corpus / "never.md"), env=env)
        assert nope.returncode == 1 and "kmrag sources" in nope.stdout
    finally:
        clear_tenant(env)


def test_delete_all_removes_the_tenant_from_both_stores_and_leaves_others(tmp_path: Path) -> None:
    """A tenant removed as a whole leaves no row, answer, job or graph node behind; another tenant holding the
    same corpus is untouched; without --yes nothing goes."""
    if not os.environ.get("KMRAG_NEO4J_URI") or not os.environ.get("KMRAG_DATABASE_URL"):
        pytest.fail("start the services first: eval \"$(services/up.sh)\"", pytrace=False)
    from kmrag.config import load_settings
    from kmrag.stores import open_stores

    gone, kept = ("e2e_delall_" + uuid.uuid4().hex[:8] for _ in range(2))
    corpus = write_corpus(tmp_path / "corpus")
    envs = {t: {**os.environ, "KMRAG_TENANT": t} for t in (gone, kept)}
    try:
        for t in (gone, kept):
            res = kmrag("ingest", str(corpus), "--json", env=envs[t])
            assert res.returncode == 0, res.stderr
        asked = kmrag("ask", "What does the corpus say?", "--json", env=envs[gone])
        assert asked.returncode in (0, 1), asked.stderr
        assert kmrag("keys", "create", "--tenant", gone, "--name", "k", env=envs[gone]).returncode == 0
        with open_stores(load_settings(tenant=kept)) as s:
            before = (s.units.tenant_rows(kept), s.graph.counts(kept))
            held = s.units.tenant_rows(gone)
            with s.pool.connection() as conn:  # every table with a tenant column, not the command's own list
                tables = [r[0] for r in conn.execute(
                    "SELECT table_name FROM information_schema.columns WHERE column_name = 'tenant' "
                    "AND table_schema = current_schema()").fetchall()]
        assert held["kmrag_units"] and held["kmrag_answers"] == 1 and held["kmrag_jobs"] == 1
        assert held["kmrag_api_keys"] == 1 and "kmrag_units" in tables

        refused = kmrag("delete", "--all", env=envs[gone])
        assert refused.returncode == 2 and "add --yes" in refused.stderr and gone in refused.stderr
        listed = kmrag("delete", "--all", "--dry-run", "--json", env=envs[gone])
        assert listed.returncode == 0 and data_of(listed)["rows"] == held and not data_of(listed)["deleted"]
        both = kmrag("delete", "--all", "some-source", env=envs[gone])
        assert both.returncode == 2 and "not both" in both.stderr
        for args, said in ((("--all", "--purge", "--yes"), "adds nothing"), (("some-source", "--yes"), "confirms --all")):
            bad = kmrag("delete", *args, env=envs[gone])
            assert bad.returncode == 2 and said in bad.stderr, bad.stderr

        done = kmrag("delete", "--all", "--yes", "--json", env=envs[gone])
        assert done.returncode == 0, done.stdout + done.stderr
        assert data_of(done)["deleted"] and data_of(done)["rows"] == held
        with open_stores(load_settings(tenant=gone)) as s:
            assert not any(s.units.tenant_rows(gone).values())
            with s.pool.connection() as conn:
                for table in tables:  # a table the command forgot would keep the tenant's rows
                    n = conn.execute(f"SELECT count(*) FROM {table} WHERE tenant = %s", (gone,)).fetchone()[0]  # noqa: S608
                    assert n == 0, table
            assert not any(s.graph.counts(gone).model_dump(exclude={"units_by_type"}).values())
            with s.graph._driver.session(database=s.graph._database) as session:  # any node: answers too
                assert session.run("MATCH (n {tenant: $t}) RETURN count(n) AS n", t=gone).single()["n"] == 0
            assert (s.units.tenant_rows(kept), s.graph.counts(kept)) == before
        again = kmrag("delete", "--all", "--yes", env=envs[gone])
        assert again.returncode == 0 and "holds nothing" in again.stdout
    finally:
        for t in (gone, kept):
            with open_stores(load_settings(tenant=t)) as s:
                s.graph.clear_tenant(t)
                s.units.clear_tenant(t)
