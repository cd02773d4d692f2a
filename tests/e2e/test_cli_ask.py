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


def test_demo_question_needs_the_distance_and_the_compensation_bands() -> None:
    env = server_env("e2e_ask_demo_")
    try:
        assert kmrag("demo", "--tenant", env["KMRAG_TENANT"], env=env).returncode == 0
        q = "How much compensation is a passenger denied boarding on the Delhi to Munich flight owed?"
        out = kmrag("ask", q, "--trace", "--json", env=env)
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        snippets = " ".join(u["snippet"] for u in data["units"])
        assert "5,900 km" in snippets  # the unit holding the distance
        assert "600 EUR" in snippets  # the unit holding the compensation bands
        assert data["trace"][0]["answer_type"] == "MONEY"
        human = kmrag("ask", q, "--trace", env=env).stdout
        assert "expand to neighbours holding a money" in human and "linked entities: " in human
        none = kmrag("ask", "What is the boiling point of liquid nitrogen in kelvin?", env=env)
        assert none.returncode == 0 and "Information not found in knowledge map" in none.stdout
    finally:
        clear_tenant(env)
