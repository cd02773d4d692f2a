"""`kmrag bench api`: a short run against a server it starts itself; no errors, a fixed PostgreSQL pool
(its size never asserted on speed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures.cli import clear_tenant, kmrag, kmrag_json, server_env
from tests.fixtures.docs import GUIDE_MD

pytestmark = pytest.mark.e2e


def test_bench_api_short_run(tmp_path: Path) -> None:
    env = server_env("apibench_")
    env.update(KMRAG_SERVER_POOL_SIZE="3", KMRAG_DATA_DIR=str(tmp_path / "data"))
    (tmp_path / "guide.md").write_text(GUIDE_MD, encoding="utf-8")
    try:
        kmrag_json("ingest", str(tmp_path / "guide.md"), env=env)
        r = kmrag("bench", "api", "--seconds", "3", "--concurrency", "1,2", "--question",
                  "Who designed the Eiffel Tower?", "--question", "What is the capital of France?", "--json", env=env,
                  timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr
        import json

        data = json.loads(r.stdout)["data"]
        assert data["started_server"] and [lv["concurrency"] for lv in data["levels"]] == [1, 2]
        for lv in data["levels"]:
            assert lv["errors"] == 0 and lv["requests"] > 0, lv
            assert lv["pool_before"]["pool_size"] == lv["pool_after"]["pool_size"] == 3, lv
            assert lv["pool_after"]["requests_waiting"] == 0, lv
        text = kmrag("bench", "api", "--seconds", "0", env=env)
        assert text.returncode == 2 and "--seconds" in text.stderr
    finally:
        clear_tenant(env)
