"""`kmrag delete` against recording fake stores: what counts as found, and which store is written first."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

import pytest

from kmrag import cli

pytestmark = pytest.mark.unit


class FakeUnits:
    def __init__(self, calls: list[str], sources: set[str], units: dict[str, int]) -> None:
        self.calls, self.sources, self.units = calls, sources, units  # units: source id -> rows (retired too)

    def get_source(self, tenant: str, sid: str) -> object | None:
        return object() if sid in self.sources else None

    def unit_ids(self, tenant: str, sid: str | None = None, include_retired: bool = False) -> set[str]:
        assert include_retired, "retired rows count for `delete --purge`"
        return {f"{sid}#{i}" for i in range(self.units.get(sid or "", 0))}

    def source_ids(self, tenant: str) -> set[str]:
        return set(self.sources)

    def retire_source(self, tenant: str, sid: str) -> int:
        self.calls.append(f"pg.retire {sid}")
        self.sources.discard(sid)
        return self.units.get(sid, 0)

    def delete_source(self, tenant: str, sid: str) -> int:
        self.calls.append(f"pg.delete {sid}")
        self.sources.discard(sid)
        return self.units.pop(sid, 0)


class FakeGraph:
    def __init__(self, calls: list[str], sources: set[str], fail: bool = False) -> None:
        self.calls, self.sources, self.fail = calls, sources, fail

    def source_ids(self, tenant: str) -> set[str]:
        return set(self.sources)

    def delete_source(self, tenant: str, sid: str) -> int:
        self.calls.append(f"graph.delete {sid}")
        if self.fail:
            raise RuntimeError("graph down")
        self.sources.discard(sid)
        return 1

    def flush(self) -> None:
        self.calls.append("graph.flush")


def run_delete(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stores: Any,
               *sources: str, purge: bool = False) -> tuple[int, list[dict[str, Any]]]:
    import kmrag.stores

    @contextmanager
    def fake_open(settings: Any) -> Iterator[Any]:
        yield stores

    monkeypatch.setattr(kmrag.stores, "open_stores", fake_open)
    args = argparse.Namespace(sources=list(sources), purge=purge, json=True, tenant="t_fake")
    rc = cli.cmd_delete(args)
    return rc, json.loads(capsys.readouterr().out)


def test_purge_after_delete_finds_the_retired_rows(monkeypatch, capsys) -> None:
    calls: list[str] = []
    stores = SimpleNamespace(units=FakeUnits(calls, set(), {"doc.md": 3}), graph=FakeGraph(calls, set()))
    rc, out = run_delete(monkeypatch, capsys, stores, "doc.md", purge=True)
    assert rc == 0
    assert out == [{"source": "doc.md", "found": True, "graph_units_removed": 1, "unit_rows": 3, "purged": True}]


@pytest.mark.parametrize(("pg_source", "graph_source"), [(True, False), (False, True)])
def test_a_source_row_or_a_source_node_alone_counts_as_found(monkeypatch, capsys, pg_source, graph_source) -> None:
    calls: list[str] = []
    stores = SimpleNamespace(units=FakeUnits(calls, {"a"} if pg_source else set(), {}),
                             graph=FakeGraph(calls, {"a"} if graph_source else set()))
    rc, out = run_delete(monkeypatch, capsys, stores, "a")
    assert rc == 0 and out[0]["found"] is True


def test_unknown_source_is_reported_and_exits_1(monkeypatch, capsys) -> None:
    calls: list[str] = []
    stores = SimpleNamespace(units=FakeUnits(calls, {"a"}, {"a": 2}), graph=FakeGraph(calls, {"a"}))
    rc, out = run_delete(monkeypatch, capsys, stores, "a", "nope")
    assert rc == 1 and [x["found"] for x in out] == [True, False]


@pytest.mark.parametrize("purge", [False, True])
def test_postgres_is_written_before_the_graph(monkeypatch, capsys, purge) -> None:
    calls: list[str] = []
    stores = SimpleNamespace(units=FakeUnits(calls, {"a"}, {"a": 2}), graph=FakeGraph(calls, {"a"}))
    run_delete(monkeypatch, capsys, stores, "a", purge=purge)
    assert calls == [f"pg.{'delete' if purge else 'retire'} a", "graph.delete a", "graph.flush"]


def test_graph_failure_leaves_postgres_already_written(monkeypatch, capsys) -> None:
    calls: list[str] = []
    units = FakeUnits(calls, {"a"}, {"a": 2})
    stores = SimpleNamespace(units=units, graph=FakeGraph(calls, {"a"}, fail=True))
    with pytest.raises(RuntimeError, match="graph down"):
        run_delete(monkeypatch, capsys, stores, "a", purge=True)
    assert calls == ["pg.delete a", "graph.delete a"] and units.units == {} and units.sources == set()
