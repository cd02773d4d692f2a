"""The HTTP API as a client uses it: a real `kmrag serve` in a subprocess over the real services, httpx."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.fixtures.cli import clear_tenant, kmrag, kmrag_json, server_env
from tests.fixtures.docs import GUIDE_MD, NOTES_TXT
from tests.fixtures.server import RunningServer, free_port, start_server, wait_job

pytestmark = pytest.mark.e2e
PROBLEM_KEYS = {"type", "title", "status", "detail", "instance"}
SURE = ("confidence", "confidence_why", "evidence", "basis")  # how sure an answer is, and why
NOT_FOUND = "Information not found in knowledge map"
MAX_BODY = 300_000


def assert_problem(r: httpx.Response, status: int) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/problem+json"), r.headers
    body: dict[str, Any] = r.json()
    assert PROBLEM_KEYS <= set(body), body
    assert body["status"] == status and body["type"].startswith("https://") and body["detail"], body
    return body


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One server (API keys required), tenants A and B with a key each; A has the guide and notes ingested
    by upload, B the notes."""
    tmp = tmp_path_factory.mktemp("api")
    root = tmp / "root"
    (root / "kb").mkdir(parents=True)
    (root / "kb" / "notes.txt").write_text(NOTES_TXT, encoding="utf-8")
    (tmp / "outside.txt").write_text("Secret outside the root.", encoding="utf-8")
    env = server_env("api_")
    env.update(KMRAG_DATA_DIR=str(tmp / "data"), KMRAG_SERVER_INGEST_ROOT=str(root),
               KMRAG_SERVER_MAX_BODY_BYTES=str(MAX_BODY), KMRAG_SERVER_POOL_SIZE="4")
    a, b = "apiA_" + uuid.uuid4().hex[:8], "apiB_" + uuid.uuid4().hex[:8]
    env_a, env_b = {**env, "KMRAG_TENANT": a}, {**env, "KMRAG_TENANT": b}
    key_a = kmrag_json("keys", "create", "--tenant", a, "--name", "tests", env=env)["key"]
    key_b = kmrag_json("keys", "create", "--tenant", b, env=env)["key"]
    server = start_server(env, tmp / "logs")
    try:
        ca, cb = server.client(key_a), server.client(key_b)
        r = ca.post("/v1/ingest", files=[("files", ("guide.md", GUIDE_MD.encode(), "text/markdown")),
                                          ("files", ("notes.txt", NOTES_TXT.encode(), "text/plain"))])
        assert r.status_code == 202, r.text
        job_a = wait_job(ca, r.json()["id"])
        r = cb.post("/v1/ingest", json={"paths": ["kb/notes.txt"]})
        assert r.status_code == 202, r.text
        job_b = wait_job(cb, r.json()["id"])
        yield {"server": server, "env": env, "a": a, "b": b, "key_a": key_a, "key_b": key_b, "ca": ca, "cb": cb,
               "job_a": job_a, "job_b": job_b, "tmp": tmp}
        ca.close()
        cb.close()
    finally:
        server.stop()
        for e in (env_a, env_b):
            clear_tenant(e)


def test_upload_job_ask_audit_unit_entities_delete(api: dict[str, Any]) -> None:
    ca = api["ca"]
    job = api["job_a"]
    assert job["status"] == "completed", job
    assert job["counts"]["documents_new"] == 2 and job["errors"] == [] and job["skipped"] == []
    assert job["progress"]["documents"] == {"done": 2, "total": 2}, job["progress"]
    assert job["inputs"] == ["(upload)"] and api["job_b"]["inputs"] == ["kb/notes.txt"]
    assert job["progress"]["write"]["done"] == job["progress"]["write"]["total"] > 0
    listed = ca.get("/v1/jobs").json()
    assert [j["id"] for j in listed] == [job["id"]]
    sources = {s["source"]: s for s in ca.get("/v1/sources").json()}
    assert set(sources) == {"guide.md", "notes.txt"} and all(s["complete"] for s in sources.values())

    r = ca.post("/v1/ask", json={"question": "Who designed the Eiffel Tower?", "generator": "extractive"})
    assert r.status_code == 200, r.text
    ans = r.json()
    assert ans["found"] and "Gustave Eiffel" in ans["text"] and ans["trace"] is None
    # how sure, why, and how the direct answer was read: a span of a cited unit
    assert 0.0 < ans["confidence"] <= 1.0 and ans["confidence_why"] and ans["evidence"] == []
    assert ans["basis"]["kind"] == "span" and ans["direct"] in ans["basis"]["quote"], ans["basis"]
    assert ans["basis"]["unit_id"] in {c["unit_id"] for c in ans["citations"]}
    assert ans["citations"] and ans["units"] and ans["units"][0]["rank"] == 1
    c = ans["citations"][0]
    assert c["source_id"] == "guide.md" and c["unit_id"] in {u["id"] for u in ans["units"]}
    unit = ca.get(f"/v1/units/{c['unit_id']}").json()
    assert unit["content"][c["start"]:c["end"]] == c["quote"] and unit["source_id"] == "guide.md"
    assert any(e["name"] == "Gustave Eiffel" for e in unit["entities"]), unit["entities"]

    traced = ca.post("/v1/ask", json={"question": "Who designed the Eiffel Tower?", "trace": True}).json()
    assert {s["step"] for s in traced["trace"]} >= {"retrieve", "grade_units", "generate", "done"}

    audit = ca.get(f"/v1/answers/{ans['id']}").json()
    assert audit["answer"]["id"] == ans["id"] and audit["all_current"] is True
    assert audit["citations"][0]["unit_id"] == c["unit_id"] and audit["citations"][0]["quote_in_unit"]
    assert "trace" not in audit["answer"] and "tenant" not in audit["answer"]
    listed = {x["id"]: x for x in ca.get("/v1/answers").json()}
    for stored in (audit["answer"], listed[ans["id"]]):  # a stored answer reads them back
        assert stored["found"] is True and "trace" not in stored
        assert {k: stored[k] for k in SURE} == {k: ans[k] for k in SURE}, stored

    hits = ca.get("/v1/entities", params={"q": "eiffel"}).json()
    assert {"Gustave Eiffel", "Eiffel Tower"} <= {h["name"] for h in hits}
    ent = ca.get("/v1/entities/Gustave Eiffel").json()
    assert ent["id"].startswith("e_") and any(u["id"] == c["unit_id"] for u in ent["units"])
    assert ca.get(f"/v1/entities/{ent['id']}").json()["name"] == "Gustave Eiffel"

    # the source of the cited unit goes; the answer stays auditable, its evidence retired
    r = ca.delete("/v1/sources/guide.md")
    assert r.status_code == 200 and r.json()["found"] and r.json()["unit_rows"] > 0, r.text
    assert [s["source"] for s in ca.get("/v1/sources").json()] == ["notes.txt"]
    audit = ca.get(f"/v1/answers/{ans['id']}").json()
    assert audit["all_current"] is False and audit["citations"][0]["status"] == "retired"
    assert ca.delete("/v1/sources", params={"id": "no/such.md"}).status_code == 404


def test_a_question_of_two_parts_answers_each_and_is_audited_as_one(api: dict[str, Any]) -> None:
    ca = api["ca"]
    ans = ca.post("/v1/ask", json={"question": "Where was Marie Curie born and what is the capital of Poland?",
                                   "generator": "extractive", "trace": True}).json()
    done = ans["trace"][-1]
    assert ans["trace"][0]["step"] == "parts" and done["step"] == "done"
    assert [p["question"] for p in done["parts"]] == ["Where was Marie Curie born?", "What is the capital of Poland?"]
    assert [p["direct"] for p in done["parts"]] == ["Warsaw", "Warsaw"]
    assert ans["basis"] == ({"kind": "parts", "parts": ans["basis"]["parts"]} if ans["found"] else None)
    # the ranked units are every part's; what is cited or shown is among them
    shown = {u for s in ans["statements"] or ans["evidence"] for u in s["unit_ids"]}
    assert shown and shown <= {u["id"] for u in ans["units"]}
    audit = ca.get(f"/v1/answers/{ans['id']}").json()
    assert audit["answer"]["question"] == "Where was Marie Curie born and what is the capital of Poland?"
    assert {k: audit["answer"][k] for k in SURE} == {k: ans[k] for k in SURE}


def test_not_found_says_how_sure_and_shows_the_best_evidence(api: dict[str, Any]) -> None:
    """A question the corpus cannot answer is not found: nothing retrieved, confidence 0; something retrieved
    but below KMRAG_MIN_CONFIDENCE, its statements come back as evidence (cited), never as the answer."""
    ca = api["ca"]
    none = ca.post("/v1/ask", json={"question": "What is the boiling point of mercury?"}).json()
    assert not none["found"] and none["text"] == NOT_FOUND and none["statements"] == [], none
    assert none["confidence"] == 0.0 and none["confidence_why"] and none["evidence"] == [] and none["basis"] is None

    # the same tenant, through a server whose threshold no answer of this corpus reaches
    env = {**api["env"], "KMRAG_MIN_CONFIDENCE": "0.99", "KMRAG_DATA_DIR": str(api["tmp"] / "strict-data")}
    server = start_server(env, api["tmp"] / "strict-logs")
    try:
        with server.client(api["key_a"]) as c:
            r = c.post("/v1/ask", json={"question": "When did Marie Curie die?", "trace": True})
            assert r.status_code == 200, r.text
            ans = r.json()
            assert not ans["found"] and ans["text"] == NOT_FOUND and ans["statements"] == [], ans
            assert ans["direct"] is None and ans["basis"] is None
            assert 0.0 < ans["confidence"] < 0.99 and ans["confidence_why"], ans
            step = next(s for s in ans["trace"] if s["step"] == "confidence")
            assert step["threshold"] == 0.99 and step["p"] == ans["confidence"] and ans["confidence_why"].endswith(step["why"])
            assert "is below the threshold (" in ans["confidence_why"] and "< 0.99)" in ans["confidence_why"]
            assert ans["evidence"] and all(e["text"] and e["unit_ids"] for e in ans["evidence"]), ans["evidence"]
            cited = {x["unit_id"] for x in ans["citations"]}
            assert {u for e in ans["evidence"] for u in e["unit_ids"]} <= cited  # the evidence's citations
            assert any("Marie Curie" in e["text"] for e in ans["evidence"]), ans["evidence"]
            audit = c.get(f"/v1/answers/{ans['id']}").json()
            assert audit["answer"]["found"] is False and audit["answer"]["text"] == NOT_FOUND
            assert {k: audit["answer"][k] for k in SURE} == {k: ans[k] for k in SURE}, audit["answer"]
            assert {x["unit_id"] for x in audit["citations"]} == cited
    finally:
        server.stop()


def test_problem_details(api: dict[str, Any]) -> None:
    server: RunningServer = api["server"]
    with server.client() as anon:
        body = assert_problem(anon.get("/v1/answers"), 401)
        assert body["instance"] == "/v1/answers"
        assert_problem(anon.get("/v1/jobs", headers={"X-API-Key": "kmrag_000000000000_" + "x" * 43}), 401)
        assert_problem(anon.get("/v1/jobs", headers={"Authorization": "Bearer nonsense"}), 401)
        assert anon.get("/v1/health").status_code == 200  # no key needed
    ca = api["ca"]
    assert_problem(ca.get("/v1/answers/a_0000000000000000"), 404)
    assert_problem(ca.get("/v1/units/u_0000000000000000"), 404)
    assert_problem(ca.get("/v1/jobs/j_000000000000"), 404)
    assert_problem(ca.get("/v1/entities/No Such Entity Anywhere"), 404)
    assert_problem(ca.get("/v1/nothing-here"), 404)
    body = assert_problem(ca.post("/v1/ask", json={"questio": "typo"}), 422)
    assert any(e["loc"][-1] == "question" for e in body["errors"])
    assert_problem(ca.post("/v1/ask", json={"question": "   "}), 422)
    assert_problem(ca.post("/v1/ask", json={"question": "x", "k": 0}), 422)
    assert_problem(ca.get("/v1/entities"), 422)
    big = b"word " * (MAX_BODY // 5 + 10)
    assert_problem(ca.post("/v1/ingest", files=[("files", ("big.txt", big, "text/plain"))]), 413)
    assert_problem(ca.post("/v1/ingest", content=b"x", headers={"content-type": "text/plain"}), 415)

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit is counted as the body streams in
        yield b'{"question": "'
        for _ in range(MAX_BODY // 10_000 + 2):
            yield b"a" * 10_000
        yield b'"}'

    assert_problem(ca.post("/v1/ask", content=chunks(), headers={"content-type": "application/json"}), 413)


def test_paths_under_the_ingest_root_only(api: dict[str, Any]) -> None:
    ca, tmp = api["ca"], api["tmp"]
    job_b = api["job_b"]
    assert job_b["status"] == "completed" and job_b["counts"]["documents_new"] == 1, job_b
    assert [s["source"] for s in api["cb"].get("/v1/sources").json()] == ["kb/notes.txt"]
    for bad in (str(tmp / "outside.txt"), "../outside.txt", "kb/../../outside.txt"):
        assert_problem(ca.post("/v1/ingest", json={"paths": [bad]}), 403)
    (tmp / "root" / "escape").symlink_to(tmp / "outside.txt")
    assert_problem(ca.post("/v1/ingest", json={"paths": ["escape"]}), 403)
    assert_problem(ca.post("/v1/ingest", json={"paths": ["kb/missing.txt"]}), 404)
    assert_problem(ca.post("/v1/ingest", json={"paths": []}), 422)


def test_tenants_see_only_their_own(api: dict[str, Any]) -> None:
    ca, cb = api["ca"], api["cb"]
    ans = ca.post("/v1/ask", json={"question": "Where was Marie Curie born?"}).json()
    assert ans["found"], ans
    unit_id = ans["citations"][0]["unit_id"]
    for path in (f"/v1/answers/{ans['id']}", f"/v1/units/{unit_id}", f"/v1/jobs/{api['job_a']['id']}",
                 f"/v1/entities/{_entity_id(ca, 'Marie Curie')}"):
        assert_problem(cb.get(path), 404)
    assert ans["id"] not in [x["id"] for x in cb.get("/v1/answers").json()]
    assert api["job_a"]["id"] not in [j["id"] for j in cb.get("/v1/jobs").json()]
    assert_problem(cb.delete("/v1/sources/notes.txt"), 404)  # A's source, not B's
    assert "notes.txt" in [s["source"] for s in ca.get("/v1/sources").json()]
    # a tenant in the request is ignored: the key decides
    r = cb.post("/v1/ingest", files=[("files", ("mine.txt", b"Oslo is the capital of Norway.", "text/plain"))],
                params={"tenant": api["a"]}, headers={"X-Tenant": api["a"]})
    assert wait_job(cb, r.json()["id"])["status"] == "completed"
    assert "mine.txt" not in [s["source"] for s in ca.get("/v1/sources").json()]
    assert "mine.txt" in [s["source"] for s in cb.get("/v1/sources").json()]


def _entity_id(client: httpx.Client, name: str) -> str:
    hits = client.get("/v1/entities", params={"q": name}).json()
    return str(next(h["id"] for h in hits if h["name"] == name))


def test_revoked_key_stops_at_once(api: dict[str, Any]) -> None:
    env, a, server = api["env"], api["a"], api["server"]
    made = kmrag_json("keys", "create", "--tenant", a, "--name", "short-lived", env=env)
    key, key_id = made["key"], made["id"]
    assert key.startswith(f"kmrag_{key_id}_")
    with server.client(key) as c:
        assert c.get("/v1/answers").status_code == 200
        listed = {k["id"]: k for k in kmrag_json("keys", "list", "--tenant", a, env=env)}
        assert listed[key_id]["last_used_at"] and not listed[key_id]["revoked"]
        assert all("key" not in k and "secret_hash" not in k for k in listed.values())
        assert key not in json.dumps(listed)
        kmrag_json("keys", "revoke", key_id, "--tenant", a, env=env)
        body = assert_problem(c.get("/v1/answers"), 401)
        assert "revoked" in body["detail"]
    # another tenant cannot revoke A's key
    assert kmrag("keys", "revoke", api["key_a"].split("_")[1], "--tenant", api["b"], "--json", env=env).returncode == 1
    assert api["ca"].get("/v1/answers").status_code == 200


def test_ask_stream_yields_steps_then_the_answer(api: dict[str, Any]) -> None:
    events: list[tuple[str, Any]] = []
    with api["ca"].stream("POST", "/v1/ask/stream", json={"question": "Where was Marie Curie born?"}) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        kind = None
        for line in r.iter_lines():
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                events.append((str(kind), json.loads(line[6:])))
    kinds = [k for k, _ in events]
    assert kinds[-1] == "answer" and kinds.count("answer") == 1 and "error" not in kinds
    steps = [d for k, d in events if k == "step"]
    assert [s["step"] for s in steps][:2] == ["analyse", "retrieve"] and steps[0]["phase"] == "retrieval"
    assert {"grade_units", "generate", "done"} <= {s["step"] for s in steps if s["phase"] == "answer"}
    answer = events[-1][1]
    assert answer["found"] and "Warsaw" in answer["text"] and answer["citations"]
    with api["ca"].stream("GET", "/v1/ask/stream", params={"question": ""}) as r:
        assert r.status_code == 422


def test_health_503_and_insecure_local(tmp_path: Path) -> None:
    r = kmrag("serve", "--insecure-local", "--host", "0.0.0.0", "--port", str(free_port()), "--json",
              env=server_env())
    assert r.returncode == 2 and json.loads(r.stdout)["error"]["type"] == "ConfigError", r.stdout + r.stderr
    env = server_env("api_")
    closed = free_port()
    env.update(KMRAG_DATABASE_URL=f"postgresql://kmrag:secret-pw-123@127.0.0.1:{closed}/kmrag",
               KMRAG_DATA_DIR=str(tmp_path / "data"))
    server = start_server(env, tmp_path / "logs", "--insecure-local", "--host", "localhost")
    try:
        with server.client() as c:
            body = assert_problem(c.get("/v1/health"), 503)
            assert set(body) == PROBLEM_KEYS and "/v1/status" in body["detail"]  # status only: no versions, no error
            body = assert_problem(c.get("/v1/status"), 503)  # the details (no key in --insecure-local)
            assert body["ok"] is False and body["kmrag"] and "secret-pw-123" not in json.dumps(body)
            assert_problem(c.get("/v1/answers"), 503)
    finally:
        server.stop()


def test_insecure_local_serves_its_tenant_and_ask_times_out(tmp_path: Path) -> None:
    env = server_env("api_")
    env.update(KMRAG_DATA_DIR=str(tmp_path / "data"), KMRAG_SERVER_ASK_TIMEOUT_S="0.01")
    server = start_server(env, tmp_path / "logs", "--insecure-local")
    try:
        with server.client() as c:
            r = c.post("/v1/ingest", files=[("files", ("notes.txt", NOTES_TXT.encode(), "text/plain"))])
            assert r.status_code == 202, r.text
            assert wait_job(c, r.json()["id"])["status"] == "completed"
            assert [s["source"] for s in c.get("/v1/sources").json()] == ["notes.txt"]
            body = assert_problem(c.post("/v1/ask", json={"question": "Where was Marie Curie born?"}), 504)
            assert "KMRAG_SERVER_ASK_TIMEOUT_S" in body["detail"] and body["reached"] in body["detail"]
        assert kmrag_json("sources", env=env)[0]["source"] == "notes.txt"  # the settings' tenant
    finally:
        server.stop()
        clear_tenant(env)


def test_health_says_status_and_status_reports_versions_behind_a_key(api: dict[str, Any]) -> None:
    assert httpx.get(api["server"].url + "/v1/health").json() == {"status": "ok"}  # no key, nothing more
    assert_problem(httpx.get(api["server"].url + "/v1/status"), 401)
    h = api["ca"].get("/v1/status").json()
    assert h["ok"] and h["graph"]["backend"] == "neo4j" and h["postgres"]["pgvector"]
    assert h["threads"] > 0 and h["asks_running"] >= 0
    assert h["pool"]["pool_max"] == 4 and h["pool"]["pool_size"] == 4
    assert os.environ["KMRAG_NEO4J_PASSWORD"] not in json.dumps(h)
    spec = httpx.get(api["server"].url + "/openapi.json").json()
    asked = spec["components"]["schemas"]["AskResponse"]["properties"]
    assert all(asked[k].get("description") for k in SURE), {k: asked[k] for k in SURE}
    assert {"/v1/ask", "/v1/ask/stream", "/v1/ingest", "/v1/jobs/{job_id}", "/v1/answers/{answer_id}",
            "/v1/sources/{source_id}", "/v1/health"} <= set(spec["paths"])
    assert httpx.get(api["server"].url + "/docs").status_code == 200


def test_job_lists_errors_and_skips_per_file(api: dict[str, Any]) -> None:
    ca = api["ca"]
    r = ca.post("/v1/ingest", files=[("files", ("empty.txt", b"", "text/plain")),
                                     ("files", ("photo.xyz", b"\x89PNG", "application/octet-stream")),
                                     ("files", ("../ok.md", b"# OK\n\nLisbon is the capital of Portugal.\n", "text/markdown"))])
    assert r.status_code == 202 and r.json()["status"] in ("queued", "running"), r.text
    job = wait_job(ca, r.json()["id"])
    assert job["status"] == "completed_with_errors", job
    assert [e["path"] for e in job["errors"]] == ["empty.txt"] and "empty" in job["errors"][0]["reason"]
    assert [e["path"] for e in job["skipped"]] == ["photo.xyz"] and job["inputs"] == ["(upload)"]
    assert str(api["tmp"]) not in json.dumps(job)  # the server's folders are not shown
    assert job["counts"]["documents_new"] == 1 and job["counts"]["documents_failed"] == 1
    assert "ok.md" in [s["source"] for s in ca.get("/v1/sources").json()]


def test_support_checks_each_item_against_the_keys_tenant(api: dict[str, Any]) -> None:
    ca, cb = api["ca"], api["cb"]
    ans = ca.post("/v1/ask", json={"question": "Where was Marie Curie born?", "generator": "extractive"}).json()
    uid = ans["citations"][0]["unit_id"]
    answers = len(ca.get("/v1/answers").json())
    unknown = "u_" + "0" * 16
    items: list[Any] = [
        {"statement": "Marie Curie was born in Warsaw.", "unit_ids": [uid]},
        {"statement": "Marie Curie was born in Berlin.", "unit_ids": [uid]},
        "not an object",
        {"statement": "Marie Curie was born in Warsaw.", "unit_ids": [uid, unknown]},
        {"statement": "Oslo is the capital of Norway.", "spans": ["Oslo is the capital of Norway."], "titles": []},
        {"statement": " ", "spans": ["x"]},
        {"statement": "x", "spans": ["y" * 20_001]},
    ]
    r = ca.post("/v1/support", json={"items": items})
    assert r.status_code == 200, r.text
    got = r.json()["results"]
    assert [x["index"] for x in got] == list(range(len(items)))
    assert got[0] == {"index": 0, "supported": True, "score": 1.0, "failed": None}
    assert got[1]["supported"] is False and "berlin" in got[1]["failed"].lower()
    assert got[2] == {"index": 2, "error": "items[2]: " + got[2]["error"].removeprefix("items[2]: ")}
    assert "not a JSON object (got string)" in got[2]["error"]
    assert got[3] == {"index": 3, "error": f"items[3]: unknown unit id in tenant {api['a']!r}: {unknown}"}
    assert got[4]["supported"] is True
    assert got[5]["error"] == "items[5]: statement is empty"
    assert "over the limit of 20,000 per span (KMRAG_SUPPORT_MAX_SPAN_CHARS)" in got[6]["error"]
    assert len(ca.get("/v1/answers").json()) == answers  # nothing stored

    # the key decides the tenant: A's unit is unknown to B
    r = cb.post("/v1/support", json={"items": items[:1]}, params={"tenant": api["a"]})
    assert r.json()["results"] == [{"index": 0, "error": f"items[0]: unknown unit id in tenant {api['b']!r}: {uid}"}]
    with api["server"].client() as anon:
        assert_problem(anon.post("/v1/support", json={"items": items[:1]}), 401)
    for body in ({"items": []}, {"items": [items[4]] * 101}, {"item": items[:1]}, {"items": items[0]}):
        assert_problem(ca.post("/v1/support", json=body), 422)
    assert_problem(ca.post("/v1/support", content=b"{not json", headers={"content-type": "application/json"}), 422)
    spec = httpx.get(api["server"].url + "/openapi.json").json()
    op = spec["paths"]["/v1/support"]["post"]
    assert op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/SupportResponse")
    assert "0-based `index`" in op["description"]


def test_a_nul_character_is_no_id_and_no_part_of_a_question(api: dict[str, Any]) -> None:
    """PostgreSQL text holds no NUL: a lookup by an id with one is a 404 (no such thing can exist), a question
    with one is read without it; never a 500."""
    ca = api["ca"]
    for path in ("/v1/answers/a_%00", "/v1/units/u_%00", "/v1/jobs/j_%00"):
        assert_problem(ca.get(path), 404)
    r = ca.post("/v1/ask", json={"question": "Where was Marie Curie\u0000 born?"})
    assert r.status_code == 200 and r.json()["question"] == "Where was Marie Curie born?", r.text
