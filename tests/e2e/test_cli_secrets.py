"""Passwords and API keys never leave kmrag: not in CLI output (human or --json), not in error messages,
not in `kmrag doctor`, not in the job records in PostgreSQL. Each run gets distinctive secret values, and
each is looked for, verbatim, in everything the run showed or stored."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from tests.fixtures.cli import clear_tenant, kmrag, server_env

pytestmark = pytest.mark.e2e

PG_SECRET = "S3cr3t-XYZ-123"
NEO_SECRET = "S3cr3t-NEO-456"
KEY_SECRET = "sk-S3cr3t-KEY-789"
SECRETS = (PG_SECRET, NEO_SECRET, KEY_SECRET)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again once the socket is


def assert_no_secret(*texts: str) -> None:
    for text in texts:
        for secret in SECRETS:
            assert secret not in text, f"{secret!r} leaked in:\n{text[:3000]}"


def run_all(env: dict[str, str], *commands: tuple[str, ...]) -> list[str]:
    """Each command, human and --json; everything it printed."""
    out = []
    for cmd in commands:
        for extra in ((), ("--json",)):
            res = kmrag(*cmd, *extra, env=env, timeout=300)
            out += [res.stdout, res.stderr]
    return out


@pytest.mark.parametrize("url", [
    f"postgresql://kmrag:{PG_SECRET}@127.0.0.1:{{port}}/kmrag",
    f"postgresql://kmrag:{PG_SECRET}@127.0.0.1:{{port}}/kmrag?password={PG_SECRET}",
    f"host=127.0.0.1 port={{port}} user=kmrag password={PG_SECRET} dbname=kmrag",
    f"postgresql://kmrag:{PG_SECRET}@127.0.0.1:notaport/kmrag",
])
def test_a_database_password_never_shows_when_postgresql_is_unreachable(url: str, tmp_path: Path) -> None:
    env = {**server_env("e2e_sec_"), "KMRAG_DATABASE_URL": url.format(port=closed_port()),
           "KMRAG_DATA_DIR": str(tmp_path / "data")}
    env.pop("KMRAG_NEO4J_URI")  # embedded graph: nothing else to fail first
    (tmp_path / "doc.md").write_text("# Doc\n\nParis is the capital of France.\n")
    outputs = run_all(env, ("doctor",), ("sources",), ("ingest", str(tmp_path / "doc.md")), ("ask", "What is Paris?"),
                      ("jobs",))
    assert any("PostgreSQL is not reachable" in o for o in outputs), outputs  # the runs did hit the failure
    assert_no_secret(*outputs)


def test_a_wrong_neo4j_password_and_one_in_the_uri_never_show(tmp_path: Path) -> None:
    base = server_env("e2e_sec_")
    # a user of its own: failed logins lock the user they name for a while, never the one other tests use
    wrong = {**base, "KMRAG_NEO4J_USER": "kmrag_no_such_user", "KMRAG_NEO4J_PASSWORD": NEO_SECRET}
    outputs = run_all(wrong, ("doctor",), ("sources",))
    assert any("refused the credentials" in o for o in outputs), outputs
    host = base["KMRAG_NEO4J_URI"].split("://", 1)[1]
    in_uri = {**base, "KMRAG_NEO4J_URI": f"bolt://kmrag_no_such_user:{NEO_SECRET}@{host}"}
    uri_out = run_all(in_uri, ("doctor",), ("sources",))
    assert any("cannot be used" in o for o in uri_out), uri_out
    assert_no_secret(*outputs, *uri_out)


def test_an_llm_key_never_shows_when_the_llm_is_unreachable(tmp_path: Path) -> None:
    port = closed_port()
    env = {**server_env("e2e_sec_"), "KMRAG_LLM_API_KEY": KEY_SECRET, "KMRAG_LLM_MODEL": "m",
           "KMRAG_LLM_BASE_URL": f"http://127.0.0.1:{port}/v1", "KMRAG_LLM_TIMEOUT": "5"}
    in_url = {**env, "KMRAG_LLM_BASE_URL": f"http://kmrag:{KEY_SECRET}@127.0.0.1:{port}/v1"}
    outputs = run_all(env, ("doctor",), ("ask", "What is Paris?", "--generator", "llm"))
    outputs += run_all(in_url, ("doctor",), ("ask", "What is Paris?", "--generator", "llm"))
    assert any("APIConnectionError" in o or "failed" in o for o in outputs), outputs
    assert_no_secret(*outputs)
    clear_tenant(env)
    clear_tenant(in_url)


def job_rows(env: dict[str, str]) -> list[str]:
    import psycopg

    with psycopg.connect(os.environ["KMRAG_DATABASE_URL"]) as conn:
        return [str(r) for r in conn.execute("SELECT * FROM kmrag_jobs WHERE tenant = %s", (env["KMRAG_TENANT"],))]


def test_a_job_run_with_secrets_set_keeps_them_out_of_its_record(tmp_path: Path) -> None:
    """A real ingest with an API key set and the LLM extractor pointing at a closed port (its documents fail
    with the endpoint's error), plus an input naming a URL with a password: the job rows hold neither."""
    env = {**server_env("e2e_sec_"), "KMRAG_LLM_API_KEY": KEY_SECRET, "KMRAG_LLM_MODEL": "m",
           "KMRAG_LLM_BASE_URL": f"http://kmrag:{KEY_SECRET}@127.0.0.1:{closed_port()}/v1",
           "KMRAG_EXTRACTOR": "llm", "KMRAG_LLM_TIMEOUT": "5"}
    (tmp_path / "doc.md").write_text("# Doc\n\nParis is the capital of France.\n")
    try:
        outputs = []
        for extra in ((), ("--json",)):
            res = kmrag("ingest", str(tmp_path / "doc.md"), f"https://u:{PG_SECRET}@example.invalid/x.md", *extra,
                        env=env, timeout=300)
            outputs += [res.stdout, res.stderr]
        rows = job_rows(env)
        assert rows, outputs  # the jobs were recorded
        jobs = run_all(env, ("jobs",))
        assert_no_secret(*outputs, *rows, *jobs)
    finally:
        clear_tenant(env)
