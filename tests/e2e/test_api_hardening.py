"""The service, hardened, as a client meets it: a real `kmrag serve` over the real services. A keyless server
refuses forged cross-site uploads and rebound Host names; CORS is a setting of keyed servers; a key's requests
are rate limited; an ask past its time stops at its next step and says which; key checks only read; and the
OpenAPI document tells the truth (Schemathesis, every check, both modes)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.test_api import assert_problem
from tests.fixtures.cli import clear_tenant, kmrag_json, server_env
from tests.fixtures.docs import NOTES_TXT
from tests.fixtures.server import RunningServer, start_server, wait_job

pytestmark = pytest.mark.e2e
ORIGIN = "http://app.example"


def _wait_for(what: str, ready: Callable[[], Any], timeout: float = 120.0) -> Any:
    """Poll until ``ready()`` gives something true (the event), failing after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not (got := ready()):
        assert time.monotonic() < deadline, f"{what}: not within {timeout} s"
        time.sleep(0.2)
    return got


def _keyless(tmp: Path, **env_extra: str) -> tuple[RunningServer, dict[str, str]]:
    env = server_env("hard_")
    env.update(KMRAG_DATA_DIR=str(tmp / "data"), **env_extra)
    return start_server(env, tmp / "logs", "--insecure-local"), env


def test_keyless_server_refuses_a_forged_cross_site_upload_and_a_rebound_host(tmp_path: Path) -> None:
    server, env = _keyless(tmp_path)
    port = server.url.rsplit(":", 1)[1]
    try:
        with server.client() as c:
            forged = c.post("/v1/ingest", files=[("files", ("planted.txt", NOTES_TXT.encode(), "text/plain"))],
                            headers={"Origin": "http://attacker.example"})  # a form post from another site
            assert "attacker.example" in assert_problem(forged, 403)["detail"]
            rebound = c.get("/v1/answers", headers={"Host": f"attacker.example:{port}"})  # DNS rebinding
            assert_problem(rebound, 403)
            assert c.get("/v1/sources").json() == [] and c.get("/v1/jobs").json() == []  # nothing was planted
            own = c.post("/v1/ingest", files=[("files", ("notes.txt", NOTES_TXT.encode(), "text/plain"))],
                         headers={"Origin": server.url})  # the server's own page
            assert own.status_code == 202 and wait_job(c, own.json()["id"])["status"] == "completed"
    finally:
        server.stop()
        clear_tenant(env)


def test_an_ask_past_its_time_stops_at_its_next_step_and_says_which(tmp_path: Path) -> None:
    server, env = _keyless(tmp_path, KMRAG_SERVER_ASK_TIMEOUT_S="0.05")
    try:
        with server.client() as c:
            r = c.post("/v1/ingest", files=[("files", ("notes.txt", NOTES_TXT.encode(), "text/plain"))])
            assert wait_job(c, r.json()["id"])["status"] == "completed"
            answers_before = len(c.get("/v1/answers").json())
            with ThreadPoolExecutor(6) as pool:
                got = list(pool.map(lambda _: c.post("/v1/ask", json={"question": "Where was Marie Curie born?"}),
                                    range(6)))
            for r in got:
                body = assert_problem(r, 504)
                assert body["reached"] and f"'{body['reached']}'" in body["detail"], body
            # the timed-out asks stop at their next step: none keeps running, none is stored as an answer
            _wait_for("the timed-out asks stopping", lambda: c.get("/v1/status").json()["asks_running"] == 0)
            assert len(c.get("/v1/answers").json()) == answers_before
    finally:
        server.stop()
        clear_tenant(env)


@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory) -> Any:
    tmp = tmp_path_factory.mktemp("keyed")
    env = server_env("hardk_")
    env.update(KMRAG_DATA_DIR=str(tmp / "data"), KMRAG_SERVER_CORS_ORIGINS=ORIGIN,
               KMRAG_SERVER_RATE_LIMIT_PER_MIN="3")
    keys = [kmrag_json("keys", "create", "--tenant", env["KMRAG_TENANT"], env=env) for _ in range(2)]
    server = start_server(env, tmp / "logs")
    try:
        yield server, env, keys
    finally:
        server.stop()
        clear_tenant(env)


def test_cors_answers_the_configured_origin_only(keyed: Any) -> None:
    server, _, _ = keyed
    preflight = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization"}
    ok = httpx.options(server.url + "/v1/ask", headers={"Origin": ORIGIN, **preflight})
    assert ok.status_code == 200 and ok.headers["access-control-allow-origin"] == ORIGIN
    other = httpx.options(server.url + "/v1/ask", headers={"Origin": "http://attacker.example", **preflight})
    assert "access-control-allow-origin" not in other.headers


def test_a_key_over_its_rate_limit_gets_429_with_retry_after(keyed: Any) -> None:
    server, _, keys = keyed
    with server.client(keys[0]["key"]) as a, server.client(keys[1]["key"]) as b:
        assert [a.get("/v1/sources").status_code for _ in range(3)] == [200, 200, 200]
        over = a.get("/v1/sources")
        body = assert_problem(over, 429)
        assert int(over.headers["retry-after"]) >= 1 and "KMRAG_SERVER_RATE_LIMIT_PER_MIN" in body["detail"]
        assert b.get("/v1/sources").status_code == 200  # another key has its own allowance


def test_key_checks_read_and_last_use_is_written_at_most_once_a_minute() -> None:
    from kmrag.config import load_settings
    from kmrag.server.keys import KeyStore
    from kmrag.stores import open_stores

    env = server_env("hardu_")
    with open_stores(load_settings(tenant=env["KMRAG_TENANT"], environ=env)) as s:
        keys = KeyStore(s.pool)
        key, record = keys.create(env["KMRAG_TENANT"])
        touched: dict[str, float] = {}
        old = datetime(2000, 1, 1, tzinfo=UTC)

        def last_used() -> datetime:
            with s.pool.connection() as conn:
                return conn.execute("SELECT last_used_at FROM kmrag_api_keys WHERE key_id = %s",
                                    (record.id,)).fetchone()[0]

        def set_last_used(when: datetime) -> None:
            with s.pool.connection() as conn:
                conn.execute("UPDATE kmrag_api_keys SET last_used_at = %s WHERE key_id = %s", (when, record.id))

        assert keys.authenticate(key, touched) == env["KMRAG_TENANT"] and last_used() > old  # first use written
        set_last_used(old)
        for _ in range(20):
            keys.authenticate(key, touched)
        assert last_used() == old  # within the minute: the checks only read
        touched[record.id] -= 61  # a minute later for this process
        keys.authenticate(key, touched)
        assert last_used() > old
        recent = datetime.now(UTC) - timedelta(seconds=10)
        set_last_used(recent)
        keys.authenticate(key, {})  # another process, fresh: the row was written 10 s ago, so it is left alone
        assert abs((last_used() - recent).total_seconds()) < 0.001
        with s.pool.connection() as conn:
            conn.execute("DELETE FROM kmrag_api_keys WHERE key_id = %s", (record.id,))


def _schemathesis(url: str, *headers: str, phases: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent / "schemathesis"
    args = [str(exe), "run", url + "/openapi.json", "--checks", "all", "-n", "10", "--seed", "20261202",
            "--phases", phases]
    for h in headers:
        args += ["-H", h]
    return subprocess.run(args, capture_output=True, text=True, timeout=900)


@pytest.mark.parametrize("mode", ["api-keys", "insecure-local"])
def test_the_openapi_document_tells_the_truth(tmp_path: Path, mode: str) -> None:
    env = server_env("hards_")
    env.update(KMRAG_DATA_DIR=str(tmp_path / "data"))
    headers: list[str] = []
    if mode == "api-keys":
        headers = [f"Authorization: Bearer {kmrag_json('keys', 'create', '--tenant', env['KMRAG_TENANT'], env=env)['key']}"]
    server = start_server(env, tmp_path / "logs", *(["--insecure-local"] if mode == "insecure-local" else []))
    try:
        # the bodies are fuzzed once, with keys; without them the same handlers answer, so the boundary cases of
        # the coverage phase and the stateful runs are enough there (the fuzzing phase is ~25 s on 2 cores)
        phases = "examples,coverage,fuzzing,stateful" if mode == "api-keys" else "examples,coverage,stateful"
        r = _schemathesis(server.url, *headers, phases=phases)
        assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]
        assert "failures" not in r.stdout.splitlines()[-1], r.stdout[-3000:]
    finally:
        server.stop()
        clear_tenant(env)

