"""The server's files, hardened (issue 22): the folder walk kept inside the ingest root, ingest roots per key,
uploads purged with their source, kept for a number of days, held to a quota per tenant; no Neo4j Browser
link on the embedded graph store. A real `kmrag serve` in a subprocess over the real services, httpx."""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.test_api import assert_problem
from tests.fixtures.cli import clear_tenant, error_of, kmrag, kmrag_json, server_env
from tests.fixtures.docs import NOTES_TXT
from tests.fixtures.server import RunningServer, start_server, wait_job

pytestmark = pytest.mark.e2e
QUOTA = 6000
OUTSIDE = "points outside the ingest root"
DAY_S = 86400


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One server (API keys) with an ingest root, an upload quota and a retention of one day; tenants are made
    by the tests (`tenant`), each with a key, and cleared at the end."""
    tmp = tmp_path_factory.mktemp("files")
    root = tmp / "root"
    root.mkdir()
    env = server_env("files_")
    env.update(KMRAG_DATA_DIR=str(tmp / "data"), KMRAG_SERVER_INGEST_ROOT=str(root), KMRAG_SERVER_POOL_SIZE="4",
               KMRAG_SERVER_UPLOAD_QUOTA_BYTES=str(QUOTA), KMRAG_SERVER_UPLOAD_RETENTION_DAYS="1")
    tenants: list[str] = []
    server = start_server(env, tmp / "logs")
    try:
        yield {"server": server, "env": env, "tmp": tmp, "root": root, "tenants": tenants}
    finally:
        server.stop()
        for t in tenants:
            clear_tenant({**env, "KMRAG_TENANT": t})


def tenant(files: dict[str, Any], prefix: str, *key_args: str) -> tuple[str, httpx.Client]:
    """A new tenant with a key (`kmrag keys create --tenant T KEY_ARGS`): its name and a client with the key."""
    t = f"{prefix}_{uuid.uuid4().hex[:8]}"
    files["tenants"].append(t)
    key = kmrag_json("keys", "create", "--tenant", t, *key_args, env=files["env"])["key"]
    server: RunningServer = files["server"]
    return t, server.client(key)


def upload(client: httpx.Client, name: str, text: str) -> dict[str, Any]:
    r = client.post("/v1/ingest", files=[("files", (name, text.encode(), "text/plain"))])
    assert r.status_code == 202, r.text
    return wait_job(client, r.json()["id"])


def upload_folder(files: dict[str, Any], t: str, job_id: str) -> Path:
    return (files["tmp"] / "data" / "uploads" / t / job_id).resolve()


def wait_gone(path: Path, timeout: float = 60.0) -> None:
    """Wait until ``path`` is no longer there (checked as it changes, up to ``timeout`` s)."""
    deadline = time.monotonic() + timeout
    while path.exists():
        assert time.monotonic() < deadline, f"{path} is still there after {timeout} s"
        time.sleep(0.2)


def test_the_folder_walk_stays_inside_the_ingest_root(files: dict[str, Any]) -> None:
    root, tmp = files["root"], files["tmp"]
    outside = tmp / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("The vault code is 4711.", encoding="utf-8")
    kb = root / "kb"
    kb.mkdir()
    (root / "shared").mkdir()
    (root / "shared" / "in.txt").write_text(NOTES_TXT, encoding="utf-8")
    (kb / "ok.txt").write_text("Lisbon is the capital of Portugal.", encoding="utf-8")
    (kb / "docs").symlink_to(outside, target_is_directory=True)  # a folder leading out
    (kb / "x.txt").symlink_to(outside / "secret.txt")  # a file leading out
    (kb / "inside.txt").symlink_to(root / "shared" / "in.txt")  # a symlink that stays in: read
    (kb / "loop").symlink_to(kb, target_is_directory=True)
    _, c = tenant(files, "walk")
    r = c.post("/v1/ingest", json={"paths": ["kb"]})
    assert r.status_code == 202, r.text
    job = wait_job(c, r.json()["id"])
    assert job["status"] == "completed" and job["errors"] == [], job
    skipped = {s["path"]: s["reason"] for s in job["skipped"]}
    assert skipped["kb/docs"] == OUTSIDE and skipped["kb/x.txt"] == OUTSIDE, skipped
    assert skipped["kb/loop"].startswith("symlink loop"), skipped
    assert sorted(s["source"] for s in c.get("/v1/sources").json()) == ["kb/ok.txt", "shared/in.txt"]
    assert "4711" not in json.dumps(c.post("/v1/ask", json={"question": "What is the vault code?"}).json())
    c.close()


def test_each_key_reads_under_its_own_ingest_root(files: dict[str, Any]) -> None:
    tmp, env = files["tmp"], files["env"]
    roots = {x: tmp / "tenants" / x for x in ("a", "b")}
    for x, folder in roots.items():
        (folder / "kb").mkdir(parents=True)
        (folder / "kb" / f"{x}.txt").write_text(f"Note {x}: Oslo is the capital of Norway.", encoding="utf-8")
    a, ca = tenant(files, "rootA", "--ingest-root", str(roots["a"]))
    _, cb = tenant(files, "rootB", "--ingest-root", str(roots["b"]))
    for bad in (str(roots["b"] / "kb"), "../b/kb", str(files["root"])):  # B's folder, the server's root
        body = assert_problem(ca.post("/v1/ingest", json={"paths": [bad]}), 403)
        assert "outside the folder this key may read" in body["detail"], body
    r = ca.post("/v1/ingest", json={"paths": ["kb"]})
    assert r.status_code == 202, r.text
    job = wait_job(ca, r.json()["id"])
    assert job["status"] == "completed" and job["inputs"] == ["kb"], job
    assert [s["source"] for s in ca.get("/v1/sources").json()] == ["kb/a.txt"]
    assert cb.get("/v1/sources").json() == []
    listed = kmrag_json("keys", "list", "--tenant", a, env=env)
    assert [k["ingest_root"] for k in listed] == [str(roots["a"].resolve())]
    err = error_of(kmrag("keys", "create", "--tenant", a, "--ingest-root", str(tmp / "no-such"), "--json", env=env))
    assert "--ingest-root" in err["message"] and "not a folder" in err["message"], err
    ca.close()
    cb.close()


def test_purge_removes_the_uploaded_file(files: dict[str, Any]) -> None:
    t, c = tenant(files, "purge")
    gone = upload(c, "gone.txt", "Oslo is the capital of Norway.")
    kept = upload(c, "kept.txt", "Lisbon is the capital of Portugal.")
    gone_file = upload_folder(files, t, gone["id"]) / "gone.txt"
    kept_file = upload_folder(files, t, kept["id"]) / "kept.txt"
    assert gone_file.is_file() and kept_file.is_file()
    r = c.delete("/v1/sources/kept.txt")  # retired, not purged: the file stays
    assert r.status_code == 200 and kept_file.is_file(), r.text
    r = c.delete("/v1/sources/gone.txt", params={"purge": "true"})
    assert r.status_code == 200, r.text
    assert not gone_file.exists() and not gone_file.parent.exists()  # its job folder was left empty: removed
    assert r.json()["files_removed"] == [f"{gone['id']}/gone.txt"], r.json()
    r = c.delete("/v1/sources/kept.txt", params={"purge": "true"})
    assert r.status_code == 200 and not kept_file.parent.exists(), r.text
    c.close()


def test_uploads_are_held_to_the_tenants_quota(files: dict[str, Any]) -> None:
    t, c = tenant(files, "quota")
    first = "Oslo is the capital of Norway. " * 120  # 3,720 bytes
    job = upload(c, "first.txt", first)
    assert job["status"] == "completed", job
    tenant_uploads = files["tmp"] / "data" / "uploads" / t
    before = sorted(p.name for p in tenant_uploads.iterdir())
    second = ("Lisbon is the capital of Portugal. " * 80).encode()  # 2,800 bytes: over 6,000 with the first
    r = c.post("/v1/ingest", files=[("files", ("second.txt", second, "text/plain"))])
    body = assert_problem(r, 413)
    assert f"{QUOTA:,}" in body["detail"] and f"{len(first):,} bytes are used" in body["detail"], body
    assert "purge=true" in body["detail"], body
    assert sorted(p.name for p in tenant_uploads.iterdir()) == before  # nothing of it kept
    _, other = tenant(files, "quota2")  # the quota is per tenant
    assert upload(other, "second.txt", second.decode())["status"] == "completed"
    assert c.delete("/v1/sources/first.txt", params={"purge": "true"}).status_code == 200
    assert upload(c, "second.txt", second.decode())["status"] == "completed"  # freed
    c.close()
    other.close()


def test_old_upload_folders_go_after_a_job_and_at_start(files: dict[str, Any]) -> None:
    t, c = tenant(files, "retain")
    old = upload(c, "old.txt", "Oslo is the capital of Norway.")
    old_folder = upload_folder(files, t, old["id"])
    two_days_ago = time.time() - 2 * DAY_S
    os.utime(old_folder, (two_days_ago, two_days_ago))
    new = upload(c, "new.txt", "Lisbon is the capital of Portugal.")
    wait_gone(old_folder)  # swept once the next job finished
    new_folder = upload_folder(files, t, new["id"])
    assert new_folder.is_dir()
    os.utime(new_folder, (two_days_ago, two_days_ago))
    again = start_server(files["env"], files["tmp"] / "logs-again")  # the same data folder
    try:
        assert not new_folder.exists()  # swept before the server answered
    finally:
        again.stop()
    c.close()


def test_no_browser_link_on_the_embedded_graph_store(tmp_path: Path) -> None:
    env = server_env("embedded_")
    env.update(KMRAG_NEO4J_URI="", KMRAG_DATA_DIR=str(tmp_path / "data"),
               KMRAG_NEO4J_BROWSER_URL="http://127.0.0.1:7474/browser/")
    server = start_server(env, tmp_path / "logs", "--insecure-local")
    try:
        with server.client() as c:
            assert c.get("/v1/status").json()["graph"]["backend"] != "neo4j"
            assert upload(c, "notes.txt", NOTES_TXT)["status"] == "completed"
            ans = c.post("/v1/ask", json={"question": "Where was Marie Curie born?"}).json()
            assert ans["found"], ans
            audit = c.get(f"/v1/answers/{ans['id']}").json()
            assert audit["browser"] is None, audit["browser"]
            assert '"neo4j_browser": null' in c.get("/").text
    finally:
        server.stop()
        clear_tenant(env)
