"""`kmrag demo | ingest | jobs | delete` as a user runs them: on the embedded default and on the servers."""

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


@pytest.fixture
def embedded_env(tmp_path: Path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("KMRAG_")}
    env["KMRAG_DATA_DIR"] = str(tmp_path / "data")
    yield env
    kmrag("services", "stop", env=env)


def test_demo_on_embedded_default(embedded_env: dict[str, str]) -> None:
    res = kmrag("demo", env=embedded_env)
    assert res.returncode == 0, res.stderr
    assert "stores agree: True" in res.stdout and "-[CAPITAL_OF]->" in res.stdout
    again = kmrag("demo", "--json", env=embedded_env)
    data = data_of(again)
    assert data["job"]["counts"]["documents_unchanged"] == 3 and data["units"]["units"] > 10
    assert data["graph"]["relations"] > 0 and data["agreement"]["agree"]


def test_ingest_jobs_delete_on_servers(tmp_path: Path) -> None:
    if not os.environ.get("KMRAG_NEO4J_URI") or not os.environ.get("KMRAG_DATABASE_URL"):
        pytest.fail("start the services first: eval \"$(services/up.sh)\"", pytrace=False)
    env = {**os.environ, "KMRAG_TENANT": "e2e_" + uuid.uuid4().hex[:8]}
    corpus = write_corpus(tmp_path / "corpus")
    (corpus / "empty.md").write_bytes(b"")
    try:
        res = kmrag("ingest", str(corpus), "--json", env=env)
        assert res.returncode == 1, res.stderr  # the empty file failed; the rest is stored
        out = data_of(res)
        job = out["job"]
        assert job["status"] == "completed_with_errors" and job["counts"]["documents_new"] == 3
        assert job["errors"] == [{"path": str(corpus / "empty.md"), "reason": "empty file (0 bytes)"}]
        assert "MATCH (s:Source" in out["browse"]
        listed = data_of(kmrag("jobs", "--json", env=env))
        assert listed[0]["id"] == job["id"]
        shown = data_of(kmrag("jobs", "show", job["id"], "--json", env=env))
        assert shown["counts"]["units_written"] == out["units"]["units"]
        human = kmrag("jobs", "show", job["id"], env=env).stdout  # for a person, not JSON
        assert human.startswith(job["id"]) and "inputs: " in human and "counts: " in human and "{" not in human
        assert kmrag("jobs", "show", "j_nope", env=env).returncode == 1  # nothing found
        gone = kmrag("delete", (corpus / "notes.txt").resolve().as_posix(), "--json", env=env)
        assert gone.returncode == 0 and data_of(gone)[0]["graph_units_removed"] > 0
        assert kmrag("delete", (corpus / "never.txt").resolve().as_posix(), env=env).returncode == 1
        human = kmrag("ingest", str(corpus), env=env)
        assert "updated=0" in human.stdout and "new=1" in human.stdout  # only the deleted file comes back
    finally:
        from kmrag.config import load_settings
        from kmrag.stores import open_stores

        with open_stores(load_settings(tenant=env["KMRAG_TENANT"])) as s:
            s.graph.clear_tenant(env["KMRAG_TENANT"])
            s.units.clear_tenant(env["KMRAG_TENANT"])


def test_entity_merges_audit_and_unmerge_then_purge(tmp_path: Path) -> None:
    if not os.environ.get("KMRAG_NEO4J_URI") or not os.environ.get("KMRAG_DATABASE_URL"):
        pytest.fail("start the services first: eval \"$(services/up.sh)\"", pytrace=False)
    env = {**os.environ, "KMRAG_TENANT": "e2e_" + uuid.uuid4().hex[:8]}
    corpus = tmp_path / "eu"
    corpus.mkdir()
    (corpus / "eu.md").write_text("The European Union (EU) is a union of states. The EU has a parliament.\n")
    try:
        assert kmrag("ingest", str(corpus), env=env).returncode == 0
        merges = data_of(kmrag("entities", "merges", "--json", env=env))
        eu = next(m for m in merges if m["alias"] == "EU")
        assert eu["entity_name"] == "European Union" and eu["method"] in ("alias", "acronym") and not eu["undone_at"]
        res = kmrag("entities", "unmerge", "--entity", eu["entity_id"], "--alias", "EU", "--json", env=env)
        assert res.returncode == 0 and data_of(res)["alias_removed"] is True
        again = data_of(kmrag("entities", "--json", env=env))
        assert next(m for m in again if m["alias"] == "EU")["undone_at"]
        twice = kmrag("entities", "unmerge", "--entity", eu["entity_id"], "--alias", "EU", env=env)
        assert twice.returncode == 2 and "already undone" in twice.stderr
        # re-ingesting the changed source resolves "EU" to its own entity now
        (corpus / "eu.md").write_text("The EU has a parliament. The European Union (EU) is a union of states.\n")
        out = data_of(kmrag("ingest", str(corpus), "--json", env=env))
        assert out["job"]["counts"]["documents_updated"] == 1
        from kmrag.config import load_settings
        from kmrag.stores import open_stores

        with open_stores(load_settings(tenant=env["KMRAG_TENANT"])) as s:
            names = {e.name: e for e in s.graph.all_entities(env["KMRAG_TENANT"])}
            assert "EU" in names and "EU" not in names["European Union"].aliases
        purged = data_of(kmrag("delete", (corpus / "eu.md").resolve().as_posix(), "--purge", "--json", env=env))
        assert purged[0]["purged"] and purged[0]["unit_rows"] > 0
        with open_stores(load_settings(tenant=env["KMRAG_TENANT"])) as s:
            assert s.units.unit_ids(env["KMRAG_TENANT"], include_retired=True) == set()
    finally:
        from kmrag.config import load_settings
        from kmrag.stores import open_stores

        with open_stores(load_settings(tenant=env["KMRAG_TENANT"])) as s:
            s.graph.clear_tenant(env["KMRAG_TENANT"])
            s.units.clear_tenant(env["KMRAG_TENANT"])
