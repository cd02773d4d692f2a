import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kmrag.graph.local_files import TenantFiles
from kmrag.graph.local_store import LocalGraphStore
from tests.contract.graph_store_contract import GraphStoreContract, ent, make_units

pytestmark = pytest.mark.contract


class TestLocalGraphStore(GraphStoreContract):
    @pytest.fixture
    def store(self, tmp_path: Path, tenant: str) -> Iterator[LocalGraphStore]:
        s = LocalGraphStore(tmp_path / "graph")
        yield s
        s.clear_tenant(tenant)

    @pytest.fixture
    def reopen(self, tmp_path: Path) -> Callable[[], LocalGraphStore]:
        return lambda: LocalGraphStore(tmp_path / "graph")

    @pytest.fixture
    def files(self, tmp_path: Path, tenant: str) -> TenantFiles:
        return TenantFiles(tmp_path / "graph", tenant)

    # -- persistence: snapshot + operation log --------------------------------------------------

    def test_small_flush_appends_to_the_log(self, store: LocalGraphStore, tenant: str, world: dict[str, Any],
                                            files: TenantFiles) -> None:
        snap = files.snapshot.stat()
        log_size = files.log.stat().st_size
        store.write_entities([ent(tenant, "Lyon")])
        store.flush()
        after = files.snapshot.stat()
        assert (after.st_ino, after.st_size, after.st_mtime_ns) == (snap.st_ino, snap.st_size, snap.st_mtime_ns)
        assert files.log.stat().st_size > log_size
        last = json.loads(files.log.read_bytes().splitlines()[-1])
        assert last["op"] == "entities" and last["args"][0]["name"] == "Lyon"
        grown = files.log.stat().st_size
        assert store.counts(tenant).entities == 6
        store.flush()  # nothing pending: nothing written
        assert files.log.stat().st_size == grown

    def test_compaction_keeps_the_data(self, store: LocalGraphStore, tenant: str, world: dict[str, Any],
                                       files: TenantFiles, reopen: Any) -> None:
        first = files.snapshot.stat().st_ino
        for i in range(500):  # small flushes until the log would outgrow the snapshot
            store.write_units(make_units(tenant, [f"Paragraph {i} about Lyon and its river."], sid="docs/b.md"))
            store.flush()
            if files.snapshot.stat().st_ino != first:
                break
        assert files.snapshot.stat().st_ino != first and i > 1
        assert len(files.log.read_bytes().splitlines()) == 1  # just the header of the new snapshot's log
        again = reopen()
        assert again.counts(tenant) == store.counts(tenant) and again.counts(tenant).units == 4 + i + 1
        assert again.relations(tenant) == store.relations(tenant)

    def test_torn_last_log_line_is_ignored(self, store: LocalGraphStore, tenant: str, world: dict[str, Any],
                                           files: TenantFiles, reopen: Any) -> None:
        store.write_entities([ent(tenant, "Lyon")])
        store.flush()
        with open(files.log, "ab") as f:  # a process killed mid-write
            f.write(b'{"op": "entities", "args": [{"id": "e_torn", "na')
        reader = reopen()
        assert reader.counts(tenant).entities == 6 and reader.find_entities(tenant, ["lyon"])
        assert store.counts(tenant).entities == 6  # a store with the tenant loaded reads past it too
        reader.write_entities([ent(tenant, "Nice")])  # the next append cuts the torn line off first
        reader.flush()
        lines = files.log.read_bytes().split(b"\n")
        assert lines[-1] == b"" and all(json.loads(x) for x in lines[:-1])
        assert {e.name for e in reopen().find_entities(tenant, ["Lyon", "Nice"])} == {"Lyon", "Nice"}

    def test_a_stopped_compaction_loses_nothing(self, store: LocalGraphStore, tenant: str, world: dict[str, Any],
                                                files: TenantFiles, reopen: Any,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
        """Killed after the new snapshot replaced the old one, before the log was replaced: the old log
        names the old snapshot's gen and is ignored; the next flush starts a fresh log."""
        real = TenantFiles._replace

        def crash_on_log(path: Path, data: bytes) -> None:
            if path == files.log:
                raise OSError("killed")
            real(path, data)

        monkeypatch.setattr(TenantFiles, "_replace", staticmethod(crash_on_log))
        store.write_units(make_units(tenant, [f"Long paragraph {i}. " * 30 for i in range(30)], sid="docs/b.md"))
        with pytest.raises(OSError):
            store.flush()
        monkeypatch.undo()
        reader = reopen()
        assert reader.counts(tenant).units == 34
        reader.write_entities([ent(tenant, "Lyon")])
        reader.flush()
        again = reopen()
        assert again.counts(tenant).units == 34 and again.find_entities(tenant, ["Lyon"])

    # -- several processes over the same files ----------------------------------------------------

    def test_an_open_store_sees_what_another_flushed(self, store: LocalGraphStore, tenant: str,
                                                     world: dict[str, Any], reopen: Any) -> None:
        other = reopen()
        assert other.unit_ids(tenant) == set(world["units"])  # loaded before the writes below
        lyon = make_units(tenant, ["Lyon is in France."], sid="docs/b.md")
        store.write_units(lyon)
        store.flush()  # appended to the log
        assert other.unit_ids(tenant) == set(world["units"]) | {lyon[0].id}
        other.write_entities([ent(tenant, "Lyon")])
        other.flush()
        assert [e.name for e in store.find_entities(tenant, ["lyon"])] == ["Lyon"]
        big = make_units(tenant, [f"Long paragraph {i}. " * 30 for i in range(30)], sid="docs/c.md")
        store.write_units(big)
        store.flush()  # a compaction: new snapshot, new log
        assert other.counts(tenant) == store.counts(tenant) and other.counts(tenant).units == 35
        store.clear_tenant(tenant)
        assert other.counts(tenant).units == 0 and other.all_entities(tenant) == []

    def test_unflushed_writes_go_on_top_of_another_store_writes(self, store: LocalGraphStore, tenant: str,
                                                                world: dict[str, Any], reopen: Any) -> None:
        other = reopen()
        assert other.counts(tenant).entities == 5
        store.write_entities([ent(tenant, "Lyon")])  # not yet flushed
        other.write_entities([ent(tenant, "Nice")])
        other.flush()
        assert not store.find_entities(tenant, ["Nice"])  # a store keeps its view while it has unflushed changes
        store.flush()
        for s in (store, other, reopen()):
            assert {e.name for e in s.find_entities(tenant, ["Lyon", "Nice"])} == {"Lyon", "Nice"}
            assert s.counts(tenant).entities == 7
