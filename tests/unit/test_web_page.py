"""The web page's server side: what it tells the page (tenant mode, Neo4j Browser), served safely."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from kmrag.config import Settings
from kmrag.server.api_v1 import trace_paths
from kmrag.server.app import create_app
from kmrag.server.config import ServerSettings, load_server_settings
from kmrag.server.web import _json_in_html, neo4j_browser

pytestmark = pytest.mark.unit


def test_neo4j_browser_address() -> None:
    assert neo4j_browser(Settings(neo4j_uri=None), ServerSettings()) is None  # embedded graph: no button
    got = neo4j_browser(Settings(neo4j_uri="neo4j://user:pw@graph.example:7687"), ServerSettings())
    assert got == {"url": "http://graph.example:7474/browser/", "bolt": "neo4j://graph.example:7687"}
    server = load_server_settings({"KMRAG_NEO4J_BROWSER_URL": "https://browser.example/b/"})
    assert neo4j_browser(Settings(neo4j_uri="bolt://127.0.0.1:7687"), server)["url"] == "https://browser.example/b/"


def test_config_json_cannot_close_its_element() -> None:
    text = _json_in_html({"tenant": "</script><img src=x onerror=alert(1)>&"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text)["tenant"] == "</script><img src=x onerror=alert(1)>&"


def test_page_and_static_files() -> None:
    app = create_app(Settings(neo4j_uri="bolt://127.0.0.1:7687"), ServerSettings())
    client = TestClient(app)  # no lifespan: the page needs no store
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in r.headers["content-security-policy"]
    config = json.loads(re.search(r'id="kmrag-config">(.*?)</script>', r.text, re.S).group(1))  # type: ignore[union-attr]
    assert config["tenant_mode"] == "api-keys" and config["tenant"] is None
    assert config["neo4j_browser"]["url"] == "http://127.0.0.1:7474/browser/"
    assert "<script>" not in r.text.replace('<script type="application/json"', "").replace("<script src=", "")
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    local = TestClient(create_app(Settings(neo4j_uri=None, tenant="t1"), ServerSettings(insecure_local=True)))
    config = json.loads(re.search(r'id="kmrag-config">(.*?)</script>', local.get("/", headers={"host": "127.0.0.1:8000"}).text, re.S).group(1))  # type: ignore[union-attr]
    assert config == {**config, "tenant_mode": "insecure-local", "tenant": "t1", "neo4j_browser": None}
    assert local.get("/").status_code == 403  # keyless: a request not naming the loopback host is refused


def test_trace_paths_each_once_from_retrieve_steps() -> None:
    p = {"hops": [{"subject": "A", "predicate": "R", "object": "B", "unit_ids": ["u_1"]}]}
    q = {"hops": [{"subject": "B", "predicate": "S", "object": "C", "unit_ids": ["u_2"]}]}
    trace = [{"step": "retrieve", "paths": [p, q]}, {"step": "generate", "paths": [{"hops": []}]},
             {"step": "retrieve", "paths": [q]}, {"step": "retrieve"}]
    assert trace_paths(trace) == [p, q]


def test_openapi_declares_how_sure_evidence_and_basis() -> None:
    from kmrag.schema import Answer
    from kmrag.server.models import AskResponse, StoredAnswerOut

    # every field of a stored answer reaches the API (the response models would drop an undeclared one)
    assert set(Answer.model_fields) - {"tenant"} <= set(StoredAnswerOut.model_fields)
    assert set(Answer.model_fields) - {"tenant"} <= set(AskResponse.model_fields)
    spec = TestClient(create_app(Settings(neo4j_uri=None), ServerSettings())).get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    for name in ("AskResponse", "StoredAnswerOut"):
        props = schemas[name]["properties"]
        for field in ("confidence", "confidence_why", "evidence", "basis"):
            assert props[field].get("description"), (name, field)
        assert "KMRAG_MIN_CONFIDENCE" in props["confidence"]["description"]
    assert {"kind", "rule", "entities", "unit_id", "quote"} <= set(schemas["BasisOut"]["properties"])
    ok = spec["paths"]["/v1/answers/{answer_id}"]["get"]["responses"]["200"]["content"]["application/json"]
    assert ok["schema"]["$ref"].endswith("/AnswerAuditOut")
    listed = spec["paths"]["/v1/answers"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert listed["items"]["$ref"].endswith("/StoredAnswerOut")
    page = TestClient(create_app(Settings(neo4j_uri=None, min_confidence=0.6), ServerSettings())).get("/").text
    assert json.loads(re.search(r'id="kmrag-config">(.*?)</script>', page, re.S).group(1))["min_confidence"] == 0.6  # type: ignore[union-attr]
