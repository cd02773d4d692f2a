"""The server's guards without a database: the keyless mode's Host and Origin rule, the per-key rate limit, the
ask deadline checked between controller steps, 500s that give an error id and no error text, the 405's Allow,
and the spec as configured (no llm generator without an LLM, no keys in keyless mode)."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kmrag.config import load_settings
from kmrag.errors import ConfigError, DeadlinePassed
from kmrag.retrieval.observe import Deadline, TraceLog, under
from kmrag.server.app import create_app
from kmrag.server.config import ServerSettings
from kmrag.server.guard import refusal
from kmrag.server.ratelimit import RateLimiter

pytestmark = pytest.mark.unit


def _h(host: str, origin: str | None = None) -> dict[bytes, bytes]:
    out = {b"host": host.encode()}
    if origin is not None:
        out[b"origin"] = origin.encode()
    return out


def test_keyless_mode_answers_its_loopback_host_and_own_origin_only() -> None:
    for ok in (_h("127.0.0.1:8000"), _h("localhost:8000"), _h("[::1]:8000"),
               _h("127.0.0.1:8000", "http://127.0.0.1:8000"), _h("localhost:8000", "http://localhost:8000")):
        assert refusal(ok, 8000) is None, ok
    rebound = refusal(_h("attacker.example:8000"), 8000)  # DNS rebinding: the page's own name in Host
    assert rebound and "attacker.example" in rebound
    assert refusal(_h("127.0.0.1:9999"), 8000)  # another port is another server
    for origin in ("http://attacker.example", "null", "https://127.0.0.1:8000", "http://127.0.0.1:9999"):
        assert refusal(_h("127.0.0.1:8000", origin), 8000), origin  # a cross-site form post carries its Origin
    assert refusal({}, 8000)  # no Host at all


def test_rate_limit_is_a_bucket_per_key_with_retry_after() -> None:
    now = [0.0]
    limiter = RateLimiter(3, clock=lambda: now[0])
    assert [limiter.take("a") for _ in range(3)] == [None, None, None]
    wait = limiter.take("a")
    assert wait is not None and 19.9 < wait <= 20.0 and RateLimiter.retry_after(wait) == "20"
    assert limiter.take("b") is None  # another key has its own bucket
    now[0] = 20.0
    assert limiter.take("a") is None and limiter.take("a") is not None  # one token back after 60/3 s


def test_controllers_stop_at_their_first_step_past_the_deadline() -> None:
    trace = TraceLog("retrieval")
    limit = Deadline.after(3600)
    with under(limit):
        trace.append({"step": "analyse"})
        assert limit.reached == "retrieval/analyse"
        limit.cancelled = True  # the server gave up waiting
        with pytest.raises(DeadlinePassed) as e:
            trace.append({"step": "retrieve"})
    assert e.value.reached == "retrieval/retrieve" and "retrieval/retrieve" in str(e.value)
    trace.append({"step": "done"})  # outside the block: no deadline
    with under(Deadline.after(-1)), pytest.raises(DeadlinePassed):
        TraceLog("answer").append({"step": "generate"})


def _app(**server: Any) -> Any:
    settings = load_settings(environ={"KMRAG_TENANT": "t_unit", "KMRAG_LLM_MODEL": ""})
    return create_app(settings, ServerSettings(**server))


def test_an_unexpected_error_gives_an_error_id_and_the_log_has_the_details(caplog: pytest.LogCaptureFixture) -> None:
    app = _app()

    @app.get("/boom", include_in_schema=False)
    def boom() -> None:
        raise RuntimeError("password=hunter2 at /srv/secret/path")

    with caplog.at_level(logging.ERROR, logger="kmrag.server"):
        r = TestClient(app, raise_server_exceptions=False).get("/boom")
    assert r.status_code == 500 and r.headers["content-type"].startswith("application/problem+json")
    body = r.json()
    assert body["error_id"].startswith("err_") and body["error_id"] in body["detail"]
    assert "hunter2" not in r.text and "secret" not in r.text and "RuntimeError" not in r.text
    logged = "\n".join(rec.getMessage() for rec in caplog.records)
    assert body["error_id"] in logged and "RuntimeError" in logged and "hunter2" not in logged


def test_method_not_allowed_lists_every_method_of_the_path() -> None:
    r = TestClient(_app()).request("OPTIONS", "/v1/sources")
    assert r.status_code == 405 and r.headers["allow"] == "DELETE, GET"


def test_the_spec_is_the_configured_server() -> None:
    spec = TestClient(_app()).get("/openapi.json").json()
    generator = spec["components"]["schemas"]["AskRequest"]["properties"]["generator"]
    enums = [x.get("enum") for x in generator["anyOf"] if "enum" in x]
    assert enums == [["auto", "extractive"]]  # no LLM configured: asking for one is outside the spec
    ask = spec["paths"]["/v1/ask"]["post"]["responses"]
    assert {"401", "403", "422", "429", "500", "503", "504"} <= set(ask)
    assert all(list(ask[s]["content"]) == ["application/problem+json"] for s in ask if s != "200")
    assert spec["components"]["securitySchemes"] and spec["paths"]["/v1/ask"]["post"]["security"]
    local = TestClient(_app(insecure_local=True)).get("/openapi.json", headers={"host": "127.0.0.1:8000"}).json()
    assert "securitySchemes" not in local.get("components", {})
    assert all("401" not in op["responses"] and "security" not in op for ops in local["paths"].values()
               for op in ops.values())


def test_cors_is_for_servers_with_keys() -> None:
    with pytest.raises(ConfigError, match="KMRAG_SERVER_CORS_ORIGINS"):
        _app(insecure_local=True, cors_origins=["http://app.example"])
