"""`kmrag reembed` as a user runs it: a tenant made with one embedder refuses questions embedded with another,
naming the fix; reembed switches it; a second run has nothing to do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fixtures.cli import clear_tenant, data_of, kmrag, server_env
from tests.fixtures.docs import write_corpus

pytestmark = pytest.mark.e2e


def test_reembed_switches_the_tenant_and_questions_follow(tmp_path: Path) -> None:
    env = server_env("e2e_reembed_")
    minilm, bge = {**env, "KMRAG_EMBEDDER": "local"}, {**env, "KMRAG_EMBEDDER": "bge-small"}
    tenant = env["KMRAG_TENANT"]
    try:
        assert kmrag("ingest", str(write_corpus(tmp_path / "corpus")), env=minilm).returncode == 0
        refused = kmrag("ask", "Where was Marie Curie born?", "--json", env=bge)
        assert refused.returncode == 2
        err = json.loads(refused.stdout)["error"]
        assert err["type"] == "EmbedderMismatch" and f"kmrag reembed --tenant {tenant}" in err["message"]
        assert "all-MiniLM-L6-v2-onnx-int8" in err["message"] and "bge-small-en-v1.5-onnx-int8" in err["message"]

        done = data_of(kmrag("reembed", "--json", "--batch", "4", env=bge))
        assert done["switched"] and done["embedder_to"] == "bge-small-en-v1.5-onnx-int8"
        assert done["embedded"]["units"] == done["total"]["units"] > 0
        answer = data_of(kmrag("ask", "Where was Marie Curie born?", "--json", env=bge))
        assert answer["found"] and answer["direct"] == "Warsaw"
        assert kmrag("ask", "Where was Marie Curie born?", env=minilm).returncode == 2

        again = kmrag("reembed", "--embedder", "bge-small", env=minilm)
        assert again.returncode == 0 and "nothing to do" in again.stdout
    finally:
        clear_tenant(env)
