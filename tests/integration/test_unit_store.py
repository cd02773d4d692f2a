"""PgUnitStore against the real PostgreSQL+pgvector started by services/postgres.sh."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from kmrag.errors import SchemaError
from kmrag.schema import KnowledgeUnit, Source, unit_id
from kmrag.units.store import PgUnitStore

pytestmark = pytest.mark.integration


def vec(*hot: int, dim: int = 384) -> np.ndarray:
    v = np.zeros(dim, dtype=np.float32)
    for i in hot:
        v[i] = 1.0
    return v / np.linalg.norm(v)


def units(tenant: str, texts: list[str], sid: str = "a.md") -> list[KnowledgeUnit]:
    return [KnowledgeUnit(id=unit_id(tenant, sid, t), tenant=tenant, source_id=sid, source_version="v1",
                          type="paragraph", title="Title", section_path=["A"], ordinal=i, content=t,
                          metadata={"char_span": [0, len(t)]})
            for i, t in enumerate(texts)]


@pytest.fixture
def loaded(unit_store: PgUnitStore, tenant: str) -> list[KnowledgeUnit]:
    unit_store.write_source(Source(id="a.md", tenant=tenant, uri="file:///a.md", version="v1", content_hash="h"))
    us = units(tenant, ["Marie Curie was born in Warsaw.", "Warsaw is the capital of Poland.",
                        "The Eiffel Tower stands in Paris."])
    unit_store.write_units(us, [vec(0), vec(1), vec(2)])
    return us


def test_init_schema_is_idempotent(unit_store: PgUnitStore) -> None:
    unit_store.init_schema()
    unit_store.init_schema()
    status = unit_store.schema_status()
    assert status["schema_ok"] and status["pgvector"] and status["embedding_dim"] == 384


def test_dimension_mismatch_is_reported(pg_pool: Any) -> None:
    with pytest.raises(SchemaError, match="384-dimensional"):
        PgUnitStore(pg_pool, 768).init_schema()


def test_dense_top_k(unit_store: PgUnitStore, tenant: str, loaded: list[KnowledgeUnit]) -> None:
    hits = unit_store.dense_search(tenant, vec(1), k=2)
    assert hits[0].id == loaded[1].id and hits[0].score == pytest.approx(1.0, abs=1e-5)
    assert len(hits) == 2
    with pytest.raises(ValueError):
        unit_store.dense_search(tenant, np.zeros(3), k=2)


def test_fulltext_top_k_any_term(unit_store: PgUnitStore, tenant: str, loaded: list[KnowledgeUnit]) -> None:
    hits = unit_store.fulltext_search(tenant, "Where was Marie Curie born?", k=5)
    assert hits[0].id == loaded[0].id
    both = {h.id for h in unit_store.fulltext_search(tenant, "Warsaw", k=5)}
    assert both == {loaded[0].id, loaded[1].id}
    assert unit_store.fulltext_search(tenant, "the of and", k=5) == []  # stop words only
    assert unit_store.fulltext_search(tenant, "'); DROP TABLE kmrag_units; --", k=5) == []


def test_fetch_by_ids_keeps_order_and_metadata(unit_store: PgUnitStore, tenant: str,
                                               loaded: list[KnowledgeUnit]) -> None:
    got = unit_store.get_units(tenant, [loaded[2].id, "u_0000000000000000", loaded[0].id])
    assert [u.id for u in got] == [loaded[2].id, loaded[0].id]
    assert got[1].metadata == {"char_span": [0, len(loaded[0].content)]} and got[1].section_path == ["A"]


def test_upsert_is_idempotent(unit_store: PgUnitStore, tenant: str, loaded: list[KnowledgeUnit]) -> None:
    unit_store.write_units(loaded, [vec(0), vec(1), vec(2)])
    assert unit_store.counts(tenant)["units"] == 3


def test_retire_hides_from_search_but_keeps_for_audit(unit_store: PgUnitStore, tenant: str,
                                                      loaded: list[KnowledgeUnit]) -> None:
    assert unit_store.retire(tenant, [loaded[1].id]) == 1
    assert unit_store.retire(tenant, [loaded[1].id]) == 0
    assert loaded[1].id not in {h.id for h in unit_store.dense_search(tenant, vec(1), k=3)}
    assert loaded[1].id not in {h.id for h in unit_store.fulltext_search(tenant, "Warsaw", k=3)}
    (kept,) = unit_store.get_units(tenant, [loaded[1].id])
    assert kept.retired
    assert unit_store.get_units(tenant, [loaded[1].id], include_retired=False) == []
    assert unit_store.unit_ids(tenant) == {loaded[0].id, loaded[2].id}
    # the same content coming back revives the unit
    unit_store.write_units([loaded[1]], [vec(1)])
    assert unit_store.unit_ids(tenant) == {u.id for u in loaded}


def test_delete_by_source(unit_store: PgUnitStore, tenant: str, loaded: list[KnowledgeUnit]) -> None:
    other = units(tenant, ["Another source."], sid="b.md")
    unit_store.write_units(other, [vec(3)])
    assert unit_store.delete_source(tenant, "a.md") == 3
    assert unit_store.unit_ids(tenant, include_retired=True) == {other[0].id}
    assert unit_store.get_source(tenant, "a.md") is None


def test_tenant_scoping(unit_store: PgUnitStore, tenant: str, loaded: list[KnowledgeUnit]) -> None:
    other = tenant + "_x"
    assert unit_store.dense_search(other, vec(0), k=5) == []
    assert unit_store.fulltext_search(other, "Warsaw", k=5) == []
    assert unit_store.get_units(other, [u.id for u in loaded]) == []
    assert unit_store.retire(other, [u.id for u in loaded]) == 0
    assert unit_store.delete_source(other, "a.md") == 0
    assert unit_store.counts(tenant)["units"] == 3


def test_dense_search_under_tenant_filter_returns_k(unit_store: PgUnitStore, tenant: str) -> None:
    """HNSW with a selective tenant filter still yields k rows (iterative scan)."""
    noise_tenant = tenant + "_noise"
    rng = np.random.default_rng(7)
    try:
        noise = units(noise_tenant, [f"noise {i}" for i in range(300)])
        unit_store.write_units(noise, [rng.normal(size=384) for _ in noise])
        mine = units(tenant, [f"mine {i}" for i in range(12)])
        unit_store.write_units(mine, [rng.normal(size=384) for _ in mine])
        assert len(unit_store.dense_search(tenant, rng.normal(size=384), k=10)) == 10
    finally:
        unit_store.clear_tenant(noise_tenant)


def test_server_versions(unit_store: PgUnitStore) -> None:
    info = unit_store.server_info()
    assert info["version"].split(".")[0].isdigit() and info["pgvector"] != "not installed"


def test_bm25_prefers_rare_terms_and_shorter_documents(unit_store: PgUnitStore, tenant: str) -> None:
    filler = "The river flows through the valley near the old town. " * 6
    us = units(tenant, [
        "Zanzibar is an island. The island is warm.",             # rare term
        "The island is warm. The island is large.",               # common term only
        "Zanzibar is an island. " + filler,                       # rare term, long document
        *[f"The island number {i} is quiet." for i in range(8)],  # make 'island' common
    ])
    unit_store.write_units(us, [vec(i % 384) for i in range(len(us))])
    hits = [h.id for h in unit_store.fulltext_search(tenant, "Which island is Zanzibar?", k=3)]
    assert hits[0] == us[0].id and hits[1] == us[2].id  # rare term first, then the longer one with it
    scores = unit_store.fulltext_search(tenant, "Zanzibar", k=5)
    assert [h.id for h in scores] == [us[0].id, us[2].id] and scores[0].score > scores[1].score > 0
