"""The files of one tenant of the embedded graph store: a JSON snapshot plus an append-only operation log.

``graph-<digest>.json``
    ``{"format": 2, "tenant": ..., "gen": ..., "nodes": [...], "edges": [...]}``, replaced atomically.
``graph-<digest>.log.jsonl``
    a header line ``{"format": 2, "tenant": ..., "gen": ...}``, then one JSON line per mutating call.
``graph-<digest>.lock``
    an advisory lock: shared while the files are read, exclusive while they are written.

A log applies to the snapshot whose ``gen`` its header names. A log with another ``gen`` is stale (a
compaction stopped after replacing the snapshot, before replacing the log) and is ignored. Only lines
ending in a newline count: a torn last line (a process killed mid-write) is ignored when read and cut
off before the next append. What this module reads and writes are bytes and JSON values; what the
operations mean is the store's business.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kmrag.errors import StoreError

FORMAT_VERSION = 2
READABLE_FORMATS = (1, 2)  # format 1: a snapshot without gen and without a log


@dataclass(frozen=True)
class Stamp:
    """(inode, size, mtime_ns) of the snapshot and of the log, None where absent: any write changes it."""

    snapshot: tuple[int, int, int] | None
    log: tuple[int, int, int] | None


@dataclass(frozen=True)
class Cursor:
    """How far a reader got: the files as it saw them, the snapshot's gen, whether the log belongs to that
    snapshot, and the log offset just past the last complete line read."""

    stamp: Stamp
    gen: str | None
    log_ok: bool
    pos: int

    @property
    def snapshot_size(self) -> int:
        return self.stamp.snapshot[1] if self.stamp.snapshot else 0


def _stat(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _complete_lines(raw: bytes) -> tuple[list[bytes], int]:
    """The newline-terminated lines of ``raw`` and how many bytes they take."""
    end = raw.rfind(b"\n") + 1
    return raw[:end].splitlines(), end


class TenantFiles:
    def __init__(self, directory: Path, tenant: str) -> None:
        self.tenant = tenant
        digest = hashlib.sha256(tenant.encode("utf-8")).hexdigest()[:16]
        self.snapshot = directory / f"graph-{digest}.json"
        self.log = directory / f"graph-{digest}.log.jsonl"
        self._lock = directory / f"graph-{digest}.lock"

    def stamp(self) -> Stamp:
        return Stamp(_stat(self.snapshot), _stat(self.log))

    @contextmanager
    def locked(self, exclusive: bool) -> Iterator[None]:
        """Between processes; not re-entrant (the store's own lock orders its threads). Reading a tenant that
        has no files takes no lock (and so makes no lock file)."""
        nothing = not exclusive and not (self.snapshot.exists() or self.log.exists())
        if nothing or sys.platform == "win32":  # win32: no flock, one writing process at a time
            yield
            return
        import fcntl

        with open(self._lock, "a+b") as f:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
            try:
                yield
            finally:
                fcntl.flock(f.fileno(), fcntl.LOCK_UN)

    # -- reading (under locked(False) or locked(True)) -------------------------------------

    def read(self) -> tuple[dict[str, Any] | None, list[Any], Cursor]:
        """The snapshot (None if there is none) and the operations its log adds."""
        stamp = self.stamp()
        data: dict[str, Any] | None = None
        if stamp.snapshot is not None:
            try:
                data = json.loads(self.snapshot.read_bytes())
            except (OSError, ValueError) as e:
                raise StoreError(f"embedded graph file {self.snapshot} is unreadable: {e}; "
                                 "restore it or delete it (and its .log.jsonl) and re-ingest") from e
            self._check_header(data, self.snapshot)
        assert data is None or isinstance(data, dict)
        gen = data.get("gen") if data else None
        if stamp.log is None or gen is None:
            return data, [], Cursor(stamp, gen, False, 0)
        lines, end = _complete_lines(self.log.read_bytes())
        header = self._parse(lines[0], 1) if lines else None
        if not isinstance(header, dict) or header.get("gen") != gen:
            return data, [], Cursor(stamp, gen, False, end)  # stale: the snapshot has it all
        self._check_header(header, self.log)
        ops = [self._parse(line, i) for i, line in enumerate(lines[1:], start=2)]
        return data, ops, Cursor(stamp, gen, True, end)

    def read_new(self, cur: Cursor) -> tuple[list[Any], Cursor] | None:
        """The operations appended to the log since ``cur``, or None when the files changed in another way
        (a compaction, a clear): then read() them again."""
        now = self.stamp()
        if now == cur.stamp:
            return [], cur
        before = cur.stamp.log
        if (not cur.log_ok or now.snapshot != cur.stamp.snapshot or now.log is None or before is None
                or now.log[0] != before[0] or now.log[1] < cur.pos):
            return None
        with open(self.log, "rb") as f:
            f.seek(cur.pos)
            lines, end = _complete_lines(f.read())
        ops = [self._parse(line, None) for line in lines]
        return ops, Cursor(now, cur.gen, True, cur.pos + end)

    def _check_header(self, data: dict[str, Any], path: Path) -> None:
        if data.get("tenant") != self.tenant or data.get("format") not in READABLE_FORMATS:
            raise StoreError(f"embedded graph file {path} does not belong to tenant {self.tenant!r} "
                             f"or has an unknown format {data.get('format')!r}")

    def _parse(self, line: bytes, number: int | None) -> Any:
        try:
            return json.loads(line)
        except ValueError as e:
            where = f"line {number}" if number else "a line"
            raise StoreError(f"embedded graph log {self.log} has a damaged {where}: {e}; "
                             "restore it or delete the tenant's graph files and re-ingest") from e

    # -- writing (under locked(True)) -------------------------------------------------------

    def append(self, cur: Cursor, lines: list[str]) -> Cursor:
        """Append operation lines to a log that ``cur`` has read to its end; cuts off a torn last line first."""
        if not cur.log_ok:
            raise StoreError(f"embedded graph log {self.log} does not match its snapshot: compact instead")
        data = "".join(line + "\n" for line in lines).encode("utf-8")
        with open(self.log, "r+b") as f:
            f.truncate(cur.pos)
            f.seek(cur.pos)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        return Cursor(self.stamp(), cur.gen, True, cur.pos + len(data))

    def compact(self, body: dict[str, Any]) -> Cursor:
        """Write ``body`` (nodes, edges) as the new snapshot, then start an empty log for it."""
        gen = uuid.uuid4().hex
        head = {"format": FORMAT_VERSION, "tenant": self.tenant, "gen": gen}
        self._replace(self.snapshot, json.dumps({**head, **body}, ensure_ascii=False).encode("utf-8"))
        header = (json.dumps(head) + "\n").encode("utf-8")
        self._replace(self.log, header)
        return Cursor(self.stamp(), gen, True, len(header))

    def remove(self) -> None:
        """Snapshot first: a log left alone names a gen no snapshot has, so it is ignored."""
        self.snapshot.unlink(missing_ok=True)
        self.log.unlink(missing_ok=True)

    @staticmethod
    def _replace(path: Path, data: bytes) -> None:
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        if sys.platform != "win32":
            fd = os.open(path.parent, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
