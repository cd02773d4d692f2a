"""`kmrag ask` as a user runs it: ranked units with their source and a snippet, the trace on request,
JSON for tools, and a clear error for a question that is not one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fixtures.cli import clear_tenant, kmrag, server_env
from tests.fixtures.docs import write_corpus

pytestmark = pytest.mark.e2e


def test_ask_ranks_units_and_shows_how_they_were_found(tmp_path: Path) -> None:
    env = server_env("e2e_ask_")
    corpus = write_corpus(tmp_path / "corpus")
    try:
        assert kmrag("ingest", str(corpus), env=env).returncode == 0
        out = kmrag("ask", "Where was Marie Curie born?", "--json", env=env)
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        assert data["strategy"] == "multihop" and "trace" not in data
        top = data["units"][0]
        assert "Marie Curie was born in Warsaw" in top["snippet"] and top["source_id"].endswith("notes.txt")
        assert top["id"].startswith("u_") and top["rank"] == 1
        traced = json.loads(kmrag("ask", "Where was Marie Curie born?", "--json", "--trace", env=env).stdout)
        steps = [s["step"] for s in traced["trace"]]
        assert steps[0] == "analyse" and steps[-1] == "done" and "judge" in steps
        assert traced["units"] == data["units"]  # the same question gives the same ranking
        human = kmrag("ask", "What is the capital of France?", "--strategy", "hybrid", "-k", "2", "--trace", env=env)
        assert human.returncode == 0 and "Paris is the capital of France" in human.stdout
        assert " 1. [u_" in human.stdout and "trace:" in human.stdout
        bad = kmrag("ask", "?!", env=env)
        assert bad.returncode == 2 and "no letters or digits" in bad.stderr
    finally:
        clear_tenant(env)
