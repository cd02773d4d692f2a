"""One ingest of a folder holding a symlink loop, a broken symlink, an unsupported file, a hidden folder,
an empty file and a binary one: the job reads the rest, lists every skip (not as a failure) and every
error (its path once, in plain words), in the human summary, in --json and in the job record."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures.cli import clear_tenant, data_of, error_of, kmrag, kmrag_json, server_env

pytestmark = pytest.mark.e2e


def test_every_skip_and_error_is_reported(tmp_path: Path) -> None:
    env = server_env()
    corpus = tmp_path / "corpus"
    (corpus / "sub").mkdir(parents=True)
    (corpus / "curie.md").write_text("# Marie Curie\n\nMarie Curie was born in Warsaw.\n", encoding="utf-8")
    (corpus / "sub" / "loop").symlink_to(corpus)
    (corpus / "dangling.md").symlink_to(corpus / "gone.md")
    (corpus / "data.xyz").write_text("not a document")
    (corpus / ".git").mkdir()
    (corpus / ".git" / "HEAD.md").write_text("# not read")
    (corpus / "notes.txt").write_bytes(b"")
    (corpus / "image.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    skips = {str(corpus / "sub" / "loop"): f"symlink loop (points to {corpus}, which holds it)",
             str(corpus / "dangling.md"): f"broken symlink (points to {corpus / 'gone.md'})",
             str(corpus / "data.xyz"): "unsupported type .xyz",
             str(corpus / ".git"): "hidden folder"}
    errors = {str(corpus / "notes.txt"): "empty file (0 bytes)",
              str(corpus / "image.txt"): "binary content (NUL bytes), not plain text"}
    try:
        res = kmrag("ingest", str(corpus), "--json", env=env)
        assert res.returncode == 1, res.stderr  # an input failed: not all good
        assert error_of(res)["type"] == "InputsFailed"
        job = data_of(res)["job"]
        assert job["status"] == "completed_with_errors" and job["counts"]["documents_new"] == 1
        assert job["counts"]["paths_skipped"] == 4 and job["counts"]["documents_failed"] == 2
        assert {e["path"]: e["reason"] for e in job["skipped"]} == skips
        assert {e["path"]: e["reason"] for e in job["errors"]} == errors
        shown = kmrag_json("jobs", "show", job["id"], env=env)  # the job record keeps both lists
        assert shown["skipped"] == job["skipped"] and shown["errors"] == job["errors"]

        human = kmrag("ingest", str(corpus), "--force", env=env)
        assert human.returncode == 1, human.stderr
        out = human.stdout
        assert " skipped=4 " in out.splitlines()[0]
        assert "skipped 4 paths: 1 " in out and "1 symlink loop" in out and "1 hidden" in out
        for path, reason in skips.items():
            assert f"  skipped: {path}: {reason}\n" in out
        for path, reason in errors.items():
            assert f"  error: {path}: {reason}\n" in out
            assert out.count(path) == 1  # the path once, not "X: X: ..."
        text = kmrag("jobs", "show", job["id"], env=env).stdout
        assert "skipped (4): " in text and f"  {corpus / 'data.xyz'}: unsupported type .xyz" in text
    finally:
        clear_tenant(env)
