"""API keys (format, hashing), the server's path rules (uploaded names, the ingest root, the bind check),
the trace observer hook and problem bodies: no server needed."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from kmrag.errors import ConfigError
from kmrag.retrieval.observe import TraceLog, observing, tagging
from kmrag.server.config import check_bind, load_server_settings
from kmrag.server.keys import KEY_RE, InvalidKey, hash_secret, new_key, parse_key
from kmrag.server.paths import OutsideRoot, resolve_under, safe_filename
from kmrag.server.problems import problem_body

pytestmark = pytest.mark.unit


def test_key_format_and_hash() -> None:
    key, key_id, digest = new_key()
    assert KEY_RE.fullmatch(key) and key.startswith(f"kmrag_{key_id}_") and len(key_id) == 12
    got_id, secret = parse_key(key)
    assert got_id == key_id and len(secret) == 43
    assert digest == hash_secret(secret) == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in digest and key_id not in digest
    assert len({new_key()[0] for _ in range(50)}) == 50


@pytest.mark.parametrize("bad", ["", "kmrag_", "Bearer kmrag_x", "kmrag_00000000000_" + "a" * 43,
                                 "kmrag_000000000000_" + "a" * 42, "kmrag_000000000000_" + "a" * 42 + "!",
                                 "kmrag_ABCDEF000000_" + "a" * 43, "other_000000000000_" + "a" * 43])
def test_malformed_keys_refused(bad: str) -> None:
    with pytest.raises(InvalidKey):
        parse_key(bad)


def test_safe_filenames() -> None:
    assert safe_filename("../../etc/passwd") == "passwd"
    assert safe_filename("C:\\Users\\x\\report.md") == "report.md"
    assert safe_filename(".hidden.md") == "hidden.md"
    assert safe_filename("évian notes.txt") == "evian notes.txt"
    assert safe_filename("a;rm -rf $(x).md") == "a_rm -rf _x_.md"
    assert safe_filename("") == "upload" and safe_filename(None) == "upload"
    assert safe_filename("guide.md", ["guide.md", "guide-2.md"]) == "guide-3.md"
    long = safe_filename("x" * 500 + ".markdown")
    assert long.endswith(".markdown") and len(long) <= 120


def test_paths_stay_under_the_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "kb").mkdir(parents=True)
    (root / "kb" / "a.md").write_text("x")
    (tmp_path / "secret.txt").write_text("x")
    (root / "link").symlink_to(tmp_path / "secret.txt")
    assert resolve_under(root, "kb/a.md") == (root / "kb" / "a.md").resolve()
    assert resolve_under(root, str(root / "kb")) == (root / "kb").resolve()
    assert resolve_under(root, str(root)) == root.resolve()
    for bad in ("../secret.txt", str(tmp_path / "secret.txt"), "kb/../../secret.txt", "link", "/etc/passwd",
                "", "a\x00b"):
        with pytest.raises(OutsideRoot):
            resolve_under(root, bad)
    with pytest.raises(OutsideRoot, match="KMRAG_SERVER_INGEST_ROOT"):
        resolve_under(None, "kb/a.md")


def test_insecure_local_binds_locally_only() -> None:
    for host in ("127.0.0.1", "::1", "localhost"):
        check_bind(host, insecure_local=True)
    check_bind("0.0.0.0", insecure_local=False)
    for host in ("0.0.0.0", "::", "192.168.1.10", "example.com"):
        with pytest.raises(ConfigError, match="insecure-local"):
            check_bind(host, insecure_local=True)


def test_server_settings_from_env(tmp_path: Path) -> None:
    s = load_server_settings({"KMRAG_SERVER_INGEST_ROOT": str(tmp_path), "KMRAG_SERVER_MAX_BODY_BYTES": "1000",
                              "KMRAG_SERVER_ASK_TIMEOUT_S": "2.5"})
    assert s.ingest_root == tmp_path.resolve() and s.max_body_bytes == 1000 and s.ask_timeout_s == 2.5
    assert load_server_settings({}).ingest_root is None
    with pytest.raises(ConfigError, match="KMRAG_SERVER_MAX_BODY_BYTES"):
        load_server_settings({"KMRAG_SERVER_MAX_BODY_BYTES": "lots"})
    kept = load_server_settings({"KMRAG_SERVER_UPLOAD_RETENTION_DAYS": "7", "KMRAG_SERVER_UPLOAD_QUOTA_BYTES": "5000"})
    assert kept.upload_retention_days == 7 and kept.upload_quota_bytes == 5000
    assert load_server_settings({}).upload_retention_days is None and load_server_settings({}).upload_quota_bytes is None
    with pytest.raises(ConfigError, match="KMRAG_SERVER_UPLOAD_QUOTA_BYTES"):
        load_server_settings({"KMRAG_SERVER_UPLOAD_QUOTA_BYTES": "0"})


def test_trace_steps_reach_the_observer_of_their_context() -> None:
    seen: list[dict[str, object]] = []
    log = TraceLog("answer")
    log.append({"step": "before"})
    with observing(seen.append):
        log.append({"step": "retrieve", "n": 1})
        TraceLog("retrieval").append({"step": "analyse"})
    log.append({"step": "after"})
    assert seen == [{"phase": "answer", "step": "retrieve", "n": 1}, {"phase": "retrieval", "step": "analyse"}]
    assert list(log) == [{"step": "before"}, {"step": "retrieve", "n": 1}, {"step": "after"}]

    def broken(_: dict[str, object]) -> None:
        raise RuntimeError("observer bug")

    with observing(broken):
        log.append({"step": "still recorded"})
    assert log[-1] == {"step": "still recorded"}

    # a question's part: its steps reach the observer tagged with the part, and only within the block
    seen.clear()
    with observing(seen.append):
        with tagging(part=2):
            log.append({"step": "retrieve"})
        log.append({"step": "done"})
    with tagging(part=3):  # nobody observing: nothing to tag, nothing breaks
        log.append({"step": "unobserved"})
    assert seen == [{"phase": "answer", "step": "retrieve", "part": 2}, {"phase": "answer", "step": "done"}]


def test_problem_body_shape_hides_secrets() -> None:
    body = problem_body(503, "cannot reach postgresql://kmrag:hunter2-pw@db/kmrag", "/v1/health", pool={"x": 1})
    assert body["type"].endswith("/service-unavailable") and body["title"] == "Service Unavailable"
    assert body["status"] == 503 and body["instance"] == "/v1/health" and body["pool"] == {"x": 1}
    assert "hunter2-pw" not in body["detail"]
