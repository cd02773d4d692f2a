"""The server's uploaded files: quota, a purged source's files, retention."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import pytest

from kmrag.server import uploads

pytestmark = pytest.mark.unit


class _Up:
    def __init__(self, name: str, data: bytes) -> None:
        self.filename, self.file = name, io.BytesIO(data)


def test_an_upload_over_the_quota_writes_nothing(tmp_path: Path) -> None:
    tenant = tmp_path / "uploads" / "t"
    uploads.save_uploads(tenant / "j1", [_Up("a.txt", b"x" * 60)], tenant, quota=100)
    with pytest.raises(uploads.OverQuota) as e:
        uploads.save_uploads(tenant / "j2", [_Up("b.txt", b"y" * 30), _Up("c.txt", b"z" * 20)], tenant, quota=100)
    assert "over the quota of 100 bytes" in str(e.value) and "60 bytes are used" in str(e.value)
    assert "purge=true" in str(e.value)
    assert sorted(p.name for p in tenant.iterdir()) == ["j1"]
    assert uploads.save_uploads(tenant / "j3", [_Up("../b.txt", b"y" * 40)], tenant, quota=100) == ["b.txt"]


def test_a_purged_sources_files_and_empty_job_folders_go(tmp_path: Path) -> None:
    tenant = tmp_path / "t"
    for job in ("j1", "j2"):
        (tenant / job).mkdir(parents=True)
        (tenant / job / "a.json").write_text("[]")
    (tenant / "j2" / "other.md").write_text("O.")
    files = uploads.source_files(tenant, "a.json#rec1", (tenant / "j2" / "a.json").as_uri())
    assert files == [tenant / "j2" / "a.json", tenant / "j1" / "a.json"]
    # another record of the file is still stored: its file stays
    assert uploads.remove_files(files, {(tenant / "j2" / "a.json").as_uri()}) == [tenant / "j1" / "a.json"]
    assert not (tenant / "j1").exists() and (tenant / "j2" / "a.json").exists()
    (tenant / "j3").mkdir()
    (tenant / "j3" / "a.json").write_text("[]")  # a new upload of it, its job still to run: kept
    assert uploads.source_files(tenant, "a.json", None, busy={"j3"}) == [tenant / "j2" / "a.json"]
    assert uploads.source_files(tenant, "../etc/passwd", None) == []
    assert uploads.source_files(tenant, "x.md", (tmp_path / "elsewhere" / "x.md").as_uri()) == []


def test_retention_sweeps_old_folders_of_finished_jobs_only(tmp_path: Path) -> None:
    base = tmp_path / "uploads"
    for t, job in (("t1", "old"), ("t1", "busy"), ("t2", "new")):
        (base / t / job).mkdir(parents=True)
    old = time.time() - 3 * uploads.DAY_S
    for job in (base / "t1" / "old", base / "t1" / "busy"):
        os.utime(job, (old, old))
    assert uploads.sweep(tmp_path, 2, busy={"busy"}) == [(base / "t1" / "old").resolve()]
    assert sorted(p.name for p in (base / "t1").iterdir()) == ["busy"] and (base / "t2" / "new").is_dir()
    assert uploads.sweep(tmp_path / "none", 2, busy=set()) == []
