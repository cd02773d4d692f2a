"""`kmrag ask`, `kmrag audit`, `kmrag answers` and `kmrag demo` as a user runs them: a cited answer with
its ID and the Neo4j Browser query of its evidence, the ranked units on request, JSON for tools, the audit
of a stored answer, and clear errors for a question that is not one or an answer that does not exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.fixtures.cli import clear_tenant, data_of, kmrag, server_env
from tests.fixtures.docs import write_corpus

pytestmark = pytest.mark.e2e


def test_ask_answers_with_citations_and_the_audit_shows_them(tmp_path: Path) -> None:
    env = server_env("e2e_ask_")
    corpus = write_corpus(tmp_path / "corpus")
    try:
        assert kmrag("ingest", str(corpus), env=env).returncode == 0
        out = kmrag("ask", "Where was Marie Curie born?", "--json", env=env)
        assert out.returncode == 0, out.stderr
        data = data_of(out)
        assert data["found"] and data["direct"] == "Warsaw" and "trace" not in data
        cite = data["citations"][0]
        assert cite["quote"] == "Marie Curie was born in Warsaw." and cite["source_id"].endswith("notes.txt")
        assert data["text"] == f"Marie Curie was born in Warsaw. [{cite['unit_id']}]"
        assert data["browser"]["params"].startswith(":param {tenant: ") and "$tenant" in data["browser"]["query"]
        assert 0 < data["confidence"] <= 1 and data["confidence_why"] and data["evidence"] == []
        assert data["basis"] == {"kind": "span", "unit_id": cite["unit_id"], "quote": cite["quote"],
                                 "candidates": 1, "distance": data["basis"]["distance"], "relation_stated": True,
                                 "verb_said": True, "meaning": data["basis"]["meaning"]}, data["basis"]
        assert data["basis"]["meaning"] > 0.9  # the cross-encoder reads the sentence as the answer

        human = kmrag("ask", "Where was Marie Curie born?", "--trace", env=env)
        assert human.returncode == 0
        answer_id = re.search(r"answer (a_[0-9a-f]{16})", human.stdout).group(1)  # type: ignore[union-attr]
        assert "Answer: Warsaw" in human.stdout and f"[{cite['unit_id']}]" in human.stdout
        assert f"kmrag audit {answer_id}" in human.stdout and "MATCH (a:Answer {tenant: $tenant" in human.stdout
        assert "grade_units" in human.stdout and "grade_answer" in human.stdout

        aud = kmrag("audit", answer_id, env=env)
        assert aud.returncode == 0, aud.stderr
        assert "CURRENT" in aud.stdout and "“Marie Curie was born in Warsaw.”" in aud.stdout
        assert "notes.txt" in aud.stdout and "unit text:" in aud.stdout
        audj = data_of(kmrag("audit", answer_id, "--json", env=env))
        assert audj["all_current"] and audj["citations"][0]["status"] == "current"
        assert audj["answer"]["basis"] == data["basis"] and audj["answer"]["confidence_why"]  # stored, read back

        listed = data_of(kmrag("answers", "--json", env=env))
        assert [a["id"] for a in listed][:2] == [answer_id, data["id"]]

        missing = kmrag("audit", "a_0000000000000000", env=env)
        assert missing.returncode == 1 and "kmrag answers" in missing.stderr
        bad = kmrag("ask", "?!", env=env)
        assert bad.returncode == 2 and "no letters or digits" in bad.stderr
        none = kmrag("ask", "What is the boiling point of liquid nitrogen in kelvin?", env=env)
        assert none.returncode == 0 and "Information not found in knowledge map" in none.stdout
    finally:
        clear_tenant(env)


def test_units_only_ranks_units_and_shows_how_they_were_found(tmp_path: Path) -> None:
    env = server_env("e2e_ask_units_")
    corpus = write_corpus(tmp_path / "corpus")
    try:
        assert kmrag("ingest", str(corpus), env=env).returncode == 0
        out = kmrag("ask", "Where was Marie Curie born?", "--units-only", "--json", env=env)
        assert out.returncode == 0, out.stderr
        data = data_of(out)
        assert data["strategy"] == "multihop" and "trace" not in data
        top = data["units"][0]
        assert "Marie Curie was born in Warsaw" in top["snippet"] and top["source_id"].endswith("notes.txt")
        traced = data_of(kmrag("ask", "Where was Marie Curie born?", "--units-only", "--json", "--trace",
                                  env=env))
        steps = [s["step"] for s in traced["trace"]]
        assert steps[0] == "analyse" and steps[-1] == "done" and "judge" in steps
        assert traced["units"] == data["units"]  # the same question gives the same ranking
        human = kmrag("ask", "What is the capital of France?", "--units-only", "--strategy", "hybrid", "-k", "2",
                      "--trace", env=env)
        assert human.returncode == 0 and "Paris is the capital of France" in human.stdout
        assert " 1. [u_" in human.stdout and "trace:" in human.stdout
        assert data_of(kmrag("answers", "--json", env=env)) == []  # --units-only stores no answer
    finally:
        clear_tenant(env)


def test_demo_ends_with_the_cited_answer_and_its_audit() -> None:
    env = server_env("e2e_ask_demo_")
    try:
        out = kmrag("demo", "--tenant", env["KMRAG_TENANT"], env=env)
        assert out.returncode == 0, out.stderr
        tail = out.stdout.split("Now a question", 1)[1]
        assert "Answer: 600 EUR" in tail
        assert "“The great-circle distance between Delhi and Munich is about 5,900 km.”" in tail
        assert "(table row)" in tail and "“| more than 3500 km | 600 EUR |”" in tail
        assert "The audit of that answer" in tail and tail.count("CURRENT") == 2
        data = data_of(kmrag("demo", "--tenant", env["KMRAG_TENANT"], "--json", env=env))
        assert data["demo"]["answer"]["direct"] == "600 EUR" and len(data["demo"]["audit"]) == 2
    finally:
        clear_tenant(env)
