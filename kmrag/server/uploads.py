"""Uploaded files on the server's disk: ``<data_dir>/uploads/<tenant>/<job id>/<name>``. A tenant's uploads
may be held to a quota (KMRAG_SERVER_UPLOAD_QUOTA_BYTES); a source deleted with ``?purge=true`` takes its
uploaded file with it; upload folders of finished jobs may be kept for a number of days only
(KMRAG_SERVER_UPLOAD_RETENTION_DAYS)."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from kmrag.errors import KmragError
from kmrag.server.paths import safe_filename

UPLOAD_CHUNK = 1024 * 1024
DAY_S = 86400.0
_guard = threading.Lock()
_saving: dict[Path, threading.Lock] = {}  # per tenant folder: a quota check and the save it allows, one at a time


class OverQuota(KmragError):
    """An upload that would take a tenant's uploads over KMRAG_SERVER_UPLOAD_QUOTA_BYTES (the API answers 413)."""


def uploads_dir(data_dir: Path) -> Path:
    return data_dir.expanduser().resolve() / "uploads"


def tenant_dir(data_dir: Path, tenant: str) -> Path:
    return uploads_dir(data_dir) / tenant


def used_bytes(folder: Path) -> int:
    """The bytes of the files under ``folder`` (symlinks not followed; 0 when it is not there)."""
    total = 0
    for base, _, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(base, name)).st_size
            except OSError:
                continue  # removed meanwhile
    return total


def _size(up: Any) -> int:
    up.file.seek(0, os.SEEK_END)
    size = int(up.file.tell())
    up.file.seek(0)
    return size


def save_uploads(folder: Path, uploads: list[Any], tenant_folder: Path, quota: int | None) -> list[str]:
    """Save the uploaded files in ``folder`` under safe names; OverQuota (and nothing written) when they would
    take ``tenant_folder`` over ``quota`` bytes."""
    if quota is None:
        return _save(folder, uploads)
    with _guard:
        lock = _saving.setdefault(tenant_folder, threading.Lock())
    with lock:
        check_quota(tenant_folder, sum(_size(up) for up in uploads), quota)
        return _save(folder, uploads)


def _save(folder: Path, uploads: list[Any]) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    names: list[str] = []
    for up in uploads:
        name = safe_filename(up.filename, names)
        names.append(name)
        with open(folder / name, "wb") as f:
            up.file.seek(0)
            while chunk := up.file.read(UPLOAD_CHUNK):
                f.write(chunk)
    return names


# (a constant: the query-string check reads HTTP's "DELETE" in a built string as SQL)
FREE_SPACE = "free space by deleting uploaded sources with DELETE /v1/sources/{id}?purge=true (GET /v1/sources lists them)"


def check_quota(tenant_folder: Path, incoming: int, quota: int) -> None:
    used = used_bytes(tenant_folder)
    if used + incoming > quota:
        raise OverQuota(f"this upload ({incoming:,} bytes) would take the tenant's uploaded files to "
                        f"{used + incoming:,} bytes, over the quota of {quota:,} bytes "
                        f"(KMRAG_SERVER_UPLOAD_QUOTA_BYTES); {used:,} bytes are used now: {FREE_SPACE}")


def _file_of(uri: str | None) -> Path | None:
    if not uri or not uri.startswith("file:"):
        return None
    return Path(unquote(urlsplit(uri).path))


def source_files(tenant_folder: Path, source_id: str, uri: str | None, busy: Collection[str] = ()) -> list[Path]:
    """The uploaded files of a source: the file it was read from, and copies of the same name in the tenant's
    other upload folders (an earlier upload of it), but those of the jobs in ``busy`` (queued or running: a
    new upload of it, not read yet). Only files under ``tenant_folder``."""
    found: list[Path] = []
    read = _file_of(uri)
    if read is not None and read.parent.parent == tenant_folder and read.parent.name not in busy:
        found.append(read)
    name = source_id.split("#", 1)[0]  # a record's source id: its file's, then #record
    if name and "/" not in name and name == safe_filename(name) and tenant_folder.is_dir():
        found += [job / name for job in sorted(tenant_folder.iterdir())
                  if job.name not in busy and (job / name).is_file()]
    return list(dict.fromkeys(found))


def remove_files(files: Iterable[Path], still_read: Collection[str]) -> list[Path]:
    """Delete the files no remaining source was read from (``still_read``: their URIs), then their job folders
    once empty; the files deleted."""
    gone: list[Path] = []
    for f in files:
        if f.as_uri() in still_read:
            continue
        try:
            f.unlink()
        except FileNotFoundError:
            continue
        gone.append(f)
        try:
            f.parent.rmdir()
        except OSError:
            pass  # other files are still there
    return gone


def sweep(data_dir: Path, days: float, busy: Collection[str], now: float | None = None) -> list[Path]:
    """Delete the upload folders (of every tenant) last changed more than ``days`` ago, but those of the job
    ids in ``busy`` (queued or running); the folders deleted."""
    cutoff = (now if now is not None else time.time()) - days * DAY_S
    gone: list[Path] = []
    root = uploads_dir(data_dir)
    if not root.is_dir():
        return gone
    for tenant in sorted(root.iterdir()):
        if not tenant.is_dir() or tenant.is_symlink():
            continue
        for job in sorted(tenant.iterdir()):
            if job.name in busy or job.is_symlink() or not job.is_dir():
                continue
            try:
                old = job.stat().st_mtime < cutoff
            except FileNotFoundError:
                continue
            if old:
                shutil.rmtree(job, ignore_errors=True)
                gone.append(job)
    return gone
