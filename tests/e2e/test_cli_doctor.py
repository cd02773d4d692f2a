"""The CLI as a user runs it, against the real services."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from kmrag.nlp import wordnet
from tests.fixtures.cli import data_of

pytestmark = pytest.mark.e2e


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kmrag.cli", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=300)


def test_init_then_doctor_reports_servers_and_versions() -> None:
    if not os.environ.get("KMRAG_NEO4J_URI") or not os.environ.get("KMRAG_DATABASE_URL"):
        pytest.fail("start the services first: eval \"$(services/up.sh)\"", pytrace=False)
    init = run("init")
    assert init.returncode == 0, init.stdout + init.stderr
    assert init.stdout.startswith("schema ready") and "'backend': 'neo4j'" in init.stdout
    assert "'pgvector':" in init.stdout
    init_json = data_of(run("init", "--json"))
    assert init_json["schema"]["schema_ok"] is True and "kmrag_units" in init_json["schema"]["tables"]
    res = run("doctor", "--json")
    assert res.returncode == 0, res.stdout + res.stderr
    report = data_of(res)
    checks = {c["name"]: c for c in report["checks"]}
    graph = checks["graph store"]["detail"]
    pg = checks["unit store (PostgreSQL+pgvector)"]["detail"]
    assert graph["backend"] == "neo4j" and graph["version"].startswith("5.26")
    assert pg["mode"] == "server" and int(pg["version"].split(".")[0]) >= 16 and pg["pgvector"]
    places = checks["country data"]
    assert places["ok"] and places["detail"]["countries"] > 200 and places["detail"]["cities"] > 20000
    wn = checks["WordNet"]  # optional; scripts/test.sh installs it: the doctor reports what the library finds
    assert wn["ok"] and wn["detail"]["found"] is wordnet.available()
    assert wn["detail"]["directory"] == (str(wordnet.directory()) if wordnet.available() else None)
    assert report["ok"] is True


def test_doctor_names_unreachable_services() -> None:
    res = run("doctor", "--json", env={"KMRAG_NEO4J_URI": "bolt://127.0.0.1:1",
                                       "KMRAG_DATABASE_URL": "postgresql://x:y@127.0.0.1:1/db"})
    assert res.returncode == 1, res.stdout + res.stderr
    assert data_of(res)["ok"] is False
    checks = {c["name"]: c for c in data_of(res)["checks"]}
    assert not checks["graph store"]["ok"] and "not reachable" in checks["graph store"]["detail"]["error"]
    assert checks["graph store"]["fix"]
    pg = checks["unit store (PostgreSQL+pgvector)"]
    assert not pg["ok"] and "***" in pg["detail"]["error"] and "y@" not in pg["detail"]["error"]


def test_doctor_before_the_first_ingest_is_not_a_failure(tmp_path: object) -> None:
    """A fresh embedded setup has no schema yet; the first ingest creates it, so that is not a problem."""
    env = {k: v for k, v in os.environ.items() if k not in ("KMRAG_NEO4J_URI", "KMRAG_DATABASE_URL")}
    env["KMRAG_DATA_DIR"] = str(tmp_path)
    try:
        res = subprocess.run([sys.executable, "-m", "kmrag.cli", "doctor", "--json"], capture_output=True, text=True,
                             env=env, timeout=300)
        assert res.returncode == 0, res.stdout + res.stderr
        pg = {c["name"]: c for c in data_of(res)["checks"]}["unit store (PostgreSQL+pgvector)"]
        assert pg["ok"] and pg["detail"]["mode"] == "embedded" and "not created yet" in pg["detail"]["schema"]
    finally:
        subprocess.run([sys.executable, "-m", "kmrag.cli", "services", "stop"], env=env, timeout=120)
